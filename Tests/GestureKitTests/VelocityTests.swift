import Foundation
import Testing
@testable import GestureKit
import GestureTestSupport

@Suite("Velocity is recent motion")
struct VelocityTests {
    @Test("a flick, a 0.6 s hold, then a release: the pan ends with no velocity")
    func releaseAfterPause() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        var atEnd: Point?
        pan.addTarget { if $0.state == .ended { atEnd = $0.velocity } }
        h.down(0, 100, 500, at: 0)
        for i in 1...6 { h.move(0, 100 + Double(i) * 50, 500, at: Double(i) * 0.015) }   // 3,333 pt/s
        #expect(pan.velocity.x > 3000, "while flicking the pan reports the flick's speed, got \(pan.velocity.x)")
        h.up(0, 400, 500, at: 0.69)
        #expect(h.lines("pan").last == "0.690 pan: changed→ended")
        #expect(atEnd == .zero, "a release after a pause is no fling: got \(String(describing: atEnd))")
    }

    @Test("a release while moving keeps the speed of the last 100 ms")
    func releaseWhileMoving() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        var atEnd = Point.zero
        pan.addTarget { if $0.state == .ended { atEnd = $0.velocity } }
        h.down(0, 100, 500, at: 0)
        // Slow for 0.3 s (200 pt/s), then fast for 0.1 s (2,000 pt/s), released at once.
        for i in 1...30 { h.move(0, 100 + Double(i) * 2, 500, at: Double(i) * 0.01) }
        for i in 1...10 { h.move(0, 160 + Double(i) * 20, 500, at: 0.3 + Double(i) * 0.01) }
        h.up(0, 360, 500, at: 0.41)
        #expect(h.lines("pan").last == "0.410 pan: changed→ended")
        #expect(abs(atEnd.x - 2000) < 1, "the release reports the last 100 ms, not an average: got \(atEnd.x)")
        #expect(abs(atEnd.y) < 1e-6)
    }

    @Test("the tracker: least squares over the last 100 ms, zero after 40 ms without a move")
    func tracker() {
        var v = VelocityTracker()
        #expect(v.velocity(at: Instant(seconds: 0)) == .zero, "no samples, no velocity")
        v.add(Point(x: 0, y: 0), at: Instant(seconds: 0))
        #expect(v.velocity(at: Instant(seconds: 0)) == .zero, "one sample, no velocity")
        v.add(Point(x: 10, y: -5), at: Instant(seconds: 0.01))
        #expect(abs(v.velocity(at: Instant(seconds: 0.01)).x - 1000) < 1e-6, "two samples: the line through them")
        // Uniformly accelerated: x = 1000 t²; at t = 0.05 the speed is 100 pt/s.
        var a = VelocityTracker()
        for i in 0...5 {
            let t = Double(i) * 0.01
            a.add(Point(x: 1000 * t * t, y: 0), at: Instant(seconds: t))
        }
        #expect(abs(a.velocity(at: Instant(seconds: 0.05)).x - 100) < 1e-6, "the quadratic fit's slope at the newest sample")
        #expect(a.velocity(at: Instant(seconds: 0.091)) == .zero, "41 ms without a move: stopped")
        #expect(a.velocity(at: Instant(seconds: 0.09)) != .zero, "40 ms: still moving")
        // Samples older than 100 ms, or before a gap of over 40 ms, do not count.
        var g = VelocityTracker()
        g.add(Point(x: 0, y: 0), at: Instant(seconds: 0))
        g.add(Point(x: 1000, y: 0), at: Instant(seconds: 0.01))   // a jump, then a pause
        g.add(Point(x: 1000, y: 0), at: Instant(seconds: 0.1))
        g.add(Point(x: 1001, y: 0), at: Instant(seconds: 0.11))
        #expect(abs(g.velocity(at: Instant(seconds: 0.11)).x - 100) < 1e-6, "only the run after the pause counts")
    }

    @Test("the velocity a pan reports is the fit at its last event, however late it is read")
    func lazyVelocityIsTheFitAtTheEvent() {
        // The fit is put off until the velocity is read: what is read, at once or frames
        // later, must be what a tracker asked at the event's own time gives.
        var machine = PanStateMachine()
        var reference = VelocityTracker()
        var position = Point.zero
        var previous = Point(x: 100, y: 100)
        _ = machine.touchesBegan([touch(at: previous, time: 0)], at: Instant(seconds: 0))
        var checked = 0
        var lastTime = Instant.zero
        for i in 1...40 {
            // Speeding up, with a pause of 60 ms after the 20th move.
            let seconds = Double(i) * 0.008 + (i > 20 ? 0.06 : 0)
            let time = Instant(seconds: seconds)
            let p = Point(x: 100 + 3000 * seconds * seconds, y: 100 + 4 * Double(i))
            _ = machine.touchesMoved([touch(at: p, time: seconds)], at: time)
            position = position + (p - previous)
            previous = p
            reference.add(position, at: time)
            lastTime = time
            // Every third move is not read at all: the next read must not depend on it.
            guard machine.isActive, i % 3 != 0 else { continue }
            let expected = reference.velocity(at: time)
            #expect(machine.velocity == expected, "read at move \(i): \(machine.velocity), the fit at its time \(expected)")
            checked += 1
        }
        #expect(checked > 20, "the pan began early and was read at most moves")
        let atLastMove = reference.velocity(at: lastTime)
        #expect(machine.velocity == atLastMove, "read after the last move: the fit at that move, not at the time of reading")
        #expect(atLastMove.x > 100, "the pan was moving fast at its last move")
        // Lifted 50 ms after the last move: measured at the lift, it has stopped.
        let liftTime = Instant(nanoseconds: lastTime.nanoseconds + 50_000_000)
        // The lifted touch carries the lift's time, as the engine's touches do (velocities are
        // measured on touches' timestamps).
        _ = machine.touchesEnded([touch(at: previous, time: liftTime.seconds)], at: liftTime)
        #expect(machine.velocity == .zero, "lifted 50 ms after the last move: no velocity, got \(machine.velocity)")
    }

    @Test("setting a pinch's scale keeps the velocity it had until the next change")
    func settingScaleKeepsVelocity() {
        let h = Harness()
        let pinch = h.add(PinchGestureRecognizer(name: "pinch"))
        var seen: [(before: Double, after: Double)] = []
        pinch.addTarget { p in
            guard p.state == .changed else { return }
            let before = p.velocity
            p.scale = 1
            seen.append((before, p.velocity))
        }
        h.down(0, 400, 500, at: 0)
        h.down(1, 600, 500, at: 0)
        for i in 1...10 {
            let d = Double(i) * 10
            h.frame(Double(i) * 0.01, [(0, .moved, 400 - d, 500), (1, .moved, 600 + d, 500)])
        }
        #expect(seen.count > 3)
        for (before, after) in seen {
            #expect(before == after, "the pinch's velocity changed when its scale was set: \(before) → \(after)")
        }
        #expect(seen.contains { $0.before > 0 }, "a spreading pinch has a positive velocity")
    }

    private func touch(at p: Point, time: Double) -> Touch {
        var frame = TouchFrame(time: Instant(seconds: time))
        frame.changes = [TouchChange(sourceID: 0, phase: .moved, location: p)]
        return Touch(id: TouchID(rawValue: 1), change: frame.changes[0], frame: frame)
    }
}
