import Foundation
import GestureKit
import GestureLive
import Testing
@testable import GestureWayland

/// A compositor session's recording waits for its client (the harness's gate: gate.sh inside
/// the testbed writes the token to the mock nodes once the client's ready file is there), not a
/// fixed time: a window that says it is ready late gets the whole recording, a window that
/// never says so gets none of it.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct CompositorGateTests {
    /// Longer than the fixed lead-in the sessions had (3 s): a recording on a timer would have
    /// played by then.
    static let lateReady = 4.0

    static func touches(_ events: [InputEvent]) -> [TouchPhase] {
        events.flatMap { event -> [TouchPhase] in
            if case let .touchFrame(frame) = event { frame.changes.map(\.phase) } else { [] }
        }
    }

    @Test("a window that says it is ready 4 s after sway starts receives nothing before, and the whole recorded tap after (touch down, then up)")
    func recordingWaitsForTheReadyWindow() throws {
        let session = try Compositor.start(trace: Compositor.fixture("ts-wacom-isdv4-e6-tap-1f.evemu"),
                                           client: "sleep 30", readiness: .file)
        defer { session.remove() }
        defer { session.stopCompositor() }
        let connection = try CompositorRobustnessTests.connect(session)
        defer { connection.disconnect() }
        let window = try WaylandWindow(connection: connection, title: "gate", appID: "gesturekit", size: Size(width: 1000, height: 1000))
        defer { window.destroy() }
        try window.settle()
        let before = try CompositorRobustnessTests.collect(connection, seconds: Self.lateReady)
        #expect(Self.touches(before).isEmpty, "no touch before the window says it is ready: \(Self.touches(before))")
        #expect(!FileManager.default.fileExists(atPath: session.directory + "/gate.opened"), "the gate is still shut")
        session.ready()
        let after = try CompositorRobustnessTests.collect(connection, seconds: Compositor.readyToRecording + 1)
        let phases = Self.touches(after)
        #expect(phases.first == .began && phases.last == .ended, "the recorded tap, whole: \(phases)\n\(session.errors)")
    }
}
