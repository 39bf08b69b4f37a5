import GestureKit
import GestureTesting
import Testing

@Suite("The tester's defaults are what people's fingers did in the project's recordings")
struct MeasuredDefaultsTests {
    static let measured = Result { try MeasuredPeople.measure() }

    @Test("Tap holds, pauses between taps, report rates, finger spacing and staggers, measured from Fixtures/ts-…, are the tester's defaults and sweep ranges")
    func defaultsAreMeasured() throws {
        let m = try Self.measured.get()
        func ms(_ v: [Double]) -> String { v.map { String(Int($0.rounded())) }.joined(separator: ", ") }
        func mm(_ v: [Double]) -> String { v.map { String(Int($0.rounded())) }.joined(separator: ", ") }
        // The table the documentation and Benchmarks quote (swift test --filter MeasuredDefaultsTests).
        print("""
            measured people (Fixtures/ts-…):
            tap holds (ms), \(m.tapHolds.count): \(ms(m.tapHolds)); median \(ms([MeasuredPeople.median(m.tapHolds)]))
            pauses between taps (ms), \(m.tapGaps.count): \(ms(m.tapGaps)); median \(ms([MeasuredPeople.median(m.tapGaps)]))
            report rates (Hz): \(m.reportRates.sorted { $0.key < $1.key }.map { "\($0.key) \(Int($0.value.rounded()))" }.joined(separator: "; "))
            nearest neighbour of fingers landing together (mm): \(mm(m.neighbourSpacings))
            a second finger joining the first (mm): \(mm(m.secondFingerDistances)); median \(mm([MeasuredPeople.median(m.secondFingerDistances)]))
            fingers landing after the first (ms): \(ms(m.landingStaggers))
            """)
        func tens(_ v: Double) -> Int64 { Int64((v / 10).rounded() * 10) }
        #expect(GestureTester.tapHold == .milliseconds(tens(MeasuredPeople.median(m.tapHolds))),
                "the tap hold is the measured median, to 10 ms")
        #expect(GestureTester.tapPause == .milliseconds(tens(MeasuredPeople.median(m.tapGaps))),
                "the pause between taps is the measured median, to 10 ms")
        let people = GestureTester.Sweep.Ranges.people
        #expect(people.tapHold == .milliseconds(Int64(m.tapHolds.first!.rounded()))...(.milliseconds(Int64(m.tapHolds.last!.rounded()))),
                "a sweep's holds span the measured ones")
        #expect(people.tapPause == .milliseconds(Int64(m.tapGaps.first!.rounded()))...(.milliseconds(Int64(m.tapGaps.last!.rounded()))),
                "a sweep's pauses span the measured ones")
        let rates = m.reportRates.values.sorted()
        #expect(rates.first! >= Double(people.sampleRate.lowerBound) && rates.last! <= Double(people.sampleRate.upperBound),
                "a sweep's rates span the measured ones: \(rates)")
        #expect((rates.first!...rates.last!).contains(Double(GestureTester.defaultSampleRate)))
        #expect(Double(tens(MeasuredPeople.median(m.secondFingerDistances))) == GestureTester.pinchFingerDistanceMillimetres,
                "a pinch's fingers land the measured median apart, to 10 mm")
        #expect(m.neighbourSpacings.first! <= GestureTester.fingerSpacingMillimetres
                && GestureTester.fingerSpacingMillimetres <= m.neighbourSpacings.last!)
        #expect(m.landingStaggers.allSatisfy { people.stagger.contains(.milliseconds(Int64($0.rounded()))) },
                "a sweep's staggers span the measured ones: \(m.landingStaggers)")
    }
}
