/// The package's one JSON writer: the text of JSON values, for every JSON line GestureKit
/// prints (replay records, libinput events, summaries). Objects are written field by field
/// in a fixed order, so the same value always prints the same bytes.

/// JSON text for a string, with the escapes JSON requires, and DEL and the C1 controls
/// (U+007F to U+009F) escaped as well, so a line printed on a terminal cannot drive it.
package func jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if u.value < 0x20 || (0x7F..<0xA0).contains(u.value) {
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
package func jsonNumber(_ x: Double) -> String {
    x.isFinite ? DecimalText.trimmed(x, digits: 6) : "null"
}

/// Seconds for JSON from nanoseconds, with microsecond precision ("0.350000").
package func jsonSeconds(nanoseconds: Int64) -> String {
    DecimalText.seconds(nanoseconds: nanoseconds)
}

/// A JSON object written field by field, in the order the fields are added, as UTF-8 bytes
/// (`bytes`, or `append(to:)` straight into an output buffer; `json` as a `String`).
///
/// Keys and string values go through `appendString`, which copies a string's UTF-8 bytes as
/// they are unless one needs an escape (then `jsonString` writes it): the replay's keys, ids,
/// phases and reasons are plain text, and a `replay --json` of 100,000 lines spent most of
/// its formatting time building and escaping small strings.
package struct JSONObjectText: Sendable {
    package private(set) var bytes: [UInt8]
    private var empty = true

    package init() {
        bytes = [UInt8(ascii: "{")]
        bytes.reserveCapacity(192)
    }

    /// An object written at the end of `buffer`, straight into its storage: the object holds
    /// the buffer until `close(into:)` hands it back, the object's text at its end.
    package init(continuing buffer: inout [UInt8]) {
        bytes = []
        swap(&bytes, &buffer)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Closes the object begun with `init(continuing:)` and hands the buffer back to `buffer`.
    package mutating func close(into buffer: inout [UInt8]) {
        bytes.append(UInt8(ascii: "}"))
        swap(&bytes, &buffer)
    }

    /// `"key":`, after a comma unless it is the first field. Keys are the writer's own names,
    /// plain text: copied as they are.
    private mutating func key(_ key: StaticString) {
        if empty { empty = false } else { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends `s` as a JSON string (quotes and escapes included) to `out`.
    package static func appendString(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { utf8 in
            guard isPlain(utf8) else {
                out.append(contentsOf: jsonString(String(decoding: utf8, as: UTF8.self)).utf8)
                return
            }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: utf8)
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Whether `utf8` is written between quotes as it is: no byte `jsonString` escapes.
    package static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        // 0x7F is DEL; 0xC2 leads U+0080 to U+00BF, the C1 controls among them.
        for b in utf8 where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b == 0x7F || b == 0xC2 {
            return false
        }
        return true
    }

    /// Appends `jsonNumber(x)`'s text to `out`.
    package static func appendNumber(_ x: Double, to out: inout [UInt8]) {
        if x.isFinite {
            DecimalText.appendTrimmed(x, digits: 6, to: &out)
        } else {
            out.append(contentsOf: "null".utf8)
        }
    }

    /// Adds a field whose value is already JSON text.
    package mutating func raw(_ key: StaticString, _ json: String) {
        self.key(key)
        bytes.append(contentsOf: json.utf8)
    }

    /// Adds a field whose name is made at run time (written as any string is), its value
    /// already JSON text.
    package mutating func raw(named name: String, _ json: String) {
        if empty { empty = false } else { bytes.append(UInt8(ascii: ",")) }
        Self.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: json.utf8)
    }

    package mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        Self.appendString(value, to: &bytes)
    }
    package mutating func number(_ key: StaticString, _ value: Double) {
        self.key(key)
        Self.appendNumber(value, to: &bytes)
    }
    package mutating func integer(_ key: StaticString, _ value: some BinaryInteger) {
        self.key(key)
        if let small = Int64(exactly: value) {
            DecimalText.appendInteger(small, to: &bytes)
        } else {
            bytes.append(contentsOf: "\(value)".utf8)
        }
    }
    /// Seconds from nanoseconds, with microsecond precision, as `jsonSeconds` writes them.
    package mutating func seconds(_ key: StaticString, nanoseconds: Int64) {
        self.key(key)
        DecimalText.appendSeconds(nanoseconds: nanoseconds, to: &bytes)
    }
    package mutating func numbers(_ key: StaticString, _ values: [Double]) {
        array(key, values) { Self.appendNumber($0, to: &$1) }
    }
    /// Two numbers, `[a,b]` (a point, a size), as `numbers` writes them, with no array made.
    package mutating func pair(_ key: StaticString, _ a: Double, _ b: Double) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        Self.appendNumber(a, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        Self.appendNumber(b, to: &bytes)
        bytes.append(UInt8(ascii: "]"))
    }
    /// Two integers, `[a,b]` (an index path), with no array made.
    package mutating func integerPair(_ key: StaticString, _ a: Int, _ b: Int) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        DecimalText.appendInteger(Int64(a), to: &bytes)
        bytes.append(UInt8(ascii: ","))
        DecimalText.appendInteger(Int64(b), to: &bytes)
        bytes.append(UInt8(ascii: "]"))
    }
    /// An array of integers.
    package mutating func integers(_ key: StaticString, _ values: [Int]) {
        array(key, values) { DecimalText.appendInteger(Int64($0), to: &$1) }
    }
    package mutating func strings(_ key: StaticString, _ values: [String]) {
        array(key, values) { Self.appendString($0, to: &$1) }
    }

    /// `key: [v0,v1,…]`, each element written by `element`.
    private mutating func array<Element>(_ key: StaticString, _ values: [Element],
                                         _ element: (Element, inout [UInt8]) -> Void) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        var first = true
        for v in values {
            if first { first = false } else { bytes.append(UInt8(ascii: ",")) }
            element(v, &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends the object's text (closing brace included) to `out`.
    package func append(to out: inout [UInt8]) {
        out.append(contentsOf: bytes)
        out.append(UInt8(ascii: "}"))
    }

    /// The object's text.
    package var json: String {
        var all = bytes
        all.append(UInt8(ascii: "}"))
        return String(decoding: all, as: UTF8.self)
    }
}
