import GestureKit
import GestureRecording

/// Records what a live client receives, and passes it on unchanged: the bug report that
/// reproduces itself. Hand it to any source's live loop in place of the client (the engine,
/// a scene's session, an app's wall), with the client as `passingTo` (GestureRecording's
/// article "Recording a bug report and replaying it in a test" shows it with GestureWayland).
///
/// The file (docs/RECORDING.md) holds every `InputEvent` the client received, at the times it
/// received them, and the moments the loop moved the client's clock on with no input where a
/// replay needs them to give the same transitions at the same times. It holds modifier flags,
/// never key codes or text. Lines are written after every batch the loop hands the client
/// (`batchHandled`), and at least every second of the client's clock within a long batch, so
/// a crash loses at most that; the file is closed when input ends (`finish`). Past `limit`
/// bytes the recording stops with a `stopped` line saying so (`stopReason`); the client keeps
/// receiving everything.
public final class GestureRecorder: LiveInputClient {
    /// The client that receives everything, unchanged.
    public let client: any LiveInputClient
    /// The recording's writer: its path, size, event count and stop reason.
    public let writer: InputRecordingWriter
    /// When the recording needs a clock line.
    private var clock = PendingClock()
    /// The client's time of the last flush.
    private var lastFlush: Instant?

    /// The longest the recorder holds lines in memory, on the client's clock: one second.
    public static let flushInterval: Duration = .seconds(1)

    /// Records to `path` what `client` receives from `source`, whose screen or window is
    /// `screen` points at `scale` device pixels a point. The file is created readable by its
    /// owner only; a file already at `path` is refused unless `replacing` (then it is replaced
    /// when the recording ends, whole: `InputRecordingWriter`). Throws when the file cannot be
    /// created, naming it.
    /// What is written of each event is what `privacy` lets through (private views, coarse
    /// positions, no pen force or tilt, devices named by kind: `RecordingPrivacy`); the client
    /// receives every event unchanged.
    public init(recordingTo path: String, source: InputRecording.Source, screen: Size, scale: Double = 1,
                limit: Int = InputRecordingWriter.defaultLimit, replacing: Bool = false,
                privacy: RecordingPrivacy = .none, passingTo client: any LiveInputClient) throws {
        self.client = client
        writer = try InputRecordingWriter(path: path, header: InputRecording.Header(source: source, screen: screen, scale: scale),
                                          limit: limit, replacing: replacing, privacy: privacy)
    }

    /// Marks `view` private from now on: touches that begin on it are written as the
    /// recording's privacy says (at its centre, or not at all), and reach the client as they are.
    public func markPrivate(_ view: View) {
        writer.markPrivate(view)
    }

    /// Why the recording stopped, if it has: its size limit, a failed write, or the end of input.
    public var stopReason: String? { writer.stopReason }

    public func handle(_ event: InputEvent) {
        if let time = clock.line(before: event) { writer.recordClock(time) }
        writer.record(event)
        if let t = event.time {
            if let last = lastFlush {
                if t >= last + GestureRecorder.flushInterval {
                    writer.flush()
                    lastFlush = t
                }
            } else {
                lastFlush = t
            }
        }
        client.handle(event)
    }

    public var nextDeadline: Instant? { client.nextDeadline }

    public func advance(to now: Instant) {
        clock.advanced(to: now)
        client.advance(to: now)
    }

    public func batchHandled(by run: LiveInputRun) {
        writer.flush()
        client.batchHandled(by: run)
    }

    /// The end of input: the client finishes at its clock's time, which the recording keeps.
    public func finish() {
        if let time = clock.atEnd() { writer.recordClock(time) }
        client.finish()
        writer.close()
    }
}
