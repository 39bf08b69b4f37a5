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
package enum DecimalText {
    /// The largest number of decimals the formatter rounds to.
    package static let maximumDigits = 9

    private static let powers: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
    private static let integerPowers: [Int64] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000,
                                                 10_000_000, 100_000_000, 1_000_000_000]

    /// `value` with at most `digits` decimals and no trailing zeros.
    package static func trimmed(_ value: Double, digits: Int) -> String {
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
    package static func fixed(_ value: Double, digits: Int) -> String {
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
    package static func fixedPoint(_ units: Int64, digits: Int, trimmingZeros: Bool = false) -> String {
        var bytes: [UInt8] = []
        appendFixedPoint(units, digits: digits, trimmingZeros: trimmingZeros, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Straight into a UTF-8 buffer (the JSON writer's lines: no String a number)

    /// Appends `fixedPoint(units, digits:, trimmingZeros:)`'s text to `out`.
    package static func appendFixedPoint(_ units: Int64, digits: Int, trimmingZeros: Bool,
                                        to out: inout [UInt8]) {
        precondition((0...maximumDigits).contains(digits), "decimals out of range: \(digits)")
        if units < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = units.magnitude
        let scale = UInt64(integerPowers[digits])
        appendDecimal(magnitude / scale, to: &out)
        var fraction = magnitude % scale
        var fractionDigits = digits
        if trimmingZeros {
            while fractionDigits > 0 && fraction % 10 == 0 {
                fraction /= 10
                fractionDigits -= 1
            }
        }
        guard fractionDigits > 0 else { return }
        out.append(UInt8(ascii: "."))
        appendDecimal(fraction, minimumDigits: fractionDigits, to: &out)
    }

    /// Appends `trimmed(value, digits:)`'s text to `out`. Below 1e9 (every time, coordinate
    /// and scale GestureKit prints) it writes the rounded value's digits itself: a decimal of
    /// 15 significant digits or fewer is the shortest text of the Double nearest to it, so the
    /// digits are those `String(_:)` gives (checked over random values by a test). Above,
    /// and for NaN and the infinities, it writes `trimmed`'s text.
    package static func appendTrimmed(_ value: Double, digits: Int, to out: inout [UInt8]) {
        guard value.isFinite, abs(value) < 1e9, digits <= 6 else {
            out.append(contentsOf: trimmed(value, digits: digits).utf8)
            return
        }
        let units = Int64((value * powers[digits]).rounded())
        appendFixedPoint(units, digits: digits, trimmingZeros: true, to: &out)
    }

    /// Appends Swift's shortest round-trip text of `value` (`value.description`: "0.1",
    /// "312.5625", "1e-07", "nan") to `out` without making a string (`writeShortest`). NaN
    /// and the infinities are written from `description` (the stream form spells a NaN's
    /// payload).
    package static func appendShortest(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: value.description.utf8)
            return
        }
        out.append(addingCapacity: maximumShortestBytes) { room in
            room.withUnsafeMutableBufferPointer { free, initialized in
                initialized += writeShortest(value, into: free.baseAddress! + initialized)
            }
        }
    }

    /// The most bytes a finite `Double`'s shortest text takes ("-2.2250738585072014e-308").
    package static let maximumShortestBytes = 24

    /// Writes the shortest round-trip text of a finite `value` at `start`, which has room for
    /// `maximumShortestBytes`; returns how many bytes it wrote. `Double.write(to:)` formats
    /// into a buffer on the stack and hands the digits to the stream's `_writeASCII`, which
    /// `ShortestTextSink` copies to `start`: no string is made.
    package static func writeShortest(_ value: Double, into start: UnsafeMutablePointer<UInt8>) -> Int {
        precondition(value.isFinite, "writeShortest is for finite numbers: \(value)")
        var sink = ShortestTextSink(start: start)
        value.write(to: &sink)
        return sink.count
    }

    /// Appends `n`'s decimal digits to `out`, with leading zeros up to `minimumDigits`.
    package static func appendDecimal(_ n: UInt64, minimumDigits: Int = 1, to out: inout [UInt8]) {
        if n < 10, minimumDigits <= 1 {
            // One digit (a device, a touch's id): no room to make first.
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n))
            return
        }
        out.append(addingCapacity: max(maximumIntegerBytes, minimumDigits)) { room in
            room.withUnsafeMutableBufferPointer { free, initialized in
                initialized += writeDecimal(n, minimumDigits: minimumDigits, into: free.baseAddress! + initialized)
            }
        }
    }

    /// The most bytes an integer's text takes: 20 digits, or 19 and a minus sign.
    package static let maximumIntegerBytes = 20

    /// Writes `n`'s decimal digits, with leading zeros up to `minimumDigits`, at `start`, which
    /// has room for `max(maximumIntegerBytes, minimumDigits)` bytes; returns how many it wrote.
    package static func writeDecimal(_ n: UInt64, minimumDigits: Int = 1, into start: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 1
        var rest = n / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        length = max(length, minimumDigits)
        // Written backwards from the last digit, zeros filling what is left.
        rest = n
        var at = length
        while at > 0 {
            at -= 1
            start[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        return length
    }

    /// Writes `n`'s decimal text (a minus sign first if it is negative) at `start`, which has
    /// room for `maximumIntegerBytes`; returns how many bytes it wrote.
    package static func writeInteger(_ n: Int64, into start: UnsafeMutablePointer<UInt8>) -> Int {
        guard n < 0 else { return writeDecimal(n.magnitude, into: start) }
        start.pointee = UInt8(ascii: "-")
        return 1 + writeDecimal(n.magnitude, into: start + 1)
    }

    /// Appends `n`'s decimal text (a minus sign first if it is negative) to `out`.
    package static func appendInteger(_ n: Int64, to out: inout [UInt8]) {
        if n < 0 { out.append(UInt8(ascii: "-")) }
        appendDecimal(n.magnitude, to: &out)
    }

    /// Nanoseconds as seconds with microsecond precision ("0.300000"), rounded half away
    /// from zero.
    package static func seconds(nanoseconds: Int64) -> String {
        fixedPoint(microseconds(nanoseconds), digits: 6)
    }

    /// Appends `seconds(nanoseconds:)`'s text to `out`.
    package static func appendSeconds(nanoseconds: Int64, to out: inout [UInt8]) {
        appendFixedPoint(microseconds(nanoseconds), digits: 6, trimmingZeros: false, to: &out)
    }

    private static func microseconds(_ nanoseconds: Int64) -> Int64 {
        (nanoseconds + (nanoseconds >= 0 ? 500 : -500)) / 1000
    }
}

/// The stream `DecimalText.writeShortest` formats into: the standard library hands a finite
/// number's ASCII digits to `_writeASCII` (a requirement of `TextOutputStream` whose default
/// makes a `String`); taking them as bytes keeps the formatting free of allocation. The
/// digits of one number (`DecimalText.maximumShortestBytes` at most) are written at `start`.
private struct ShortestTextSink: TextOutputStream {
    let start: UnsafeMutablePointer<UInt8>
    var count = 0

    mutating func write(_ string: String) {
        for byte in string.utf8 { put(byte) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        precondition(count + buffer.count <= DecimalText.maximumShortestBytes,
                     "a number's text is longer than \(DecimalText.maximumShortestBytes) bytes")
        guard let bytes = buffer.baseAddress else { return }
        (start + count).initialize(from: bytes, count: buffer.count)
        count += buffer.count
    }

    private mutating func put(_ byte: UInt8) {
        precondition(count < DecimalText.maximumShortestBytes,
                     "a number's text is longer than \(DecimalText.maximumShortestBytes) bytes")
        start[count] = byte
        count += 1
    }
}
