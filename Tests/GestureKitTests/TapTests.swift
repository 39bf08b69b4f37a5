import Testing
import GestureKit
import GestureTestSupport

@Suite("Tap")
struct TapTests {
    @Test("a quick touch that stays put is a tap, recognized at touch-up")
    func singleTap() {
        let h = Harness()
        var fired = 0
        h.add(TapGestureRecognizer(name: "tap") { _ in fired += 1 })
        h.tap(at: 0, duration: 0.08)
        #expect(h.lines("tap") == ["0.080 tap: possible→ended"], "a single tap recognizes when the finger lifts")
        #expect(fired == 1, "the tap's action runs once")
    }

    struct FailureCase: CustomTestStringConvertible, Sendable {
        let name: String
        let reasonPrefix: String
        let script: @Sendable (Harness) -> Void
        var testDescription: String { name }
    }

    static let failures: [FailureCase] = [
        FailureCase(name: "moved more than the allowable movement", reasonPrefix: "moved 14 pt > allowable 10 pt") { h in
            h.down(0, 500, 500, at: 0)
            h.move(0, 514, 500, at: 0.05)
            h.up(0, 514, 500, at: 0.1)
        },
        FailureCase(name: "held longer than the maximum tap duration", reasonPrefix: "held 0.5 s > maximum tap duration 0.5 s") { h in
            h.down(0, 500, 500, at: 0)
            h.up(0, 500, 500, at: 0.8)
        },
        FailureCase(name: "a second finger on a one-finger tap", reasonPrefix: "2 touches > 1 allowed") { h in
            h.down(0, 500, 500, at: 0)
            h.down(1, 600, 500, at: 0.02)
            h.frame(0.08, [(0, .ended, 500, 500), (1, .ended, 600, 500)])
        },
        FailureCase(name: "the touch is cancelled", reasonPrefix: "touches cancelled") { h in
            h.down(0, 500, 500, at: 0)
            h.frame(0.05, [(0, .cancelled, 500, 500)])
        },
    ]

    @Test("a tap fails, with its reason", arguments: failures)
    func tapFails(_ c: FailureCase) {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        c.script(h)
        h.finish()
        let lines = h.lines("tap")
        #expect(lines.count == 1 && lines[0].hasSuffix("tap: possible→failed"), "the tap fails once: \(lines)")
        #expect(h.reasons["tap"]?.first == c.reasonPrefix, "the reason says why: \(h.reasons["tap"] ?? [])")
    }

    @Test("a two-finger tap needs both fingers down together")
    func twoFingerTap() {
        let h = Harness()
        h.add(TapGestureRecognizer(touches: 2, name: "tap2"))
        h.down(0, 500, 500, at: 0)
        h.down(1, 560, 500, at: 0.03)
        h.up(0, 500, 500, at: 0.09)
        h.up(1, 560, 500, at: 0.1)
        #expect(h.lines("tap2") == ["0.100 tap2: possible→ended"], "recognized when the last finger lifts")
        #expect(h.transitions.last?.location == Point(x: 530, y: 500), "located at the two fingers' centroid")

        let one = Harness()
        one.add(TapGestureRecognizer(touches: 2, name: "tap2"))
        one.tap(at: 0)
        #expect(one.reasons["tap2"] == ["1 touch < 2 required"], "one finger is not a two-finger tap")
    }

    @Test("a double tap is a tap with taps: 2")
    func doubleTap() {
        let h = Harness()
        h.add(TapGestureRecognizer(taps: 2, name: "double"))
        h.tap(at: 0, duration: 0.05)
        h.tap(500, 505, at: 0.2, duration: 0.05)
        #expect(h.lines("double") == ["0.250 double: possible→ended"], "recognized at the second touch-up")
    }

    @Test("a double tap without a second tap fails the maximum interval after the first touch-up")
    func doubleTapTimesOut() {
        let h = Harness()
        h.add(TapGestureRecognizer(taps: 2, name: "double"))
        h.tap(at: 0, duration: 0.05)
        #expect(h.engine.nextDeadline == Instant(seconds: 0.35), "the engine asks to be woken 0.3 s after the touch-up")
        h.finish()
        #expect(h.lines("double") == ["0.350 double: possible→failed"], "fails at up + 0.3 s, on the timer's time")
        #expect(h.reasons["double"] == ["no next tap within 0.3 s"])
    }

    @Test("a pause exactly as long as the interval still counts; one longer does not")
    func intervalBoundary() {
        let exact = Harness()
        exact.add(TapGestureRecognizer(taps: 2, name: "double"))
        exact.tap(at: 0, duration: 0.05)
        exact.tap(at: 0.35, duration: 0.05)
        #expect(exact.lines("double") == ["0.400 double: possible→ended"])

        let late = Harness()
        late.add(TapGestureRecognizer(taps: 2, name: "double"))
        late.tap(at: 0, duration: 0.05)
        late.tap(at: 0.351, duration: 0.05)
        late.finish()
        #expect(late.lines("double").first == "0.350 double: possible→failed", "1 ms too late: the double tap has already failed")
    }

    @Test("a second tap too far from the first fails the double tap")
    func doubleTapTooFar() {
        let h = Harness()
        h.add(TapGestureRecognizer(taps: 2, name: "double"))
        h.tap(0, 500, 500, at: 0)
        h.tap(0, 560, 500, at: 0.15)
        h.finish()
        #expect(h.reasons["double"] == ["tap landed 60 pt from the first > 45 pt"])
    }

    @Test("a triple tap", arguments: [3, 4])
    func manyTaps(_ taps: Int) {
        let h = Harness()
        h.add(TapGestureRecognizer(taps: taps, name: "multi"))
        for i in 0..<taps { h.tap(at: Double(i) * 0.2) }
        #expect(h.lines("multi") == ["\(ms(Instant(seconds: Double(taps - 1) * 0.2 + 0.05))) multi: possible→ended"])
    }
}
