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
        recording.feed(event, to: live.engine)
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
