import Foundation
import GestureKit
import GestureRecording
import GestureReplay
import GestureTestSupport
import GestureTraces
import Testing

/// Making a bug report's recording small (docs/RECORDING.md, "Trimming and minimizing"):
/// `gesturekit trim` keeps a time range and some devices, `gesturekit minimize` the smallest
/// recording on which a scene's expectation still fails.
@Suite("Trimming and minimizing a recording: a bug report becomes a small regression file")
struct RecordingTrimMinimizeTests {
    static let header = InputRecording.Header(source: .app, screen: Size(width: 1000, height: 1000))
    static let screen = InputDeviceID(0)
    static let mouse = InputDeviceID(1)

    static func ms(_ ms: Int) -> Instant { Instant(nanoseconds: Int64(ms) * 1_000_000) }
    static func touch(_ time: Int, _ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double) -> InputEvent {
        .touchFrame(TouchFrame(time: ms(time), device: screen, changes: [TouchChange(sourceID: id, phase: phase, location: Point(x: x, y: y))]))
    }
    static func tap(_ time: Int, _ id: Int, _ x: Double, _ y: Double) -> [InputEvent] {
        [touch(time, id, .began, x, y), touch(time + 20, id, .moved, x + 1, y), touch(time + 40, id, .ended, x + 1, y)]
    }
    static let devices: [InputEvent] = [
        .deviceAdded(InputDeviceInfo(id: screen, name: "ELAN Touchscreen", systemName: "event4", kind: .touchscreen,
                                     capabilities: [.touch], sizeMillimetres: nil)),
        .deviceAdded(InputDeviceInfo(id: mouse, name: "Logitech Mouse", systemName: "event5", kind: .pointer,
                                     capabilities: [.pointer], sizeMillimetres: nil)),
    ]

    /// Fourteen seconds of a user's input: a lone tap, a drag, a mouse wandering, a double tap
    /// at 6 s (the moment of the bug report), a touch held across 9 s, a lone tap at 12 s.
    static func session() -> [InputEvent] {
        var events = devices
        events += tap(500, 1, 100, 100)
        events.append(touch(2000, 2, .began, 200, 200))
        for step in 1...30 { events.append(touch(2000 + step * 16, 2, .moved, 200 + Double(step) * 10, 200)) }
        events.append(touch(2500, 2, .ended, 500, 200))
        for step in 0..<20 {
            events.append(.pointer(PointerEvent.motion(to: Point(x: 300 + Double(step), y: 300), at: ms(3000 + step * 50), device: mouse)))
        }
        events += tap(6000, 3, 500, 500)
        events += tap(6150, 4, 502, 501)
        events.append(touch(8500, 5, .began, 700, 700))
        for step in 1...10 { events.append(touch(8500 + step * 100, 5, .moved, 700, 700 + Double(step))) }
        events.append(touch(9600, 5, .ended, 700, 710))
        events += tap(12000, 6, 800, 800)
        return events
    }

    static func write(_ events: [InputEvent], to path: String) throws {
        let writer = try InputRecordingWriter(path: path, header: header)
        for event in events { writer.record(event) }
        writer.close()
    }

    static func read(_ path: String) throws -> [InputEvent] {
        var events: [InputEvent] = []
        try TraceReader(path: path).run { events.append($0) }
        return events
    }

    /// The touches (device, id, phase) of `events`, in order.
    static func touches(_ events: [InputEvent]) -> [String] {
        events.flatMap { event -> [String] in
            guard case let .touchFrame(frame) = event else { return [] }
            return frame.changes.map { "\(frame.device.rawValue)/\($0.sourceID) \($0.phase)" }
        }
    }

    // MARK: Trim

    @Test("Trim keeps the lines from --from to --to of the chosen devices, after their arrivals, with a touch down at --from left out until it lifts")
    func trimRange() throws {
        let input = scratchRecording("session"), output = scratchRecording("trimmed")
        defer { unlink(input); unlink(output) }
        try Self.write(Self.session(), to: input)
        let summary = try InputRecordingTrim(from: Self.ms(5000), to: Self.ms(9000))
            .run(TraceReader(path: input), into: InputRecordingWriter(path: output, header: Self.header))
        let kept = try Self.read(output)
        guard case let .deviceAdded(first)? = kept.first, case let .deviceAdded(second)? = kept.dropFirst().first else {
            Issue.record("the trimmed recording starts with the devices present at --from: \(kept.prefix(2))")
            return
        }
        #expect([first.id, second.id] == [Self.screen, Self.mouse] && first.name == "ELAN Touchscreen")
        #expect(kept.compactMap(\.time).allSatisfy { $0 >= Self.ms(5000) && $0 <= Self.ms(9000) },
                "every event is timed from 5 s to 9 s: \(kept.compactMap(\.time))")
        #expect(Self.touches(kept).prefix(6) == ["0/3 began", "0/3 moved", "0/3 ended", "0/4 began", "0/4 moved", "0/4 ended"],
                "the double tap is kept whole: \(Self.touches(kept))")
        #expect(Self.touches(kept).filter { $0.hasPrefix("0/5") }.count == 6, "the held touch's beginning and first five moves, to 9 s")
        #expect(summary.written == kept.count && summary.read == Self.session().count)

        // From the middle of the drag: its moves and its lift are left out, as they refer to a beginning not there.
        let middle = scratchRecording("middle")
        defer { unlink(middle) }
        let cut = try InputRecordingTrim(from: Self.ms(2200), to: Self.ms(2600))
            .run(TraceReader(path: input), into: InputRecordingWriter(path: middle, header: Self.header))
        let middleTouches = Self.touches(try Self.read(middle))
        #expect(middleTouches.isEmpty, "no line of the drag begun before --from: \(middleTouches)")
        #expect(cut.leftOut == 19, "the drag's 18 moves from 2.2 s and its lift are left out: \(cut.leftOut)")
    }

    @Test("Trim by device keeps that device's arrival and lines alone")
    func trimDevices() throws {
        let input = scratchRecording("session"), output = scratchRecording("mouse")
        defer { unlink(input); unlink(output) }
        try Self.write(Self.session(), to: input)
        try InputRecordingTrim(devices: [Self.mouse]).run(TraceReader(path: input), into: InputRecordingWriter(path: output, header: Self.header))
        let kept = try Self.read(output)
        #expect(kept.count == 21 && kept.allSatisfy { ContactCounter.device(of: $0) == Self.mouse },
                "the mouse's arrival and its 20 motions: \(kept.count) events")
    }

    @Test("gesturekit trim writes a private file that replays, refuses its own input and an existing file, and checks its times")
    func trimCommand() throws {
        let input = scratchRecording("session"), output = scratchRecording("cut")
        defer { unlink(input); unlink(output) }
        try Self.write(Self.session(), to: input)
        let run = try runProcess(builtProduct("gesturekit"), ["trim", input, "-o", output, "--from", "5.5", "--to", "7", "--devices-by-kind"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("8 of 78 events kept"), "it says what it kept: \(run.errors)")
        var s = stat()
        #expect(stat(output, &s) == 0 && s.st_mode & 0o777 == 0o600, "created 0600")
        let replay = try runProcess(builtProduct("gesturekit"), ["replay", output])
        #expect(replay.status == 0 && replay.output.contains("double") && replay.output.contains("ended"),
                "the trimmed recording replays the double tap: \(replay.output)")
        #expect(!((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("ELAN"), "--devices-by-kind names no device")

        let again = try runProcess(builtProduct("gesturekit"), ["trim", input, "-o", output])
        #expect(again.status != 0 && again.errors.contains("already exists"), "an existing output is refused: \(again.errors)")
        let onto = try runProcess(builtProduct("gesturekit"), ["trim", input, "-o", input, "--replace"])
        #expect(onto.status != 0, "trimming onto its own input is refused: \(onto.errors)")
        #expect(try Self.read(input).count == Self.session().count, "the input is left whole")
        let backwards = try runProcess(builtProduct("gesturekit"), ["trim", input, "-o", output, "--replace", "--from", "3", "--to", "2"])
        #expect(backwards.status != 0 && backwards.errors.contains("--to (2 s) is before --from (3 s)"), "\(backwards.errors)")
    }

    // MARK: Minimize

    @Test("Minimize shrinks a session to the two taps that make the double tap, without their moves, starting at 0")
    func minimizeToDoubleTap() throws {
        let scene = Scene.defaultScene()
        let expectation = try SceneExpectation(parsing: "not double ended", in: scene)
        let entries = Self.session().map(InputRecording.Entry.event)
        let minimizer = RecordingMinimizer(scene: scene, expectation: expectation)
        #expect(try minimizer.fails(entries), "the double tap ends on the whole session")
        let result = try minimizer.minimize(entries)
        let events = result.entries.compactMap { entry -> InputEvent? in
            if case let .event(e) = entry { return e } else { return nil }
        }
        #expect(Self.touches(events) == ["0/3 began", "0/3 ended", "0/4 began", "0/4 ended"],
                "the two taps of the double tap, without their moves: \(Self.touches(events))")
        #expect(result.partsKept == 2 && result.movesKept == 0 && !result.limited, "\(result.partsKept) parts, \(result.movesKept) moves")
        #expect(events.first?.time == nil && events.compactMap(\.time).first == .zero, "it starts at 0 after the screen's arrival")
        #expect(!events.contains { ContactCounter.device(of: $0) == Self.mouse }, "the idle mouse's arrival goes too")
        #expect(result.secondsKept < 0.2 && result.seconds > 11, "\(result.seconds) s to \(result.secondsKept) s")
        #expect(try minimizer.fails(result.entries), "the double tap still ends on the smaller recording")
    }

    @Test("With --still, what must keep happening keeps happening: a single tap kept beside the double tap")
    func minimizeStill() throws {
        let scene = Scene.defaultScene()
        let minimizer = RecordingMinimizer(scene: scene, expectation: try SceneExpectation(parsing: "not double ended", in: scene),
                                           still: [try SceneExpectation(parsing: "single ended", in: scene)])
        let result = try minimizer.minimize(Self.session().map(InputRecording.Entry.event))
        #expect(result.partsKept == 3, "the double tap's two taps and one lone tap: \(result.partsKept) parts")
    }

    @Test("An expectation that holds on the recording is nothing to minimize; a bad one names what it expected")
    func minimizeRefuses() throws {
        let scene = Scene.defaultScene()
        let minimizer = RecordingMinimizer(scene: scene, expectation: try SceneExpectation(parsing: "not pinch began", in: scene))
        let error = #expect(throws: RecordingMinimizer.Failure.self) { try minimizer.minimize(Self.session().map(InputRecording.Entry.event)) }
        #expect(error?.description.contains("does not fail on the recording") == true, "\(error.map { "\($0)" } ?? "none")")
        #expect(throws: SceneExpectation.ParseError.self) { try SceneExpectation(parsing: "nobody ended", in: scene) }
        #expect(throws: SceneExpectation.ParseError.self) { try SceneExpectation(parsing: "double possible", in: scene) }
    }

    @Test("gesturekit minimize writes the smaller recording, which replays to the same failure")
    func minimizeCommand() throws {
        let input = scratchRecording("session"), output = scratchRecording("minimal")
        defer { unlink(input); unlink(output) }
        try Self.write(Self.session(), to: input)
        let run = try runProcess(builtProduct("gesturekit"), ["minimize", input, "--expect", "not double ended", "-o", output])
        #expect(run.status == 0 && run.errors.contains("still fails with 2 of"), "\(run.errors)")
        #expect(Self.touches(try Self.read(output)).count == 4)
        let replay = try runProcess(builtProduct("gesturekit"), ["replay", output, "--json"])
        #expect(replay.status == 0 && replay.output.contains(#""recognizer":"double""#) && replay.output.contains(#""to":"ended""#),
                "the minimal recording's replay ends the double tap: \(replay.output)")
        let wrong = try runProcess(builtProduct("gesturekit"), ["minimize", input, "--expect", "double sideways", "-o", output + "x"])
        #expect(wrong.status != 0 && wrong.errors.contains("is no state"), "\(wrong.errors)")
    }
}
