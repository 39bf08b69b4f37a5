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

/// A JSON object written field by field, in the order the fields are added.
public struct JSONObjectText: Sendable {
    private var text = "{"
    private var empty = true

    public init() {}

    /// Adds a field whose value is already JSON text.
    public mutating func raw(_ key: String, _ json: String) {
        text += empty ? "" : ","
        empty = false
        text += jsonString(key)
        text += ":"
        text += json
    }

    public mutating func string(_ key: String, _ value: String) { raw(key, jsonString(value)) }
    public mutating func number(_ key: String, _ value: Double) { raw(key, jsonNumber(value)) }
    public mutating func integer(_ key: String, _ value: some BinaryInteger) { raw(key, "\(value)") }
    public mutating func numbers(_ key: String, _ values: [Double]) {
        raw(key, "[" + values.map(jsonNumber).joined(separator: ",") + "]")
    }
    public mutating func strings(_ key: String, _ values: [String]) {
        raw(key, "[" + values.map(jsonString).joined(separator: ",") + "]")
    }

    /// The object's text.
    public var json: String { text + "}" }
}
