import Testing
import GestureKit
import GestureTestSupport

/// `PanGestureRecognizer.allowedDirections`: the directions a pan may begin in (Hammer.js's
/// `direction`, Flutter's Horizontal/VerticalDragGestureRecognizer).
@Suite("Pan directions")
struct PanDirectionTests {
    @Test("a horizontal pan moved 14 pt down fails, and says so")
    func verticalMoveFailsHorizontalPan() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "carousel"))
        pan.allowedDirections = .horizontal
        h.down(0, 500, 500, at: 0)
        h.move(0, 502, 507, at: 0.02)
        #expect(h.lines("carousel").isEmpty, "9 pt of movement is inside the threshold: nothing decided yet")
        h.move(0, 503, 514, at: 0.04)
        #expect(h.lines("carousel") == ["0.040 carousel: possible→failed"])
        #expect(h.reasons["carousel"] == ["moved 14 pt vertically; allowed horizontal"])
        h.move(0, 600, 514, at: 0.06)
        #expect(h.lines("carousel") == ["0.040 carousel: possible→failed"],
                "moving sideways after failing does not begin it: it waits for the finger to lift")
        h.up(0, 600, 514, at: 0.08)
        #expect(pan.state == .possible, "reset once the finger lifted")
    }

    @Test("a horizontal pan moved sideways begins, and then follows the finger in every direction")
    func horizontalMoveBeginsAndFollowsEverywhere() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "carousel"))
        pan.allowedDirections = .horizontal
        var translations: [Point] = []
        pan.addTarget { translations.append($0.translation) }
        h.down(0, 500, 500, at: 0)
        h.move(0, 512, 504, at: 0.02)
        #expect(pan.state == .began, "12 pt right, 4 pt down: mainly horizontal, so it begins")
        h.move(0, 512, 560, at: 0.04)
        #expect(pan.state == .changed)
        #expect(translations.last == Point(x: 12, y: 60), "once begun it follows the finger down too (12 right and 60 down from where it came down)")
        h.up(0, 512, 560, at: 0.06)
        #expect(pan.state == .possible && h.lines("carousel").last == "0.060 carousel: changed→ended")
    }

    @Test("a vertical pan fails on a sideways drag; a diagonal is both directions")
    func verticalAndDiagonal() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "list"))
        pan.allowedDirections = .vertical
        h.down(0, 500, 500, at: 0)
        h.move(0, 520, 505, at: 0.02)
        #expect(h.reasons["list"] == ["moved 20 pt horizontally; allowed vertical"])
        h.up(0, 520, 505, at: 0.04)
        h.down(0, 500, 500, at: 1)
        h.move(0, 510, 510, at: 1.02)
        #expect(pan.state == .began, "a perfect diagonal is vertical as much as horizontal: it begins")
        h.up(0, 510, 510, at: 1.04)
    }

    @Test("a horizontal carousel inside a vertical list: each drag goes to the pan of its direction")
    func nestedScrollViews() {
        let h = Harness()
        let carouselView = View(id: "carousel", frame: Rect(x: 0, y: 300, width: 1000, height: 200))
        h.root.addSubview(carouselView)
        let list = h.add(PanGestureRecognizer(name: "list"))
        list.allowedDirections = .vertical
        let carousel = h.add(PanGestureRecognizer(name: "strip"), to: carouselView)
        carousel.allowedDirections = .horizontal
        // A drag up on the carousel scrolls the list.
        h.down(0, 500, 400, at: 0)
        h.move(0, 503, 385, at: 0.02)
        #expect(list.state == .began, "the list takes a vertical drag that starts on the carousel")
        #expect(h.reasons["strip"] == ["moved 15 pt vertically; allowed horizontal"])
        h.up(0, 503, 385, at: 0.04)
        // A drag sideways on the carousel scrolls the carousel; the list fails.
        h.down(0, 500, 400, at: 1)
        h.move(0, 485, 402, at: 1.02)
        #expect(carousel.state == .began, "the carousel takes a sideways drag")
        #expect(list.state == .failed, "and the list does not move")
        #expect(h.reasons["list"]?.last == "strip recognized and they are not simultaneous",
                "the carousel, deeper, decided first; the list would have failed on its direction anyway")
        h.move(0, 470, 450, at: 1.04)
        #expect(carousel.state == .changed && list.state == .failed,
                "the carousel keeps the drag when it turns downwards; the list stays out of it")
        h.up(0, 470, 450, at: 1.06)
        #expect(h.lines("strip").last == "1.060 strip: changed→ended")
    }

    @Test("a horizontal pan driven by scrolls fails on a vertical wheel, and takes a sideways one")
    func scrollSequences() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "carousel"))
        pan.allowedDirections = .horizontal
        pan.allowedScrollTypes = .all
        h.scroll(0, 15, .discrete, at: 0)
        #expect(h.reasons["carousel"] == ["moved 15 pt vertically; allowed horizontal"])
        h.finish()
        h.scroll(-15, 0, .discrete, at: 2)
        #expect(pan.state == .began, "a sideways wheel scrolls the carousel")
    }

    @Test("the default allows every direction, as UIKit's pan does")
    func defaultIsAll() {
        #expect(PanGestureRecognizer().allowedDirections == .all)
        #expect(PanDirections.main(of: Point(x: 3, y: -4)) == .vertical)
        #expect(PanDirections.main(of: Point(x: -5, y: 4)) == .horizontal)
        #expect("\(PanDirections.horizontal) \(PanDirections.vertical) \(PanDirections.all)" == "horizontal vertical all")
    }
}
