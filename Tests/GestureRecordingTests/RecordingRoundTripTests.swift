import Foundation
import GestureInput
import GestureKit
import GestureRecording
import GestureReplay
import GestureTestSupport
import GestureTesting
import GestureTestingTraces
import GestureTraces
import Testing

@Suite("Recorded, then replayed: the same transitions at the same times")
struct RecordingRoundTripTests {
    @Test("Replaying what a replay of a recording fed the engine gives exactly the records that replay gave", arguments: Fixtures.all)
    func replayOfTheRecording(fixture: String) throws {
        let scene = Scene.defaultScene()
        let path = scratchRecording("replayed")
        defer { unlink(path) }
        let writer = try InputRecordingWriter(path: path, header: .init(source: .replay, screen: scene.screen))
        var first: [ReplayRecord] = []
        try TraceReplay.run(path: Fixtures.path(fixture), scene: scene, record: writer) { first.append($0) }
        #expect(writer.stopReason == "closed")
        let second = try TraceReplay.records(path: path, scene: scene)
        #expect(second == first, "\(fixture): \(first.count) records, then \(second.count)")
    }

    @Test("gesturekit replay OTHER --record FILE, then gesturekit replay FILE --json prints what the first printed",
          arguments: ["ts-surface-pro3-pinch-out-3f.debug-events.txt", "synthetic-mouse-logitech-k400-modifiers-wheel-click.evemu"])
    func throughTheTool(fixture: String) throws {
        let path = scratchRecording("tool")
        defer { unlink(path) }
        let first = try runProcess(builtProduct("gesturekit"), ["replay", Fixtures.path(fixture), "--json", "--record", path])
        #expect(first.status == 0, "\(first.errors)")
        let second = try runProcess(builtProduct("gesturekit"), ["replay", path, "--json"])
        #expect(second.status == 0, "\(second.errors)")
        #expect(!first.output.isEmpty && second.output == first.output)
    }

    @Test("A recording holds the modifier keys as flags, never a key code: the keyboard trace's keys are not in it")
    func modifiersOnly() throws {
        let path = scratchRecording("keys")
        defer { unlink(path) }
        let writer = try InputRecordingWriter(path: path, header: .init(source: .replay, screen: Size(width: 1000, height: 1000)))
        try TraceReplay.run(path: Fixtures.path("synthetic-mouse-logitech-k400-modifiers-wheel-click.evemu"),
                            scene: .defaultScene(), record: writer) { _ in }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let kinds = Set(text.split(separator: "\n").dropFirst().compactMap { line -> String? in
            guard let r = line.range(of: "\"e\":\"") else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        })
        #expect(kinds.contains("modifiers"), "the trace holds modifier keys: \(kinds)")
        #expect(kinds.isSubset(of: ["device-added", "device-removed", "pointer", "modifiers", "touch", "note"]), "\(kinds)")
        #expect(!text.contains("KEY_") && !text.contains("\"code\""))
    }

    @Test("A live client's recording: an event read late, after the loop moved the clock on for a deadline, replays at the same engine time")
    func liveClockIsKept() throws {
        let path = scratchRecording("live")
        defer { unlink(path) }
        func app() -> (GestureEngine, PanGestureRecognizer, LongPressGestureRecognizer) {
            let engine = GestureEngine()
            let root = View(id: "root", frame: Rect(x: 0, y: 0, width: 400, height: 400))
            engine.addRoot(root)
            let pan = PanGestureRecognizer(name: "pan"), press = LongPressGestureRecognizer(name: "press")
            press.allowableMovement = 100
            root.addGestureRecognizer(pan)
            root.addGestureRecognizer(press)
            pan.recognizeSimultaneously(with: press)
            return (engine, pan, press)
        }
        // Live: what a loop does: events, then a wake at the long press's deadline a little
        // late (0.5012 s), then a move stamped 0.5005 s that was read after the wake.
        let (engine, _, _) = app()
        let live = GestureTester(engine: engine)
        let recorder = try GestureRecorder(recordingTo: path, source: .app, screen: Size(width: 400, height: 400), passingTo: engine)
        func frame(_ ms: Double, _ phase: TouchPhase, _ x: Double) {
            recorder.handle(.touchFrame(TouchFrame(time: Instant(seconds: ms / 1000),
                                                   changes: [TouchChange(sourceID: 1, phase: phase, location: Point(x: x, y: 100))])))
        }
        frame(0, .began, 100)
        frame(100, .moved, 104)
        recorder.advance(to: Instant(seconds: 0.5012))
        frame(500.5, .moved, 130)
        frame(600, .ended, 130)
        recorder.finish()
        let liveLines = live.account
        // Replayed into the same app.
        let (engine2, _, _) = app()
        let replayed = GestureTester(engine: engine2)
        try replayed.replay(recording: path)
        #expect(replayed.account == liveLines, "live:\n\(liveLines)\nreplayed:\n\(replayed.account)")
        #expect(liveLines.contains("pan: possible → began at 0.501200 s"), "the late move began the pan at the loop's time: \(liveLines)")
    }

    @Test("The tester replays a recording into an app's own views exactly as gesturekit replay does", arguments: ["ts-ep0430m09-pan-down-2f.evemu", "synthetic-tp-elantech-pinch-out-2f.evemu"])
    func testerReplaysRecording(fixture: String) throws {
        let scene = Scene.defaultScene()
        let path = scratchRecording("tester")
        defer { unlink(path) }
        let writer = try InputRecordingWriter(path: path, header: .init(source: .replay, screen: scene.screen))
        var first: [String] = []
        try TraceReplay.run(path: Fixtures.path(fixture), scene: scene, record: writer) { record in
            if case let .state(s) = record { first.append("\(s.time.nanoseconds) \(s.recognizer) \(s.to.rawValue)") }
        }
        let live = try LiveScene(scene)
        let tester = GestureTester(engine: live.engine)
        try tester.replay(recording: path)
        let second = tester.records.compactMap { event -> String? in
            guard case let .transition(t) = event, !live.isInternal(t.recognizer) else { return nil }
            return "\(t.time.nanoseconds) \(live.id(of: t.recognizer)) \(t.to.rawValue)"
        }
        #expect(!first.isEmpty && second == first)
    }
}
