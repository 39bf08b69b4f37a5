import Foundation
import GestureKit
import GestureRecording
import GestureReplay
import GestureTestSupport
import GestureTesting
import GestureTestingTraces
import Testing

@Suite("Recordings replayed into your own views, on the tester's clock")
struct RecordingReplayTests {
    /// One transition as both sides can say it.
    struct Line: Hashable, CustomStringConvertible {
        var time: Instant, recognizer: String, from: GestureRecognizer.State, to: GestureRecognizer.State, reason: String
        var description: String { "\(formatTime(time)) \(recognizer): \(from.rawValue) → \(to.rawValue) (\(reason))" }
    }

    @Test("A recording gives the same transitions, at the same times, through the tester as through gesturekit replay",
          arguments: Fixtures.all)
    func sameAsTheReplay(fixture: String) throws {
        let scene = Scene.defaultScene()
        let replayed = try TraceReplay.records(path: Fixtures.path(fixture), scene: scene).compactMap { record -> Line? in
            guard case let .state(s) = record else { return nil }
            return Line(time: s.time, recognizer: s.recognizer, from: s.from, to: s.to, reason: s.reason)
        }
        let live = try LiveScene(scene)
        let tester = GestureTester(engine: live.engine)
        try tester.replay(recording: Fixtures.path(fixture), mapping: scene.input)
        let tested = tester.records.compactMap { event -> Line? in
            guard case let .transition(t) = event, !live.isInternal(t.recognizer) else { return nil }
            return Line(time: t.time, recognizer: live.id(of: t.recognizer), from: t.from, to: t.to, reason: t.reason.description)
        }
        // Touchpads' and wheels' recordings make no transition in the default scene (a
        // touchpad's contacts are no touches, and it has no scrolling pan); every other
        // recording has something to compare.
        #expect(!replayed.isEmpty || Fixtures.touchpads.contains(fixture) || fixture.contains("wheel"),
                "the default scene recognizes something in \(fixture)")
        #expect(tested == replayed, "through the tester:\n\(tested.map(\.description).joined(separator: "\n"))\nthrough the replay:\n\(replayed.map(\.description).joined(separator: "\n"))")
    }

    @Test("A recording replayed after the tester's own gestures starts one sample after them, and its taps reach the app's view")
    func afterOwnGestures() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        let tap = TapGestureRecognizer(name: "tap")
        root.addGestureRecognizer(tap)
        let tester = GestureTester(root: root)
        try tester.tap(at: Point(x: 500, y: 500))
        try tester.settle()
        let before = tester.now
        tester.clearRecords()
        try tester.replay(recording: Fixtures.path("ts-atmel-maxtouch-9-taps-1f.evemu"))
        let ended = tester.transitions(of: tap).filter { $0.to == .ended }
        #expect(ended.count == 9, "nine taps in the recording: \(tester.account)")
        #expect(ended.allSatisfy { $0.time > before })
    }

    @Test("A file that is not a recording is a clear error naming it, and nothing reaches the engine")
    func badFile() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        let tester = GestureTester(root: root)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-recording-\(UUID().uuidString).evemu").path
        try "E: 0.000001 0003 0035 nonsense\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: (any Error).self) { try tester.replay(recording: path) }
        #expect(error.map { "\($0)" }?.contains("not-a-recording") == true, "\(error.map { "\($0)" } ?? "")")
        #expect(tester.records.isEmpty)
    }
}

@Suite("A recording's screen, mapped onto the tester's or refused with both sizes")
struct RecordingScreenTests {
    /// An input recording made on a 1280 × 800 screen: a tap at its centre.
    static func recordingOfATap() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tap-1280x800-\(UUID().uuidString).jsonl").path
        let writer = try InputRecordingWriter(path: path, header: .init(source: .app, screen: Size(width: 1280, height: 800)))
        writer.record(.deviceAdded(InputDeviceInfo(id: InputDeviceID(0), name: "screen", systemName: "screen", kind: .touchscreen,
                                                   capabilities: [.touch], sizeMillimetres: nil)))
        writer.record(.touchFrame(TouchFrame(time: .zero, changes: [TouchChange(sourceID: 1, phase: .began, location: Point(x: 640, y: 400))])))
        writer.record(.touchFrame(TouchFrame(time: Instant(seconds: 0.08), changes: [TouchChange(sourceID: 1, phase: .ended, location: Point(x: 640, y: 400))])))
        writer.close()
        return path
    }

    @Test("A 1280 × 800 recording plays into a 640 × 400 tester scaled by a half: its tap lands on the view at the centre")
    func sameShapeIsScaled() throws {
        let path = try Self.recordingOfATap()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 640, height: 400))
        let centre = View(id: "centre", frame: Rect(x: 300, y: 180, width: 40, height: 40))
        root.addSubview(centre)
        let tap = TapGestureRecognizer(name: "tap")
        centre.addGestureRecognizer(tap)
        let tester = GestureTester(root: root)
        try tester.replay(recording: path)
        try tester.requireRecognized(tap)
    }

    @Test("A 1280 × 800 recording into a 400 × 400 tester is refused, naming both sizes, and nothing reaches the engine")
    func otherShapeIsRefused() throws {
        let path = try Self.recordingOfATap()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tester = GestureTester(root: View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400)))
        let error = #expect(throws: GestureTestError.self) { try tester.replay(recording: path) }
        #expect(error?.description.hasPrefix("a recording of a 1280×800-point screen does not fit the tester's 400×400-point screen") == true,
                "\(String(describing: error))")
        #expect(tester.records.isEmpty && !tester.hasSentInput)
    }
}
