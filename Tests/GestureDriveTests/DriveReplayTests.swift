import Foundation
import GestureDrive
import GestureDriveInput
import GestureKit
import GestureTestSupport
import GestureTraces
import Testing

/// What `replay FILE` writes to the session's touchscreen, read back from the evdev frames (no
/// compositor): a recording mapped onto a made-up touchscreen, and one played as recorded on
/// the touchscreen made from it.
@Suite struct DriveReplayTests {
    static let output = DriveInputTests.output
    static let device = DriveInputTests.device
    static let doubleTap = Fixtures.path("ts-wacom-isdv4-e6-double-tap-1f.evemu")

    /// A file in a fresh temporary directory, removed by `remove()`.
    static func scratch(_ text: String, name: String) throws -> String {
        let path = NSTemporaryDirectory() + "gesturekit-replay-\(UUID().uuidString)-\(name)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The down frames' first contact, and their times from the first frame.
    static func downs(_ events: [EvdevEvent]) -> [(time: Double, x: Int32, y: Int32)] {
        let frames = DriveInputTests.frames(events)
        let contacts = DriveInputTests.contacts(events)
        var out: [(Double, Int32, Int32)] = []
        var wasDown = 0
        for (frame, now) in zip(frames, contacts) {
            if now.count > wasDown, let c = now.values.first { out.append((frame.time, c.x, c.y)) }
            wasDown = now.count
        }
        return out
    }

    @Test("a recording from another touchscreen is mapped: positions scaled from its axes to the output's points, its timing kept")
    func mapped() throws {
        let writer = DeviceInputWriter(device: Self.device, output: Self.output)
        let (events, report) = try writer.replay(RecordedTouches(path: Self.doubleTap, output: Self.output))
        #expect(report.mode == .mapped, "the made-up touchscreen is not the recording's: the touches are mapped")
        #expect(report.touches == 2 && report.recordedDevice == "Wacom ISDv4 E6 Finger", "the double tap is two touches of the Wacom panel: \(report)")
        let downs = Self.downs(events)
        try #require(downs.count == 2, "two fingers down, one after the other; got \(downs.count)")
        // The first touch was recorded at (1332, 755) of the Wacom's 0…2776 × 0…1569 axes.
        let mapping = try #require(AxisMapping(device: Self.device, output: Self.output, multitouch: true))
        let first = mapping.point(x: downs[0].x, y: downs[0].y)
        let expected = Point(x: 1332.0 / 2776 * 1280, y: 755.0 / 1569 * 800)
        #expect(abs(first.x - expected.x) <= 1 && abs(first.y - expected.y) <= 1,
                "the first touch lands at the recording's place on the output, (\(expected.x), \(expected.y)); it lands at (\(first.x), \(first.y))")
        // The recording's second touch went down 171.991 ms after its first.
        #expect(abs((downs[1].time - downs[0].time) - 0.171991) < 0.000_01,
                "the second tap follows the first as recorded, 172 ms later; it follows \(downs[1].time - downs[0].time) s later")
        #expect(DriveInputTests.contacts(events).last?.isEmpty == true, "the replay ends with every finger up")
        #expect(events.filter { $0.type == .key && $0.code == .btnTouch }.map(\.value) == [1, 0, 1, 0], "BTN_TOUCH goes down and up twice")
        #expect(report.description.contains("mapped from \"Wacom ISDv4 E6 Finger\""), "the report says the touches were mapped: \(report)")
    }

    @Test("a GestureKit input recording (what an app received, in its window's points) is scaled from that window onto the output, and lands where the device recording it was made from does")
    func inputRecording() throws {
        let recording = NSTemporaryDirectory() + "gesturekit-replay-\(UUID().uuidString).input.jsonl"
        defer { try? FileManager.default.removeItem(atPath: recording) }
        // What `gesturekit replay` fed its scene (a 1000 × 1000 point screen) from the Wacom's double tap.
        _ = try runProcess(builtProduct("gesturekit"), ["replay", Self.doubleTap, "--record", recording], output: .discard, errors: .discard)
        let writer = DeviceInputWriter(device: Self.device, output: Self.output)
        let (events, report) = try writer.replay(RecordedTouches(path: recording, output: Self.output))
        #expect(report.mode == .mapped && report.touches == 2, "the input recording's two touches are mapped: \(report)")
        #expect(report.notes.contains { $0.contains("1000×1000 point window") }, "the replay says the recording's window was scaled: \(report)")
        let (direct, _) = try DeviceInputWriter(device: Self.device, output: Self.output)
            .replay(RecordedTouches(path: Self.doubleTap, output: Self.output))
        let mapping = try #require(AxisMapping(device: Self.device, output: Self.output, multitouch: true))
        let fromRecording = Self.downs(events), fromDevice = Self.downs(direct)
        try #require(fromRecording.count == 2 && fromDevice.count == 2, "two touch-downs each; got \(fromRecording.count) and \(fromDevice.count)")
        for (a, b) in zip(fromRecording, fromDevice) {
            let p = mapping.point(x: a.x, y: a.y), q = mapping.point(x: b.x, y: b.y)
            #expect(abs(p.x - q.x) <= 1.5 && abs(p.y - q.y) <= 1.5,
                    "a touch of the input recording lands where the evemu recording's does, (\(q.x), \(q.y)); it lands at (\(p.x), \(p.y))")
            #expect(abs(a.time - b.time) < 0.001, "and at its time from the first touch, \(b.time) s; it lands at \(a.time) s")
        }
        #expect(DriveInputTests.contacts(events).last?.isEmpty == true, "the replay ends with every finger up")
    }

    @Test("on the touchscreen made from the recording, its events are played as recorded")
    func asRecorded() throws {
        let device = try VirtualDevice.recorded(in: Self.doubleTap, kind: .touchscreen)
        let writer = DeviceInputWriter(device: device, output: Self.output)
        let (events, report) = try writer.replay(RecordedTouches(path: Self.doubleTap, output: Self.output))
        #expect(report.mode == .asRecorded, "the session's touchscreen is the recording's: its events are played as they are")
        var recorded: [EvdevEvent] = []
        try TraceReader(path: Self.doubleTap).forEachEvdevEvent(device: InputDeviceID(0)) { recorded.append($0) }
        // The slot the recording began in is selected first; the rest is the recording.
        #expect(events.first.map { $0.type == .abs && $0.code == .absMTSlot && $0.value == 0 } == true,
                "the recording's first slot is selected before its events (the device may be in another)")
        #expect(Array(events.dropFirst()) == recorded, "every recorded event is played, with its value and time")
        #expect(report.frames == 4 && report.touches == 2, "four frames, two touches: \(report)")

        // A gesture after it selects its own slot: the encoder no longer knows the device's.
        let tap = try writer.gestures(in: Rect(x: 0, y: 0, width: 1280, height: 800)) { try $0.tap(at: Point(x: 100, y: 100)) }
        #expect(tap.first.map { $0.code == .absMTSlot } == true, "the tap after a replay selects its slot first; it begins with \(String(describing: tap.first))")
    }

    @Test("a mapped replay on each touchscreen recording stays on the output and ends with every finger up",
          arguments: Fixtures.touchscreens)
    func everyTouchscreen(_ name: String) throws {
        let writer = DeviceInputWriter(device: Self.device, output: Self.output)
        let recording = try RecordedTouches(path: Fixtures.path(name), output: Self.output)
        let (events, report) = try writer.replay(recording)
        let contacts = DriveInputTests.contacts(events)
        #expect(report.frames > 0 && report.touches > 0, "\(name): its touches are replayed: \(report)")
        #expect(contacts.last?.isEmpty == true, "\(name): the replay ends with every finger up")
        let span = try #require(Self.device.description.absInfo[.absMTPositionX])
        let spanY = try #require(Self.device.description.absInfo[.absMTPositionY])
        let outside = contacts.flatMap(\.values).filter { $0.x < span.minimum || $0.x > span.maximum || $0.y < spanY.minimum || $0.y > spanY.maximum }
        #expect(outside.isEmpty, "\(name): every position is on the touchscreen; \(outside.count) are not")
        let times = DriveInputTests.frames(events).map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(name): frames are in time order")
    }

    @Test("a libinput record file with a touchpad and a touchscreen replays the touchscreen, naming what it left out")
    func libinputRecord() throws {
        func load(_ name: String) throws -> (EvdevDeviceDescription, [EvdevEvent]) {
            let reader = try TraceReader(path: Fixtures.path(name))
            var events: [EvdevEvent] = []
            try reader.forEachEvdevEvent(device: InputDeviceID(0)) { events.append($0) }
            return (try #require(reader.devices.first?.description), events)
        }
        let pad = try load("tp-alps-glidepoint-double-tap-1f.evemu")
        let screen = try load("ts-wacom-isdv4-e6-double-tap-1f.evemu")
        let path = try Self.scratch(TraceWriter.libinputRecord(devices: [pad, screen]), name: "two.yml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = DeviceInputWriter(device: Self.device, output: Self.output)
        let (events, report) = try writer.replay(RecordedTouches(path: path, output: Self.output))
        #expect(report.touches == 2 && report.recordedDevice == "Wacom ISDv4 E6 Finger", "the touchscreen's double tap is replayed: \(report)")
        #expect(Self.downs(events).count == 2, "two fingers down")
        #expect(report.notes.contains { $0.contains("left out") && $0.contains("AlpsPS/2 ALPS GlidePoint") },
                "the touchpad is named as left out: \(report.notes)")
    }

    @Test("a recording cut while a finger is down is lifted one report later, and says so")
    func cutRecording() throws {
        let text = try String(contentsOfFile: Self.doubleTap, encoding: .utf8)
        // Everything up to the first frame's SYN_REPORT: a finger down, never lifted.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let firstSyn = try #require(lines.firstIndex { $0.hasPrefix("E:") && $0.hasSuffix("0000 0000 0") })
        let path = try Self.scratch(lines[...firstSyn].joined(separator: "\n") + "\n", name: "cut.evemu")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for device in [Self.device, try VirtualDevice.recorded(in: path, kind: .touchscreen)] {
            let writer = DeviceInputWriter(device: device, output: Self.output)
            let (events, report) = try writer.replay(RecordedTouches(path: path, output: Self.output))
            #expect(DriveInputTests.contacts(events).last?.isEmpty == true, "\(report.mode): the finger left down is lifted")
            #expect(report.notes.contains { $0.contains("lifted") }, "\(report.mode): the replay says it lifted it: \(report)")
        }
    }

    @Test("a recording without a touchscreen, a malformed one and a missing one are refused, naming the file (and line)")
    func refused() throws {
        let touchpad = Fixtures.path("tp-alps-glidepoint-double-tap-1f.evemu")
        #expect {
            try DriveSession.checkRecording(touchpad)
        } throws: { error in
            let text = "\(error)"
            return text.contains(touchpad) && text.contains("no touchscreen") && text.contains("touchpad")
        }
        let text = try String(contentsOfFile: Self.doubleTap, encoding: .utf8)
            .replacingOccurrences(of: "E: 1330495944.217020 0003 0039 -1", with: "E: 1330495944.217020 0003 banana -1")
        let bad = try Self.scratch(text, name: "bad.evemu")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("banana") }) + 1
        #expect {
            try DriveSession.checkRecording(bad)
        } throws: { error in
            "\(error)".contains("\(bad):\(line):")
        }
        #expect(throws: DriveError.self) { try DriveSession.checkRecording("/nonexistent/gesturekit-recording.evemu") }
    }
}

/// The steps `replay` and `compare` as `--step` writes them.
@Suite struct DriveStepReplayCompareTests {
    @Test("replay and compare read back as written", arguments: [
        ("replay Fixtures/ts-wacom-isdv4-e6-tap-1f.evemu", DriveStep.replay(path: "Fixtures/ts-wacom-isdv4-e6-tap-1f.evemu")),
        ("compare kept.png", DriveStep.compare(path: "kept.png", tolerancePercent: 1)),
        ("compare kept.png 2.5", DriveStep.compare(path: "kept.png", tolerancePercent: 2.5)),
        ("compare kept.png 0", DriveStep.compare(path: "kept.png", tolerancePercent: 0)),
    ])
    func parse(_ text: String, _ step: DriveStep) throws {
        #expect(try DriveStep(parsing: text) == step)
        #expect(try DriveStep(parsing: step.description) == step, "\(step) reads back from its own description")
    }

    @Test("bad replay and compare steps say why", arguments: [
        ("replay", "replay needs one recording"),
        ("replay a.evemu b.evemu", "replay needs one recording"),
        ("compare", "compare needs a kept picture"),
        ("compare kept.png much", "is not a number"),
        ("compare kept.png 120", "0 to 100"),
        ("compare kept.png 1 2", "too many words"),
    ])
    func bad(_ text: String, _ says: String) {
        #expect {
            try DriveStep(parsing: text)
        } throws: { error in
            "\(error)".contains(says)
        }
    }
}

/// Kept pictures as PNG files.
@Suite struct PNGTests {
    @Test("a screenshot written as PNG reads back pixel for pixel")
    func roundTrip() throws {
        var rgb = [UInt8](repeating: 0, count: 7 * 5 * 3)
        for i in rgb.indices { rgb[i] = UInt8(truncatingIfNeeded: i * 37) }
        let shot = Screenshot(width: 7, height: 5, rgb: rgb)
        #expect(try Screenshot(png: shot.png) == shot)
    }

    @Test("a damaged or foreign file is named with what is wrong with it")
    func bad() throws {
        let shot = Screenshot(width: 2, height: 2, rgb: [UInt8](repeating: 200, count: 12))
        var damaged = shot.png
        damaged[20] ^= 0xff // inside IHDR
        #expect { try Screenshot(png: damaged, path: "kept.png") } throws: { "\($0)".contains("kept.png") && "\($0)".contains("CRC") }
        #expect { try Screenshot(png: shot.ppm, path: "kept.png") } throws: { "\($0)".contains("not a PNG") }
        #expect { try Screenshot(png: Array(shot.png.dropLast(12)), path: "kept.png") } throws: { "\($0)".contains("no IEND") }
        // A header asking for 32768 × 32768 RGB (3 GiB), with a good CRC: refused, not allocated.
        let huge = Self.resized(shot.png, side: 0x8000)
        #expect { try Screenshot(png: huge, path: "huge.png") } throws: { "\($0)".contains("more than this reader keeps") }
        // 8192 × 8192 RGB (192 MiB, within the limit) from a few bytes of IDAT: refused before
        // its room is made.
        let large = Self.resized(shot.png, side: 0x2000)
        #expect { try Screenshot(png: large, path: "large.png") } throws: {
            "\($0)".contains("large.png") && "\($0)".contains("cannot hold 8192 × 8192 pixels")
        }
    }

    @Test("a picture of one colour, deflated as far as zlib goes, is still read (the bound on a header's size from its data is zlib's own)")
    func greatestCompression() throws {
        let shot = Screenshot(width: 1024, height: 1024, rgb: [UInt8](repeating: 0, count: 1024 * 1024 * 3))
        #expect(try Screenshot(png: shot.png) == shot, "a 1024 × 1024 black picture reads back")
    }

    /// `png` (as `Screenshot.png` writes it: IHDR first) with its header saying `side` × `side`
    /// pixels and the header's CRC made good again; its pixel data unchanged.
    static func resized(_ png: [UInt8], side: UInt32) -> [UInt8] {
        var png = png
        for k in 0..<4 {
            png[16 + k] = UInt8(side >> (24 - 8 * UInt32(k)) & 0xff)
            png[20 + k] = png[16 + k]
        }
        let crc = crc32(Array(png[12..<29]))
        for k in 0..<4 { png[29 + k] = UInt8(crc >> (24 - 8 * UInt32(k)) & 0xff) }
        return png
    }

    /// PNG's CRC-32 (ISO 3309), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xffff_ffff
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xedb8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xffff_ffff
    }
}
