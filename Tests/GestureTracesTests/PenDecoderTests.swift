import Foundation
import GestureKit
import Testing
import GestureTraces
import GestureTestSupport

/// The built-in decoder reads pens as libinput's tablet code does (PenDecoder's rules); the
/// agreement with real libinput is PenAgreementTests' (GestureLibinputTests).
@Suite("Pens in recordings")
struct PenDecoderTests {
    /// Every pen event of a recording.
    static func pens(_ name: String, screen: Size = Size(width: 1000, height: 600)) throws -> [PenEvent] {
        var out: [PenEvent] = []
        try TraceReader(path: Fixtures.path(name), screen: screen).run { if case let .pen(p) = $0 { out.append(p) } }
        return out
    }

    @Test("every pen recording is a pen device, and its events make sense: hover before a touch, every down lifted, every proximity left, force and zOffset within 0…1, on the screen",
          arguments: Fixtures.pens)
    func wellFormed(_ name: String) throws {
        let reader = try TraceReader(path: Fixtures.path(name), screen: Size(width: 1000, height: 600))
        #expect(reader.devices.map(\.kind) == [.pen], "\(name) is a pen, classified as \(reader.devices.map(\.kind))")
        let events = try Self.pens(name)
        #expect(!events.isEmpty, "\(name) has pen events")
        var inProximity = false, down = false
        for e in events {
            switch e.phase {
            case .hover:
                #expect(!down, "\(name) at \(e.time): hovering while the tip is down")
                inProximity = true
            case .down:
                #expect(inProximity && !down, "\(name) at \(e.time): down without hovering first, or while down")
                down = true
            case .moved:
                #expect(down, "\(name) at \(e.time): moved while the tip is up")
            case .up:
                #expect(down, "\(name) at \(e.time): up while up")
                down = false
            case .out:
                #expect(inProximity && !down, "\(name) at \(e.time): out without a proximity, or with the tip down")
                inProximity = false
            }
            #expect(e.sample.force >= 0 && e.sample.force <= 1, "force \(e.sample.force) at \(e.time)")
            #expect((e.phase == .down || e.phase == .moved) || e.sample.force == 0, "no force while hovering, at \(e.time)")
            if let z = e.sample.zOffset { #expect(z >= 0 && z <= 1, "zOffset \(z) at \(e.time)") }
            #expect(e.location.x >= 0 && e.location.x <= 1000 && e.location.y >= 0 && e.location.y <= 600,
                    "\(name) at \(e.time): the pen lands on the screen, at \(e.location)")
        }
        #expect(!down && !inProximity, "\(name) ends with the pen lifted and gone")
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, "in time order")
    }

    @Test("the Dell Canvas pen: three proximities, a tip that touches, flickers up at 6.645 s and down again 50 ms later (libinput's 1 %/5 % pressure hysteresis), no tilt (libinput's quirk for this pen)")
    func dellCanvas() throws {
        let events = try Self.pens("pen-dell-canvas27-hover-buttons-stroke.evemu")
        #expect(events.filter { $0.phase == .out }.count == 3, "three times in and out of proximity")
        let tips = events.filter { $0.phase == .down || $0.phase == .up }.map { "\($0.phase.rawValue) \(String(format: "%.3f", $0.time.seconds))" }
        #expect(tips == ["down 6.598", "up 6.645", "down 6.695", "up 7.787"], "the tip's contacts: \(tips)")
        #expect(events.allSatisfy { $0.sample.altitudeAngle == .pi / 2 && $0.sample.azimuthAngle == 0 },
                "libinput's quirks turn this pen's tilt off, and so does the decoder")
        #expect(events.allSatisfy { $0.sample.zOffset == nil }, "the pen reports no distance")
        let peak = events.map(\.sample.force).max() ?? 0
        #expect(peak > 0.9, "the stroke presses hard: peak force \(peak)")
    }

    @Test("the Cintiq 12WX: a pen stroke, then the eraser comes in touching and erases; its distance is a zOffset while hovering")
    func cintiqEraser() throws {
        let events = try Self.pens("pen-wacom-cintiq12wx-stroke-eraser.evemu")
        let downs = events.filter { $0.phase == .down }.map(\.sample.tool)
        #expect(downs == [.pen, .eraser], "a pen's stroke, then an eraser's: \(downs)")
        let eraserIn = events.firstIndex { $0.sample.tool == .eraser }
        #expect(eraserIn.map { events[$0].phase } == .hover, "the eraser comes into proximity first (then touches in the same frame)")
        #expect(events.contains { $0.phase == .hover && ($0.sample.zOffset ?? 0) > 0 }, "hovering, the pen has a height")
        #expect(events.contains { $0.sample.altitudeAngle < .pi / 2 - 0.1 }, "the pen is held tilted")
    }

    static func description(pressure: Bool = true, distance: Bool = false) -> EvdevDeviceDescription {
        var abs: [EventCode: AbsInfo] = [.absX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                                         .absY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10)]
        var keys: Set<EventCode> = [.btnToolPen, .btnTouch, EventCode(rawValue: 0x14b)]
        if pressure { abs[.absPressure] = AbsInfo(minimum: 0, maximum: 1000) }
        if distance { abs[EventCode(rawValue: 0x19)] = AbsInfo(minimum: 0, maximum: 100) }
        keys.insert(.btnToolPen)
        return EvdevDeviceDescription(name: "test pen", bustype: 3, vendor: 0x56a, product: 1,
                                      codes: [.key: keys, .abs: Set(abs.keys)], absInfo: abs)
    }

    /// Feeds frames of (code, value) pairs, one frame every 10 ms.
    static func decode(_ description: EvdevDeviceDescription, _ frames: [[(Int, Int32)]]) -> [PenEvent] {
        var decoder = PenDecoder(device: TraceDevice(id: InputDeviceID(0), description: description),
                                 screen: Size(width: 1000, height: 1000))!
        var out: [PenEvent] = []
        for (i, frame) in frames.enumerated() {
            let t = Instant(seconds: Double(i) * 0.01)
            for (code, value) in frame {
                let type: EventType = code >= 0x100 ? .key : .abs
                decoder.feed(EvdevEvent(time: t, type: type, code: EventCode(rawValue: UInt16(code)), value: value)) { out.append($0) }
            }
            decoder.feed(EvdevEvent(time: t, type: .syn, code: .synReport, value: 0)) { out.append($0) }
        }
        return out
    }

    @Test("with a pressure axis the pressure decides the tip, not BTN_TOUCH: down at 5 % of the range, still down above 1 %, up at 1 %; the force counts from 1 %")
    func pressureHysteresis() {
        let events = Self.decode(Self.description(), [
            [(0x00, 500), (0x01, 500), (0x140, 1)],
            [(0x18, 40), (0x14a, 1)],          // BTN_TOUCH, but 4 %: still hovering
            [(0x18, 50)],                      // 5 %: down
            [(0x18, 20)],                      // 2 %: still down
            [(0x18, 10)],                      // 1 %: up
            [(0x140, 0)],
        ])
        #expect(events.map(\.phase) == [.hover, .hover, .down, .moved, .up, .out], "phases: \(events.map(\.phase))")
        #expect(abs(events[2].sample.force - 40.0 / 990) < 1e-12, "force at 5 %: (50 − 10) / (1000 − 10), got \(events[2].sample.force)")
    }

    @Test("without a pressure axis BTN_TOUCH is the tip, and the force is 1 while down")
    func buttonTip() {
        let events = Self.decode(Self.description(pressure: false), [
            [(0x00, 500), (0x01, 500), (0x140, 1)],
            [(0x14a, 1)],
            [(0x00, 520)],
            [(0x14a, 0)],
            [(0x140, 0)],
        ])
        #expect(events.map(\.phase) == [.hover, .down, .moved, .up, .out], "phases: \(events.map(\.phase))")
        #expect(events[1].sample.force == 1 && events[3].sample.force == 0)
    }

    @Test("positions are the mean of the last four frames (libinput's smoothing), started over at each touch and lift")
    func smoothing() {
        let events = Self.decode(Self.description(pressure: false), [
            [(0x00, 100), (0x01, 500), (0x140, 1)],
            [(0x00, 200)],
            [(0x00, 300)],
            [(0x14a, 1), (0x00, 400)],
            [(0x00, 800)],
        ])
        let xs = events.map { ($0.location.x * 10).rounded() / 10 }
        // 100; (3×100 + 200)/4 = 125; (2×100 + 200 + 300)/4 = 175; touching starts over at 400;
        // then (3×400 + 800)/4 = 500.
        #expect(xs == [100, 125, 175, 400, 500], "smoothed x: \(xs)")
    }

    @Test("an axis change within its fuzz is no change (libinput's fuzz filter); the distance's fuzz is at least 2")
    func fuzz() {
        var d = Self.description(pressure: false, distance: true)
        d.absInfo[.absX]?.fuzz = 4
        let events = Self.decode(d, [
            [(0x00, 500), (0x01, 500), (0x19, 50), (0x140, 1)],
            [(0x00, 503)],                     // within 4: nothing
            [(0x19, 52)],                      // within 2: nothing
            [(0x19, 53)],                      // 3 from 50: a hover
            [(0x140, 0)],
        ])
        #expect(events.map(\.phase) == [.hover, .hover, .out], "only the distance's change past its fuzz moves the pen: \(events.map(\.phase))")
        #expect(events[1].sample.zOffset == 0.53, "zOffset \(String(describing: events[1].sample.zOffset))")
    }
}
