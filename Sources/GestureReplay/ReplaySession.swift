import GestureKit
import GestureLayout
import GestureTraces

/// Runs a scene on virtual time: input in, `ReplayRecord`s out, as REPLAY.md says. The same
/// input always gives the same records.
public final class ReplaySession {
    public let live: LiveScene
    private let output: (ReplayRecord) -> Void
    /// How the recording's events reach the engine (GestureTraces' RecordingFeed).
    private let recording: RecordingFeed
    /// Print what touchpads decided (`replay --touchpad-gestures`): a `gesture` record for
    /// each touchpad gesture event and each step of a scroll from fingers, before the engine
    /// sees it.
    public var reportsTouchpadGestures = false
    /// A scroll from fingers under way (its next step is `changed`), and a pinch's rotation
    /// so far, in degrees.
    private var scrolling = false
    private var pinchRotation = 0.0

    public init(scene: Scene, output: @escaping (ReplayRecord) -> Void) throws {
        live = try LiveScene(scene)
        recording = RecordingFeed(mapping: scene.input, screen: scene.screen)
        self.output = output
        live.engine.traceHandler = { [unowned self] event in self.record(event) }
        live.onRecord = { [unowned self] record in self.output(record) }
    }

    private func record(_ event: GestureTraceEvent) {
        switch event {
        case let .transition(t):
            if live.isInternal(t.recognizer) { return }
            output(.state(.init(time: t.time, recognizer: live.id(of: t.recognizer), kind: live.kind(of: t.recognizer),
                                from: t.from, to: t.to, reason: t.reason.description, location: t.location,
                                values: t.values, modifierFlags: t.modifierFlags)))
        case let .delivery(d):
            var buttons = ButtonMask()
            for touch in d.touches { buttons.formUnion(touch.buttonMask) }
            output(.touches(time: d.time, view: d.view.debugName, phase: d.phase, ids: d.touches.map(\.id.rawValue), buttons: buttons))
        case let .waiting(time, r, reason):
            if live.isInternal(r) { return }
            output(.waiting(time: time, recognizer: live.id(of: r), reason: reason.description))
        case let .inputIgnored(time, reason):
            output(.ignored(time: time, reason: reason))
        case let .pen(p):
            output(.pen(p))
        case let .contextMenu(t):
            let visible = t.menu?.actions.filter { !$0.action.attributes.contains(.hidden) }
            output(.contextMenu(.init(time: t.time, interaction: live.id(of: t.interaction.gestureRecognizer),
                                      view: t.interaction.view?.debugName ?? "", from: t.from.rawValue, to: t.to.rawValue,
                                      location: t.location, actions: visible?.map(\.action.identifier),
                                      disabled: visible?.filter { $0.action.attributes.contains(.disabled) }.map(\.action.identifier),
                                      action: t.action, reason: t.reason.description)))
        case let .drag(d):
            output(.drag(.init(time: d.time, session: d.session, phase: d.phase.rawValue, view: d.view?.debugName,
                               location: d.location, items: d.items, operation: d.operation.rawValue, reason: d.reason)))
        case .programmingError:
            // A scene's requireToFail cycle is refused when the scene is read; nothing else
            // in a replay wires recognizers.
            break
        }
    }

    /// Feeds one input event, from a recording or a live source, by the recording rule of
    /// GestureTraces' `RecordingFeed` (device sizes mapped onto the screen, removals when
    /// later input follows them).
    public func feed(_ event: InputEvent) {
        if reportsTouchpadGestures { reportGesture(event) }
        if live.engine.presentedContextMenu != nil { dismissMenu(at: event) }
        recording.feed(event, to: live.engine)
    }

    /// A replay draws no menu, so a contact that begins while one is presented lands
    /// outside it: the menu is dismissed at the contact's time (REPLAY.md's `contextMenu`
    /// lines), and the contact is then handled as usual.
    private func dismissMenu(at event: InputEvent) {
        let begins: Bool = switch event {
        case let .touchFrame(frame): frame.changes.contains { $0.phase == .began }
        case let .pointer(p): p.kind == .button && p.pressed
        case let .pen(p): p.phase == .down
        default: false
        }
        guard begins, let presented = live.engine.presentedContextMenu, let time = event.time else { return }
        live.engine.advance(to: time)
        presented.interaction.dismissMenu(because: .custom("a contact began outside the menu"))
    }

    /// REPLAY.md's `gesture` line for a touchpad gesture event, or for a scroll from fingers
    /// (libinput's finger source, which the decoders report as a continuous scroll; its stop
    /// is the scroll's `ended`).
    private func reportGesture(_ event: InputEvent) {
        switch event {
        case let .touchpadGesture(g):
            guard !g.kind.isScroll else { return }
            let phase: GestureRecognizer.State = switch g.phase {
            case .begin: .began
            case .update: .changed
            case .end: .ended
            case .cancel: .cancelled
            }
            var gesture = ReplayRecord.Gesture(kind: g.kind.rawValue, phase: phase, time: g.time, fingers: g.fingers,
                                               location: g.location)
            switch g.kind {
            case .pinch:
                if g.phase == .begin { pinchRotation = 0 }
                pinchRotation += g.angleDelta
                gesture.scale = g.scale
                gesture.rotation = pinchRotation
            case .swipe:
                if g.phase == .update { gesture.delta = g.delta }
            case .hold, .scroll, .wheel:
                break
            }
            output(.gesture(gesture))
        case let .pointer(p) where p.kind == .scroll && p.scrollType == .continuous:
            let phase: GestureRecognizer.State = p.scrollStop ? .ended : scrolling ? .changed : .began
            if p.scrollStop && !scrolling { return }
            scrolling = !p.scrollStop
            output(.gesture(ReplayRecord.Gesture(kind: "scroll", phase: phase, time: p.time, fingers: 2,
                                                 location: p.location, delta: p.scrollStop ? nil : p.delta)))
        default:
            break
        }
    }

    /// Moves the scene's clock on to `time` with no input (an input recording's clock line:
    /// a live loop woke for a deadline there), firing what falls due.
    public func advance(to time: Instant) {
        live.engine.advance(to: time)
    }

    /// The end of the trace: virtual time runs until no timer is pending, then any touch
    /// still down is cancelled, so every recognizer ends in a final state.
    public func finish() {
        recording.finish(live.engine)
    }
}
