import GestureFormat

/// Why a trace could not be read: names the file, the line (1-based; 0 when the problem is
/// not on one line, e.g. an empty file) and what was expected there.
///
/// `description` reads like a compiler diagnostic:
/// `trace.evemu:37: expected 4 fields 'E: <sec>.<usec> <type> <code> <value>', found 3`.
public struct TraceError: Error, CustomStringConvertible, Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// The file could not be opened or read.
        case unreadable
        /// The file has no content.
        case empty
        /// The file holds binary data, not a text trace.
        case binary
        /// The content is none of the known trace formats.
        case unknownFormat
        /// Events came before (or without) the device description.
        case missingDescription
        /// A line does not have the shape its format requires.
        case malformedLine
        /// A well-formed line names something out of range (an event type above EV_MAX, ...).
        case outOfRange
        /// A line is longer than the reader accepts (1 MiB).
        case lineTooLong
        /// The operation does not apply to this trace (e.g. raw evdev events of a debug-events text).
        case unsupported
    }

    public var kind: Kind
    /// The path as given to the reader.
    public var file: String
    /// 1-based line number; 0 when the error concerns the whole file.
    public var line: Int
    /// What was expected, in words.
    public var message: String

    public init(_ kind: Kind, file: String, line: Int = 0, _ message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    /// The file, the line and the message, with the file's text in them (a device's name, a
    /// quoted line, the path itself) made safe for a terminal (`printable`).
    public var description: String {
        line > 0 ? "\(printable(file)):\(line): \(printable(message))" : "\(printable(file)): \(printable(message))"
    }
}
