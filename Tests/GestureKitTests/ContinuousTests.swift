import Foundation
import Testing
import GestureKit
import GestureTestSupport

@Suite("Long press, pinch, rotation, pan, swipe")
struct ContinuousTests {
    @Test("a long press begins after 0.5 s, changes as the finger moves, ends when it lifts")
    func longPress() {
        let h = Harness()
        var states: [GestureRecognizer.State] = []
        h.add(LongPressGestureRecognizer(name: "press") { states.append($0.state) })
        h.down(0, 500, 500, at: 0)
        h.advance(to: 0.6)
        h.move(0, 540, 500, at: 0.7)
        h.up(0, 540, 500, at: 0.8)
        #expect(h.lines("press") == ["0.500 press: possible→began", "0.700 press: began→changed", "0.800 press: changed→ended"],
                "begins on the timer's time, 0.5 s after touch-down")
        #expect(states == [.began, .changed, .ended], "an action for began, changed and ended")
    }

    @Test("a long press fails when the finger moves more than 10 pt first, or lifts early")
    func longPressFails() {
        let moved = Harness()
        moved.add(LongPressGestureRecognizer(name: "press"))
        moved.down(0, 500, 500, at: 0)
        moved.move(0, 500, 511, at: 0.2)
        moved.finish()
        #expect(moved.reasons["press"] == ["moved 11 pt > allowable 10 pt"])

        let early = Harness()
        early.add(LongPressGestureRecognizer(name: "press"))
        early.tap(at: 0, duration: 0.3)
        #expect(early.reasons["press"] == ["lifted after 0.3 s < minimum press duration 0.5 s"])
    }

    @Test("a long press with two touches needs both")
    func twoFingerPress() {
        let h = Harness()
        h.add(LongPressGestureRecognizer(touches: 2, name: "press"))
        h.down(0, 400, 500, at: 0)
        h.advance(to: 0.7)
        #expect(h.lines("press").isEmpty, "one finger is not enough")
        h.down(1, 600, 500, at: 0.7)
        #expect(h.lines("press") == ["0.700 press: possible→began"], "begins when the second finger arrives after the duration")
    }

    /// Two touches moving apart symmetrically about (500, 500).
    func pinch(_ h: Harness, from: Double, to: Double, steps: Int = 10, start: Double = 0) {
        h.frame(start, [(0, .began, 500 - from, 500), (1, .began, 500 + from, 500)])
        for i in 1...steps {
            let d = from + (to - from) * Double(i) / Double(steps)
            h.frame(start + Double(i) * 0.01, [(0, .moved, 500 - d, 500), (1, .moved, 500 + d, 500)])
        }
        let t = start + Double(steps + 1) * 0.01
        h.frame(t, [(0, .ended, 500 - to, 500), (1, .ended, 500 + to, 500)])
    }

    @Test("pinch scale is relative to the span at began, and velocity is scale per second")
    func pinchScale() throws {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        pinch(h, from: 100, to: 200)
        let began = try #require(h.transitions.first { $0.to == .began })
        #expect(began.values.scale == 1, "scale is 1 at began")
        // Began at the step where the span (100 → 110) changed by 10 pt.
        #expect(ms(began.time) == "0.010")
        let last = try #require(h.transitions.last { $0.to == .changed })
        #expect(abs(last.values.scale! - 200.0 / 110.0) < 1e-9, "scale = span / span at began, not a product of steps")
        #expect(abs(last.values.velocity! - (10.0 / 110.0) / 0.01) < 1e-6, "velocity: the last step's scale change per second")
        #expect(h.lines("pinch").last == "0.110 pinch: changed→ended")
    }

    @Test("a two-finger pan with a steady span is not a pinch")
    func panIsNotPinch() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500)])
        for i in 1...20 {
            let y = 500 + Double(i) * 10
            h.frame(Double(i) * 0.01, [(0, .moved, 400 - Double(i) * 0.2, y), (1, .moved, 600 + Double(i) * 0.2, y)])
        }
        h.frame(0.3, [(0, .ended, 396, 700), (1, .ended, 604, 700)])
        #expect(h.lines("pinch") == ["0.300 pinch: possible→failed"], "a span change of 4 pt stays below the 10 pt threshold")
    }

    @Test("five fingers pinching in: the span is the mean distance from the centroid")
    func fiveFingerPinch() throws {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        let angles = (0..<5).map { Double($0) * 2 * Double.pi / 5 }
        func ring(_ r: Double) -> [(Double, Double)] { angles.map { (500 + r * cos($0), 500 + r * sin($0)) } }
        h.frame(0, ring(200).enumerated().map { ($0.offset, .began, $0.element.0, $0.element.1) })
        for step in 1...10 {
            let r = 200 - Double(step) * 10
            h.frame(Double(step) * 0.02, ring(r).enumerated().map { ($0.offset, .moved, $0.element.0, $0.element.1) })
        }
        let last = try #require(h.transitions.last)
        #expect(abs(last.values.scale! - 100.0 / 190.0) < 1e-9, "began at span 190; now 100")
    }

    @Test("rotation follows the first two touches, clockwise positive")
    func rotation() throws {
        let h = Harness()
        h.add(RotationGestureRecognizer(name: "rotate"))
        h.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500)])
        for i in 1...10 {
            let a = Double(i) * 0.06
            h.frame(Double(i) * 0.01, [(0, .moved, 500 - 100 * cos(a), 500 - 100 * sin(a)),
                                       (1, .moved, 500 + 100 * cos(a), 500 + 100 * sin(a))])
        }
        let began = try #require(h.transitions.first { $0.to == .began })
        #expect(ms(began.time) == "0.040", "begins once the line has turned 0.2 rad (0.24 at the fourth step)")
        let last = try #require(h.transitions.last)
        #expect(abs(last.values.rotation! - 0.6) < 1e-9, "0.6 rad turned from the fingers' initial line (not from where it began), positive: clockwise on screen")
    }

    @Test("pan: begins after 10 pt, translation from where the touch came down, honours touch limits")
    func pan() throws {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.down(0, 500, 500, at: 0)
        h.move(0, 506, 500, at: 0.01)
        h.move(0, 512, 500, at: 0.02)
        h.move(0, 532, 510, at: 0.03)
        h.up(0, 532, 510, at: 0.04)
        #expect(h.lines("pan") == ["0.020 pan: possible→began", "0.030 pan: began→changed", "0.040 pan: changed→ended"])
        let changed = try #require(h.transitions.first { $0.to == .changed })
        #expect(changed.values.translation == Point(x: 32, y: 10), "32 right and 10 down from where the finger came down")
        // Points per second, the slope at the newest sample of the least-squares fit of the last
        // 100 ms (VelocityTracker): through these three samples, a quadratic.
        #expect(abs(changed.values.velocityVector!.x - 2700) < 1e-6 && abs(changed.values.velocityVector!.y - 1500) < 1e-6,
                "points per second, got \(changed.values.velocityVector!)")

        let limited = Harness()
        limited.add(PanGestureRecognizer(minimumTouches: 2, maximumTouches: 2, name: "pan2"))
        limited.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500), (2, .began, 500, 600)])
        #expect(limited.reasons["pan2"] == ["3 touches > 2 allowed"])
    }

    @Test("swipe: far and fast enough in the allowed direction; a swipe the other way fails")
    func swipe() {
        let h = Harness()
        h.add(SwipeGestureRecognizer(direction: .right, name: "swipe"))
        for i in 0...6 { h.frame(Double(i) * 0.02, [(0, i == 0 ? .began : .moved, 300 + Double(i) * 15, 500)]) }
        #expect(h.lines("swipe") == ["0.080 swipe: possible→ended"], "recognized once 60 pt to the right")

        let wrong = Harness()
        wrong.add(SwipeGestureRecognizer(direction: .right, name: "swipe"))
        for i in 0...6 { wrong.frame(Double(i) * 0.02, [(0, i == 0 ? .began : .moved, 300 - Double(i) * 15, 500)]) }
        #expect(wrong.reasons["swipe"] == ["moved left, not an allowed direction"])

        let slow = Harness()
        slow.add(SwipeGestureRecognizer(direction: .right, name: "swipe"))
        slow.down(0, 300, 500, at: 0)
        slow.advance(to: 1)
        #expect(slow.lines("swipe") == ["0.500 swipe: possible→failed"])
    }
}
