import GestureKit
import GestureFormat
import Testing

/// The one number formatter: what every printed number looks like.
@Suite struct DecimalTextTests {
    @Test(arguments: [
        (1.23456, 3, "1.235"), (2.0, 3, "2"), (-0.0001, 3, "0"), (-0.0006, 3, "-0.001"),
        (0.1 + 0.2, 2, "0.3"), (1234.5, 1, "1234.5"), (-7.25, 1, "-7.3"), (1e20, 2, "1e+20"),
        (0.00005, 6, "0.00005"), (-0.000001, 6, "-0.000001"), (12.000_000_4, 6, "12"),
    ] as [(Double, Int, String)])
    func trimmed(value: Double, digits: Int, text: String) {
        #expect(DecimalText.trimmed(value, digits: digits) == text,
                "\(value) to at most \(digits) decimals should read \(text)")
    }

    @Test(arguments: [
        (1.5, 3, "1.500"), (2.0, 2, "2.00"), (-0.001, 2, "0.00"), (0.125, 2, "0.13"), (3.0, 0, "3"),
        (.infinity, 2, "inf"),
    ] as [(Double, Int, String)])
    func fixed(value: Double, digits: Int, text: String) {
        #expect(DecimalText.fixed(value, digits: digits) == text,
                "\(value) to exactly \(digits) decimals should read \(text)")
    }

    @Test func secondsFromNanoseconds() {
        #expect(DecimalText.seconds(nanoseconds: 300_000_000) == "0.300000")
        #expect(DecimalText.seconds(nanoseconds: 1_234_567_890) == "1.234568", "rounded half away from zero")
        #expect(DecimalText.seconds(nanoseconds: -1_500) == "-0.000002")
        #expect(DecimalText.seconds(nanoseconds: 0) == "0.000000")
    }

    @Test func jsonNumbersAreValidJSON() {
        #expect(jsonNumber(.nan) == "null", "JSON has no NaN: it prints null")
        #expect(jsonNumber(-0.0) == "0", "minus zero prints as 0")
        #expect(jsonNumber(0.1234564) == "0.123456")
    }

    @Test func jsonObjectsKeepFieldOrderAndEscapes() {
        var o = JSONObjectText()
        o.string("name", "a \"quoted\"\nline")
        o.numbers("at", [1, 2.5])
        o.integer("n", 3)
        #expect(o.json == #"{"name":"a \"quoted\"\nline","at":[1,2.5],"n":3}"#)
    }

    /// The JSON writer's numbers go straight into its bytes (`appendTrimmed`): below 1e9 it
    /// writes the rounded value's digits itself, which must be `trimmed`'s text, the shortest
    /// form Swift gives the rounded Double.
    @Test(arguments: [0, 1, 2, 3, 6])
    func numbersWrittenAsBytesReadAsTheirText(digits: Int) {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 1e-7, -1e-7, 5e-7, 0.5, -0.5, 1.0000005, 999_999_999.999999,
                                -999_999_999.9999994, 0.000049, 123456.7890125, 1e9 - 1e-7]
        for magnitude in [1e-6, 1e-3, 1, 1e3, 1e6, 1e9] {
            for _ in 0..<20_000 {
                values.append(Double.random(in: -magnitude...magnitude, using: &generator))
            }
        }
        for _ in 0..<20_000 {
            // Values that are already short decimals, as coordinates in points are.
            values.append(Double(Int.random(in: -10_000_000...10_000_000, using: &generator)) / 1000)
        }
        var mismatches: [String] = []
        for value in values {
            var bytes: [UInt8] = []
            DecimalText.appendTrimmed(value, digits: digits, to: &bytes)
            let written = String(decoding: bytes, as: UTF8.self)
            let text = DecimalText.trimmed(value, digits: digits)
            if written != text { mismatches.append("\(value): \(written) instead of \(text)") }
        }
        #expect(mismatches.isEmpty, "every number written as bytes reads as its text: \(mismatches.prefix(5))")
    }

    @Test func shortestTextWrittenAsBytesReadsAsDescription() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 0.1, 1e-7, -1e-300, 5e-324, .greatestFiniteMagnitude, 312.5625,
                                .nan, .infinity, -.infinity, 0.1 + 0.2, 1e15, 123456789.123456789]
        for magnitude in [1e-6, 1, 1e3, 1e9] {
            for _ in 0..<2_000 {
                values.append(Double.random(in: -magnitude...magnitude, using: &generator))
            }
        }
        for _ in 0..<2_000 { values.append(Double(bitPattern: generator.next())) }  // NaN payloads included
        var mismatches: [String] = []
        for value in values {
            var bytes: [UInt8] = Array("x".utf8)
            DecimalText.appendShortest(value, to: &bytes)
            let written = String(decoding: bytes, as: UTF8.self)
            if written != "x" + value.description { mismatches.append("\(value.description): \(written)") }
        }
        #expect(mismatches.isEmpty, "a number written as bytes reads as its shortest text, after what was there: \(mismatches.prefix(5))")
    }

    @Test func integersAndSecondsWrittenAsBytesReadAsTheirText() {
        for n: Int64 in [0, 7, -7, 10, 1_000_000, .max, .min + 1, .min] {
            var bytes: [UInt8] = []
            DecimalText.appendInteger(n, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "\(n)")
        }
        for ns: Int64 in [0, 300_000_000, 1_234_567_890, -1_500, 999_999_999_999] {
            var bytes: [UInt8] = []
            DecimalText.appendSeconds(nanoseconds: ns, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == DecimalText.seconds(nanoseconds: ns))
        }
    }
}

/// Durations as whole nanoseconds, the engine's clock unit, across every magnitude.
@Suite struct DurationNanosecondsTests {
    @Test(arguments: [
        Duration.milliseconds(300), .milliseconds(-300), .seconds(3), .seconds(100), .seconds(-100),
        .nanoseconds(1), .nanoseconds(-1), .zero, .seconds(9), .seconds(10), .seconds(1_000_000),
        .seconds(-1_000_000), .seconds(Int64(9e9)), .seconds(Double(1e-10)),
    ])
    func nanosecondCountMatchesComponents(duration: Duration) {
        let (seconds, attoseconds) = duration.components
        #expect(duration.nanosecondCount == seconds * 1_000_000_000 + attoseconds / 1_000_000_000,
                "\(duration) should be \(seconds) s and \(attoseconds / 1_000_000_000) ns")
    }
}
