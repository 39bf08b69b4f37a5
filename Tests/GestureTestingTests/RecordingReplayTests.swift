import Foundation
import GestureKit
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
        tester.tap(at: Point(x: 500, y: 500))
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
