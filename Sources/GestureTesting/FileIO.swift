#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations the tester needs (timelines written, goldens read and written),
/// on the C library, so that GestureTesting needs nothing but Swift and GestureKit.
enum FileIO {
    /// What went wrong with a file, named with its path and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var what: String
        var description: String { "\(path): \(what)" }
    }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The text of the file at `path`, or nil when there is none.
    static func read(_ path: String) throws -> String? {
        guard let file = fopen(path, "rb") else {
            if errno == ENOENT { return nil }
            throw Failure(path: path, what: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n > 0 { bytes += buffer[0..<n] }
            if n < buffer.count { break }
        }
        if ferror(file) != 0 { throw Failure(path: path, what: "could not be read") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` to `path`, making its directories.
    static func write(_ text: String, to path: String) throws {
        try makeDirectories(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
        guard let file = fopen(path, "wb") else { throw Failure(path: path, what: String(cString: strerror(errno))) }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw Failure(path: path, what: "could not be written") }
    }

    /// Makes `path` and the directories above it, as `mkdir -p` does.
    static func makeDirectories(_ path: String) throws {
        guard !path.isEmpty else { return }
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw Failure(path: current, what: String(cString: strerror(errno)))
            }
        }
    }
}
