import Foundation
import GestureKit
import Testing
import GestureTraces
import GestureTestSupport

/// The recordings of pens and keyboards: what the round trip evemu → libinput record YAML must
/// keep beyond touch frames (REPLAY.md's pen events and modifier flags).
private let penAndKeyboardFixtures = Fixtures.evemu.filter {
    let name = $0.lowercased()
    return Fixtures.isPen($0) || name.contains("k400") || name.contains("key")
}

@Suite("Writers: pen and keyboard recordings, evemu → libinput record YAML → the same pen events and modifiers")
struct PenKeyboardRoundTripTests {
    /// The recording written as libinput record YAML (`TraceWriter`), read back.
    func converted(_ name: String) throws -> (original: Decoded, converted: Decoded, reader: TraceReader) {
        let original = try Decoded(path: Fixtures.path(name))
        let source = try TraceReader(path: Fixtures.path(name))
        var events: [EvdevEvent] = []
        try source.forEachEvdevEvent(device: InputDeviceID(0)) { events.append($0) }
        let description = try #require(source.devices.first?.description, "an evemu trace describes its device")
        let yaml = try TempFile(TraceWriter.libinputRecord(devices: [(description, events)]), name: "converted.yml")
        defer { yaml.remove() }
        let reader = try TraceReader(path: yaml.path)
        return (original, try Decoded(reader, touchpads: .contacts), reader)
    }

    @Test("the pen and keyboard fixtures are found (the round trip below is not vacuous)")
    func fixturesFound() {
        #expect(penAndKeyboardFixtures.filter(Fixtures.isPen).count >= 3, "\(penAndKeyboardFixtures)")
        #expect(penAndKeyboardFixtures.contains { $0.contains("k400") }, "\(penAndKeyboardFixtures)")
    }

    @Test("a pen or keyboard recording converted to YAML decodes to the same pen events, modifiers, pointer events and frames",
          arguments: penAndKeyboardFixtures)
    func sameEvents(_ name: String) throws {
        let (original, converted, reader) = try converted(name)
        #expect(reader.format == .libinputRecord)
        #expect(converted.devices.first?.kind == original.devices.first?.kind, "\(name): same device kind")
        #expect(converted.devices.first?.info.capabilities == original.devices.first?.info.capabilities, "\(name): same capabilities")
        if Fixtures.isPen(name) {
            #expect(!original.pens.isEmpty, "\(name): the pen recording gives pen events")
        } else {
            #expect(!original.modifiers.isEmpty, "\(name): the keyboard recording gives modifier flags")
        }
        #expect(converted.pens == original.pens, "\(name): YAML and evemu decode to the same pen events (\(converted.pens.count) vs \(original.pens.count))")
        #expect(converted.modifiers.map(\.time) == original.modifiers.map(\.time), "\(name): modifier changes at the same times")
        #expect(converted.modifiers.map(\.flags) == original.modifiers.map(\.flags), "\(name): the same modifier flags")
        #expect(converted.pointer == original.pointer, "\(name): the same pointer events")
        #expect(converted.frames == original.frames, "\(name): the same touch frames")
    }

    @Test("the comparison sees a dropped pen field: the YAML without the pen's pressure gives other pen events")
    func droppedPenFieldIsSeen() throws {
        let name = try #require(penAndKeyboardFixtures.first(where: Fixtures.isPen))
        let source = try TraceReader(path: Fixtures.path(name))
        var events: [EvdevEvent] = []
        try source.forEachEvdevEvent(device: InputDeviceID(0)) { events.append($0) }
        let description = try #require(source.devices.first?.description)
        // The pressure axis's events dropped from the written recording (the device keeps the
        // axis): the tip never presses, so the strokes are lost.
        let withoutPressure = events.filter { !($0.type == .abs && $0.code == .absPressure) }
        #expect(withoutPressure.count < events.count, "\(name) records pressure")
        let yaml = try TempFile(TraceWriter.libinputRecord(devices: [(description, withoutPressure)]), name: "dropped.yml")
        defer { yaml.remove() }
        let converted = try Decoded(TraceReader(path: yaml.path), touchpads: .contacts)
        let original = try Decoded(path: Fixtures.path(name))
        #expect(converted.pens != original.pens, "\(name): a pen field lost in writing shows in the comparison")
    }
}
