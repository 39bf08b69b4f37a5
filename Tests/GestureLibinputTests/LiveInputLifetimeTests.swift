import Foundation
import GestureMockDevice
import Testing
import GestureTestSupport

/// Live input from libinput (`LiveInput`, its `LibinputContext`) and the engine it feeds are
/// let go once a run ends: checked inside the probe under umockdev (the preload library must
/// be in the process that opens the devices), by weak references and by the device files the
/// process still holds (libinput's context closes them when it is freed).
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                             "umockdev-run is missing: install umockdev (make deps) to run the probe on mock devices"))
struct LiveInputLifetimeTests {
    @Test("LiveInput, the engine it fed and libinput's context are freed after a run with a double tap, and the devices are closed")
    func liveInputIsFreed() throws {
        let replay = ProbeHarness.replay(device: MockDevice(Fixtures.wacom), events: Fixtures.wacomDoubleTap)
        let run = try ProbeHarness.run([replay], duration: 0.9, options: ["--lifetime"])
        #expect(run.result.exitStatus == 0, "stderr: \(run.result.stderr)")
        guard let line = run.lines.first(where: { $0["type"] as? String == "lifetime" }) else {
            Issue.record("the probe printed no lifetime line: \(run.result.stdoutLines) \(run.result.stderr)")
            return
        }
        #expect((line["traced"] as? Int ?? 0) > 0, "the engine traced the double tap's touches")
        let opened = line["openedForRun"] as? [String] ?? []
        print("LiveInputLifetimeTests: files the run opened: \(opened)")
        #expect(!opened.isEmpty, "the run opened files (libinput's device, its epoll)")
        #expect(line["stillOpen"] as? [String] == [], "every file the run opened is closed once libinput's context is freed")
        #expect(line["notFreed"] as? [String] == [], "LiveInput, the engine and its recognizer are freed")
    }
}
