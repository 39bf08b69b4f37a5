import GestureKit
import GestureLayout
import GestureTesting
import Testing

@Suite("Aiming at views, and the account of what recognized")
struct AimAndExplainTests {
    @Test("A tap aimed at a view that another view covers fails, naming the view on top")
    func coveredView() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let button = View(id: "okButton", frame: Rect(x: 100, y: 100, width: 100, height: 50))
        let banner = View(id: "banner", frame: Rect(x: 0, y: 90, width: 400, height: 80))
        root.addSubview(button)
        root.addSubview(banner)
        let tester = GestureTester(root: root)
        let error = #expect(throws: GestureTestError.self) { try tester.tap(on: button) }
        #expect(error.map { "\($0)" }?.contains("view banner would get it") == true, "the failure should name the banner on top: \(error.map { "\($0)" } ?? "")")
        #expect(!tester.hasSentInput, "no touch was made")
    }

    @Test("A view that is hidden, or scrolled off screen, cannot be tapped, and the failure says so")
    func hiddenAndOffScreen() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let scroll = ScrollView(id: "list", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        scroll.contentSize = Size(width: 400, height: 2000)
        let row = View(id: "row30", frame: Rect(x: 0, y: 1500, width: 400, height: 50))
        let hidden = View(id: "spinner", frame: Rect(x: 10, y: 10, width: 20, height: 20))
        hidden.isHidden = true
        scroll.addSubview(row)
        root.addSubview(scroll)
        root.addSubview(hidden)
        let tester = GestureTester(root: root)
        #expect(throws: GestureTestError.self) { try tester.tap(on: row) }
        do { try tester.tap(on: hidden) } catch {
            #expect("\(error)".contains("it is hidden"), "\(error)")
        }
        scroll.contentOffset = Point(x: 0, y: 1400)
        let aimed = try tester.aim(at: row)
        #expect(aimed == Point(x: 200, y: 125), "scrolled into view, the row's centre is at (200, 125) on the screen")
        try tester.tap(on: row)
    }

    @Test("A failed recognition explains itself: the account names the reason, in points")
    func accountOfAFailedTap() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let tap = TapGestureRecognizer(name: "tap")
        root.addGestureRecognizer(tap)
        let tester = GestureTester(root: root)
        try tester.drag(on: root, by: Point(x: 40, y: 0))
        let account = tester.account(of: tap)
        // 40 pt over 300 ms at 120 samples a second: the tenth sample, at 0.083 s, is 11.1 pt away.
        #expect(account == "tap: possible → failed at 0.083333 s: moved 11.111 pt > allowable 10 pt",
                "the tap fails at the first sample past its 10 pt, saying how far it moved")
        let text = tester.failure(of: .recognized(tap)).map { "\($0)" } ?? ""
        #expect(text.contains("expected tap to recognize; it did not") && text.contains(account),
                "the failure carries the account: \(text)")
    }

    @Test("Deliveries to views are values: began, moved, ended with the touch's id")
    func deliveries() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let tester = GestureTester(root: root)
        let touch = tester.touchDown(at: Point(x: 50, y: 50))
        touch.move(to: Point(x: 60, y: 50))
        touch.lift()
        let phases = tester.deliveries(to: root).map(\.phase)
        #expect(phases == [.began, .moved, .ended])
        #expect(Set(tester.deliveries(to: root).flatMap { $0.touches.map(\.sourceID) }) == [touch.sourceID])
    }
}

@Suite("settle(): running the clock until nothing is pending")
struct SettleTests {
    @Test("settle() ends a fling at rest: the scroll view has stopped decelerating and nothing is pending")
    func flingComesToRest() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 600))
        let scroll = ScrollView(id: "list", frame: root.frame)
        scroll.contentSize = Size(width: 400, height: 20_000)
        root.addSubview(scroll)
        let tester = GestureTester(root: root)
        try tester.fling(on: scroll, by: Point(x: 0, y: -200), velocity: 2000)
        #expect(scroll.isDecelerating, "released at 2,000 pt/s the list keeps moving")
        let released = scroll.contentOffset.y
        try tester.settle()
        #expect(!scroll.isDecelerating && tester.pending.isEmpty)
        #expect(scroll.contentOffset.y > released + 500, "it travelled on after the finger lifted: \(released) → \(scroll.contentOffset.y)")
    }

    @Test("settle() gives up past its limit and names what is still pending")
    func neverSettles() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let tester = GestureTester(root: root)
        let spinner = tester.engine.addDisplayLink { _ in }
        spinner.isPaused = false
        let error = #expect(throws: GestureTestError.self) { try tester.settle(limit: .seconds(2)) }
        #expect(error.map { "\($0)" }?.contains("a display link at 60 frames a second") == true, "\(error.map { "\($0)" } ?? "")")
        #expect(tester.now <= Instant(seconds: 2))
    }
}
