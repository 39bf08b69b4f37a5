#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// umockdev-run's write log, read back: the fix library (its item 11) notes, for every frame
/// umockdev-run writes to a mock node's pseudo-terminal, the frame's recorded time (its first
/// event's `tv_sec`, `tv_usec`, in microseconds) and the time it was sent (CLOCK_MONOTONIC, in
/// microseconds), in a ring of the last `capacity` frames per pseudo-terminal
/// (`<directory>/write-log-pts<N>`). A feeder (`MockDeviceFeed`) reads it to know when a step
/// it wrote has been played to the reader: a signal, not a wait for the step's length.
///
/// The file's layout is the C library's `struct write_log`: a `uint64_t` count of frames
/// noted, then `capacity` entries of two `int64_t` (recorded, sent); entry i is at i mod
/// capacity.
package struct UmockdevWriteLog: Sendable {
    /// Entries of the ring (the C library's WRITE_LOG_SIZE).
    package static let capacity = 256
    static let entrySize = 16

    /// One frame written.
    package struct Entry: Hashable, Sendable {
        package var recordedMicroseconds: Int64
        package var sentMicroseconds: Int64
    }

    /// The directory umockdev-run keeps its write log in (`UmockdevRunner.writeLog`).
    package var directory: String

    package init(directory: String) {
        self.directory = directory
    }

    /// The log files there (one a pseudo-terminal).
    package func files() -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(UmockdevRunner.writeLogFilePrefix) { names.append(directory + "/" + name) }
        }
        return names.sorted()
    }

    /// The entries of one log file still in its ring, oldest first.
    package static func entries(of path: String) -> [Entry] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 8 + capacity * entrySize)
        var got = 0
        while got < bytes.count {
            let n = bytes[got...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            got += n
        }
        guard got == bytes.count else { return [] }
        func int64(at offset: Int) -> Int64 {
            var v: UInt64 = 0
            for i in 0..<8 { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
            return Int64(bitPattern: v)
        }
        let count = Int(int64(at: 0))
        let first = max(0, count - capacity)
        return (first..<count).map { i in
            let offset = 8 + (i % capacity) * entrySize
            return Entry(recordedMicroseconds: int64(at: offset), sentMicroseconds: int64(at: offset + 8))
        }
    }

    /// When the frame recorded at `recordedMicroseconds` was sent, if any log has it.
    package func sentTime(ofFrameRecordedAt recordedMicroseconds: Int64) -> Int64? {
        for file in files() {
            if let entry = Self.entries(of: file).last(where: { $0.recordedMicroseconds == recordedMicroseconds }) {
                return entry.sentMicroseconds
            }
        }
        return nil
    }
}
