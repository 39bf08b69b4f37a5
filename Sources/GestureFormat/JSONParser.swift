/// A JSON value, parsed by a small strict parser that reports where a document goes wrong
/// (line and column), with a nesting limit so no input can exhaust the stack.
package enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Keys in document order (scenes are read in order; duplicates are an error).
    case object([(key: String, value: JSONValue)])

    package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case let .bool(b): hasher.combine(b)
        case let .number(n): hasher.combine(n)
        case let .string(s): hasher.combine(s)
        case let .array(a): hasher.combine(a)
        case let .object(o):
            for (k, v) in o {
                hasher.combine(k)
                hasher.combine(v)
            }
        }
    }

    /// What the value is, for error messages ("a string", "an array").
    package var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

package struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    package var line: Int
    package var column: Int
    package var message: String
    package var description: String { "\(line):\(column): \(message)" }
}

/// Parses one JSON document, in time linear in its length: a duplicate key is found through
/// a hash set once an object has more than a few keys, and a caller that knows how many keys
/// its objects have (an input recording's lines: `maximumKeys`) has a longer object refused at
/// its first extra key, before anything else is done with it.
package struct JSONParser {
    /// Arrays and objects nested deeper than this are rejected.
    package static let maximumDepth = 256
    /// Objects with up to this many keys are checked for a duplicate by comparing the new key
    /// with each earlier one; larger ones through a set of their keys.
    static let keysComparedDirectly = 16

    private let bytes: [UInt8]
    private let maximumKeys: Int
    private var index = 0
    private var line = 1
    private var lineStart = 0

    package static func parse(_ text: String) throws -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8), maximumKeys: .max)
        return try parser.document()
    }

    /// Parses `bytes`; an object with more than `maximumKeys` keys is an error at its first
    /// extra key.
    package static func parse(bytes: [UInt8], maximumKeys: Int = .max) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes, maximumKeys: maximumKeys)
        return try parser.document()
    }

    private init(bytes: [UInt8], maximumKeys: Int) {
        self.bytes = bytes
        self.maximumKeys = maximumKeys
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: index - lineStart + 1, message: message)
    }

    private var found: String {
        guard index < bytes.count else { return "the end of the document" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7f { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0d: index += 1
            case 0x0a:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func document() throws -> JSONValue {
        skipSpace()
        if index == 0 && bytes.starts(with: [0xef, 0xbb, 0xbf]) { index = 3 }
        guard index < bytes.count else { throw error("expected a JSON value, found an empty document") }
        let v = try value(depth: 0)
        skipSpace()
        guard index == bytes.count else { throw error("expected the end of the document, found \(found)") }
        return v
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
        skipSpace()
        guard index < bytes.count else { throw error("expected a value, found the end of the document") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value, found \(found)")
        }
    }

    private mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw error("expected '\(word)', found \(found)")
        }
        index += w.count
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        // The keys so far, once there are too many to compare one by one.
        var keys: Set<String> = []
        skipSpace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a key in double quotes, found \(found)")
            }
            let keyLine = line, keyColumn = index - lineStart + 1
            guard members.count < maximumKeys else {
                throw JSONSyntaxError(line: keyLine, column: keyColumn, message: "an object with more than \(maximumKeys) keys")
            }
            let key = try string()
            let duplicate: Bool
            if members.count < JSONParser.keysComparedDirectly {
                duplicate = members.contains { $0.key == key }
            } else {
                if keys.isEmpty { keys = Set(members.lazy.map(\.key)) }
                duplicate = !keys.insert(key).inserted
            }
            if duplicate {
                throw JSONSyntaxError(line: keyLine, column: keyColumn, message: "duplicate key \"\(key)\"")
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after key \"\(key)\", found \(found)")
            }
            index += 1
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard index < bytes.count else { throw error("expected ',' or '}', found the end of the document") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw error("expected ',' or '}', found \(found)")
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw error("expected ',' or ']', found the end of the document") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            throw error("expected ',' or ']', found \(found)")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("expected 4 hex digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("expected a hex digit in \\u escape, found \(found)")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }

    private mutating func string() throws -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                guard let s = String(validating: out, as: UTF8.self) else {
                    throw error("string is not valid UTF-8")
                }
                return s
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5c)
                case UInt8(ascii: "/"): out.append(0x2f)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xd800..<0xdc00).contains(scalar) {
                        guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xdc00..<0xe000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default:
                    index -= 1
                    throw error("unknown escape \\\(found)")
                }
            case 0x00..<0x20:
                throw error("control character in string (escape it)")
            default:
                out.append(b)
                index += 1
            }
        }
    }

    private mutating func number() throws -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let s = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - s
        }
        guard digits() > 0 else { throw error("expected a digit, found \(found)") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected a digit after '.', found \(found)") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected a digit in the exponent, found \(found)") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let v = Double(text), v.isFinite else { throw error("number \(text) is out of range") }
        return v
    }
}

extension JSONValue {
    /// The value of `key` in an object.
    package subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}
