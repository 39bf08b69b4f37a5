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
/// **The file rules** (RECORDING.md, "Files"): a recording holds what a person did with their
/// hands, so its file is created readable by its owner only (mode 0600), and never written
/// through a link planted at its path (`O_NOFOLLOW`). A path that exists is refused unless
/// the writer is asked to replace it (`replacing`): then the recording is written beside it,
/// to a temporary file in the same directory, and renamed over it when it is closed, so the
/// file at the path is the old one or the whole new one, never half of either. `discard()`
/// (a recording of input that turned out bad) removes only the file the writer made.
///
/// A size limit stops it cleanly: the line that would pass the limit is replaced by a
/// `stopped` line saying why, and nothing is written after it (`stopReason`). A write that
/// fails (a full disk, the file size limit) stops it the same way: the file is cut back to its
/// last whole line and ends with a `stopped` line with the system's reason (a line or more
/// given up for room if it must be), so it still replays. A file deleted while recording is
/// noticed at the next flush (its link count is 0) and stops it too. Recording never stops
/// the app.
///
/// What it writes of each event is what its `privacy` lets through (`RecordingPrivacy`: private
/// views, coarse positions, no pen force or tilt, devices named by kind).
///
/// **No run-time exclusivity check on what a recorded event touches** (`stopReason`, `size`,
/// `eventCount`, `latest`, `buffer`: `@exclusivity(unchecked)`). While one of them is read or
/// borrowed, the writer calls nothing that could call back into it: a line is written into
/// `buffer` by `InputRecording.appendLine` (no handler, no app code), and the privacy filter,
/// which may look at the app's views, runs before any of them is borrowed. The checks cost a
/// recorded frame a sixth of its time (`profile-recording` under callgrind).
public final class InputRecordingWriter {
    /// The path as given.
    public let path: String
    /// The largest the file may grow, in bytes.
    public let limit: Int
    /// Whether the recording replaces a file that was at `path` (written aside, renamed over
    /// it when closed).
    public let replacing: Bool
    /// Why the writer stopped, if it has (its limit, a failed write, a deleted file, `close()`).
    @exclusivity(unchecked) public private(set) var stopReason: String?
    /// Bytes written to the file or waiting in the buffer.
    @exclusivity(unchecked) public private(set) var size = 0
    /// Events recorded.
    @exclusivity(unchecked) public private(set) var eventCount = 0

    /// The default size limit: 256 MiB, about four hours of busy multi-touch input.
    public static let defaultLimit = 256 << 20 /* bytes */
    /// How many bytes wait in memory before they are written without a flush: 64 KiB.
    static let bufferSize = 64 << 10 /* bytes */

    private var fd: Int32
    /// Where the lines are written: `path`, or the temporary file beside it when replacing.
    private let writingPath: String
    /// The file the writer made (device and inode), so that only it is ever removed.
    private let identity: (device: UInt64, inode: UInt64)
    /// Lines not yet written to the file.
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    /// Bytes of whole lines in the file: where the next flush starts.
    private var written = 0
    /// Bytes of the header line: a file cut back for room keeps it.
    private var headerBytes = 0
    /// The time of the latest event, for the `stopped` line.
    @exclusivity(unchecked) private var latest: Instant = .zero
    /// What is left out of each event.
    private let filter: PrivacyFilter
    /// Whether `close()` or `discard()` has ended it.
    private var ended = false

    /// Creates the file at `path` (mode 0600, never through a link) and writes the header.
    /// A path that exists is refused unless `replacing`. Events are written as `privacy` lets
    /// them. Throws, with the system's reason and the path, when the file cannot be created or
    /// its header cannot be written.
    public init(path: String, header: InputRecording.Header, limit: Int = InputRecordingWriter.defaultLimit,
                replacing: Bool = false, privacy: RecordingPrivacy = .none) throws {
        self.path = path
        self.limit = max(limit, 1024)
        self.replacing = replacing
        filter = PrivacyFilter(privacy)
        let made = try RecordingFile.create(path, replacing: replacing)
        fd = made.fd
        writingPath = made.path
        identity = made.identity
        buffer.reserveCapacity(InputRecordingWriter.bufferSize)
        append(InputRecording.headerLine(header))
        headerBytes = buffer.count
        flush()
        if let stopReason {
            discard()
            throw RecordingFileError(path: path, message: "cannot write its first line: \(stopReason)")
        }
    }

    deinit { close() }

    /// What is left out of the events written.
    public var privacy: RecordingPrivacy {
        get { filter.privacy }
        set { filter.privacy = newValue }
    }

    /// Marks `view` private from now on (`RecordingPrivacy.markPrivate`).
    public func markPrivate(_ view: View) {
        filter.privacy.markPrivate(view)
    }

    /// Records one event (what its privacy lets through of it).
    public func record(_ event: InputEvent) {
        guard stopReason == nil else { return }
        if let t = event.time { latest = t }
        guard let event = filter.filter(event) else { return }
        let start = buffer.count
        InputRecording.appendLine(event, to: &buffer)
        let bytes = buffer.count - start
        // Room for the stopped line (it is short) must stay under the limit.
        if size + bytes > limit - 256 {
            buffer.removeLast(bytes)
            stop(because: "the recording reached its size limit of \(limit) bytes")
            return
        }
        size += bytes
        eventCount += 1
        if buffer.count >= InputRecordingWriter.bufferSize { flush() }
    }

    /// Records a line already made (a flight recorder's), its line end included.
    package func recordLine(_ line: [UInt8]) {
        guard stopReason == nil else { return }
        if size + line.count > limit - 256 {
            stop(because: "the recording reached its size limit of \(limit) bytes")
            return
        }
        buffer.append(contentsOf: line)
        size += line.count
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

    /// Writes what is buffered to the file. A file deleted meanwhile stops the recording.
    public func flush() {
        guard fd >= 0, !buffer.isEmpty else { return }
        var status = stat()
        if fstat(fd, &status) == 0, status.st_nlink == 0 {
            buffer.removeAll(keepingCapacity: true)
            stopReason = "\(path) was deleted while recording: nothing more is written"
            _ = Glibc.close(fd)
            fd = -1
            return
        }
        var offset = 0
        let failure: Int32? = buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = pwrite(fd, raw.baseAddress! + offset, raw.count - offset, off_t(written + offset))
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        if let failure {
            endAfterFailedWrite(wrote: offset, failure)
        } else {
            written += buffer.count
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// A write failed after `wrote` bytes of the buffer: the file is cut back to its last
    /// whole line and a `stopped` line with the reason is written there; if even that finds no
    /// room, lines are given up from the end, one at a time, until it fits (the header is
    /// kept). The file then replays up to where it stopped.
    private func endAfterFailedWrite(wrote: Int, _ failure: Int32) {
        let reason = "a write failed: \(String(cString: strerror(failure)))"
        stopReason = "writing \(path) failed: \(String(cString: strerror(failure)))"
        var end = written
        if let newline = buffer[..<wrote].lastIndex(of: 0x0A) { end += newline + 1 }
        let stopped = Array(InputRecording.stoppedLine(at: latest, reason: reason).utf8)
        while true {
            _ = ftruncate(fd, off_t(end))
            let n = stopped.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(end)) }
            if n == stopped.count {
                written = end + n
                break
            }
            _ = ftruncate(fd, off_t(end))
            guard end > headerBytes, let previous = lineStart(before: end), previous >= headerBytes else {
                written = end
                break
            }
            end = previous
        }
        size = written
        _ = Glibc.close(fd)
        fd = -1
    }

    /// Where the line that ends at `end` (just after its line end) begins.
    private func lineStart(before end: Int) -> Int? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        var upTo = end - 1  // the line's own line end is not the one searched for
        while upTo > 0 {
            let from = max(0, upTo - chunk.count)
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, upTo - from, off_t(from)) }
            guard n == upTo - from else { return nil }
            if let newline = chunk[..<n].lastIndex(of: 0x0A) { return from + newline + 1 }
            upTo = from
        }
        return 0
    }

    /// Flushes and closes the file; a recording that replaces a file is renamed over it now
    /// (one stopped by a failed write too: it replays up to there). Later events are not
    /// recorded.
    public func close() {
        guard !ended else { return }
        ended = true
        flush()
        if fd >= 0 {
            if replacing { _ = fsync(fd) }
            _ = Glibc.close(fd)
            fd = -1
        }
        if replacing, RecordingFile.isOurs(writingPath, identity), rename(writingPath, path) != 0 {
            let why = "cannot replace \(path): \(String(cString: strerror(errno))); the recording is in \(writingPath)"
            stopReason = stopReason.map { "\($0); \(why)" } ?? why
        }
        if stopReason == nil { stopReason = "closed" }
    }

    /// Stops without keeping anything: the file the writer made is removed (a file that was
    /// at `path` before, when replacing, is left as it was). For a recording of input that
    /// turned out bad.
    public func discard() {
        guard !ended else { return }
        ended = true
        if fd >= 0 {
            _ = Glibc.close(fd)
            fd = -1
        }
        buffer.removeAll()
        if RecordingFile.isOurs(writingPath, identity) { unlink(writingPath) }
        if stopReason == nil { stopReason = "discarded" }
    }
}

/// A recording file that cannot be created or written, with its path.
public struct RecordingFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
    public var description: String { "\(path): \(message)" }
}

/// How a recording's file is made and recognized (the file rules of `InputRecordingWriter`).
package enum RecordingFile {
    /// Creates `path` (mode 0600, `O_EXCL | O_NOFOLLOW`), or, when `replacing`, a temporary file
    /// beside it that is renamed over it later. Returns the open descriptor, the path written
    /// and the file's identity.
    static func create(_ path: String, replacing: Bool) throws -> (fd: Int32, path: String, identity: (device: UInt64, inode: UInt64)) {
        var fd: Int32
        var writing = path
        if replacing {
            var existing = stat()
            if lstat(path, &existing) == 0, (existing.st_mode & S_IFMT) == S_IFDIR {
                throw RecordingFileError(path: path, message: "it is a directory")
            }
            let slash = path.lastIndex(of: "/")
            let directory = slash.map { String(path[...$0]) } ?? ""
            let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
            var template = Array("\(directory).\(name).recording-XXXXXX".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else {
                throw RecordingFileError(path: path, message: "cannot create a file beside it to replace it with: \(String(cString: strerror(errno)))")
            }
            // mkstemp makes it 0600, O_EXCL, under a name no one had.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            writing = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        } else {
            fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                let e = errno
                throw RecordingFileError(path: path, message: e == EEXIST
                    ? "it already exists: a recording replaces a file only when asked to"
                    : "cannot create it: \(String(cString: strerror(e)))")
            }
        }
        var status = stat()
        _ = fstat(fd, &status)
        return (fd, writing, (UInt64(status.st_dev), UInt64(status.st_ino)))
    }

    /// Whether `path` is still the file with `identity` (not another put there meanwhile).
    static func isOurs(_ path: String, _ identity: (device: UInt64, inode: UInt64)) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && UInt64(status.st_dev) == identity.device && UInt64(status.st_ino) == identity.inode
    }

    /// Whether `a` and `b` name one file (the same device and inode, through any links): a
    /// recording must not be written onto the input it records.
    package static func same(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }
}
