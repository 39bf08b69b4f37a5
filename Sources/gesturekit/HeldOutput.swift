import GestureReplay
#if canImport(Glibc)
import Glibc
#endif

/// A replay's output, held back until the whole recording has been read.
///
/// **The rule (REPLAY.md):** a malformed trace prints nothing as if it had been recognized.
/// The replay reads the recording once; what it prints is held here and written to standard
/// output only when the recording has been read to its end without an error (`commit`). A
/// replay that stops at an error throws its output away (`discard`, or the holder going away
/// uncommitted). The first `memoryBytes` stay in memory; past that the output is spooled to an
/// unlinked temporary file, so memory stays flat however long the recording is.
final class HeldOutput {
    /// Bytes kept in memory before the output is spooled to a temporary file.
    static let memoryBytes = 8 << 20 /* bytes: 8 MiB */
    /// `memoryBytes`, or `GESTUREKIT_HELD_OUTPUT_BYTES` where set (the tests spool from the
    /// first line with it).
    let limit: Int
    /// Bytes copied at a time from the spool to the output.
    static let copyBytes = 1 << 20 /* bytes: 1 MiB */

    private var buffer: [UInt8] = []
    private var spool: Int32 = -1
    private var failure: String?

    init() {
        limit = getenv("GESTUREKIT_HELD_OUTPUT_BYTES").flatMap { Int(String(cString: $0)) } ?? HeldOutput.memoryBytes
        buffer.reserveCapacity(64 * 1024)
    }

    /// Holds a line of text.
    func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0a)
        if buffer.count >= limit { spoolBuffer() }
    }

    /// Holds a replay record's JSON line, formatted straight into the buffer.
    func writeJSON(_ record: ReplayRecord) {
        record.appendJSONLine(to: &buffer)
        if buffer.count >= limit { spoolBuffer() }
    }

    private func spoolBuffer() {
        guard failure == nil else { buffer.removeAll(keepingCapacity: true); return }
        if spool < 0 {
            spool = HeldOutput.temporaryFile()
            if spool < 0 {
                failure = "cannot hold the output back: no temporary file (\(String(cString: strerror(errno))))"
                buffer.removeAll(keepingCapacity: true)
                return
            }
        }
        if !HeldOutput.writeAll(buffer[...], to: spool) {
            failure = "cannot hold the output back: writing the temporary file failed (\(String(cString: strerror(errno))))"
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes everything held to `fd`, in order. Throws when the output could not be held.
    func commit(to fd: Int32) throws {
        if let failure { throw HeldOutputError(message: failure) }
        if spool >= 0 {
            _ = lseek(spool, 0, SEEK_SET)
            var chunk = [UInt8](repeating: 0, count: HeldOutput.copyBytes)
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(spool, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                if !HeldOutput.writeAll(chunk[0..<n], to: fd) { break } // a closed pipe: nothing more can be written
            }
        }
        _ = HeldOutput.writeAll(buffer[...], to: fd)
        discard()
    }

    /// Throws everything held away.
    func discard() {
        buffer.removeAll()
        if spool >= 0 {
            close(spool)
            spool = -1
        }
    }

    deinit { discard() }

    private static func writeAll(_ bytes: ArraySlice<UInt8>, to fd: Int32) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// An unlinked file in `$TMPDIR` (or /tmp): gone when closed, whatever happens.
    private static func temporaryFile() -> Int32 {
        var directory = "/tmp"
        if let t = getenv("TMPDIR"), t.pointee != 0 { directory = String(cString: t) }
        var template = Array("\(directory)/gesturekit-replay-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
        return fd
    }
}

struct HeldOutputError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
