import Foundation
import GestureKit
import GestureMockDevice
import GestureLibinput
import GestureTraces
import Testing
import GestureTestSupport

/// Real libinput (in gesturekit-libinput-probe, a child process) on replayed recordings
/// under umockdev-run. Serialized: replay is real time and the machine has 2 cores.
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct UmockdevProbeTests {
    static func double(_ v: Any?) -> Double { (v as? NSNumber)?.doubleValue ?? .nan }

    static func checkCleanExit(_ run: ProbeRun) {
        #expect(run.result.timedOut == false)
        #expect(run.result.exitStatus == 0, "stderr: \(run.result.stderr)")
        #expect(run.lines.last?["type"] as? String == "stopped")
    }

    @Test(arguments: 1...3)
    func wacomDoubleTap(iteration: Int) throws {
        let replay = ProbeHarness.replay(device: MockDevice(Fixtures.wacom), events: Fixtures.wacomDoubleTap)
        let run = try ProbeHarness.run([replay], duration: 0.9)
        Self.checkCleanExit(run)
        #expect(run.lines.first?["type"] as? String == "device-added")
        #expect(run.lines.first?["kind"] as? String == "touchscreen")
        #expect(run.touchPhases == ["began", "ended", "began", "ended"])
        // The kernel fuzz went into LIBINPUT_FUZZ_xx, as udev's rule does.
        #expect(!run.result.stderr.contains("LIBINPUT_FUZZ"), "\(run.result.stderr)")
        let times = run.touchFrames.map { Self.double($0["time"]) }
        guard times.count == 4 else { return }
        // Recorded SYN_REPORT spacing: 31.980, 140.008, 59.991 ms. The replay is real time
        // and the preload library follows real lag, so on a loaded machine the spacing
        // stretches by the lag (seen: 12 ms with two builds running); the order of
        // magnitude, not the microsecond, is what this checks.
        let spacing = zip(times.dropFirst(), times).map { $0 - $1 }
        for (got, want) in zip(spacing, [0.031980, 0.140008, 0.059991]) {
            // 60 ms: two make tests at once stretched one gap by 50 ms here.
            #expect(abs(got - want) < 0.060, "the recorded frame spacing should survive the real-time replay within 60 ms: \(spacing)")
        }
        // (1332, 755) of 2776 × 1569 on a 1000 × 1000 screen.
        let first = (run.touchFrames[0]["changes"] as! [[String: Any]])[0]
        #expect(abs(Self.double(first["x"]) - 1332.0 / 2777 * 1000) < 0.01)
        #expect(abs(Self.double(first["y"]) - 755.0 / 1570 * 1000) < 0.01)
    }

    @Test func wacomTapOnScreenSize() throws {
        // Only the first tap, on a 1280 × 800 screen.
        let tap = Array(Fixtures.wacomDoubleTap.prefix(10))
        let replay = ProbeHarness.replay(device: MockDevice(Fixtures.wacom), events: tap)
        let run = try ProbeHarness.run([replay], duration: 0.6, screen: "1280x800")
        Self.checkCleanExit(run)
        #expect(run.touchPhases == ["began", "ended"])
        let change = (run.touchFrames.first?["changes"] as? [[String: Any]])?.first
        #expect(abs(Self.double(change?["x"]) - 1332.0 / 2777 * 1280) < 0.01)
        #expect(abs(Self.double(change?["y"]) - 755.0 / 1570 * 800) < 0.01)
    }

    @Test(arguments: 1...2)
    func touchscreenPinch(iteration: Int) throws {
        let events = Fixtures.pinch(touchpad: false, cx: 2048, cy: 2048, startGap: 400, step: 20, frames: 20)
        let run = try ProbeHarness.run([ProbeHarness.replay(device: MockDevice(Fixtures.touchscreen),
                                                         events: events)], duration: 0.8)
        Self.checkCleanExit(run)
        let phases = run.touchPhases
        #expect(phases.count == 22)
        #expect(phases.first == "began,began")
        #expect(phases.dropFirst().dropLast().allSatisfy { $0 == "moved,moved" })
        #expect(phases.last == "ended,ended")
        let gaps = run.touchFrames.map { frame -> Double in
            let c = frame["changes"] as! [[String: Any]]
            return abs(Self.double(c[1]["x"]) - Self.double(c[0]["x"]))
        }
        #expect(zip(gaps.dropFirst(), gaps).dropLast().allSatisfy { $0 > $1 })
        #expect(abs(gaps[0] - 400.0 / 4096 * 1000) < 0.01)
    }

    @Test(arguments: 1...3)
    func touchpadPinchOut(iteration: Int) throws {
        // The fingers rest 100 ms before they spread, as fingers do: libinput starts its hold
        // 40 ms after touch-down only if no motion came first, and on a loaded machine a
        // pinch that moves at once can beat that timer (seen once in three runs).
        let events = Fixtures.pinch(touchpad: true, cx: 600, cy: 400, startGap: 200, step: 5, frames: 40, restFirst: 0.1)
        let run = try ProbeHarness.run([ProbeHarness.replay(device: MockDevice(Fixtures.touchpad),
                                                         events: events)], duration: 1.2)
        Self.checkCleanExit(run)
        #expect(run.lines.first?["kind"] as? String == "touchpad")
        #expect(run.touchFrames.isEmpty)
        #expect(run.gestureSummary == ["hold/begin", "hold/cancel", "pinch/begin", "pinch/update", "pinch/end"])
        let pinch = run.gestures.filter { $0["kind"] as? String == "pinch" }
        #expect(pinch.allSatisfy { $0["fingers"] as? Int == 2 })
        let scales = pinch.map { Self.double($0["scale"]) }
        #expect(scales.first == 1)
        #expect(zip(scales.dropFirst(), scales).dropLast().allSatisfy { $0 > $1 })
        #expect((scales.last ?? 0) > 2)
        // Delivered at the pointer, which starts at the screen's centre.
        #expect(pinch.allSatisfy { Self.double($0["x"]) == 500 && Self.double($0["y"]) == 500 })
    }

    @Test func touchpadPinchIn() throws {
        let events = Fixtures.pinch(touchpad: true, cx: 600, cy: 400, startGap: 600, step: -5, frames: 40)
        let run = try ProbeHarness.run([ProbeHarness.replay(device: MockDevice(Fixtures.touchpad),
                                                         events: events)], duration: 1.1)
        Self.checkCleanExit(run)
        #expect(run.gestureSummary.suffix(3) == ["pinch/begin", "pinch/update", "pinch/end"])
        let scales = run.gestures.filter { $0["kind"] as? String == "pinch" }.map { Self.double($0["scale"]) }
        #expect(zip(scales.dropFirst(), scales).dropLast().allSatisfy { $0 < $1 })
        #expect((scales.last ?? 1) < 0.5)
    }

    @Test(arguments: 1...2)
    func touchpadHold(iteration: Int) throws {
        let run = try ProbeHarness.run([ProbeHarness.replay(device: MockDevice(Fixtures.touchpad),
                                                         events: Fixtures.hold(seconds: 1.0))],
                                       duration: 1.6)
        Self.checkCleanExit(run)
        #expect(run.gestureSummary == ["hold/begin", "hold/end"])
        let times = run.gestures.map { Self.double($0["time"]) }
        if times.count == 2 {
            // Fingers held 1.0 s, the hold starting ~40 ms in. The resting fingers' frames
            // (Fixtures.hold) stamp the hold's start at a frame's time, however late the probe
            // reads them.
            #expect(times[1] - times[0] > 0.85 && times[1] - times[0] < 1.2)
        }
        #expect(run.gestures.allSatisfy { $0["fingers"] as? Int == 2 })
    }

    @Test(arguments: 1...2)
    func touchscreenVanishesMidPinch(iteration: Int) throws {
        let events = Fixtures.pinch(touchpad: false, cx: 2048, cy: 2048, startGap: 400, step: 20,
                                    frames: 10, lift: false)
        let run = try ProbeHarness.run([ProbeHarness.replay(device: MockDevice(Fixtures.touchscreen),
                                                         events: events, vanishAfter: 0.05)],
                                       duration: 0.8)
        Self.checkCleanExit(run)
        #expect(run.touchPhases.count == 12)
        #expect(run.touchPhases.last == "cancelled,cancelled")
        let types = run.lines.map { $0["type"] as! String }
        #expect(types.suffix(3) == ["touch", "device-removed", "stopped"])
    }

    @Test(arguments: 1...2)
    func touchpadVanishesMidPinch(iteration: Int) throws {
        let events = Fixtures.pinch(touchpad: true, cx: 600, cy: 400, startGap: 200, step: 5,
                                    frames: 30, lift: false)
        let run = try ProbeHarness.run([ProbeHarness.replay(device: MockDevice(Fixtures.touchpad),
                                                         events: events, vanishAfter: 0.05)],
                                       duration: 1.0)
        Self.checkCleanExit(run)
        #expect(run.gestureSummary.suffix(3) == ["pinch/begin", "pinch/update", "pinch/cancel"])
        let types = run.lines.map { $0["type"] as! String }
        #expect(types.suffix(2) == ["device-removed", "stopped"])
    }

    @Test func scriptEndsMidPinchThenProbeStops() throws {
        // No vanish: the device stays, fingers down; stopping the probe removes the device.
        let events = Fixtures.pinch(touchpad: false, cx: 2048, cy: 2048, startGap: 400, step: 20,
                                    frames: 5, lift: false)
        let run = try ProbeHarness.run([ProbeHarness.replay(device: MockDevice(Fixtures.touchscreen),
                                                         events: events)], duration: 0.6)
        Self.checkCleanExit(run)
        #expect(run.touchPhases.last == "cancelled,cancelled")
    }

    @Test func twoDevicesAtOnce() throws {
        let ts = ProbeHarness.replay(device: MockDevice(Fixtures.wacom, eventNumber: 11),
                                  events: Fixtures.wacomDoubleTap)
        let tp = ProbeHarness.replay(device: MockDevice(Fixtures.touchpad, eventNumber: 12),
                                  events: Fixtures.pinch(touchpad: true, cx: 600, cy: 400, startGap: 200,
                                                         step: 5, frames: 30))
        let run = try ProbeHarness.run([ts, tp], duration: 1.0)
        Self.checkCleanExit(run)
        let added = run.lines.filter { $0["type"] as? String == "device-added" }
        #expect(added.count == 2)
        #expect(run.touchPhases == ["began", "ended", "began", "ended"])
        #expect(run.gestureSummary.suffix(3) == ["pinch/begin", "pinch/update", "pinch/end"])
        let touchDevice = run.touchFrames.first?["device"] as? Int
        let gestureDevice = run.gestures.first?["device"] as? Int
        #expect(touchDevice != nil && gestureDevice != nil && touchDevice != gestureDevice)
    }

    /// open_restricted failing with EACCES (the mocked node made unreadable, the probe run
    /// as root without CAP_DAC_OVERRIDE) becomes the permission message, not an errno.
    @Test(.enabled(if: getuid() == 0, "needs root to drop capabilities with setpriv"))
    func permissionDeniedOnOpen() throws {
        let runner = try UmockdevRunner(timeout: 20)
        let replay = MockDeviceReplay(device: MockDevice(Fixtures.wacom), events: Fixtures.wacomDoubleTap)
        let script = #"chmod 000 "$(readlink "$UMOCKDEV_DIR/dev/input/event10")" && "#
            + #"exec setpriv --bounding-set=-all --inh-caps=-all "$0" "$@""#
        let result = try runner.run(devices: [replay],
                                    command: ["/bin/sh", "-c", script, ProbeHarness.probePath,
                                              "--duration", "0.3", "/dev/input/event10"])
        #expect(result.exitStatus == 1)
        #expect(result.stderr.contains("Permission denied: user 'root' may not read /dev/input/event10"),
                "\(result.stderr)")
        #expect(result.stderr.contains("'input' group"))
        #expect(!result.stderr.contains("errno"))
    }

    /// The udev backend (libinput_udev_create_context + assign_seat "seat0") finds the
    /// mocked device through umockdev's sysfs and udev emulation. The recording waits for the
    /// seat's libinput to open the device (its gate): played before, libinput would drop it.
    @Test func udevSeatBackend() throws {
        let runner = try UmockdevRunner(timeout: 20)
        let replay = ProbeHarness.replay(device: MockDevice(Fixtures.wacom), events: Fixtures.wacomDoubleTap)
        let result = try runner.run(devices: [replay],
                                    command: [ProbeHarness.probePath, "--udev", "--duration", "0.9",
                                              "--open-gate", MockDeviceGate.token, replay.device.devicePath])
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(result.stdoutLines.first?.contains("\"device-added\"") == true)
        #expect(result.stdoutLines.filter { $0.contains("\"type\":\"touch\"") }.count == 4)
    }

    /// libevdev reads back exactly the description the .ioctl file was generated from
    /// (except the position axes' fuzz, which udev's rule moves to LIBINPUT_FUZZ_xx).
    @Test(arguments: [Fixtures.wacom, Fixtures.touchpad, Fixtures.touchscreen])
    func ioctlRoundTripsThroughLibevdev(description: EvdevDeviceDescription) throws {
        let runner = try UmockdevRunner(timeout: 20)
        let replay = MockDeviceReplay(device: MockDevice(description), events: [])
        let result = try runner.run(devices: [replay],
                                    command: [ProbeHarness.probePath, "--describe", "/dev/input/event10"])
        #expect(result.exitStatus == 0, "\(result.stderr)")
        var expected = description
        for code in [EventCode.absX, .absY, .absMTPositionX, .absMTPositionY] {
            expected.absInfo[code]?.fuzz = 0
        }
        // libevdev reports every EV_SYN code up to SYN_MAX as supported.
        expected.codes[.syn] = Set((0...15).map { EventCode(rawValue: $0) })
        let want = EvdevDescriber.json(expected)
        #expect(result.stdoutLines == [want])
    }
}
