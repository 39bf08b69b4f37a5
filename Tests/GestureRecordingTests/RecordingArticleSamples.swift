import Foundation
import GestureInput
import GestureKit
import GestureRecording
import GestureReplay
import GestureTestSupport
import GestureTesting
import GestureTestingTraces
import GestureWayland
import Testing

/// The samples of the article "Recording a bug report and replaying it in a test"
/// (Sources/GestureRecording/GestureRecording.docc), compiled here and checked word for word
/// by DocumentationTests; the test runs.
@Suite("Recording a bug report and replaying it in a test (the article's samples)")
struct RecordingArticleSamples {
    /// A bug report: a double tap on a touchscreen, as the app received it.
    static let bugReportPath: String = {
        let path = scratchRecording("bug-report")
        let writer = try! InputRecordingWriter(path: path, header: .init(source: .replay, screen: Size(width: 1000, height: 1000)))
        _ = try! TraceReplay.run(path: Fixtures.path("ts-wacom-isdv4-e6-double-tap-1f.evemu"), scene: .defaultScene(), record: writer) { _ in }
        return path
    }()

    // recording-app:begin
    /// Runs the app's engine on its Wayland window; with `recordTo` (the app's --record FILE,
    /// when a user files a bug), everything the engine receives is written down as well.
    func runApp(engine: GestureEngine, connection: WaylandConnection, window: WaylandWindow,
                recordTo path: String?) throws {
        let input = WaylandInput(connection: connection, window: window, timeLimit: nil)
        let client: any LiveInputClient = try path.map {
            try GestureRecorder(recordingTo: $0, source: .wayland, screen: window.size,
                                scale: window.scale, passingTo: engine)
        } ?? engine
        _ = try input.run(client)
    }
    // recording-app:end

    // recording-test:begin
    @Test("The photo in the bug report zooms on the user's double tap")
    func bugReportDoubleTap() throws {
        let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        let doubleTap = TapGestureRecognizer(taps: 2, name: "doubleTap")
        photo.addGestureRecognizer(doubleTap)
        let tester = GestureTester(root: photo)

        try tester.replay(recording: Self.bugReportPath)
        try tester.requireRecognized(doubleTap)
    }
    // recording-test:end
}
