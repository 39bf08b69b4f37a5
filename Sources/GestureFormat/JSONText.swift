/// The package's one JSON writer: the text of JSON values, for every JSON line GestureKit
/// prints (replay records, libinput events, summaries). Objects are written field by field
/// in a fixed order, so the same value always prints the same bytes.

/// JSON text for a string, with the escapes JSON requires.
public func jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if u.value < 0x20 {
                let h = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}

/// A number for JSON: rounded to 6 decimals (microseconds, micro-points), shortest form, no
/// exponent for ordinary magnitudes, "-0" printed as "0", NaN and the infinities as `null`.
public func jsonNumber(_ x: Double) -> String {
    x.isFinite ? DecimalText.trimmed(x, digits: 6) : "null"
}

/// Seconds for JSON from nanoseconds, with microsecond precision ("0.350000").
public func jsonSeconds(nanoseconds: Int64) -> String {
    DecimalText.seconds(nanoseconds: nanoseconds)
}

/// A JSON object written field by field, in the order the fields are added, as UTF-8 bytes
/// (`bytes`, or `append(to:)` straight into an output buffer; `json` as a `String`).
///
/// Keys and string values go through `appendString`, which copies a string's UTF-8 bytes as
/// they are unless one needs an escape (then `jsonString` writes it): the replay's keys, ids,
/// phases and reasons are plain text, and a `replay --json` of 100,000 lines spent most of
/// its formatting time building and escaping small strings.
public struct JSONObjectText: Sendable {
    public private(set) var bytes: [UInt8]
    private var empty = true

    public init() {
        bytes = [UInt8(ascii: "{")]
        bytes.reserveCapacity(192)
    }

    /// An object written at the end of `buffer`, straight into its storage: the object holds
    /// the buffer until `close(into:)` hands it back, the object's text at its end.
    public init(continuing buffer: inout [UInt8]) {
        bytes = []
        swap(&bytes, &buffer)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Closes the object begun with `init(continuing:)` and hands the buffer back to `buffer`.
    public mutating func close(into buffer: inout [UInt8]) {
        bytes.append(UInt8(ascii: "}"))
        swap(&bytes, &buffer)
    }

    private mutating func key(_ key: String) {
        if empty { empty = false } else { bytes.append(UInt8(ascii: ",")) }
        Self.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends `s` as a JSON string (quotes and escapes included) to `out`.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        var plain = true
        for b in s.utf8 where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
            plain = false
            break
        }
        if plain {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: s.utf8)
            out.append(UInt8(ascii: "\""))
        } else {
            out.append(contentsOf: jsonString(s).utf8)
        }
    }

    /// Adds a field whose value is already JSON text.
    public mutating func raw(_ key: String, _ json: String) {
        self.key(key)
        bytes.append(contentsOf: json.utf8)
    }

    public mutating func string(_ key: String, _ value: String) {
        self.key(key)
        Self.appendString(value, to: &bytes)
    }
    public mutating func number(_ key: String, _ value: Double) { raw(key, jsonNumber(value)) }
    public mutating func integer(_ key: String, _ value: some BinaryInteger) { raw(key, "\(value)") }
    public mutating func numbers(_ key: String, _ values: [Double]) {
        array(key, values) { $1.append(contentsOf: jsonNumber($0).utf8) }
    }
    /// Two numbers, `[a,b]` (a point, a size), as `numbers` writes them, with no array made.
    public mutating func pair(_ key: String, _ a: Double, _ b: Double) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        bytes.append(contentsOf: jsonNumber(a).utf8)
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: jsonNumber(b).utf8)
        bytes.append(UInt8(ascii: "]"))
    }
    /// An array of integers.
    public mutating func integers(_ key: String, _ values: [Int]) {
        array(key, values) { $1.append(contentsOf: String($0).utf8) }
    }
    public mutating func strings(_ key: String, _ values: [String]) {
        array(key, values) { Self.appendString($0, to: &$1) }
    }

    /// `key: [v0,v1,…]`, each element written by `element`.
    private mutating func array<Element>(_ key: String, _ values: [Element],
                                         _ element: (Element, inout [UInt8]) -> Void) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (i, v) in values.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            element(v, &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends the object's text (closing brace included) to `out`.
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: bytes)
        out.append(UInt8(ascii: "}"))
    }

    /// The object's text.
    public var json: String {
        var all = bytes
        all.append(UInt8(ascii: "}"))
        return String(decoding: all, as: UTF8.self)
    }
}
