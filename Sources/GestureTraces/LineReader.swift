#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file line by line with POSIX `read()` into one reusable byte buffer.
///
/// `nextLine()` hands out a view into the buffer that is valid until the next call: nothing
/// is copied, no `String` is built. Memory stays flat: the buffer is 64 KiB and only grows
/// for a line longer than that (up to `maximumLineLength`, beyond which reading fails).
final class LineReader {
    static let maximumLineLength = 1 << 20

    let path: String
    private let fd: Int32
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Start of the unread bytes in `buffer`.
    private var start = 0
    /// End of the valid bytes in `buffer`.
    private var end = 0
    private var atEOF = false
    /// File offset of `buffer[0]`.
    private var bufferFileOffset: Int64
    /// Number of the line `nextLine()` returned last (1-based).
    private(set) var lineNumber: Int
    /// File offset of the first byte of the line `nextLine()` returned last.
    private(set) var lineOffset: Int64 = 0
    /// Whether the line `nextLine()` returned last ended with a line end (false only for a
    /// last line the file cuts off).
    private(set) var lineWasTerminated = true

    /// Opens `path` and positions at `offset`, which is the start of line `lineNumber + 1`.
    init(path: String, offset: Int64 = 0, lineNumber: Int = 0, bufferSize: Int = 64 * 1024) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw TraceError(.unreadable, file: path, "cannot open the file (\(LineReader.errnoText()))")
        }
        if offset > 0 {
            guard lseek(fd, off_t(offset), SEEK_SET) >= 0 else {
                close(fd)
                throw TraceError(.unreadable, file: path, "cannot seek in the file (\(LineReader.errnoText()))")
            }
        }
        self.fd = fd
        self.capacity = max(bufferSize, 64)
        self.buffer = .allocate(capacity: capacity)
        self.bufferFileOffset = offset
        self.lineNumber = lineNumber
    }

    deinit {
        close(fd)
        buffer.deallocate()
    }

    static func errnoText() -> String {
        if let s = strerror(errno) { return String(cString: s) }
        return "errno \(errno)"
    }

    /// The first bytes of the file (up to `count`), without consuming them. Used to detect
    /// the format and binary content.
    func peek(_ count: Int) throws -> UnsafeBufferPointer<UInt8> {
        while end - start < count && !atEOF {
            try fill()
        }
        return UnsafeBufferPointer(start: buffer + start, count: min(count, end - start))
    }

    /// The next line, without its terminator (`\n` or `\r\n`); nil at the end of the file.
    /// The view is valid until the next call.
    @inline(__always)
    func nextLine() throws -> UnsafeBufferPointer<UInt8>? {
        while true {
            let available = end - start
            if available > 0, let hit = memchr(buffer + start, 0x0A, available) {
                let newline = hit.assumingMemoryBound(to: UInt8.self) - buffer
                var lineEnd = newline
                if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = UnsafeBufferPointer(start: buffer + start, count: lineEnd - start)
                lineOffset = bufferFileOffset &+ Int64(start)
                start = newline + 1
                lineNumber &+= 1
                lineWasTerminated = true
                return line
            }
            if atEOF {
                guard start < end else { return nil }
                var lineEnd = end
                if buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = UnsafeBufferPointer(start: buffer + start, count: lineEnd - start)
                lineOffset = bufferFileOffset &+ Int64(start)
                start = end
                lineNumber &+= 1
                lineWasTerminated = false
                return line
            }
            try fill()
        }
    }

    /// Reads more bytes: compacts the buffer, grows it when one line fills it.
    private func fill() throws {
        if start > 0 {
            let remaining = end - start
            if remaining > 0 { memmove(buffer, buffer + start, remaining) }
            bufferFileOffset &+= Int64(start)
            end = remaining
            start = 0
        }
        if end == capacity {
            guard capacity < LineReader.maximumLineLength else {
                throw TraceError(.lineTooLong, file: path, line: lineNumber &+ 1,
                                 "expected a line shorter than \(LineReader.maximumLineLength) bytes")
            }
            let newCapacity = min(capacity * 2, LineReader.maximumLineLength)
            let newBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            newBuffer.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = newBuffer
            capacity = newCapacity
        }
        while true {
            let n = read(fd, buffer + end, capacity - end)
            if n < 0 {
                if errno == EINTR { continue }
                throw TraceError(.unreadable, file: path, line: lineNumber &+ 1,
                                 "cannot read the file (\(LineReader.errnoText()))")
            }
            if n == 0 { atEOF = true } else { end += n }
            return
        }
    }
}

// MARK: - Byte scanning

enum ASCII {
    static let tab: UInt8 = 0x09
    static let space: UInt8 = 0x20
    static let hash: UInt8 = 0x23
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let at: UInt8 = 0x40
    static let openBracket: UInt8 = 0x5B
    static let closeBracket: UInt8 = 0x5D
    static let openParen: UInt8 = 0x28
    static let closeParen: UInt8 = 0x29
    static let quote: UInt8 = 0x22
}

/// A cursor over one line's bytes. Every read is bounds-checked against `count`; numbers are
/// accumulated with overflow checks, so no input can trap.
struct ByteCursor {
    let base: UnsafePointer<UInt8>
    let count: Int
    var index = 0

    @inline(__always)
    init(_ line: UnsafeBufferPointer<UInt8>) {
        // An empty buffer may have a nil base address; point at a static byte instead.
        self.base = line.baseAddress ?? ByteCursor.emptyBase
        self.count = line.count
    }

    nonisolated(unsafe) private static let emptyBase: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.initialize(to: 0)
        return UnsafePointer(p)
    }()

    @inline(__always) var atEnd: Bool { index >= count }
    @inline(__always) var current: UInt8 { index < count ? base[index] : 0 }

    @inline(__always)
    mutating func skipSpaces() {
        while index < count, base[index] == ASCII.space || base[index] == ASCII.tab { index += 1 }
    }

    /// True (and consumes it) when the next byte is `byte`.
    @inline(__always)
    mutating func eat(_ byte: UInt8) -> Bool {
        if index < count && base[index] == byte { index += 1; return true }
        return false
    }

    /// True (and consumes it) when the bytes at the cursor are `prefix`.
    mutating func eat(_ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard count - index >= n else { return false }
        let p = prefix.utf8Start
        for k in 0..<n where base[index + k] != p[k] { return false }
        index += n
        return true
    }

    /// True when only spaces or a `#` comment remain.
    mutating func atEndOrComment() -> Bool {
        skipSpaces()
        return index >= count || base[index] == ASCII.hash
    }

    /// A decimal integer with optional sign. nil (cursor unchanged) when there is no digit or
    /// the value does not fit in 18 digits.
    @inline(__always)
    mutating func decimal() -> Int64? {
        let saved = index
        var negative = false
        if index < count {
            if base[index] == ASCII.minus { negative = true; index += 1 }
            else if base[index] == ASCII.plus { index += 1 }
        }
        var value: Int64 = 0
        var digits = 0
        while index < count {
            let d = base[index] &- ASCII.zero
            if d > 9 { break }
            if digits >= 18 { index = saved; return nil }
            value = value &* 10 &+ Int64(d)
            digits += 1
            index += 1
        }
        if digits == 0 { index = saved; return nil }
        return negative ? -value : value
    }

    /// Unsigned decimal digits only (no sign); returns the value and the number of digits.
    @inline(__always)
    mutating func unsignedDigits() -> (value: Int64, digits: Int)? {
        var value: Int64 = 0
        var digits = 0
        while index < count {
            let d = base[index] &- ASCII.zero
            if d > 9 { break }
            if digits >= 18 { return nil }
            value = value &* 10 &+ Int64(d)
            digits += 1
            index += 1
        }
        return digits == 0 ? nil : (value, digits)
    }

    /// Hex digits (no `0x`), at most 8. nil (cursor unchanged) when there is none, or the next
    /// byte after them is not a separator (so `00zz` is not read as `00`).
    @inline(__always)
    mutating func hex() -> UInt32? {
        let saved = index
        var value: UInt32 = 0
        var digits = 0
        while index < count {
            let c = base[index]
            let v: UInt8
            if c &- ASCII.zero <= 9 { v = c &- ASCII.zero }
            else if c &- 0x61 <= 5 { v = c &- 0x61 &+ 10 }
            else if c &- 0x41 <= 5 { v = c &- 0x41 &+ 10 }
            else { break }
            if digits >= 8 { index = saved; return nil }
            value = value << 4 | UInt32(v)
            digits += 1
            index += 1
        }
        if digits == 0 || !(index >= count || base[index] == ASCII.space || base[index] == ASCII.tab) {
            index = saved
            return nil
        }
        return value
    }

    /// A decimal number such as `-12.34` (no exponent). nil when malformed.
    mutating func double() -> Double? {
        let saved = index
        var negative = false
        if eat(ASCII.minus) { negative = true } else { _ = eat(ASCII.plus) }
        var value = 0.0
        var digits = 0
        while index < count, base[index] &- ASCII.zero <= 9 {
            if digits < 30 { value = value * 10 + Double(base[index] &- ASCII.zero) }
            digits += 1
            index += 1
        }
        if eat(ASCII.dot) {
            var scale = 0.1
            while index < count, base[index] &- ASCII.zero <= 9 {
                if digits < 40 { value += Double(base[index] &- ASCII.zero) * scale; scale *= 0.1 }
                digits += 1
                index += 1
            }
        }
        if digits == 0 { index = saved; return nil }
        return negative ? -value : value
    }

    /// A decimal number of seconds such as `+0.079` or `12.5`, as nanoseconds (exact for up to
    /// 9 fraction digits; more are ignored). nil when malformed or out of range.
    mutating func secondsAsNanoseconds() -> Int64? {
        let saved = index
        var negative = false
        if eat(ASCII.minus) { negative = true } else { _ = eat(ASCII.plus) }
        guard let whole = unsignedDigits(), whole.value <= 9_000_000_000 else { index = saved; return nil }
        var nanos = whole.value &* 1_000_000_000
        if eat(ASCII.dot) {
            var scale: Int64 = 100_000_000
            var any = false
            while index < count, base[index] &- ASCII.zero <= 9 {
                nanos &+= Int64(base[index] &- ASCII.zero) &* scale
                scale /= 10
                any = true
                index += 1
            }
            if !any { index = saved; return nil }
        }
        return negative ? -nanos : nanos
    }

    /// The next whitespace-delimited token.
    mutating func token() -> UnsafeBufferPointer<UInt8> {
        skipSpaces()
        let s = index
        while index < count, base[index] != ASCII.space, base[index] != ASCII.tab { index += 1 }
        return UnsafeBufferPointer(start: base + s, count: index - s)
    }

    /// The rest of the line as a String (for messages and leisurely header parsing).
    func rest() -> String {
        guard index < count else { return "" }
        return String(decoding: UnsafeBufferPointer(start: base + index, count: count - index), as: UTF8.self)
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes as a String (lossy for invalid UTF-8); for header lines and messages only.
    var string: String { String(decoding: self, as: UTF8.self) }

    /// Leading spaces (tabs count as one).
    var indentation: Int {
        var i = 0
        while i < count, self[i] == ASCII.space || self[i] == ASCII.tab { i += 1 }
        return i
    }

    func hasPrefix(_ prefix: StaticString, at offset: Int = 0) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard offset >= 0, count - offset >= n else { return false }
        let p = prefix.utf8Start
        for k in 0..<n where self[offset + k] != p[k] { return false }
        return true
    }

    /// True when the line is blank or a `#` comment.
    var isBlankOrComment: Bool {
        let i = indentation
        return i >= count || self[i] == ASCII.hash
    }
}

/// Shortens a line for an error message.
package func quoted(_ text: String, limit: Int = 60) -> String {
    let trimmed = text.count > limit ? String(text.prefix(limit)) + "…" : text
    return "'\(trimmed)'"
}
