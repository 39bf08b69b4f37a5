import Foundation
import GestureTestSupport
import Testing

/// `gesturekit listen --flight-recorder` on live input through libinput (under umockdev, as
/// `replay --backend libinput` plays a recording): the recording it writes when it ends
/// replays to what the live session printed, as its `--record` does.
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct LibinputFlightRecorderTests {
    @Test("The flight recorder of a live session, written when it ends, replays to every line the session printed")
    func flightRecordingReplays() throws {
        let dir = NSTemporaryDirectory() + "gesturekit-flight-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let live = try LibinputRecognitionTests.gesturekit(["replay", Fixtures.path("ts-atmel-maxtouch-9-taps-1f.evemu"), "--json",
                                                           "--backend", "libinput", "--flight-recorder", "60", "--flight-output", dir])
        #expect(live.status == 0, "stderr: \(live.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(files.count == 1 && files.first?.hasPrefix("flight-") == true, "\(files)")
        let replayed = try LibinputRecognitionTests.gesturekit(["replay", dir + "/" + (files.first ?? ""), "--json"])
        #expect(replayed.status == 0, "stderr: \(replayed.err)")
        #expect(!live.out.isEmpty && replayed.out == live.out, "live:\n\(live.out)\nreplayed:\n\(replayed.out)")
    }
}
