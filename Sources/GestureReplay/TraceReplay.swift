import GestureKit
import GestureTraces

/// Replays a recorded trace through a scene, on virtual time, as REPLAY.md describes.
public enum TraceReplay {
    /// Replays `path` through `scene`, handing each record to `output` as it is decided.
    ///
    /// The trace is read twice: once to check it whole, so that a malformed trace stops with
    /// its error before anything is printed as if it had been recognized; then to replay it,
    /// streaming (memory stays flat however long the trace is). `observe` sees every input
    /// frame (the picture uses it).
    /// Returns the session, so a caller can look at the scene as the replay left it.
    @discardableResult
    public static func run(path: String, scene: Scene, validateFirst: Bool = true,
                           observe: ((TouchFrame) -> Void)? = nil,
                           observePointer: ((PointerEvent) -> Void)? = nil,
                           output: @escaping (ReplayRecord) -> Void) throws -> ReplaySession {
        let reader = try TraceReader(path: path, screen: scene.screen, mapping: scene.input)
        if validateFirst { try reader.run { _ in } }
        let session = try ReplaySession(scene: scene, output: output)
        for device in reader.devices where device.kind == .touchscreen {
            if let size = device.physicalSize,
               let scale = scene.input.pointsPerMillimetre(deviceSize: size, screen: scene.screen) {
                session.live.engine.pointsPerMillimetre[device.id] = scale
            }
        }
        try reader.run { item in
            switch item {
            case let .touchFrame(frame):
                observe?(frame)
                session.feed(.frame(frame))
            case let .touchpadGesture(gesture):
                session.feed(.gesture(gesture))
            case let .pointer(event):
                observePointer?(event)
                session.feed(.pointer(event))
            case let .deviceRemoved(device, time):
                session.feed(.deviceRemoved(device, time))
            case let .eventsDropped(time, device):
                session.feed(.ignored(time, "\(device): SYN_DROPPED (the kernel's buffer overflowed): its touches are cancelled, events up to the next SYN_REPORT discarded"))
            case let .note(time, device, text):
                session.feed(.ignored(time, "\(device): \(text)"))
            case .deviceAdded:
                break
            }
        }
        session.finish()
        return session
    }

    /// Replays and collects the records (for tests and small traces).
    public static func records(path: String, scene: Scene) throws -> [ReplayRecord] {
        var records: [ReplayRecord] = []
        try run(path: path, scene: scene) { records.append($0) }
        return records
    }
}
