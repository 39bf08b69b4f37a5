import Testing
import GestureKit
import GestureTestSupport

/// Faults at the engine's door, each with the rule the article "Bad input and faults" states:
/// nothing crashes, nothing is left stuck, and what the engine set aside is reported.
@Suite("Faults")
struct FaultTests {
    /// A harness that also collects the `inputIgnored` reasons and the view deliveries.
    final class Recorder {
        let h = Harness()
        var ignored: [String] = []
        var deliveries: [(TouchPhase, [Int])] = []
        init() {
            let previous = h.engine.traceHandler
            h.engine.traceHandler = { [unowned self] event in
                previous?(event)
                if case let .inputIgnored(time, reason) = event { ignored.append("\(ms(time)) \(reason)") }
            }
            h.root.onTouches = { [unowned self] _, phase, touches in deliveries.append((phase, touches.map(\.id.rawValue))) }
        }
    }

    @Test("a device removed mid-gesture cancels its touches and their gestures; later events of them are ignored")
    func deviceRemovedMidGesture() {
        let r = Recorder()
        let pan = r.h.add(PanGestureRecognizer(minimumTouches: 2, name: "pan"))
        let tap = r.h.add(TapGestureRecognizer(name: "tap"))
        r.h.frame(0, [(0, .began, 300, 300), (1, .began, 340, 300)], device: 1)
        r.h.frame(0.05, [(0, .moved, 330, 300), (1, .moved, 370, 300)], device: 1)
        r.h.frame(0.1, [(0, .moved, 360, 300), (1, .moved, 400, 300)], device: 1)
        #expect(pan.state.isActive)
        r.h.engine.deviceRemoved(InputDeviceID(1), at: Instant(seconds: 0.15))
        r.h.down(0, 700, 700, at: 0.16)                                   // device 0: a finger of its own
        #expect(r.h.lines("pan").last == "0.150 pan: changed→cancelled")
        #expect(r.ignored == ["0.150 device 1 removed: cancelling 2 touches"])
        r.h.frame(0.2, [(0, .moved, 380, 300)], device: 1)                // the unplugged device's stale event
        #expect(r.ignored.last == "0.200 touch 0 of device 1 moved but is not down")
        r.h.up(0, 700, 700, at: 0.2)                                      // device 0's tap still works
        r.h.finish()
        #expect(r.h.lines("tap").last == "0.200 tap: possible→ended")
        #expect(pan.state == .possible && tap.state == .possible && r.h.engine.nextDeadline == nil)
    }

    /// Hears every touchpad pinch event it is handed, and decides nothing.
    final class PinchEvents: GestureRecognizer {
        var events: [TouchpadGestureEvent] = []
        override func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { kind == .pinch }
        override func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
            events.append(event)
            return .none
        }
    }

    @Test("a touchpad pinch under way when its device is removed is cancelled once, by the rule every source follows: its fingers and last scale kept, no motion, where it was")
    func deviceRemovedMidTouchpadPinch() {
        let r = Recorder()
        let pinch = r.h.add(PinchEvents(name: "pinch"))
        let device = InputDeviceID(3)
        func gesture(_ phase: TouchpadGestureEvent.Phase, at t: Double, scale: Double, delta: Point = .zero) -> InputEvent {
            .touchpadGesture(TouchpadGestureEvent(kind: .pinch, phase: phase, time: Instant(seconds: t), device: device,
                                                  fingers: 2, location: Point(x: 400, y: 300), scale: scale,
                                                  angleDelta: 2, delta: delta))
        }
        r.h.send(gesture(.begin, at: 0, scale: 1))
        r.h.send(gesture(.update, at: 0.05, scale: 1.4, delta: Point(x: 3, y: 1)))
        r.h.engine.deviceRemoved(device, at: Instant(seconds: 0.3))
        r.h.finish()
        #expect(pinch.events.map(\.phase) == [.begin, .update, .cancel])
        #expect(pinch.events.last == TouchpadGestureEvent(kind: .pinch, phase: .cancel, time: Instant(seconds: 0.3), device: device,
                                                          fingers: 2, location: Point(x: 400, y: 300), scale: 1.4),
                "\(String(describing: pinch.events.last))")
        #expect(r.ignored == ["0.300 device 3 removed: cancelling 1 touch"])
    }

    @Test("a frame earlier than the engine's time happens at the engine's time, and is reported")
    func timeGoingBackwards() {
        let r = Recorder()
        let double = r.h.add(TapGestureRecognizer(taps: 2, name: "double"))
        r.h.tap(at: 1.0)
        r.h.tap(at: 0.5)                                                  // 0.5 s in the past
        #expect(r.ignored == ["1.050 input at 0.500000 s is earlier than 1.050000 s: handled at 1.050000 s",
                              "1.050 input at 0.550000 s is earlier than 1.050000 s: handled at 1.050000 s"])
        #expect(r.h.lines("double") == ["1.050 double: possible→ended"], "the second tap counts, at the engine's time")
        r.h.finish()
        #expect(double.state == .possible)
    }

    /// Two sources on one engine (two touchscreens, or a touchscreen and a compositor) whose
    /// clocks or queues disagree: the lagging source's frames arrive behind the engine's time.
    /// Each is handled at the engine's time (reported), in the order it arrived; the other
    /// source's drag is not disturbed, and nothing is left stuck.
    @Test("frames out of time order from two sources: the late one's happen at the engine's time, reported; the other's drag still ends as a pan; nothing stuck")
    func twoSourcesOutOfOrder() {
        let r = Recorder()
        let pan = r.h.add(PanGestureRecognizer(minimumTouches: 1, maximumTouches: 1, name: "pan"))
        let tap = r.h.add(TapGestureRecognizer(name: "tap"))
        // Device 1 drags from 0.00 to 0.30; device 2's tap, stamped 0.10 to 0.15, arrives
        // between device 1's frames of 0.20 and 0.25.
        r.h.frame(0.00, [(0, .began, 100, 100)], device: 1)
        r.h.frame(0.10, [(0, .moved, 140, 100)], device: 1)
        r.h.frame(0.20, [(0, .moved, 180, 100)], device: 1)
        r.h.frame(0.10, [(0, .began, 700, 700)], device: 2)
        r.h.frame(0.15, [(0, .ended, 700, 700)], device: 2)
        r.h.frame(0.25, [(0, .moved, 220, 100)], device: 1)
        r.h.frame(0.30, [(0, .ended, 220, 100)], device: 1)
        r.h.finish()
        #expect(r.ignored == ["0.200 input at 0.100000 s is earlier than 0.200000 s: handled at 0.200000 s",
                              "0.200 input at 0.150000 s is earlier than 0.200000 s: handled at 0.200000 s"],
                "the late source's two frames are reported and handled at the engine's time")
        #expect(r.h.lines("pan").last == "0.300 pan: changed→ended", "device 1's drag ends as a pan: \(r.h.lines("pan"))")
        #expect(r.h.lines("tap") == ["0.100 tap: possible→failed"],
                "the tap failed as the drag began, and stays failed: one touch sequence across both sources, as in UIKit")
        #expect(pan.state == .possible && tap.state == .possible && r.h.engine.nextDeadline == nil,
                "no recognizer is left stuck and no deadline pending")
    }

    /// A live loop that advances the engine on the real clock (a display link's frame, a
    /// deadline) before it reads input that waited meanwhile: the input's frames arrive stamped
    /// behind the engine's time. They are handled at the engine's time, but the flick they
    /// carry keeps its speed: touches keep their own timestamps, and velocities are measured
    /// on those.
    @Test("a flick read late, after the loop moved the engine's time past it, is still a flick: the pan's and the pinch's velocities at the lift are those of the flick read on time",
          arguments: [false, true])
    func lateFrameKeepsItsVelocity(pinch: Bool) {
        func flick(late: Bool) -> (velocity: Point, scaleVelocity: Double, ignored: [String]) {
            let r = Recorder()
            let pan = r.h.add(PanGestureRecognizer(minimumTouches: 1, maximumTouches: 2, name: "pan"))
            let pinchRecognizer = r.h.add(PinchGestureRecognizer(name: "pinch"))
            pan.recognizeSimultaneously(with: pinchRecognizer)
            var panVelocity = Point.zero, scaleVelocity = 0.0
            pan.addTarget { if $0.state == .ended { panVelocity = $0.velocity } }
            pinchRecognizer.addTarget { if $0.state == .ended { scaleVelocity = $0.velocity } }
            // One finger flicks up 40 pt every 10 ms (4000 pt/s); with `pinch`, a second
            // finger rests below it, so the two spread as the first goes.
            func fingers(_ i: Int, _ phase: TouchPhase) -> [(Int, TouchPhase, Double, Double)] {
                let y = 700 - 40 * Double(i)
                return pinch ? [(0, phase, 200, y), (1, phase, 200, 800)] : [(0, phase, 200, y)]
            }
            r.h.frame(0, fingers(0, .began))
            for i in 1...5 { r.h.frame(0.01 * Double(i), fingers(i, .moved)) }
            // The loop wakes at 0.09 s for a frame of its own before reading what came from
            // 0.06 s on: three moves and the lift, all behind the engine's time.
            if late { r.h.engine.advance(to: Instant(seconds: 0.09)) }
            for i in 6...8 { r.h.frame(0.01 * Double(i), fingers(i, .moved)) }
            r.h.frame(0.085, fingers(8, .ended))
            r.h.finish()
            return (panVelocity, scaleVelocity, r.ignored)
        }
        let onTime = flick(late: false), late = flick(late: true)
        #expect(onTime.ignored.isEmpty)
        #expect(late.ignored.count == 4 && late.ignored.allSatisfy { $0.hasSuffix("handled at 0.090000 s") },
                "the late frames are reported and handled at the engine's time: \(late.ignored)")
        #expect(onTime.velocity.y < -1500, "the flick read on time is a fling upwards: \(onTime.velocity)")
        #expect(abs(late.velocity.y - onTime.velocity.y) < 1e-6 && abs(late.velocity.x - onTime.velocity.x) < 1e-6,
                "read late, the pan's velocity at the lift is the flick's: \(late.velocity) against \(onTime.velocity)")
        if pinch {
            #expect(onTime.scaleVelocity > 1, "the spread read on time has a scale velocity: \(onTime.scaleVelocity)")
            #expect(abs(late.scaleVelocity - onTime.scaleVelocity) < 1e-9,
                    "read late, the pinch's velocity at the lift is the spread's: \(late.scaleVelocity) against \(onTime.scaleVelocity)")
        }
    }

    @Test("a jump of hours fires every deadline on the way, at its own time, then the frame")
    func timeJumpingAhead() {
        let r = Recorder()
        let single = r.h.add(TapGestureRecognizer(name: "single"))
        let double = r.h.add(TapGestureRecognizer(taps: 2, name: "double"))
        let press = r.h.add(LongPressGestureRecognizer(name: "press"))
        single.require(toFail: double)
        r.h.tap(at: 0)
        r.h.down(1, 500, 500, at: 3 * 3600)                               // three hours later
        #expect(r.h.lines("double") == ["0.350 double: possible→failed"])
        #expect(r.h.lines("single") == ["0.350 single: possible→ended"])
        r.h.up(1, 500, 500, at: 3 * 3600 + 0.05)
        r.h.finish()
        #expect(r.h.lines("single").last == "10800.350 single: possible→ended", "gestures after the jump work")
        #expect([single, double, press].allSatisfy { $0.state == .possible } && r.h.engine.nextDeadline == nil)
        #expect(r.ignored.isEmpty, "a jump ahead is not an error")
    }

    @Test("input that ends with touches down: finish() runs the timers, then cancels the touches, and says so")
    func endsWithTouchesDown() {
        let r = Recorder()
        let press = r.h.add(LongPressGestureRecognizer(name: "press"))
        let double = r.h.add(TapGestureRecognizer(taps: 2, name: "double"))
        r.h.down(0, 500, 500, at: 0)
        r.h.finish()
        #expect(r.h.lines("double") == ["0.500 double: possible→failed"], "held too long for a tap")
        #expect(r.h.lines("press") == ["0.500 press: possible→began", "0.500 press: began→cancelled"],
                "the press began at its deadline, then the touch still down was cancelled")
        #expect(r.ignored == ["0.500 input ended with touches down: cancelling 1 touch"])
        #expect(r.deliveries.map(\.0) == [.began, .cancelled], "the view's touch is cancelled")
        #expect(press.state == .possible && double.state == .possible && r.h.engine.nextDeadline == nil)
    }

    @Test("10,000 recognizers on 100 views: a tap and a pinch settle them all, in well under a second each")
    func tenThousandRecognizers() {
        let h = Harness()
        var all: [GestureRecognizer] = []
        var views: [View] = []
        for v in 0..<100 {
            let view = View(id: "v\(v)", frame: Rect(x: Double(v % 10) * 100, y: Double(v / 10) * 100, width: 100, height: 100))
            h.root.addSubview(view)
            views.append(view)
        }
        for i in 0..<10_000 {
            let r: GestureRecognizer
            switch i % 4 {
            case 0: r = TapGestureRecognizer(taps: 1 + i % 3, name: "tap\(i)")
            case 1: r = LongPressGestureRecognizer(name: "press\(i)")
            case 2: r = PinchGestureRecognizer(name: "pinch\(i)")
            default: r = PanGestureRecognizer(name: "pan\(i)")
            }
            (i % 2 == 0 ? h.root : views[i % 100]).addGestureRecognizer(r)
            if i >= 4 && i % 50 == 0 { r.require(toFail: all[i - 4]) }
            all.append(r)
        }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            h.tap(at: 0)
            h.frame(1, [(1, .began, 420, 450), (2, .began, 480, 450)])
            for k in 1...5 { h.frame(1 + 0.02 * Double(k), [(1, .moved, 420 - 10 * Double(k), 450), (2, .moved, 480 + 10 * Double(k), 450)]) }
            h.frame(1.2, [(1, .ended, 370, 450), (2, .ended, 530, 450)])
            h.finish()
        }
        #expect(all.allSatisfy { $0.state == .possible }, "every recognizer settles")
        #expect(h.engine.nextDeadline == nil)
        #expect(h.log.contains { $0.contains("possible→ended") }, "something recognized")
        #expect(elapsed < .seconds(10), "took \(elapsed)")
    }
}
