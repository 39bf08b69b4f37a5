import GestureKit
import GestureLayout

/// Runs a scene on virtual time: input in, `ReplayRecord`s out, as REPLAY.md says. The same
/// input always gives the same records.
public final class ReplaySession {
    public let live: LiveScene
    private let output: (ReplayRecord) -> Void
    /// The latest time seen, so removals at the very end can wait for the timers.
    private var pendingRemovals: [(InputDeviceID, Instant)] = []

    public init(scene: Scene, output: @escaping (ReplayRecord) -> Void) throws {
        live = try LiveScene(scene)
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

    /// Feeds one input event, from a recording or a live source.
    ///
    /// - A device added with a physical size sets how many points a millimetre of it is
    ///   (a touchscreen's: an edge pan's margin is physical), mapped onto the scene's screen;
    ///   one whose source said it (a compositor's touchscreen, in its output's points) keeps
    ///   that, which the engine takes. One added under the id of a device removed before
    ///   makes that id count again.
    /// - A recording's removal (it has a time) takes effect when later input follows it; at
    ///   the very end of a trace the end-of-trace rule (`finish`) applies instead. A live
    ///   removal (no time) takes effect at once, at the engine's current time.
    /// - Everything else goes to the engine as it is.
    public func feed(_ event: InputEvent) {
        switch event {
        case let .deviceAdded(info):
            if info.kind == .touchscreen, info.pointsPerMillimetre == nil, let size = info.sizeMillimetres,
               let scale = live.scene.input.pointsPerMillimetre(deviceSize: size, screen: live.scene.screen) {
                live.engine.pointsPerMillimetre[info.id] = scale
            }
            // Removals before it happen first (a device plugged back under its old id).
            applyRemovals()
            live.engine.send(event)
        case let .deviceRemoved(device, time?):
            pendingRemovals.append((device, time))
        case .deviceRemoved:
            applyRemovals()
            live.engine.send(event)
        case .touchFrame, .touchpadGesture, .pointer, .pen, .modifiers:
            applyRemovals()
            live.engine.send(event)
        case .eventsDropped, .note:
            live.engine.send(event)
        }
    }

    @inline(__always)
    private func applyRemovals() {
        guard !pendingRemovals.isEmpty else { return }
        // Taken out first: no access to the list lasts across the engine's calls, so Swift
        // need not check each event's access at run time.
        let removals = pendingRemovals
        pendingRemovals.removeAll()
        for (device, time) in removals { live.engine.deviceRemoved(device, at: time) }
    }

    /// The end of the trace: virtual time runs until no timer is pending, then any touch
    /// still down is cancelled, so every recognizer ends in a final state.
    public func finish() {
        pendingRemovals.removeAll()
        live.engine.finish()
    }
}
