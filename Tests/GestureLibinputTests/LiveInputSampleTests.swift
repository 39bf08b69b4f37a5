import Foundation
import GestureMockDevice
import Testing
import GestureTestSupport

/// The sample of the article "Live input from libinput in your app" (`runPhotoViewer`,
/// Sources/gesturekit-libinput-probe/LiveInputSample.swift, word for word in the article:
/// DocumentationTests) run on real libinput: the probe runs it under umockdev on a recorded
/// touchscreen (the preload library must be in the process that opens the devices, so the
/// sample lives in the probe rather than in this test target).
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                             "umockdev-run is missing: install the Debian package 'umockdev'"))
struct LiveInputSampleTests {
    /// The sample on `fixture`'s touchscreen, mapped onto 1280 × 800 points, for 1.5 s from
    /// when libinput has opened the mock device (the recording starts 0.2 s after that).
    static func run(_ fixture: String) throws -> UmockdevRunResult {
        let recording = Fixtures.recording(fixture)
        let replay = ProbeHarness.replay(device: MockDevice(recording.description), events: recording.events)
        let runner = try UmockdevRunner(timeout: 20)
        return try runner.run(devices: [replay],
                              command: [ProbeHarness.probePath, "--sample", "--duration", "1.5", "--screen", "1280x800",
                                        "--open-gate", MockDeviceGate.token, replay.device.devicePath])
    }

    @Test("the recorded double tap zooms the app's photo, and the run ends after its duration")
    func doubleTap() throws {
        let result = try Self.run("ts-wacom-isdv4-e6-double-tap-1f.evemu")
        #expect(result.exitStatus == 0, "expected the sample to end cleanly; stderr: \(result.stderr)")
        #expect(result.stdoutLines == ["zoom in", "stopped: duration"],
                "expected one zoom and the end of the run, got \(result.stdoutLines); stderr: \(result.stderr)")
    }

    @Test("the recorded tap selects, once the double tap's interval has run out on the loop's timer")
    func tap() throws {
        let result = try Self.run("ts-wacom-isdv4-e6-tap-1f.evemu")
        #expect(result.exitStatus == 0, "expected the sample to end cleanly; stderr: \(result.stderr)")
        #expect(result.stdoutLines.count == 2 && result.stdoutLines[0].hasPrefix("select at (")
                    && result.stdoutLines[1] == "stopped: duration",
                "expected one selection and the end of the run, got \(result.stdoutLines); stderr: \(result.stderr)")
    }
}
