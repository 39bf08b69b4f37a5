#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureKit
import GestureRecording

/// Keeps the last seconds of what a live client receives in memory, and passes everything on
/// unchanged: the recording nobody had to start before the bug happened (docs/RECORDING.md,
/// "The flight recorder"). Hand it to any source's live loop in place of the client, as a
/// `GestureRecorder` is.
///
/// `write(to:)` writes what it holds as a recording (an app's "report a problem" button calls
/// it); `writeOnSignal(_:into:)` writes one into a directory each time a signal arrives
/// (`kill -USR1`), at the loop's next wake (at once when the signal wakes the loop's thread);
/// `gesturekit listen --flight-recorder SECONDS` does both and writes one more when it ends.
///
/// Memory is the ring's (`InputRecordingRing`): about 1.7 MB a minute of busy input (two
/// fingers moving at 120 frames a second), never more than `maximumBytes`.
public final class FlightRecorder: LiveInputClient {
    /// The client that receives everything, unchanged.
    public let client: any LiveInputClient
    /// The lines kept.
    public let ring: InputRecordingRing
    private var clock = PendingClock()
    private var signalDirectory: String?
    /// The last N of `write(into:)`.
    private var written = 0
    /// Called with each file the signal made, or why it could not be made.
    private var signalReport: ((Result<String, any Error>) -> Void)?

    /// Keeps the last `seconds` of what `client` receives from `source` (whose screen or
    /// window is `screen` points at `scale` device pixels a point), in at most `maximumBytes`,
    /// as `privacy` lets it through.
    public init(keeping seconds: Duration = InputRecordingRing.defaultSeconds,
                maximumBytes: Int = InputRecordingRing.defaultMaximumBytes,
                source: InputRecording.Source, screen: Size, scale: Double = 1,
                privacy: RecordingPrivacy = .none, passingTo client: any LiveInputClient) {
        self.client = client
        ring = InputRecordingRing(seconds: seconds, maximumBytes: maximumBytes,
                                  header: InputRecording.Header(source: source, screen: screen, scale: scale), privacy: privacy)
    }

    /// Marks `view` private from now on (`RecordingPrivacy.markPrivate`).
    public func markPrivate(_ view: View) {
        ring.markPrivate(view)
    }

    /// Writes the last seconds as a recording at `path` (0600; a file already there refused
    /// unless `replacing`), and keeps them. Returns the closed writer (its size, its stop reason).
    @discardableResult
    public func write(to path: String, replacing: Bool = false) throws -> InputRecordingWriter {
        try ring.write(to: path, replacing: replacing, clock: clock.time)
    }

    /// From now on, each time `signal` arrives a recording of the last seconds is written into
    /// `directory` (`write(into:)`), and `report` is told its path or why it could not be
    /// written. The
    /// signal's handler only sets a flag; the file is written on the loop's thread when the
    /// loop next wakes (a signal to that thread wakes it).
    public func writeOnSignal(_ signal: Int32 = SIGUSR1, into directory: String,
                              report: ((Result<String, any Error>) -> Void)? = nil) {
        signalDirectory = directory
        signalReport = report
        FlightRecorderSignal.install(signal)
    }

    /// Writes the last seconds as a recording into `directory`, as `flight-PID-N.input.jsonl`
    /// with the first N from 1 up that names no file there. Returns its path.
    @discardableResult
    public func write(into directory: String) throws -> String {
        while true {
            written += 1
            let path = "\(directory)/flight-\(getpid())-\(written).input.jsonl"
            do {
                try write(to: path)
                return path
            } catch let e as RecordingFileError where e.message.hasPrefix("it already exists") {
                continue
            }
        }
    }

    /// The file a signal asks for, if one has arrived.
    private func writeIfSignalled() {
        guard let directory = signalDirectory, FlightRecorderSignal.take() else { return }
        do {
            signalReport?(.success(try write(into: directory)))
        } catch {
            signalReport?(.failure(error))
        }
    }

    public func handle(_ event: InputEvent) {
        if let time = clock.line(before: event) { ring.recordClock(time) }
        ring.record(event)
        client.handle(event)
    }

    public var nextDeadline: Instant? { client.nextDeadline }

    public func advance(to now: Instant) {
        clock.advanced(to: now)
        client.advance(to: now)
    }

    public func batchHandled(by run: LiveInputRun) {
        writeIfSignalled()
        client.batchHandled(by: run)
    }

    public func finish() {
        if let time = clock.atEnd() { ring.recordClock(time) }
        client.finish()
        writeIfSignalled()
    }
}

/// The flag a flight recorder's signal sets: the handler does nothing else (it may run at any
/// moment, on any thread).
enum FlightRecorderSignal {
    nonisolated(unsafe) static var pending: sig_atomic_t = 0

    static func install(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in FlightRecorderSignal.pending = 1 }
        sigemptyset(&action.sa_mask)
        // No SA_RESTART: the loop's poll returns and the loop wakes.
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }

    static func take() -> Bool {
        guard pending != 0 else { return false }
        pending = 0
        return true
    }
}
