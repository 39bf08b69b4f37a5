import Testing
import GestureKit
import GestureTestSupport

/// A continuous recognizer written the UIKit way: begins at the first move, changes at each,
/// ends at the lift. `attempt` lets a test set states the state machine does not allow.
final class DragByState: GestureRecognizer {
    var attempt: ((DragByState) -> Void)?
    override var kind: Kind { .continuous }
    override func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision {
        if let attempt { attempt(self); return .none }
        state = state == .possible ? .began : .changed
        return .none
    }
    override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        if state == .began || state == .changed { state = .ended } else if state == .possible { state = .failed }
        return .none
    }
}

/// A one-touch tap written the UIKit way, with the relationship overrides settable.
final class TapByState: GestureRecognizer {
    var requiresFailureOf: GestureRecognizer?
    var requiredToFailBy: GestureRecognizer?
    var preventable = true
    var preventing = true
    override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        state = .ended
        return .none
    }
    override func shouldRequireFailure(of other: GestureRecognizer) -> Bool { other === requiresFailureOf }
    override func shouldBeRequiredToFail(by other: GestureRecognizer) -> Bool { other === requiredToFailBy }
    override func canBePrevented(by other: GestureRecognizer) -> Bool { preventable }
    override func canPrevent(_ other: GestureRecognizer) -> Bool { preventing }
}

@Suite("The API a UIKit developer reaches for")
struct UIKitSubclassTests {
    @Test("a two-finger scratch written the UIKit way recognizes by setting its state, once")
    func scratchRecognizes() {
        let h = Harness()
        var fired = 0
        let scratch = h.add(ScratchGestureRecognizer(name: "scratch"))
        scratch.addTarget { _ in fired += 1 }
        h.frame(0, [(0, .began, 400, 500), (1, .began, 440, 500)])
        var t = 0.0
        for stroke in 0..<4 {
            for step in 1...5 {
                t += 0.01
                let dx = Double(step) * 6 * (stroke % 2 == 0 ? 1 : -1) + (stroke % 2 == 0 ? 0 : 30)
                h.frame(t, [(0, .moved, 400 + dx, 500), (1, .moved, 440 + dx, 500)])
            }
        }
        // Strokes of 30 pt right, left, right, left, 10 ms a step: the third turn is the
        // first move of the fourth stroke, at 0.160 s.
        #expect(h.lines("scratch") == ["0.160 scratch: possible→ended"],
                "three turns after 30-point strokes: it recognizes at the third, got \(h.lines("scratch"))")
        #expect(h.reasons["scratch"] == ["the recognizer set its state to ended"])
        #expect(fired == 1)
        h.frame(t + 0.1, [(0, .ended, 400, 500), (1, .ended, 440, 500)])
        #expect(scratch.state == .possible, "reset when the fingers lift")
    }

    @Test("a scratch fails with a third finger, and when a finger lifts first")
    func scratchFails() {
        let h = Harness()
        let scratch = h.add(ScratchGestureRecognizer(name: "scratch"))
        h.frame(0, [(0, .began, 400, 500), (1, .began, 440, 500), (2, .began, 480, 500)])
        #expect(h.lines("scratch") == ["0.000 scratch: possible→failed"])
        h.frame(0.1, [(0, .ended, 400, 500), (1, .ended, 440, 500), (2, .ended, 480, 500)])
        h.frame(1, [(0, .began, 400, 500), (1, .began, 440, 500)])
        h.frame(1.1, [(0, .ended, 400, 500)])
        #expect(h.lines("scratch").last == "1.100 scratch: possible→failed")
        #expect(scratch.state == .failed, "failed until the other finger lifts too")
    }

    @Test("a continuous recognizer written the UIKit way: began, changed, ended by setting state, each with its action")
    func continuousByState() {
        let h = Harness()
        var seen: [GestureRecognizer.State] = []
        let drag = h.add(DragByState(name: "drag"))
        drag.addTarget { seen.append($0.state) }
        h.down(0, 500, 500, at: 0)
        h.move(0, 510, 500, at: 0.01)
        h.move(0, 520, 500, at: 0.02)
        h.up(0, 520, 500, at: 0.03)
        #expect(h.lines("drag") == ["0.010 drag: possible→began", "0.020 drag: began→changed", "0.030 drag: changed→ended"])
        #expect(seen == [.began, .changed, .ended])
    }

    @Test("states the state machine does not have are refused and reported", arguments: [
        (GestureRecognizer.State.changed, "drag set its state to changed while possible: a continuous recognizer goes possible → began or failed, then changed, then ended or cancelled (refused)"),
        (.cancelled, "drag set its state to cancelled while possible: a continuous recognizer goes possible → began or failed, then changed, then ended or cancelled (refused)"),
        (.possible, "drag set its state to possible while possible: only the engine resets a recognizer (refused)"),
    ])
    func refusedTransitions(_ wanted: GestureRecognizer.State, _ report: String) {
        let h = Harness()
        let drag = h.add(DragByState(name: "drag"))
        drag.attempt = { $0.state = wanted }
        h.down(0, 500, 500, at: 0)
        h.move(0, 510, 500, at: 0.01)
        #expect(drag.state == .possible, "the engine keeps the state it had")
        #expect(h.lines("drag").isEmpty)
        #expect(h.ignored == [report])
        h.up(0, 510, 500, at: 0.02)
    }

    @Test("a recognizer that sets began becomes continuous without declaring it (UIKit's rule), and one in a final state waits for its sequence to end")
    func beganMakesContinuousAndFinalWaits() {
        let h = Harness()
        let tap = h.add(TapByState(name: "tap"))
        #expect(tap.kind == .discrete)
        h.down(0, 500, 500, at: 0)
        tap.state = .began
        tap.state = .changed
        #expect(h.lines("tap") == ["0.000 tap: possible→began", "0.000 tap: began→changed"],
                "set from outside a callback, each is weighed at once; got \(h.lines("tap"))")
        tap.state = .ended
        #expect(h.lines("tap").last == "0.000 tap: changed→ended")
        tap.state = .ended
        #expect(h.ignored.last == "tap set its state to ended while ended: it waits for its event sequence to end (refused)")
        h.up(0, 500, 500, at: 0.1)
        #expect(tap.state == .possible)
    }

    @Test("location(ofTouch:in:): a two-finger tap's action finds both fingers, in its view's coordinates")
    func locationOfTouch() {
        let h = Harness()
        let panel = View(id: "panel", frame: Rect(x: 100, y: 200, width: 800, height: 600))
        h.root.addSubview(panel)
        var seen: [Point] = []
        h.add(TapGestureRecognizer(touches: 2, name: "tap2") { tap in
            seen = (0..<tap.numberOfTouches).map { tap.location(ofTouch: $0, in: panel) }
        }, to: panel)
        h.frame(0, [(0, .began, 300, 500), (1, .began, 500, 600)])
        h.frame(0.05, [(0, .ended, 300, 500)])
        h.frame(0.08, [(1, .ended, 500, 600)])
        #expect(seen == [Point(x: 200, y: 300), Point(x: 400, y: 400)],
                "each finger where it lifted, in the panel's coordinates: \(seen)")
    }

    @Test("location(ofTouch:in:) in an action that runs after the touches' records are gone")
    func locationOfTouchAfterRecords() {
        let h = Harness()
        var seen: Point?
        let single = h.add(TapGestureRecognizer(name: "single") { seen = $0.location(ofTouch: 0, in: nil) })
        single.require(toFail: h.add(TapGestureRecognizer(taps: 2, name: "double")))
        h.tap(0, 321, 654, at: 0)
        h.finish()
        #expect(h.lines("single") == ["0.350 single: possible→ended"])
        #expect(seen == Point(x: 321, y: 654), "the single tap fires after the double tap's interval: \(String(describing: seen))")
    }

    @Test("ignore(_:for:): a recognizer that ignores a touch neither counts it nor hears of it nor excludes others with it")
    func ignoreTouch() {
        let h = Harness()
        final class LeftHand: GestureRecognizer {
            var moves = 0
            override func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
                for t in touches where t.location.x >= 500 { ignore(t, for: nil) }
                return .none
            }
            override func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision {
                moves += touches.count
                return .none
            }
            override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
                state = .ended
                return .none
            }
        }
        let left = h.add(LeftHand(name: "left"))
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        h.frame(0, [(0, .began, 200, 500), (1, .began, 700, 500)])
        #expect(left.numberOfTouches == 1, "the right-hand touch is not counted")
        h.frame(0.02, [(0, .moved, 202, 500), (1, .moved, 702, 500)])
        #expect(left.moves == 1, "it hears only the left-hand touch move")
        h.frame(0.05, [(0, .ended, 202, 500)])
        #expect(h.lines("left") == ["0.050 left: possible→ended"])
        #expect(left.state == .possible, "its sequence is over: the ignored touch does not hold it in ended")
        _ = tap
    }

    @Test("canBePrevented(by:) false: a recognizer survives another's recognition on its touch")
    func canBePrevented() {
        for preventable in [true, false] {
            let h = Harness()
            let watcher = h.add(TapByState(name: "watcher"))
            watcher.preventable = preventable
            h.add(PanGestureRecognizer(name: "pan"))
            h.down(0, 500, 500, at: 0)
            h.move(0, 540, 500, at: 0.05)
            h.up(0, 540, 500, at: 0.1)
            #expect(h.lines("pan").first == "0.050 pan: possible→began")
            if preventable {
                #expect(h.lines("watcher") == ["0.050 watcher: possible→failed"])
            } else {
                #expect(h.lines("watcher") == ["0.100 watcher: possible→ended"], "not preventable: it recognizes at the lift")
            }
        }
    }

    @Test("canPrevent(_:) false: a recognizer's success excludes no one")
    func canPrevent() {
        let h = Harness()
        let first = h.add(TapByState(name: "first"))
        first.preventing = false
        let second = h.add(TapByState(name: "second"))
        h.tap(0, 500, 500, at: 0)
        #expect(h.lines("first") == ["0.050 first: possible→ended"])
        #expect(h.lines("second") == ["0.050 second: possible→ended"], "the first may prevent no one: both recognize")
        _ = second
    }

    @Test("shouldRequireFailure(of:) and shouldBeRequiredToFail(by:) overrides behave as require(toFail:)")
    func requirementOverrides() {
        func run(_ how: Int) -> [String] {
            let h = Harness()
            let (left, right) = DelegateRequirementTests.sideBySide(h)
            let tap = h.add(TapByState(name: "tap"), to: left)
            let press = h.add(LongPressGestureRecognizer(name: "press"), to: right)
            switch how {
            case 0: tap.require(toFail: press)
            default: tap.requiresFailureOf = press
            }
            h.down(0, 800, 500, at: 0)
            h.tap(1, 200, 500, at: 0.1)
            h.advance(to: 0.6)
            h.up(0, 800, 500, at: 0.7)
            h.tap(1, 200, 500, at: 1)
            h.finish()
            return DelegateRequirementTests.log(h)
        }
        let reference = run(0)
        #expect(reference.contains("0.500 tap: possible→failed (press recognized first)"))
        #expect(run(1) == reference, "shouldRequireFailure(of:) as require(toFail:)")
        // The other direction: the required recognizer's override.
        func runRequired(_ viaOverride: Bool) -> [String] {
            let h = Harness()
            let single = h.add(TapGestureRecognizer(name: "single"))
            let double = h.add(TapByState(name: "double"))
            if viaOverride { double.requiredToFailBy = single } else { single.require(toFail: double) }
            h.tap(0, 500, 500, at: 0)
            h.finish()
            return DelegateRequirementTests.log(h)
        }
        #expect(runRequired(true) == runRequired(false), "shouldBeRequiredToFail(by:) as require(toFail:)")
        #expect(runRequired(true).contains { $0.contains("single: possible→failed (double recognized first)") })
    }

    @Test("View.isExclusiveTouch: while an exclusive view is touched, no other view or recognizer gets a touch, and the other way round")
    func exclusiveTouch() {
        let h = Harness()
        let (left, right) = DelegateRequirementTests.sideBySide(h)
        right.isExclusiveTouch = true
        h.add(TapGestureRecognizer(name: "leftTap"), to: left)
        h.add(TapGestureRecognizer(name: "rightTap"), to: right)
        h.down(0, 800, 500, at: 0)                      // the exclusive view is touched
        h.tap(1, 200, 500, at: 0.1)                     // a tap on the other view
        #expect(h.lines("leftTap").isEmpty && h.lines("left").isEmpty, "the other view and its tap hear nothing")
        #expect(h.ignored.first?.hasSuffix("it reaches no view and no recognizer") == true, "\(h.ignored)")
        h.up(0, 800, 500, at: 0.2)
        #expect(h.lines("rightTap") == ["0.200 rightTap: possible→ended"])
        h.clear()
        h.down(0, 200, 500, at: 1)                      // now the other view is touched first
        h.tap(1, 800, 500, at: 1.1)                     // the exclusive view gets nothing
        #expect(h.lines("rightTap").isEmpty && h.lines("right").isEmpty)
        h.up(0, 200, 500, at: 1.2)
    }

    @Test("View.isMultipleTouchEnabled false: the view hears its first touch only; its recognizers see both")
    func multipleTouch() {
        let h = Harness()
        h.root.isMultipleTouchEnabled = false
        h.add(TapGestureRecognizer(touches: 2, name: "tap2")).cancelsTouchesInView = false
        h.frame(0, [(0, .began, 400, 500)])
        h.frame(0.01, [(1, .began, 600, 500)])
        h.frame(0.05, [(0, .ended, 400, 500), (1, .ended, 600, 500)])
        #expect(h.lines("tap2") == ["0.050 tap2: possible→ended"], "the two-finger tap still sees both fingers")
        #expect(h.lines("root") == ["0.000 root: touchesBegan [1]", "0.050 root: touchesEnded [1]"],
                "the view hears only its first touch: \(h.lines("root"))")
    }

    @Test("a view's gestureRecognizerShouldBegin(_:) saying no fails its recognizer, before the delegate is asked")
    func viewShouldBegin() {
        final class Slider: View {
            override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
                !(gestureRecognizer is PanGestureRecognizer)
            }
        }
        let h = Harness()
        let slider = Slider(id: "slider", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        h.root.addSubview(slider)
        h.add(PanGestureRecognizer(name: "pan"), to: slider)
        h.add(TapGestureRecognizer(name: "tap"), to: slider)
        h.down(0, 500, 500, at: 0)
        h.move(0, 540, 500, at: 0.05)
        #expect(h.lines("pan") == ["0.050 pan: possible→failed"])
        #expect(h.reasons["pan"] == ["its view's gestureRecognizerShouldBegin said no"])
        h.up(0, 540, 500, at: 0.1)
        h.tap(0, 500, 500, at: 1)
        #expect(h.lines("tap").last == "1.050 tap: possible→ended", "the view lets its tap begin")
    }
}

/// A press that must stay within 10 pt, written the UIKit way, failing with the measurement.
final class StillPress: GestureRecognizer {
    static let allowance = 10.0 /* pt */
    private var start: Point?
    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        start = touches.first?.location(in: nil)
    }
    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        guard let start, let p = touches.first?.location(in: nil) else { return }
        let moved = ((p.x - start.x) * (p.x - start.x) + (p.y - start.y) * (p.y - start.y)).squareRoot()
        if moved > Self.allowance {
            setState(.failed, because: .measured(.init("moved", moved, exceeded: true, "allowance", Self.allowance, unit: "pt")))
        }
    }
    override func reset() { start = nil }
}

@Suite("A recognizer of your own says why with numbers")
struct MeasuredReasonTests {
    @Test func aFailureMeasuredAgainstALimitIsTracedWithBothNumbersAndTheUnit() {
        let h = Harness()
        _ = h.add(StillPress(name: "still"))
        h.down(0, 100, 100, at: 0)
        h.move(0, 112.5, 100, at: 0.05)
        h.up(0, 112.5, 100, at: 0.1)
        #expect(h.reasons["still"] == ["moved 12.5 pt > allowance 10 pt"],
                "the trace says how far it moved and what it allows: \(h.reasons["still"] ?? [])")
    }
}
