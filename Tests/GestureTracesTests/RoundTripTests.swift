import Foundation
import GestureKit
import Testing
import GestureTraces
import GestureTestSupport

@Suite("Writers: evemu → libinput record YAML → identical frames")
struct RoundTripTests {
    /// The description and raw events of a single-device evdev trace.
    func load(_ path: String) throws -> (EvdevDeviceDescription, [EvdevEvent]) {
        let reader = try TraceReader(path: path)
        var events: [EvdevEvent] = []
        try reader.forEachEvdevEvent(device: InputDeviceID(0)) { events.append($0) }
        let description = try #require(reader.devices.first?.description, "an evemu trace describes its device")
        return (description, events)
    }

    @Test("every evemu fixture converted to YAML decodes to the same frames", arguments: Fixtures.evemu)
    func evemuToYAML(_ name: String) throws {
        let original = try Decoded(path: Fixtures.path(name))
        let (description, events) = try load(Fixtures.path(name))
        let yaml = try TempFile(TraceWriter.libinputRecord(devices: [(description, events)]), name: "converted.yml")
        defer { yaml.remove() }
        let reader = try TraceReader(path: yaml.path)
        #expect(reader.format == .libinputRecord, "the converted file is detected as libinput record YAML")
        #expect(reader.devices.first?.description == description, "\(name): the YAML carries the same device description")
        let converted = try Decoded(reader, touchpads: .contacts)
        #expect(converted.frames == original.frames, "\(name): YAML and evemu decode to identical frames (\(converted.frames.count) vs \(original.frames.count))")
        #expect(converted.devices.first?.kind == original.devices.first?.kind, "\(name): same device kind")
    }

    @Test("evemu written back decodes to the same frames and events", arguments: Fixtures.evemu)
    func evemuToEvemu(_ name: String) throws {
        let (description, events) = try load(Fixtures.path(name))
        let file = try TempFile(TraceWriter.evemu(description: description, events: events), name: "rewritten.evemu")
        defer { file.remove() }
        let (description2, events2) = try load(file.path)
        #expect(description2 == description, "\(name): the description survives evemu writing")
        #expect(events2 == events, "\(name): the events survive evemu writing")
        #expect(try Decoded(path: file.path).frames == Decoded(path: Fixtures.path(name)).frames, "\(name): same frames")
    }

    @Test("a two-device YAML is replayed on one clock, merged in time order")
    func twoDevices() throws {
        let (wacom, wacomEvents) = try load(Fixtures.path("ts-wacom-isdv4-e6-double-tap-1f.evemu"))
        var (atmel, atmelEvents) = try load(Fixtures.path("ts-atmel-maxtouch-9-taps-1f.evemu"))
        // Start the Atmel taps 0.1 s after the Wacom's first event.
        atmelEvents = atmelEvents.map { var e = $0; e.time = e.time + Duration(seconds: 0.1); return e }
        atmel.udevProperties = ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"]
        let yaml = try TempFile(TraceWriter.libinputRecord(devices: [(wacom, wacomEvents), (atmel, atmelEvents)]), name: "two.yml")
        defer { yaml.remove() }
        let reader = try TraceReader(path: yaml.path)
        #expect(reader.devices.count == 2, "both devices are described")
        #expect(reader.devices.map(\.name) == ["Wacom ISDv4 E6 Finger", "Atmel maXTouch Touchscreen"])
        #expect(reader.devices[1].description?.udevProperties["ID_INPUT_TOUCHSCREEN"] == "1", "udev properties are read")
        let d = try Decoded(reader)
        #expect(zip(d.frames, d.frames.dropFirst()).allSatisfy { $0.time <= $1.time }, "frames of both devices come in time order")
        #expect(d.frames.filter { $0.device == InputDeviceID(0) }.flatMap(\.changes).filter { $0.phase == .began }.count == 2, "the Wacom double tap: 2 touches")
        #expect(d.frames.filter { $0.device == InputDeviceID(1) }.flatMap(\.changes).filter { $0.phase == .began }.count == 9, "the Atmel taps: 9 touches")
        let firstAtmel = d.frames.first { $0.device == InputDeviceID(1) }
        #expect(firstAtmel.map { abs($0.time.seconds - 0.1) < 0.001 } == true, "the second device starts 0.1 s after the first on the shared clock")
        #expect(d.removed.count == 2, "both devices are removed at the end")
        var merged: [(InputDeviceID, EvdevEvent)] = []
        try reader.forEachEvdevEvent { merged.append(($0, $1)) }
        #expect(merged.count == wacomEvents.count + atmelEvents.count, "the merged raw stream has every event")
        #expect(zip(merged, merged.dropFirst()).allSatisfy { $0.1.time <= $1.1.time }, "the merged raw stream is in time order")
    }

    @Test("a hand-written libinput record file with udev, quirks and libinput blocks")
    func handWritten() throws {
        let text = """
        # libinput record
        version: 1
        ndevices: 1
        libinput:
          version: "1.10.0"
          git: "unknown"
        system:
          kernel: "4.13.9"
          dmi: "dmi:bvnLENOVO"
        devices:
        - node: /dev/input/event9
          evdev:
            # Name: SynPS/2 Synaptics TouchPad
            # Size in mm: 100x60
            name: "SynPS/2 Synaptics TouchPad"
            id: [17, 2, 7, 433]
            codes:
              0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN
              1: [272, 325, 328, 330, 333, 334, 335] # EV_KEY
              3: [0, 1, 24, 47, 53, 54, 57, 58] # EV_ABS
            absinfo:
              0: [1000, 5000, 0, 0, 40]
              1: [1000, 4000, 0, 0, 50]
              24: [0, 255, 0, 0, 0]
              47: [0, 1, 0, 0, 0]
              53: [1000, 5000, 0, 0, 40]
              54: [1000, 4000, 0, 0, 50]
              57: [0, 65535, 0, 0, 0]
              58: [0, 255, 0, 0, 0]
            properties: [0, 2]
          hid: [
            0x05, 0x01
          ]
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_TOUCHPAD=1
          quirks:
          - ModelSynapticsSerialTouchpad=1
          events:
          # Current time is 12:31:40
          - evdev:
            - [  0,      0,   3,  57,    1394] # EV_ABS / ABS_MT_TRACKING_ID   1394
            - [  0,      0,   3,  53,    3000] # EV_ABS / ABS_MT_POSITION_X   3000
            - [  0,      0,   3,  54,    2500] # EV_ABS / ABS_MT_POSITION_Y   2500
            - [  0,      0,   1, 325,       1] # EV_KEY / BTN_TOOL_FINGER        1
            - [  0,      0,   1, 330,       1] # EV_KEY / BTN_TOUCH              1
            - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
          - libinput:
            - {time: 0.000000, type: POINTER_MOTION, delta: [0.00, 0.00], unaccel: [0.00, 0.00]}
          - evdev:
            - [  0,  12000,   3,  53,    3100] # EV_ABS / ABS_MT_POSITION_X   3100 (+100)
            - [  0,  12000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
          - evdev:
            - [  0,  24000,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID   -1
            - [  0,  24000,   1, 325,       0] # EV_KEY / BTN_TOOL_FINGER        0
            - [  0,  24000,   1, 330,       0] # EV_KEY / BTN_TOUCH              0
            - [  0,  24000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
                                             # Touch device in neutral state
        """
        let file = try TempFile(text, name: "synaptics.yml")
        defer { file.remove() }
        let reader = try TraceReader(path: file.path, screen: Size(width: 400, height: 300))
        let device = try #require(reader.devices.first)
        #expect(device.kind == .touchpad, "ID_INPUT_TOUCHPAD and INPUT_PROP_POINTER make a touchpad")
        #expect(device.node == "/dev/input/event9")
        #expect(device.physicalSize == Size(width: 100, height: 60), "4000/40 × 3000/50 mm")
        #expect(device.description?.bustype == 17 && device.description?.product == 7)
        let d = try Decoded(reader, touchpads: .contacts)
        #expect(d.changes.map(\.phase) == [.began, .moved, .ended], "one contact: down, move, up")
        #expect(d.began.first?.location == Point(x: 200, y: 150), "axis min → 0, max → screen: (3000-1000)/4000 × 400, (2500-1000)/3000 × 300")
        #expect(d.began.first?.sourceID == 1394, "the tracking id is the source id")
        #expect(d.frames.last?.time == Instant(nanoseconds: 24_000_000), "times in the YAML are sec + usec")
    }
}
