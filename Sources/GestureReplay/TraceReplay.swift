import GestureKit
import GestureRecording
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
    /// `record`, when given, receives every event the replay feeds the session, as it feeds
    /// it (and an input recording's clock times): `gesturekit replay OTHER --record FILE`, so
    /// that replaying FILE prints what replaying OTHER printed; the scene's views named in
    /// `privateViews` are private to it (`InputRecordingWriter.markPrivate`). `touchpadGestures`:
    /// also print what the touchpads decided (`ReplaySession.reportsTouchpadGestures`).
    @discardableResult
    public static func run(path: String, scene: Scene, validateFirst: Bool = true,
                           touchpadGestures: Bool = false,
                           observe: ((TouchFrame) -> Void)? = nil,
                           observePointer: ((PointerEvent) -> Void)? = nil,
                           record: InputRecordingWriter? = nil,
                           privateViews: [String] = [],
                           output: @escaping (ReplayRecord) -> Void) throws -> ReplaySession {
        let reader = try TraceReader(path: path, screen: scene.screen, mapping: scene.input)
        if validateFirst { try reader.run { _ in } }
        let session = try ReplaySession(scene: scene, output: output)
        session.reportsTouchpadGestures = touchpadGestures
        if let record {
            for (id, view) in session.live.views where privateViews.contains(id) { record.markPrivate(view) }
        }
        try reader.run(advancingClock: { time in
            record?.recordClock(time)
            session.advance(to: time)
        }) { event in
            switch event {
            case let .touchFrame(frame): observe?(frame)
            case let .pointer(pointerEvent): observePointer?(pointerEvent)
            default: break
            }
            record?.record(event)
            session.feed(event)
        }
        session.finish()
        record?.close()
        return session
    }

    /// Replays and collects the records (for tests and small traces).
    public static func records(path: String, scene: Scene) throws -> [ReplayRecord] {
        var records: [ReplayRecord] = []
        try run(path: path, scene: scene) { records.append($0) }
        return records
    }
}
