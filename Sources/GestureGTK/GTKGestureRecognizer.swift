import CGTK4
import GestureKit

/// A gesture of GTK's own on a bound widget (a `GtkScrolledWindow`'s drag, a
/// `GtkGestureClick`, a `GtkGestureSwipe`, a `GtkGestureLongPress`) as a recognizer in the
/// window's engine, so that an app's recognizers settle with it by UIKit's rules:
/// `require(toFail:)`, `shouldRecognizeSimultaneouslyWith`, `canPrevent`, as with
/// `UIScrollView.panGestureRecognizer`.
///
/// ```swift
/// let scroll = input.recognizer(forScrollingOf: scrolledWindow)!
/// swipe.require(toFail: scroll)            // the swipe waits for the list not to scroll
/// ```
///
/// The rule, stated once: the recognizer's state is GTK's word on the touch, mapped to
/// UIKit's states, and the engine's word goes back to GTK.
/// - GTK's gesture **claims** the touch (`GTK_EVENT_SEQUENCE_CLAIMED`: a scrolled window's drag
///   past GTK's drag threshold): `began`; each update after: `changed`; the touch ends
///   claimed: `ended`. GTK's claim cancels the widgets' gestures under it, so the touch is
///   taken from the widgets (the views under it get `touchesCancelled`, as with
///   `cancelsTouchesInView`), and no recognizer claims it back from the window while GTK
///   has it: one that recognizes simultaneously with it leaves it to GTK.
/// - GTK's gesture **denies** the touch (`GTK_EVENT_SEQUENCE_DENIED`: a scrolled window that
///   cannot scroll denies its drag at touch-down; its long press denies it when the finger
///   rests), or the touch ends unclaimed, or GTK cancels the gesture: `failed` (`cancelled`
///   once it had begun). A recognizer that required it to fail may then recognize.
/// - A gesture that decides at the **lift** (a click claims the touch at its release) is heard
///   out: with the touch lifted the recognizer stays possible until GTK's word, at most
///   `liftDecisionWait`, and hears the gesture's end after GTK's own handler, where a click
///   claims. A recognizer that requires it to fail does not hold the lift from the widgets
///   (`GTKWindowInput`), or neither could decide.
/// - The **engine** fails or cancels it (another recognizer began or recognized and may
///   prevent it, UIKit's exclusivity): GTK's gesture is denied the touch, so the scrolled
///   window does not scroll.
///
/// It never delays touches (`delaysTouchesBegan` and `delaysTouchesEnded` are false): GTK's
/// gesture decides on the events the widgets see, so holding them back would stop it
/// deciding.
public final class GTKGestureRecognizer: GestureRecognizer {
    /// GTK's gesture (`GtkGesture *`): for a scrolled window, its drag, whose group (its pan,
    /// swipe and long press, which make its kinetic scrolling) shares its state.
    public let gesture: UnsafeMutableRawPointer
    /// The widget the gesture is on (`GtkWidget *`).
    public let widget: UnsafeMutableRawPointer
    /// How GTK's gesture decides at a lift. A scrolled window's drag claims only as the touch
    /// moves past GTK's drag threshold, never at a lift (`scrolled_window_drag_update_cb`, 4.8
    /// to 4.18): a touch that lifts unclaimed failed it. Another gesture (a click claims at
    /// its release) is heard out: it fails at GTK's "end" for the touch if it never claimed.
    let decidesBeforeLift: Bool
    weak var input: GTKWindowInput?

    /// How long after a touch's lift a gesture that decides at the lift (a click claims at its
    /// release) is waited for: GTK hands it the lift right after the window's reader reads it,
    /// or as soon as a recognizer lets a held lift go; one still silent then has let the touch
    /// go (`failed`).
    static let liftDecisionWait: Duration = .milliseconds(500)
    /// When the wait for GTK's word on a lifted touch ends (`liftDecisionWait`).
    private var liftDecisionDeadline: Instant?

    /// The touches the engine gave it, by GTK's sequence (nil: the mouse's).
    private var touches: [UnsafeMutableRawPointer?: TouchID] = [:]
    /// Sequences GTK's gesture has decided (claimed, denied, ended): the engine's later word
    /// on them does not go back.
    private var decidedByGTK: Set<UnsafeMutableRawPointer?> = []
    private var handlers: [gulong] = []

    override public class var defaultNamePrefix: String { "gtkGesture" }
    override public var kind: Kind { .continuous }

    init(gesture: UnsafeMutableRawPointer, widget: UnsafeMutableRawPointer, decidesBeforeLift: Bool, input: GTKWindowInput) {
        self.gesture = gk_object_ref(gesture)!
        self.widget = widget
        self.decidesBeforeLift = decidesBeforeLift
        self.input = input
        super.init()
        delaysTouchesBegan = false
        delaysTouchesEnded = false
        let me = Unmanaged.passUnretained(self).toOpaque()
        handlers.append(gk_signal_connect(gesture, "sequence-state-changed",
                                          unsafeBitCast(gtkHandleStateChanged, to: GCallback.self), me))
        for (signal, callback) in [("update", gtkHandleUpdated), ("cancel", gtkHandleCancelled)] {
            handlers.append(gk_signal_connect(gesture, signal, unsafeBitCast(callback, to: GCallback.self), me))
        }
        // After GTK's own handler of "end": a click claims the touch there (its "released",
        // where a GtkButton claims), and the touch ends claimed.
        handlers.append(g_signal_connect_data(gesture, "end", unsafeBitCast(gtkHandleEnded, to: GCallback.self), me, nil, G_CONNECT_AFTER))
    }

    deinit {
        for handler in handlers { gk_signal_disconnect(gesture, handler) }
        gk_object_unref(gesture)
    }

    /// The name GTK's type gives the gesture ("GtkGestureDrag").
    public var gtkTypeName: String { String(cString: gk_type_name(gesture)) }

    /// Whether GTK's gesture has yet to decide on `key`'s touch and decides only at its lift
    /// (a click claims at its release): the recognizer is still possible and has the touch.
    func awaitsLift(of key: UnsafeMutableRawPointer?) -> Bool {
        !decidesBeforeLift && state.isPossible && touches[key] != nil && !decidedByGTK.contains(key)
            && gk_gesture_handles_sequence(gesture, key.map(OpaquePointer.init)) != 0
    }

    /// Whether GTK's gesture (or one of its group) is `other`.
    func covers(_ other: UnsafeMutableRawPointer) -> Bool { gk_gesture_is_grouped_with(gesture, other) != 0 }

    // MARK: the engine's side

    override public func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesBegan(touches, with: event)
        guard let input else { return }
        for touch in touches {
            guard let key = input.sequenceKey(of: touch) else { continue }
            self.touches[key] = touch.id
            // A gesture that sees no events (a scrolled window with kinetic scrolling off, its
            // drag's phase NONE), or that GTK already denied the touch, never takes it.
            if gk_controller_is_active(gesture) == 0 {
                decide(key, .failed, "GTK's \(gtkTypeName) takes no touches (its propagation phase is NONE)")
            }
        }
    }

    override public func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesEnded(touches, with: event)
        for touch in touches {
            guard let entry = self.touches.first(where: { $0.value == touch.id }), state.isPossible else { continue }
            let key = entry.key
            let sequence = key.map(OpaquePointer.init)
            if decidesBeforeLift || gk_gesture_handles_sequence(gesture, sequence) == 0 {
                decide(key, .failed, "the touch lifted before GTK's \(gtkTypeName) claimed it")
            } else {
                // GTK's word comes as it delivers the lift: until then the recognizer is not
                // one whose touches lifted with nothing to wait for.
                liftDecisionDeadline = event.timestamp + Self.liftDecisionWait
            }
        }
    }

    override public var deadline: Instant? { state.isPossible ? liftDecisionDeadline : nil }

    override public func deadlineReached(at time: Instant) -> GestureDecision {
        guard let deadline = liftDecisionDeadline, time >= deadline, state.isPossible else { return .none }
        liftDecisionDeadline = nil
        return .fail(.custom("GTK's \(gtkTypeName) said nothing of the lifted touch within \(Self.liftDecisionWait)"))
    }

    override public func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesCancelled(touches, with: event)
        state = state.isActive ? .cancelled : .failed
    }

    override public func reset() {
        super.reset()
        denyWhatTheEngineTook()
        liftDecisionDeadline = nil
        touches.removeAll()
        decidedByGTK.removeAll()
    }

    /// The engine failed or cancelled the recognizer (another one prevented it): GTK's
    /// gesture is denied the touches it has not decided, so it does not act on them.
    func denyWhatTheEngineTook() {
        let shown = state
        guard shown == .failed || shown == .cancelled else { return }
        for key in touches.keys where !decidedByGTK.contains(key) {
            decidedByGTK.insert(key)
            gk_gesture_deny(gesture, key.map(OpaquePointer.init))
        }
    }

    // MARK: GTK's side

    /// Sets the state GTK's word on `key` stands for, if the recognizer can still take it.
    private func decide(_ key: UnsafeMutableRawPointer?, _ target: State, _ reason: String) {
        decidedByGTK.insert(key)
        let current = state
        switch target {
        case .began where current.isPossible, .changed where current.isActive, .ended where current.isActive,
             .cancelled where current.isActive, .failed where current.isPossible:
            setState(target, reason: reason)
        case .failed where current.isActive:
            setState(.cancelled, reason: reason)
        default:
            return
        }
        input?.gtkGestureDecided()
    }

    fileprivate func stateChanged(_ sequence: OpaquePointer?, _ gtkState: GtkEventSequenceState) {
        let key = sequence.map(UnsafeMutableRawPointer.init)
        guard touches[key] != nil else { return }
        if gtkState == GTK_EVENT_SEQUENCE_CLAIMED {
            input?.gtkGestureTook(key)
            decide(key, .began, "GTK's \(gtkTypeName) claimed the touch")
        } else if gtkState == GTK_EVENT_SEQUENCE_DENIED {
            decide(key, .failed, "GTK's \(gtkTypeName) was denied the touch")
        }
    }

    fileprivate func updated(_ sequence: OpaquePointer?) {
        let key = sequence.map(UnsafeMutableRawPointer.init)
        guard touches[key] != nil, state.isActive else { return }
        setState(.changed, reason: "GTK's \(gtkTypeName) updated")
        input?.gtkGestureDecided()
    }

    fileprivate func ended(_ sequence: OpaquePointer?) {
        let key = sequence.map(UnsafeMutableRawPointer.init)
        guard touches[key] != nil else { return }
        if state.isActive {
            decide(key, .ended, "the touch GTK's \(gtkTypeName) claimed ended")
        } else {
            decide(key, .failed, "the touch ended unclaimed by GTK's \(gtkTypeName)")
        }
    }

    fileprivate func cancelled(_ sequence: OpaquePointer?) {
        let key = sequence.map(UnsafeMutableRawPointer.init)
        guard touches[key] != nil else { return }
        decide(key, .failed, "GTK cancelled its \(gtkTypeName)")
    }
}

private func handle(_ data: gpointer?) -> GTKGestureRecognizer? {
    data.map { Unmanaged<GTKGestureRecognizer>.fromOpaque($0).takeUnretainedValue() }
}

private let gtkHandleStateChanged: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, GtkEventSequenceState, gpointer?) -> Void = { _, sequence, state, data in
    handle(data)?.stateChanged(sequence, state)
}

private let gtkHandleUpdated: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> Void = { _, sequence, data in
    handle(data)?.updated(sequence)
}

private let gtkHandleEnded: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> Void = { _, sequence, data in
    handle(data)?.ended(sequence)
}

private let gtkHandleCancelled: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> Void = { _, sequence, data in
    handle(data)?.cancelled(sequence)
}
