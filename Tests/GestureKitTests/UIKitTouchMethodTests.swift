// Imported as an app imports it (not @testable): what compiles here is what an app may write.
// A built-in's decision-returning `touchesBegan(_:at:)` is final, so a subclass of
// TapGestureRecognizer cannot override it; `override func touchesBegan(_ touches: [Touch],
// at time: Instant) -> GestureDecision` in `RightHalfTap` does not compile.
import GestureKit
import Testing
import GestureTestSupport

/// UIKit's way of narrowing a built-in: a tap that fails when its touch lands on the right
/// half of its view, deciding in `touchesBegan(_:with:)` after `super`.
final class LeftHalfTap: TapGestureRecognizer {
    var began: [Set<Touch>] = []
    var events: [TouchEvent] = []
    var stateAfterSuperAtEnd: [State] = []
    var resets = 0

    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesBegan(touches, with: event)
        began.append(touches)
        events.append(event)
        guard let view else { return }
        if touches.contains(where: { $0.location(in: view).x > view.bounds.width / 2 }) {
            state = .failed
        }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesEnded(touches, with: event)
        stateAfterSuperAtEnd.append(state)
    }

    override func reset() {
        super.reset()
        resets += 1
    }
}

/// A pan subclass that only watches: its overrides call super and set nothing.
final class WatchingPan: PanGestureRecognizer {
    var moved = 0
    var ended = 0
    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesMoved(touches, with: event)
        moved += touches.count
    }
    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesEnded(touches, with: event)
        ended += touches.count
    }
}

/// A tap subclass whose `touchesCancelled` neither calls super nor sets a state.
final class SilentOnCancelTap: TapGestureRecognizer {
    override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {}
}

/// A tap subclass that waits for another through UIKit's subclass override.
final class DeferringTap: TapGestureRecognizer {
    weak var waitsFor: GestureRecognizer?
    override func shouldRequireFailure(of other: GestureRecognizer) -> Bool { other === waitsFor }
}

/// A view written as UIKit's are: UIKit's touch methods, a Set and the event.
final class UIKitTouchView: View {
    var calls: [String] = []
    var timestamps: [Instant] = []
    var allTouchCounts: [Int] = []
    private func note(_ name: String, _ touches: Set<Touch>, _ event: TouchEvent) {
        calls.append("\(name) \(touches.map(\.id.rawValue).sorted())")
        timestamps.append(event.timestamp)
        allTouchCounts.append(event.allTouches.count)
    }
    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) { note("began", touches, event) }
    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) { note("moved", touches, event) }
    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) { note("ended", touches, event) }
    override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) { note("cancelled", touches, event) }
}

/// A view written before UIKit's signature: it overrides the deprecated `[Touch]` methods,
/// which are still called for one release.
final class LegacyTouchView: View {
    var calls: [String] = []
    override func touchesBegan(_ touches: [Touch]) { calls.append("began \(touches.map(\.id.rawValue))") }
    override func touchesMoved(_ touches: [Touch]) { calls.append("moved \(touches.map(\.id.rawValue))") }
    override func touchesEnded(_ touches: [Touch]) { calls.append("ended \(touches.map(\.id.rawValue))") }
    override func touchesCancelled(_ touches: [Touch]) { calls.append("cancelled \(touches.map(\.id.rawValue))") }
}

/// Both: UIKit's method calls super, which calls the deprecated one.
final class BothTouchView: View {
    var calls: [String] = []
    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        calls.append("new began")
        super.touchesBegan(touches, with: event)
    }
    override func touchesBegan(_ touches: [Touch]) { calls.append("old began") }
}

@Suite("UIKit's touch methods, on views and on subclasses of the built-in recognizers")
struct UIKitTouchMethodTests {
    @Test("a subclass of TapGestureRecognizer overriding touchesBegan(_:with:) sees its touches and fails the tap by setting state = .failed")
    func tapSubclassFailsByState() {
        let h = Harness()
        let tap = h.add(LeftHalfTap(name: "tap"))
        let plain = h.add(TapGestureRecognizer(name: "plain"))
        tap.recognizeSimultaneously(with: plain)
        var fired = 0
        tap.addTarget { _ in fired += 1 }

        h.tap(0, 200, 500, at: 0)
        #expect(tap.began.count == 1 && tap.began.first?.count == 1, "touchesBegan(_:with:) saw the touch: \(tap.began)")
        #expect(tap.events.first?.timestamp == Instant(seconds: 0))
        #expect(h.lines("tap") == ["0.050 tap: possible→ended"], "on the left half super's logic recognizes the tap")
        #expect(fired == 1)
        #expect(tap.stateAfterSuperAtEnd == [.ended], "after super, the subclass reads the state the tap's logic set")
        #expect(h.reasons["tap"] == h.reasons["plain"], "with the built-in's own reason: \(h.reasons["tap"] ?? [])")

        h.clear()
        h.tap(0, 800, 500, at: 1)
        #expect(tap.began.count == 2)
        #expect(h.lines("tap") == ["1.000 tap: possible→failed"], "on the right half the subclass fails it: \(h.lines("tap"))")
        #expect(h.lines("plain") == ["1.050 plain: possible→ended"], "the plain tap still recognizes")
        #expect(h.reasons["tap"]?.last == "the recognizer set its state to failed")
        #expect(fired == 1, "a failed tap has no action")
        #expect(tap.resets == 2, "reset() was called after each final state")
    }

    @Test("a subclass of a built-in pan watches its touches through UIKit's methods and the pan works as the built-in does")
    func panSubclassWatches() {
        let h = Harness()
        let pan = h.add(WatchingPan(name: "pan"))
        let plain = h.add(PanGestureRecognizer(name: "plain"))
        pan.recognizeSimultaneously(with: plain)
        h.down(0, 500, 500, at: 0)
        for i in 1...5 { h.move(0, 500 + Double(i) * 10, 500, at: Double(i) * 0.01) }
        h.up(0, 550, 500, at: 0.06)
        #expect(pan.moved == 5 && pan.ended == 1)
        let strip = { (name: String) in h.lines(name).map { $0.replacingOccurrences(of: " \(name):", with: "") } }
        #expect(strip("pan") == strip("plain"), "the subclass goes through the same states at the same times: \(h.lines("pan")) vs \(h.lines("plain"))")
        #expect(h.reasons["pan"] == h.reasons["plain"], "with the built-in's reasons")
        #expect(pan.translation(in: nil) == plain.translation(in: nil))
    }

    @Test("a subclass's touchesCancelled that neither calls super nor sets a state still ends the gesture")
    func cancelledWithoutSuper() {
        let h = Harness()
        let tap = h.add(SilentOnCancelTap(name: "tap"))
        h.down(0, 500, 500, at: 0)
        h.frame(0.02, [(0, .cancelled, 500, 500)])
        #expect(h.lines("tap") == ["0.020 tap: possible→failed"])
        #expect(tap.state == .possible, "reset once the sequence is over")
    }

    @Test("a subclass of a built-in may override the relationship methods (UIKit's shouldRequireFailure(of:))")
    func subclassRelationships() {
        let h = Harness()
        let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        let single = h.add(DeferringTap(name: "single"))
        single.waitsFor = double
        h.tap(at: 0)
        #expect(h.lines("single").isEmpty, "the single tap waits for the double tap to fail")
        h.advance(to: 1)
        #expect(h.lines("double") == ["0.350 double: possible→failed"])
        #expect(h.lines("single") == ["0.350 single: possible→ended"])
    }

    @Test("a view receives UIKit's touchesBegan(_:with:): a Set of its touches and the event")
    func viewGetsUIKitSignature() {
        let h = Harness()
        let view = UIKitTouchView(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        h.root.addSubview(view)
        h.frame(0, [(0, .began, 100, 100), (1, .began, 200, 100)])
        h.frame(0.01, [(0, .moved, 110, 100)])
        h.frame(0.02, [(0, .ended, 110, 100)])
        h.frame(0.03, [(1, .cancelled, 200, 100)])
        #expect(view.calls == ["began [1, 2]", "moved [1]", "ended [1]", "cancelled [2]"])
        #expect(view.timestamps == [0, 0.01, 0.02, 0.03].map { Instant(seconds: $0) })
        #expect(view.allTouchCounts == [2, 2, 2, 1], "allTouches: those down and those that lifted in the event")
    }

    @Test("a view that still overrides the deprecated [Touch] methods keeps working, its touches in order")
    func legacyViewStillCalled() {
        let h = Harness()
        let view = LegacyTouchView(id: "legacy", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        h.root.addSubview(view)
        h.frame(0, [(3, .began, 100, 100), (1, .began, 200, 100), (2, .began, 300, 100)])
        h.frame(0.01, [(2, .moved, 310, 100), (3, .moved, 110, 100)])
        h.frame(0.02, [(3, .ended, 110, 100), (1, .ended, 200, 100), (2, .ended, 310, 100)])
        #expect(view.calls == ["began [1, 2, 3]", "moved [3, 1]", "ended [1, 2, 3]"],
                "the engine's order, as before (touch ids are the engine's, in order of landing): \(view.calls)")

        let both = BothTouchView(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        h.root.addSubview(both)
        h.down(0, 100, 100, at: 1)
        #expect(both.calls == ["new began", "old began"], "super of UIKit's method calls the deprecated one")
        h.up(0, 100, 100, at: 1.01)
    }

    @Test("a view made with init(frame:) has no id; traces name it by its class and frame")
    func unnamedView() {
        let h = Harness()
        let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 50))
        #expect(view.id == nil)
        #expect(view.debugName == "View [0.0, 0.0, 100.0, 50.0]")
        #expect(UIKitTouchView(frame: .zero).debugName == "UIKitTouchView [0.0, 0.0, 0.0, 0.0]")
        #expect(View().frame == .zero, "UIKit's View() is a view with a zero frame")
        let named = View(id: "photo", frame: Rect(x: 0, y: 0, width: 100, height: 50))
        #expect(named.id == "photo" && named.debugName == "photo", "a named view is traced by its id, as before")
        named.id = nil
        #expect(named.debugName == "View [0.0, 0.0, 100.0, 50.0]")

        h.root.addSubview(view)
        h.tap(0, 10, 10, at: 0)
        #expect(h.log == ["0.000 View [0.0, 0.0, 100.0, 50.0]: touchesBegan [1]",
                          "0.050 View [0.0, 0.0, 100.0, 50.0]: touchesEnded [1]"], "\(h.log)")
    }
}
