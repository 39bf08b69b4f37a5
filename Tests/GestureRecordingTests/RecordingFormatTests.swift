import Foundation
import GestureKit
import GestureRecording
import GestureTestSupport
import GestureTraces
import Testing

/// A scratch path for a recording, removed by the caller.
func scratchRecording(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("gesturekit-\(UUID().uuidString)-\(name).input.jsonl").path
}

@Suite("The input recording format: every event written, read back exactly; bad files named by line")
struct RecordingFormatTests {
    static let device = InputDeviceID(3)
    /// One of every `InputEvent` case, with awkward values: non-integer nanoseconds of points,
    /// a negative zero, a value that is not finite, a pen sample on a touch, text to escape.
    static let events: [InputEvent] = [
        .deviceAdded(InputDeviceInfo(id: device, name: "ELAN \"Touch\" screen", systemName: "event5", kind: .touchscreen,
                                     capabilities: [.touch, .pointer], sizeMillimetres: Size(width: 293.5, height: 165), pointsPerMillimetre: 4.3638)),
        .deviceAdded(InputDeviceInfo(id: InputDeviceID(4), name: "keyboard", systemName: "wayland", kind: nil,
                                     capabilities: [.keyboard], sizeMillimetres: nil)),
        .touchFrame(TouchFrame(time: Instant(nanoseconds: 1_234_567_891), device: device, changes: [
            TouchChange(sourceID: 0, phase: .began, location: Point(x: 0.1 + 0.2, y: 1e-7)),
            TouchChange(sourceID: 7, phase: .moved, location: Point(x: -0.0, y: 123_456.789_012_345)),
        ])),
        .touchFrame(TouchFrame(time: Instant(nanoseconds: 1_300_000_000), device: device, deviceKind: .pen,
                               changes: [TouchChange(sourceID: 2, phase: .cancelled, location: Point(x: .nan, y: .infinity))],
                               pointsPerMillimetre: 3.5, buttonMask: [.primary, .tertiary],
                               pen: PenSample(force: 0.37, altitudeAngle: 1.1, azimuthAngle: -2.9, zOffset: 0.25, tool: .eraser))),
        .touchpadGesture(TouchpadGestureEvent(kind: .pinch, phase: .update, time: Instant(nanoseconds: 2_000_000_001), device: device,
                                              fingers: 3, location: Point(x: 10, y: 20), scale: 1.0625, angleDelta: -3.75,
                                              delta: Point(x: 0.5, y: -0.25))),
        .pointer(.motion(to: Point(x: 5.5, y: 6.5), at: Instant(nanoseconds: 3_000_000_000), device: device)),
        .pointer(.button(true, at: Point(x: 5.5, y: 6.5), time: Instant(nanoseconds: 3_000_000_100), device: device, button: 0x111)),
        .pointer(.scroll(Point(x: 0, y: -15), .discrete, at: Point(x: 5, y: 6), time: Instant(nanoseconds: 3_100_000_000), device: device)),
        .pointer(.scroll(.zero, .continuous, at: Point(x: 5, y: 6), time: Instant(nanoseconds: 3_200_000_000), device: device, stop: true)),
        .pointer(.leave(at: Point(x: 1, y: 2), time: Instant(nanoseconds: 3_300_000_000), device: device)),
        .pen(PenEvent(phase: .hover, time: Instant(nanoseconds: 4_000_000_000), device: device, location: Point(x: 1, y: 2),
                      sample: PenSample(force: 0, altitudeAngle: 0.9, azimuthAngle: 0.1, zOffset: nil))),
        .modifiers(time: Instant(nanoseconds: 5_000_000_000), device: InputDeviceID(4), [.shift, .command, .alphaShift]),
        .eventsDropped(time: Instant(nanoseconds: 6_000_000_000), device: device),
        .note(time: Instant(nanoseconds: 6_000_000_001), device: device, "slot 12 out of range:\n\tignored \\ \"quoted\""),
        .deviceRemoved(device, time: Instant(nanoseconds: 7_000_000_000)),
        .deviceRemoved(InputDeviceID(4), time: nil),
    ]

    /// NaN is not equal to itself: compare the lines the events make.
    static func same(_ a: InputEvent, _ b: InputEvent) -> Bool { InputRecording.line(a) == InputRecording.line(b) }

    @Test("Every kind of input event reads back as the same event, to the nanosecond and to the last bit of every number")
    func everyEventRoundTrips() throws {
        for (index, event) in Self.events.enumerated() {
            let line = InputRecording.line(event)
            let entry = try InputRecording.entry(Array(line.utf8.dropLast()), number: index + 2)
            guard case let .event(back) = entry else { Issue.record("line \(line) read back as \(entry)"); continue }
            if case let .touchFrame(f) = event, f.changes.contains(where: { !$0.location.x.isFinite }) {
                #expect(Self.same(back, event), "\(line)")
            } else {
                #expect(back == event, "\(line) read back as \(back)")
            }
        }
    }

    @Test("A line longer than the room a recorder first makes for it (a long note, a frame of many fingers) is written whole and reads back")
    func longLinesRoundTrip() throws {
        let device = InputDeviceID(3)
        let note = String(repeating: "a \"long\" note\t\u{1}é ", count: 100)  // about 2,300 bytes written: under the reader's 4,096 a string
        let fingers = (0..<40).map {
            TouchChange(sourceID: $0, phase: .moved, location: Point(x: 1 / Double($0 + 3), y: -123.456_789_012 * Double($0)))
        }
        let events: [InputEvent] = [
            .note(time: Instant(nanoseconds: 1), device: device, note),
            .touchFrame(TouchFrame(time: Instant(nanoseconds: 2), device: device, changes: fingers)),
        ]
        var buffer = Array("before\n".utf8)
        for event in events { InputRecording.appendLine(event, to: &buffer) }
        let lines = buffer.split(separator: 0x0A, omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[0].elementsEqual("before".utf8) && lines[3].isEmpty,
                "each line follows what the buffer held, ending with a line end")
        for (index, event) in events.enumerated() {
            let line = Array(lines[index + 1])
            #expect(line.count > InputRecording.Line.firstRoom, "the line is longer than its first room")
            let entry = try InputRecording.entry(line, number: index + 2)
            #expect(entry == .event(event), "a long line reads back as the event it was written from")
        }
    }

    @Test("A recording file is a trace: TraceReader detects it and streams its events and clock times unchanged")
    func fileThroughTraceReader() throws {
        let path = scratchRecording("all")
        defer { unlink(path) }
        let writer = try InputRecordingWriter(path: path, header: .init(source: .wayland, screen: Size(width: 1280, height: 800), scale: 2))
        for event in Self.events.prefix(5) { writer.record(event) }
        writer.recordClock(Instant(nanoseconds: 2_500_000_000))
        for event in Self.events.dropFirst(5) { writer.record(event) }
        writer.close()
        let reader = try TraceReader(path: path)
        #expect(reader.format == .inputRecording)
        #expect(reader.recordingHeader == InputRecording.Header(source: .wayland, screen: Size(width: 1280, height: 800), scale: 2))
        #expect(reader.devices.map(\.name) == ["ELAN \"Touch\" screen", "keyboard"])
        var read: [InputEvent] = []
        var clocks: [Instant] = []
        try reader.run(advancingClock: { clocks.append($0) }) { read.append($0) }
        #expect(read.count == Self.events.count && zip(read, Self.events).allSatisfy(Self.same))
        #expect(clocks == [Instant(nanoseconds: 2_500_000_000)])
    }

    @Test("Bad recordings are clear errors naming the line: a newer version, an unknown field, an unknown event, a cut-off line",
          arguments: [
            ("{\"format\":\"gesturekit-input\",\"version\":2,\"source\":\"app\",\"screen\":[10,10],\"scale\":1}\n", 1,
             "version 2 is newer than this reader, which reads versions 1 to 1"),
            ("{\"format\":\"gesturekit-input\",\"version\":1,\"source\":\"app\",\"screen\":[10,10],\"scale\":1}\n{\"t\":5,\"e\":\"dropped\",\"device\":0,\"colour\":\"red\"}\n", 2,
             "the line has a field the format does not have: \"colour\""),
            ("{\"format\":\"gesturekit-input\",\"version\":1,\"source\":\"app\",\"screen\":[10,10],\"scale\":1}\n\n{\"t\":5,\"e\":\"keypress\",\"device\":0}\n", 3,
             "\"e\": \"keypress\" is no event of the format"),
            ("{\"format\":\"gesturekit-input\",\"version\":1,\"source\":\"app\",\"screen\":[10,10],\"scale\":1}\n{\"t\":5,\"e\":\"touch\",\"device\":0,\"kind\":\"touchscreen\",\"changes\":[[1,\"began\",1,2]]}\n{\"t\":6,\"e\":\"touch\",\"dev", 3,
             "the recording ends in the middle of this line (no line end): it was cut off"),
            ("{\"format\":\"gesturekit-input\",\"version\":1,\"source\":\"app\",\"screen\":[10,10],\"scale\":1}\n{\"t\":5,\"e\":\"touch\",\"device\":0,\"kind\":\"touchscreen\",\"changes\":[[1,\"began\",1]]}\n", 2,
             "\"changes\"[0] should be [id, phase, x, y]"),
          ])
    func badRecordings(content: String, line: Int, message: String) throws {
        let path = scratchRecording("bad")
        defer { unlink(path) }
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: TraceError.self) {
            let reader = try TraceReader(path: path)
            try reader.run { _ in }
        }
        #expect(error?.line == line, "the error should name line \(line): \(error.map { "\($0)" } ?? "none")")
        #expect(error.map { "\($0)" }?.contains(message) == true, "\(error.map { "\($0)" } ?? "none")")
        #expect(error.map { "\($0)" }?.contains(path) == true, "the error names the file")
    }

    @Test("At its size limit the recording stops with a line saying why; what it holds up to there reads back, and nothing after")
    func sizeLimit() throws {
        let path = scratchRecording("limit")
        defer { unlink(path) }
        let writer = try InputRecordingWriter(path: path, header: .init(source: .app, screen: Size(width: 100, height: 100)), limit: 4096)
        var sent = 0
        for i in 0..<200 {
            writer.record(.pointer(.motion(to: Point(x: Double(i), y: 1), at: Instant(nanoseconds: Int64(i) * 8_000_000))))
            if writer.stopReason == nil { sent += 1 }
        }
        writer.close()
        #expect(writer.stopReason == "the recording reached its size limit of 4096 bytes")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.utf8.count <= 4096)
        #expect(text.hasSuffix("\"e\":\"stopped\",\"reason\":\"the recording reached its size limit of 4096 bytes\"}\n"))
        var read = 0
        try TraceReader(path: path).run { _ in read += 1 }
        #expect(read == sent && sent > 10 && sent < 200)
    }
}

/// The static names a recorder writes on every frame are the raw values the reader parses.
@Suite struct InputRecordingNamesTests {
    @Test(arguments: InputDeviceKind.allCases)
    func deviceKindNameIsItsRawValue(kind: InputDeviceKind) {
        #expect("\(kind.formatName)" == kind.rawValue, "a touch frame of a \(kind) device is written as \"\(kind.rawValue)\"")
    }

    @Test(arguments: TouchPhase.allCases)
    func phaseNameIsItsRawValue(phase: TouchPhase) {
        #expect("\(phase.formatName)" == phase.rawValue, "a change that \(phase) is written as \"\(phase.rawValue)\"")
    }
}
