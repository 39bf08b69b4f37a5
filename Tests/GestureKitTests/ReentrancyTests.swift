import Testing
@testable import GestureKit
import GestureTestSupport

/// Actions that fail at their own work or re-enter the engine. Swift actions cannot throw:
/// an action whose work fails handles that itself (a trap in an action ends the process and
/// is out of scope); whatever it does to the engine in response goes through the rules below,
/// and leaves the engine consistent.
@Suite("Faults: actions that re-enter the engine")
struct ReentrancyTests {
    struct WorkFailed: Error {}
    static func failingWork() throws { throw WorkFailed() }

    @Test("an action whose work fails and that removes its recognizer in response")
    func failingActionRemovesItself() {
        let h = Harness()
        let single = h.add(TapGestureRecognizer(name: "single"))
        let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        single.require(toFail: double)
        var failures = 0
        double.addTarget { r in
            do { try Self.failingWork() } catch {
                failures += 1
                r.view?.removeGestureRecognizer(r)
            }
        }
        h.tap(at: 0)
        h.tap(at: 0.2)
        #expect(failures == 1)
        #expect(double.view == nil && double.state == .possible)
        #expect(h.lines("double") == ["0.250 double: possible→ended"], "removed after it recognized: no further transition")
        // The single tap no longer waits for a recognizer that is gone.
        h.tap(at: 1)
        h.finish()
        #expect(h.lines("single").last == "1.050 single: possible→ended")
        #expect(single.state == .possible && h.engine.nextDeadline == nil)
    }

    @Test("an action that disables its own continuous recognizer at began: cancelled at once, once")
    func disablesItself() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        var states: [GestureRecognizer.State] = []
        pan.addTarget { r in
            states.append(r.state)
            if r.state == .began && states.count == 1 { r.isEnabled = false }
        }
        h.down(0, 500, 500, at: 0)
        h.move(0, 530, 500, at: 0.1)
        h.move(0, 560, 500, at: 0.2)
        h.up(0, 560, 500, at: 0.3)
        h.finish()
        #expect(h.lines("pan") == ["0.100 pan: possible→began", "0.100 pan: began→cancelled"])
        #expect(states == [.began, .cancelled])
        pan.isEnabled = true
        h.down(1, 500, 500, at: 1)
        h.move(1, 540, 500, at: 1.1)
        h.up(1, 540, 500, at: 1.2)
        #expect(h.lines("pan").suffix(2) == ["1.100 pan: possible→began", "1.200 pan: began→ended"], "enabled again, it works")
    }

    @Test("an action that removes another recognizer mid-gesture: it fails (or is cancelled) and is gone")
    func removesAnother() {
        let h = Harness()
        let press = h.add(LongPressGestureRecognizer(touches: 2, name: "press"))
        let pinch = h.add(PinchGestureRecognizer(name: "pinch"))
        press.cancelsTouchesInView = false
        pinch.recognizeSimultaneously(with: press)
        pinch.addTarget { r in if r.state == .began { r.view?.removeGestureRecognizer(press) } }
        h.frame(0, [(0, .began, 450, 500)])
        h.frame(0.05, [(1, .began, 550, 500)])
        for k in 1...4 { h.frame(0.05 + 0.05 * Double(k), [(0, .moved, 450 - 10 * Double(k), 500), (1, .moved, 550 + 10 * Double(k), 500)]) }
        h.finish()
        #expect(h.lines("press") == ["0.100 press: possible→failed"])
        #expect(h.reasons["press"] == ["removed from its view"])
        #expect(press.view == nil && press.state == .possible)
        #expect(pinch.state == .possible && h.engine.nextDeadline == nil)
    }

    @Test("an action that adds a recognizer: it sees the touches that begin after it was added")
    func addsARecognizer() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        var added: TapGestureRecognizer?
        tap.addTarget { r in
            guard added == nil else { return }
            let t = TapGestureRecognizer(name: "added")
            r.view?.addGestureRecognizer(t)
            t.recognizeSimultaneously(with: r)
            added = t
        }
        h.tap(at: 0)
        #expect(h.lines("added").isEmpty, "the touch that was down when it was added is not its")
        h.tap(at: 1)
        h.finish()
        #expect(h.lines("added") == ["1.050 added: possible→ended"])
        #expect(added?.state == .possible && tap.state == .possible)
    }

    @Test("an action that sends frames, advances time and finishes: each is queued and runs right after the step")
    func sendsAdvancesFinishes() {
        let h = Harness()
        let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        let press = h.add(LongPressGestureRecognizer(name: "press"))
        var once = false
        double.addTarget { r in
            guard !once else { return }
            once = true
            let engine = r.view!.engine!
            #expect(engine.now == Instant(seconds: 0.25))
            // A finger of the action's own lands, time moves on a second, input ends.
            engine.send(TouchFrame(time: Instant(seconds: 0.3), changes: [TouchChange(sourceID: 9, phase: .began, location: Point(x: 100, y: 100))]))
            engine.advance(to: Instant(seconds: 1.3))
            engine.finish()
            #expect(engine.now == Instant(seconds: 0.25), "nothing ran inside the action's step")
        }
        h.tap(at: 0)
        h.tap(at: 0.2)
        #expect(h.lines("double") == ["0.250 double: possible→ended", "0.800 double: possible→failed"],
                "the action's finger starts a new double tap, which the press excludes")
        #expect(h.lines("press").suffix(2) == ["0.800 press: possible→began", "1.300 press: began→cancelled"],
                "the action's finger was held until the advance, then cancelled by finish()")
        #expect(h.engine.now == Instant(seconds: 1.3))
        #expect(double.state == .possible && press.state == .possible && h.engine.nextDeadline == nil)
    }

    @Test("an action that reports a device removed: queued; the touches are cancelled after the step")
    func removesADevice() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.addTarget { r in
            if r.state == .began { r.view!.engine!.deviceRemoved(InputDeviceID(0), at: Instant(seconds: 0.1)) }
        }
        h.down(0, 500, 500, at: 0)
        h.move(0, 530, 500, at: 0.1)
        #expect(h.lines("pan") == ["0.100 pan: possible→began", "0.100 pan: began→cancelled"])
        h.up(0, 530, 500, at: 0.2)
        h.finish()
        #expect(pan.state == .possible && h.engine.nextDeadline == nil)
    }

    /// A recognizer of the app's own that begins at its deadline (0.3 s after its touch) or
    /// at its touch, and first runs `during` (app code that may withdraw it).
    final class BeginsAfter: GestureRecognizer {
        var during: (BeginsAfter) -> Void = { _ in }
        var atTouch = false
        private var start: Instant?
        override var kind: Kind { .continuous }
        override func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
            start = time
            guard atTouch else { return .none }
            during(self)
            return .begin(.custom("at its touch"))
        }
        override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
            state == .possible ? .fail(.touchesEnded) : .end(.touchesEnded)
        }
        override var deadline: Instant? { start.map { $0 + .milliseconds(300) } }
        override func deadlineReached(at time: Instant) -> GestureDecision {
            start = nil
            during(self)
            return .begin(.custom("at its deadline"))
        }
        override func reset() { start = nil }
    }

    @Test("a recognizer disabled by app code it runs (its deadline's, its touch's) does not begin with the decision that call returns: it failed when disabled; enabled again there, it waits for its next touch", arguments: [false, true])
    func disabledDuringItsOwnCall(atTouch: Bool) {
        let h = Harness()
        let r = h.add(BeginsAfter(name: "r"))
        r.atTouch = atTouch
        r.during = { r in
            r.isEnabled = false
            r.isEnabled = true
        }
        h.down(0, 500, 500, at: 0)
        h.advance(to: 0.4)
        h.up(0, 500, 500, at: 0.5)
        h.finish()
        #expect(!h.lines("r").contains { $0.contains("began") }, "disabled before its decision, it never begins: \(h.lines("r"))")
        #expect(r.state == .possible && h.engine.nextDeadline == nil)
        r.during = { _ in }
        h.down(1, 500, 500, at: 1)
        h.advance(to: 1.4)
        h.up(1, 500, 500, at: 1.5)
        #expect(h.lines("r").suffix(2) == [atTouch ? "1.000 r: possible→began" : "1.300 r: possible→began", "1.500 r: began→ended"],
                "its next touch begins it as before: \(h.lines("r"))")
    }

    @Test("a recognizer removed from its view by app code its deadline runs, with another added there (which may take its slot), leaves the decision unapplied: the new one stays possible")
    func removedDuringItsOwnDeadline() {
        let h = Harness()
        let r = h.add(BeginsAfter(name: "r"))
        let added = PanGestureRecognizer(name: "added")
        r.during = { r in
            let view = r.view
            view?.removeGestureRecognizer(r)
            view?.addGestureRecognizer(added)
        }
        h.down(0, 500, 500, at: 0)
        h.advance(to: 0.4)
        h.up(0, 500, 500, at: 0.5)
        h.finish()
        #expect(h.lines("r") == ["0.300 r: possible→failed"] || h.lines("r").isEmpty, "\(h.lines("r"))")
        #expect(h.lines("added").isEmpty && added.state == .possible, "the new recognizer is not begun by the old one's decision: \(h.lines("added"))")
    }
}
