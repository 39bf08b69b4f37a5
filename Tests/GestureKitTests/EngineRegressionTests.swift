import Testing
import GestureKit
import GestureTestSupport

/// Engine bugs the invariant tests (Properties/) found, as the smallest scripts that show them.
@Suite("Engine regressions found by the invariant tests")
struct EngineRegressionTests {
    /// A touch landing in the frame where a recognizer begins is tracked by every recognizer
    /// that sees it before any of them decides: the tap that takes the new touch is excluded
    /// by the rotation that began, and does not recognize when they lift together.
    /// (Before: recognizers were fed one by one, the tap joined the touch after the rotation
    /// began, escaped exclusivity, and recognized on a touch of the rotation.)
    @Test("a touch that lands as a rotation begins is excluded from the other recognizers")
    func newTouchInTheBeginningFrame() {
        let h = Harness()
        let rotation = h.add(RotationGestureRecognizer(name: "rotate"))
        let tap = h.add(TapGestureRecognizer(touches: 3, name: "tap"))
        h.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500)])   // two of the tap's three touches
        h.frame(0.1, [(2, .began, 500, 520), (0, .moved, 420, 380)])  // a third lands as the pair turns
        h.frame(0.15, [(0, .ended, 420, 380), (1, .ended, 600, 500), (2, .ended, 500, 520)])
        h.finish()
        #expect(h.lines("rotate") == ["0.100 rotate: possible→began", "0.150 rotate: began→ended"])
        #expect(h.lines("tap") == ["0.100 tap: possible→failed"])
        #expect(h.reasons["tap"]?.last == "rotate recognized and they are not simultaneous")
        #expect(rotation.state == .possible && tap.state == .possible)
    }

    /// A success excludes every recognizer it should before a recognizer waiting on one of
    /// them is released. (Before: the tap's success failed the rotation, which released the
    /// long press waiting for it; the long press began, fired its action, and was cancelled
    /// by the same tap a moment later.)
    @Test("a recognizer released by an excluded one does not begin when it is excluded too")
    func exclusionBeforeRelease() {
        let h = Harness()
        // The tap is on a button under the third touch only.
        let button = View(id: "button", frame: Rect(x: 450, y: 350, width: 100, height: 100))
        h.root.addSubview(button)
        h.add(TapGestureRecognizer(name: "tap"), to: button)
        let rotation = h.add(RotationGestureRecognizer(name: "rotate"))
        let press = h.add(LongPressGestureRecognizer(touches: 3, name: "press"))
        press.require(toFail: rotation)
        var actions: [GestureRecognizer.State] = []
        press.addTarget { actions.append($0.state) }
        h.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500)])   // beside the button
        h.down(2, 500, 400, at: 0.1)
        h.advance(to: 0.5)                                            // the press waits for the rotation
        h.up(2, 500, 400, at: 0.55)                                   // a tap on the third touch
        h.finish()
        #expect(h.lines("tap").last == "0.550 tap: possible→ended")
        #expect(h.lines("press") == ["0.550 press: possible→failed"], "never began")
        #expect(actions.isEmpty, "its action never ran")
    }
}
