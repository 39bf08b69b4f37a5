import GestureKit

/// How a recording's events reach an engine on virtual time: the one rule that the replay
/// (GestureReplay's `ReplaySession`) and the testing product's replay (GestureTestingTraces)
/// both follow, so a recording gives the same transitions through either.
///
/// - A device added with a physical size sets how many points a millimetre of it is (a
///   touchscreen's: an edge pan's margin is physical), mapped onto the screen through
///   `mapping`; one whose source said it (a compositor's touchscreen) keeps that, which the
///   engine takes. One added under the id of a device removed before makes that id count
///   again.
/// - A recording's removal (it has a time) takes effect when later input follows it; at the
///   very end of a trace the end-of-trace rule (`finish`) applies instead. A live removal (no
///   time) takes effect at once, at the engine's current time.
/// - Everything else goes to the engine as it is.
///
/// A class, so that no access to its list of removals lasts across the engine's calls.
package final class RecordingFeed {
    package let mapping: TouchMapping
    package let screen: Size
    private var pendingRemovals: [(InputDeviceID, Instant)] = []

    package init(mapping: TouchMapping, screen: Size) {
        self.mapping = mapping
        self.screen = screen
    }

    /// Hands `event` to `engine` by the rule above.
    @inline(__always)
    package func feed(_ event: InputEvent, to engine: GestureEngine) {
        switch event {
        case let .deviceAdded(info):
            if info.kind == .touchscreen, info.pointsPerMillimetre == nil, let size = info.sizeMillimetres,
               let scale = mapping.pointsPerMillimetre(deviceSize: size, screen: screen) {
                engine.pointsPerMillimetre[info.id] = scale
            }
            // Removals before it happen first (a device plugged back under its old id).
            applyRemovals(engine)
            engine.send(event)
        case let .deviceRemoved(device, time?):
            pendingRemovals.append((device, time))
        case .deviceRemoved:
            applyRemovals(engine)
            engine.send(event)
        case .touchFrame, .touchpadGesture, .pointer, .pen, .modifiers:
            applyRemovals(engine)
            engine.send(event)
        case .eventsDropped, .note:
            engine.send(event)
        }
    }

    @inline(__always)
    private func applyRemovals(_ engine: GestureEngine) {
        guard !pendingRemovals.isEmpty else { return }
        // Taken out first: no access to the list lasts across the engine's calls, so Swift
        // need not check each event's access at run time.
        let removals = pendingRemovals
        pendingRemovals.removeAll()
        for (device, time) in removals { engine.deviceRemoved(device, at: time) }
    }

    /// The end of the recording: virtual time runs until no timer is pending, then any touch
    /// still down is cancelled, so every recognizer ends in a final state. Removals still
    /// waiting for later input are dropped (the end-of-trace rule covers them).
    package func finish(_ engine: GestureEngine) {
        pendingRemovals.removeAll()
        engine.finish()
    }
}
