import GestureKit
import GestureLayout
import Testing
import GestureTestSupport

/// A horizontal carousel inside a vertical page, as UIKit nests scroll views: each scroll
/// view's pan begins only in a direction its content can scroll in, so the direction a drag
/// begins in picks the one that moves, once per drag.
@Suite("Nested scroll views: a carousel in a vertical page")
struct NestedScrollViewTests {
    /// The page: 400×800 over content 400×10 000; the carousel: a 400×200 strip of it at
    /// y 100…300 (content coordinates) over content 3000×200 (wider than it, not taller).
    static func make() -> (page: ScrollView, carousel: ScrollView, script: Harness) {
        let page = ScrollView(id: "page", frame: Rect(x: 0, y: 0, width: 400, height: 800))
        page.contentSize = Size(width: 400, height: 10_000)
        let carousel = ScrollView(id: "carousel", frame: Rect(x: 0, y: 100, width: 400, height: 200))
        carousel.contentSize = Size(width: 3000, height: 200)
        page.addSubview(carousel)
        page.contentOffset = Point(x: 0, y: 0)
        carousel.contentOffset = Point(x: 1000, y: 0)
        let script = Harness(root: page)
        return (page, carousel, script)
    }

    /// A drag at the carousel (screen (200, 200)): `first` points in 10 steps, then `then`
    /// points in 10 more, 10 ms a step, and the finger stops (no fling) before lifting. The
    /// first step passes the pan's 10 pt threshold: the content follows the finger from
    /// there (the pan's translation is zero at began), so it moves the drag less its first
    /// step.
    static func drag(_ script: Harness, first: Point, then: Point = .zero) {
        var p = Point(x: 200, y: 200)
        script.down(0, p.x, p.y, at: 0)
        var t = 0.0
        for leg in [first, then] where leg != .zero {
            for _ in 1...10 {
                t += 0.01
                p = p + leg / 10
                script.move(0, p.x, p.y, at: t)
            }
        }
        script.up(0, p.x, p.y, at: t + 0.2)
        script.finish()
    }

    @Test("a sideways drag on the carousel moves the carousel, not the page")
    func sidewaysMovesCarousel() {
        let (page, carousel, script) = Self.make()
        Self.drag(script, first: Point(x: -150, y: 0))
        #expect(carousel.contentOffset.x == 1000 + 150 - 15, "the carousel follows the finger 150 pt less the first 15 pt step: \(carousel.contentOffset.x)")
        #expect(page.contentOffset == .zero, "the page stays: \(page.contentOffset)")
    }

    @Test("a vertical drag on the carousel moves the page, not the carousel")
    func verticalMovesPage() {
        let (page, carousel, script) = Self.make()
        page.contentOffset = Point(x: 0, y: 0)
        Self.drag(script, first: Point(x: 0, y: -150))
        #expect(page.contentOffset.y == 150 - 15, "the page follows the finger 150 pt less the first 15 pt step: \(page.contentOffset.y)")
        #expect(carousel.contentOffset == Point(x: 1000, y: 0), "the carousel stays: \(carousel.contentOffset)")
    }

    @Test("decided once per drag: a drag that begins sideways and turns vertical moves only the carousel")
    func sidewaysThenVertical() {
        let (page, carousel, script) = Self.make()
        Self.drag(script, first: Point(x: -100, y: 0), then: Point(x: 0, y: -200))
        #expect(carousel.contentOffset.x == 1000 + 100 - 10 && carousel.contentOffset.y == 0,
                "the carousel moved sideways only: \(carousel.contentOffset)")
        #expect(page.contentOffset == .zero, "the page never moved: \(page.contentOffset)")
    }

    @Test("decided once per drag: a drag that begins vertically and turns sideways moves only the page")
    func verticalThenSideways() {
        let (page, carousel, script) = Self.make()
        Self.drag(script, first: Point(x: 0, y: -100), then: Point(x: -200, y: 0))
        #expect(page.contentOffset.y == 100 - 10 && page.contentOffset.x == 0, "the page moved vertically only: \(page.contentOffset)")
        #expect(carousel.contentOffset == Point(x: 1000, y: 0), "the carousel never moved: \(carousel.contentOffset)")
    }

    @Test("a sideways fling on the carousel decelerates the carousel; the page stays")
    func sidewaysFling() {
        let (page, carousel, script) = Self.make()
        script.fling(from: 200, 200, velocity: Point(x: -1500, y: 0), duration: 0.1)
        #expect(carousel.isDecelerating && !page.isDecelerating)
        script.finish()
        #expect(carousel.contentOffset.x > 1150 + 300, "the carousel moved on after the lift: \(carousel.contentOffset.x)")
        #expect(page.contentOffset == .zero)
    }

    @Test("a touchpad's sideways scroll over the carousel moves it, a vertical one and a wheel move the page")
    func pointerScrolls() {
        let (page, carousel, script) = Self.make()
        script.engine.send(.motion(to: Point(x: 200, y: 200), at: .zero))
        script.touchpadScroll(at: 200, 200, velocity: Point(x: -1000, y: 0), from: 0.1, duration: 0.1, rest: 0.2)
        #expect(carousel.contentOffset.x == 1100 && page.contentOffset == .zero,
                "sideways: the carousel moves 100 pt (\(carousel.contentOffset.x)), the page stays (\(page.contentOffset))")
        script.touchpadScroll(at: 200, 200, velocity: Point(x: 0, y: -1000), from: 1, duration: 0.1, rest: 0.2)
        #expect(page.contentOffset.y == 100 && carousel.contentOffset.x == 1100,
                "vertical: the page moves 100 pt (\(page.contentOffset.y)), the carousel stays (\(carousel.contentOffset.x))")
        script.wheel(at: 200, 200, detents: -2, from: 2)
        script.finish()
        #expect(page.contentOffset.y == 130 && carousel.contentOffset.x == 1100,
                "a wheel: the page moves 30 pt (\(page.contentOffset.y)), the carousel stays")
    }

    @Test("a sideways drag on the carousel while the page decelerates stops the page and moves the carousel; a vertical one drags the page")
    func caughtPage() {
        for sideways in [true, false] {
            let (page, carousel, script) = Self.make()
            carousel.frame = Rect(x: 0, y: 1100, width: 400, height: 200)
            page.contentOffset = Point(x: 0, y: 1000)
            script.advance(to: 0.1)
            page.startDecelerating(velocity: Point(x: 0, y: 100))
            script.advance(to: 0.2)
            #expect(page.isDecelerating)
            let y = carousel.frame.minY - page.contentOffset.y + 100
            script.down(0, 200, y, at: 0.3)
            #expect(!page.isDecelerating, "the touch stops the page")
            let caught = page.contentOffset
            for k in 1...10 {
                script.move(0, sideways ? 200 - 15 * Double(k) : 200, sideways ? y : y - 15 * Double(k), at: 0.3 + Double(k) * 0.01)
            }
            script.up(0, sideways ? 50 : 200, sideways ? y : y - 150, at: 0.6)
            script.finish()
            if sideways {
                #expect(carousel.contentOffset.x == 1000 + 150 - 15, "the carousel moves: \(carousel.contentOffset.x)")
                #expect(page.contentOffset == caught, "the page stays where the touch caught it: \(page.contentOffset), caught at \(caught)")
            } else {
                #expect(page.contentOffset.y == caught.y + 150 - 15, "the page follows the finger: \(page.contentOffset.y) from \(caught.y)")
                #expect(carousel.contentOffset.x == 1000, "the carousel stays")
            }
        }
    }
}
