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
        // A directory for each reading: a reading whose input was off the recording's timing
        // is made again (`MockDeviceTiming`), and each writes its own flight recording.
        var dirs: [String] = []
        defer { for dir in dirs { try? FileManager.default.removeItem(atPath: dir) } }
        let (live, _) = try MockDeviceTiming.onTime("the flight recorder through libinput") { environment in
            let dir = NSTemporaryDirectory() + "gesturekit-flight-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
            dirs.append(dir)
            return try runProcess(LibinputRecognitionTests.tool, ["replay", Fixtures.path("ts-atmel-maxtouch-9-taps-1f.evemu"), "--json",
                                                                 "--backend", "libinput", "--flight-recorder", "60", "--flight-output", dir],
                                  environment: environment)
        }
        #expect(live.status == 0, "stderr: \(live.errors)")
        let dir = try #require(dirs.last)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(files.count == 1 && files.first?.hasPrefix("flight-") == true, "one flight recording, written as the session ended: \(files)")
        let replayed = try LibinputRecognitionTests.gesturekit(["replay", dir + "/" + (files.first ?? ""), "--json"])
        #expect(replayed.status == 0, "stderr: \(replayed.err)")
        #expect(!live.output.isEmpty && replayed.out == live.output, "live:\n\(live.output)\nreplayed:\n\(replayed.out)")
    }
}
