import Foundation
import GestureKit
import Testing
import GestureTraces
import GestureTestSupport

/// REPLAY.md's pen device has `ABS_PRESSURE`: a tablet tool without it is read as what its
/// other codes make it.
@Suite struct PenPressureRequiredTests {
    static func description(pressure: Bool) -> EvdevDeviceDescription {
        var abs: [EventCode: AbsInfo] = [.absX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                                         .absY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10)]
        if pressure { abs[.absPressure] = AbsInfo(minimum: 0, maximum: 1000) }
        return EvdevDeviceDescription(name: "test pen", bustype: 3, vendor: 0x56a, product: 1,
                                      codes: [.key: [.btnToolPen, .btnTouch], .abs: Set(abs.keys)], absInfo: abs)
    }

    /// The tool comes in at (500, 400), touches (pressing hard where it can), lifts and leaves.
    static func tap(pressure: Bool) -> [EvdevEvent] {
        func e(_ t: Double, _ type: EventType, _ code: EventCode, _ value: Int32) -> EvdevEvent {
            EvdevEvent(time: Instant(seconds: t), type: type, code: code, value: value)
        }
        var events = [e(0, .key, .btnToolPen, 1), e(0, .abs, .absX, 500), e(0, .abs, .absY, 400), e(0, .syn, .synReport, 0),
                      e(0.01, .key, .btnTouch, 1)]
        if pressure { events.append(e(0.01, .abs, .absPressure, 800)) }
        events += [e(0.01, .syn, .synReport, 0), e(0.08, .key, .btnTouch, 0)]
        if pressure { events.append(e(0.08, .abs, .absPressure, 0)) }
        events += [e(0.08, .syn, .synReport, 0), e(0.1, .key, .btnToolPen, 0), e(0.1, .syn, .synReport, 0)]
        return events
    }

    func decode(pressure: Bool) throws -> Decoded {
        let text = TraceWriter.evemu(description: Self.description(pressure: pressure), events: Self.tap(pressure: pressure))
        let file = try TempFile(text, name: "pen-pressure-\(pressure).evemu")
        defer { file.remove() }
        return try Decoded(path: file.path)
    }

    @Test("every pen recorded has ABS_PRESSURE (the contract's pen device)", arguments: Fixtures.pens)
    func fixturesHavePressure(_ name: String) throws {
        let device = try #require(TraceReader(path: Fixtures.path(name)).devices.first)
        #expect(device.description?.has(.abs, .absPressure) == true, "\(name)")
        #expect(device.kind == .pen, "\(name)")
    }

    @Test("a BTN_TOOL_PEN device without ABS_PRESSURE is no pen: it is a single-touch touchscreen, its BTN_TOUCH a touch")
    func toolWithoutPressureIsATouchscreen() throws {
        let description = Self.description(pressure: false)
        #expect(!description.isPen)
        #expect(description.touchKind == .touchscreen, "ABS_X/ABS_Y with BTN_TOUCH: a single-touch touchscreen")
        let decoded = try decode(pressure: false)
        #expect(decoded.devices.first?.kind == .touchscreen)
        #expect(decoded.pens.isEmpty, "no pen events: \(decoded.pens)")
        #expect(decoded.changes.map(\.phase) == [.began, .ended], "the tip's touch, as a finger's: \(decoded.changes.map(\.phase))")
        #expect(decoded.began.first?.location == Point(x: 500, y: 400))
    }

    @Test("the same device with ABS_PRESSURE is a pen: its tap gives pen events, not a finger's touch")
    func toolWithPressureIsAPen() throws {
        #expect(Self.description(pressure: true).isPen)
        let decoded = try decode(pressure: true)
        #expect(decoded.devices.first?.kind == .pen)
        #expect(decoded.pens.map(\.phase) == [.hover, .down, .up, .out], "\(decoded.pens.map(\.phase))")
        #expect(decoded.frames.isEmpty, "a pen's touches are the engine's, not the decoder's frames")
    }
}
