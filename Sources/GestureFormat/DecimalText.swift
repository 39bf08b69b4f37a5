/// The package's one number formatter: every number GestureKit prints (JSON lines, trace
/// reasons, SVG coordinates, summaries, the photo wall's captions) goes through it, so a value
/// reads the same everywhere. Decimal text without Foundation, rounded half away from zero.
///
/// Two shapes:
/// - *trimmed*: at most `digits` decimals, no trailing zeros, an integer without a point,
///   "-0" printed as "0" (`1.5`, `2`, `0.333`);
/// - *fixed*: exactly `digits` decimals (`1.500`, `0.300000`).
///
/// Magnitudes from 1e15 up have no fraction worth printing and would overflow the integer
/// arithmetic: they are printed in Swift's shortest form ("4.4e+52"), as are NaN and the
/// infinities ("nan", "inf"; JSON has its own rule, ``jsonNumber(_:)``).
public enum DecimalText {
    /// The largest number of decimals the formatter rounds to.
    public static let maximumDigits = 9

    private static let powers: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
    private static let integerPowers: [Int64] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000,
                                                 10_000_000, 100_000_000, 1_000_000_000]

    /// `value` with at most `digits` decimals and no trailing zeros.
    public static func trimmed(_ value: Double, digits: Int) -> String {
        precondition((0...maximumDigits).contains(digits), "decimals out of range: \(digits)")
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        let p = powers[digits]
        let r = (value * p).rounded() / p
        if r == 0 { return "0" }
        if r == r.rounded() { return String(Int64(r)) }
        let shortest = String(r)
        // Looked for byte by byte: a Character search costs more than the rest of the line.
        if !shortest.utf8.contains(UInt8(ascii: "e")) { return shortest }
        // Below 1e-4 Swift writes an exponent: write the decimals out instead.
        return fixedPoint(Int64((r * p).rounded()), digits: digits, trimmingZeros: true)
    }

    /// `value` with exactly `digits` decimals.
    public static func fixed(_ value: Double, digits: Int) -> String {
        let text = trimmed(value, digits: digits)
        guard value.isFinite, abs(value) < 1e15, digits > 0 else { return text }
        guard let point = text.firstIndex(of: ".") else {
            return text + "." + String(repeating: "0", count: digits)
        }
        let decimals = text.distance(from: text.index(after: point), to: text.endIndex)
        return text + String(repeating: "0", count: digits - decimals)
    }

    /// An integer count of `10^-digits` units as decimal text: `fixedPoint(300_000, digits: 6)`
    /// is "0.300000" (microseconds as seconds).
    public static func fixedPoint(_ units: Int64, digits: Int, trimmingZeros: Bool = false) -> String {
        precondition((0...maximumDigits).contains(digits), "decimals out of range: \(digits)")
        let sign = units < 0 ? "-" : ""
        let magnitude = units.magnitude
        let scale = UInt64(integerPowers[digits])
        guard digits > 0 else { return "\(sign)\(magnitude)" }
        var fraction = String(magnitude % scale)
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        if trimmingZeros {
            while fraction.hasSuffix("0") { fraction.removeLast() }
            if fraction.isEmpty { return magnitude == 0 ? "0" : "\(sign)\(magnitude / scale)" }
        }
        return "\(sign)\(magnitude / scale).\(fraction)"
    }

    /// Nanoseconds as seconds with microsecond precision ("0.300000"), rounded half away
    /// from zero.
    public static func seconds(nanoseconds: Int64) -> String {
        let micros = (nanoseconds + (nanoseconds >= 0 ? 500 : -500)) / 1000
        return fixedPoint(micros, digits: 6)
    }
}
