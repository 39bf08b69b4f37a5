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
