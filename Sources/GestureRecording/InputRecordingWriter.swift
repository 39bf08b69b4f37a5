#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureKit

/// Writes a recording to a file as events arrive (docs/RECORDING.md): the header when it is
/// made, one line per event, buffered in memory and written out by `flush()` (a recorder
/// flushes after every batch of input, so a crash loses at most the batch in hand) and
/// whenever 64 KiB are waiting.
///
/// A size limit stops it cleanly: the line that would pass the limit is replaced by a
/// `stopped` line saying why, and nothing is written after it (`stopReason`). A write that
/// fails (a full disk, a file removed under it) stops it the same way, with the system's
/// reason; recording never stops the app.
public final class InputRecordingWriter {
    /// The path as given.
    public let path: String
    /// The largest the file may grow, in bytes.
    public let limit: Int
    /// Why the writer stopped, if it has (its limit, a failed write, `close()`).
    public private(set) var stopReason: String?
    /// Bytes written to the file or waiting in the buffer.
    public private(set) var size = 0
    /// Events recorded.
    public private(set) var eventCount = 0

    /// The default size limit: 256 MiB, about four hours of busy multi-touch input.
    public static let defaultLimit = 256 << 20 /* bytes */
    /// How many bytes wait in memory before they are written without a flush: 64 KiB.
    static let bufferSize = 64 << 10 /* bytes */

    private var fd: Int32
    private var buffer: [UInt8] = []
    /// The time of the latest event, for the `stopped` line.
    private var latest: Instant = .zero

    /// Creates (or truncates) the file at `path` and writes the header. Throws, with the
    /// system's reason and the path, when the file cannot be created.
    public init(path: String, header: InputRecording.Header, limit: Int = InputRecordingWriter.defaultLimit) throws {
        self.path = path
        self.limit = max(limit, 1024)
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw RecordingFileError(path: path, message: "cannot create it: \(String(cString: strerror(errno)))")
        }
        buffer.reserveCapacity(InputRecordingWriter.bufferSize)
        append(InputRecording.headerLine(header))
        flush()
    }

    deinit { close() }

    /// Records one event.
    public func record(_ event: InputEvent) {
        guard stopReason == nil else { return }
        if let t = event.time { latest = t }
        append(InputRecording.line(event))
        eventCount += 1
        if buffer.count >= InputRecordingWriter.bufferSize { flush() }
    }

    /// Records that the receiver's clock moved on to `time` (`InputRecording.Entry.clock`).
    public func recordClock(_ time: Instant) {
        guard stopReason == nil else { return }
        latest = time
        append(InputRecording.clockLine(time))
        if buffer.count >= InputRecordingWriter.bufferSize { flush() }
    }

    private func append(_ line: String) {
        let bytes = line.utf8.count
        // Room for the stopped line (it is short) must stay under the limit.
        if size + bytes > limit - 256 {
            stop(because: "the recording reached its size limit of \(limit) bytes")
            return
        }
        buffer.append(contentsOf: line.utf8)
        size += bytes
    }

    /// Stops recording, writing a `stopped` line with `reason`.
    private func stop(because reason: String) {
        guard stopReason == nil else { return }
        buffer.append(contentsOf: InputRecording.stoppedLine(at: latest, reason: reason).utf8)
        stopReason = reason
        flush()
    }

    /// Writes what is buffered to the file.
    public func flush() {
        guard fd >= 0, !buffer.isEmpty else { return }
        var offset = 0
        let failure: String? = buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += n
            }
            return nil
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure {
            stopReason = "writing \(path) failed: \(failure)"
            _ = Glibc.close(fd)
            fd = -1
        }
    }

    /// Flushes and closes the file. Later events are not recorded.
    public func close() {
        guard fd >= 0 else { return }
        flush()
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
        if stopReason == nil { stopReason = "closed" }
    }
}

/// A recording file that cannot be created or written, with its path.
public struct RecordingFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}
