import Foundation
import GestureKit
import GestureMockDevice
import GestureTraces
import Testing
import GestureTestSupport

/// Kiosk devices: opened through the seat or directly, and grabbed on request. Run under
/// umockdev (the Wacom tap as a mock device), in `gesturekit listen`.
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct SeatTests {
    static let scene = #"{"recognizers": [{"id": "tap", "kind": "tap", "view": "root"}]}"#

    /// Runs `gesturekit listen` on the Wacom tap under umockdev with `arguments`.
    static func listen(_ arguments: [String], environment: [String: String] = [:]) throws -> UmockdevRunResult {
        let (replays, duration) = try LibinputReplayFixture.wacomTap()
        let sceneFile = try LibinputRecognitionTests.sceneFile(scene)
        defer { try? FileManager.default.removeItem(atPath: sceneFile) }
        let runner = try UmockdevRunner(timeout: duration + 20, environment: environment)
        var command = [LibinputRecognitionTests.tool, "listen", "--json", "--duration", String(duration), "--scene", sceneFile,
                       "--open-gate", MockDeviceGate.token]
        for r in replays { command += ["--device", r.device.devicePath] }
        return try runner.run(devices: replays, command: command + arguments)
    }

    @Test("--grab takes the device with EVIOCGRAB, says so, and its touches still arrive")
    func grab() throws {
        let log = NSTemporaryDirectory() + "gesturekit-grab-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try Self.listen(["--grab", "--seat-access", "open"], environment: ["GESTUREKIT_UMOCKDEV_GRAB_LOG": log])
        #expect(result.exitStatus == 0, "stderr: \(result.stderr)")
        let grabs = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(grabs.contains("grab /dev/input/event10 1"), "expected EVIOCGRAB(1) on the device, the fix library logged: \(grabs)")
        #expect(result.stderr.contains("grabbed /dev/input/event10 (EVIOCGRAB)"), "expected listen to say it grabbed the device; stderr: \(result.stderr)")
        #expect(result.stdoutLines.contains { $0.contains(#""recognizer":"tap""#) && $0.contains(#""to":"ended""#) },
                "expected the grabbed device's tap recognized; output: \(result.stdoutLines)")
    }

    @Test("without --grab nothing is grabbed")
    func noGrab() throws {
        let log = NSTemporaryDirectory() + "gesturekit-grab-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try Self.listen(["--seat-access", "open"], environment: ["GESTUREKIT_UMOCKDEV_GRAB_LOG": log])
        #expect(result.exitStatus == 0, "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: log), "expected no EVIOCGRAB without --grab")
    }

    @Test("auto opens a mock device directly: a testbed has no seat daemon or logind session (UmockdevRunner.seatIsolation), whatever the machine runs")
    func automaticWithoutSeat() throws {
        let result = try Self.listen([])
        #expect(result.exitStatus == 0, "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("through the seat"), "expected no seat here; stderr: \(result.stderr)")
        #expect(result.stdoutLines.contains { $0.contains(#""to":"ended""#) }, "expected the tap recognized")
    }

    @Test("--seat-access libseat with no seat (none in a testbed) stops with a message that says what to do")
    func libseatWithoutSeat() throws {
        // libseat's builtin backend would start a seat of its own as root: keep to seatd and logind.
        let result = try Self.listen(["--seat-access", "libseat"], environment: ["LIBSEAT_BACKEND": "seatd"])
        #expect(result.exitStatus == 2, "expected exit status 2; stderr: \(result.stderr)")
        #expect(result.stderr.contains("Cannot open devices through the seat") && result.stderr.contains("Start seatd"),
                "expected the seat error naming the fix; stderr: \(result.stderr)")
    }
}

/// The Wacom ISDv4 tap as a mock device.
enum LibinputReplayFixture {
    static func wacomTap() throws -> (replays: [MockDeviceReplay], duration: Double) {
        let (description, events) = Fixtures.recording("ts-wacom-isdv4-e6-tap-1f.evemu")
        let leadIn = UmockdevScriptEncoder.gateSettleSeconds   // after listen --open-gate: libinput has the device
        let replay = MockDeviceReplay(device: MockDevice(description, eventNumber: 10), events: events, leadIn: leadIn,
                                      gate: Array(MockDeviceGate.token.utf8))
        let last = events.last.map { $0.time.seconds - events[0].time.seconds } ?? 0
        return ([replay], leadIn + last + 1.0)
    }
}

/// seatd started by the test, under the same umockdev-run as the reader, so that seatd opens
/// the mock node and hands it to `listen --seat-access libseat` over its socket (the umockdev
/// fix library makes both work: docs/TESTING.md, "Mock devices under umockdev").
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable && FileManager.default.isExecutableFile(atPath: "/usr/sbin/seatd"),
                            "umockdev-run or seatd is missing: install the Debian packages 'umockdev' and 'seatd'"))
struct SeatdTests {
    @Test("a device opened through seatd (started by the test) delivers its touches")
    func throughSeatd() throws {
        guard !FileManager.default.fileExists(atPath: "/run/seatd.sock") else {
            print("SeatdTests: not run: a seatd is already running here (/run/seatd.sock)")
            return
        }
        let (description, events) = Fixtures.recording("ts-wacom-isdv4-e6-tap-1f.evemu")
        // The recording starts once listen's libinput has the device from seatd (--open-gate),
        // however long seatd and the reader take to start.
        let leadIn = UmockdevScriptEncoder.gateSettleSeconds
        let replay = MockDeviceReplay(device: MockDevice(description, eventNumber: 10), events: events, leadIn: leadIn,
                                      gate: Array(MockDeviceGate.token.utf8))
        let duration = leadIn + (events.last!.time.seconds - events[0].time.seconds) + 1.0
        let sceneFile = try LibinputRecognitionTests.sceneFile(SeatTests.scene)
        let seatdLog = NSTemporaryDirectory() + "gesturekit-seatd-\(UUID().uuidString).log"
        defer {
            try? FileManager.default.removeItem(atPath: sceneFile)
            try? FileManager.default.removeItem(atPath: seatdLog)
            // A seatd that died leaves its socket behind; it was not there before this test.
            try? FileManager.default.removeItem(atPath: "/run/seatd.sock")
        }
        let script = """
            SEATD_VTBOUND=0 ${GESTUREKIT_SEATD_WRAP:-} /usr/sbin/seatd -l debug 2>"\(seatdLog)" & seatd=$!
            i=0; while [ ! -S /run/seatd.sock ] && [ $i -lt 1000 ]; do sleep 0.02; i=$((i+1)); done
            LIBSEAT_BACKEND=seatd "\(LibinputRecognitionTests.tool)" listen --json --seat-access libseat \
              --duration \(duration) --scene "\(sceneFile)" --device \(replay.device.devicePath) \
              --open-gate \(MockDeviceGate.token); status=$?
            kill $seatd; wait $seatd 2>/dev/null; exit $status
            """
        // This testbed's own seatd, on the only path seatd 0.7 listens on: not the testbed's
        // isolation from seat daemons (UmockdevRunner.seatIsolation).
        let runner = try UmockdevRunner(timeout: duration + 20, environment: ["SEATD_SOCK": "/run/seatd.sock"])
        let result = try runner.run(devices: [replay], command: ["/bin/sh", "-c", script])
        let seatd = (try? String(contentsOfFile: seatdLog, encoding: .utf8)) ?? ""
        let recognized = result.stdoutLines.contains { $0.contains(#""recognizer":"tap""#) && $0.contains(#""to":"ended""#) }
        // The fix library reopens an evdev descriptor received over a socket through umockdev
        // (SCM_RIGHTS, what seatd hands its clients), so libinput's ioctls on it are answered.
        #expect(result.exitStatus == 0 && recognized,
                "expected the tap through seatd; exit \(String(describing: result.exitStatus)), stderr: \(result.stderr)\nseatd: \(seatd.suffix(1500))")
    }

    @Test("a seatd outside the testbed is never asked for its mock nodes: the reader opens them itself and its tap arrives (when one test's seatd served another's reader, the reader's open failed with EPIPE or libinput refused the node)",
          .enabled(if: privateMountNamespace,
                   "needs root and a private mount namespace (unshare -m --propagation private), for a /run with a seatd of its own: not here (a chroot, such as make test-debian13's, has no mount at its root to make private)"))
    func seatdOutsideTheTestbed() throws {
        let sceneFile = try LibinputRecognitionTests.sceneFile(SeatTests.scene)
        let out = NSTemporaryDirectory() + "gesturekit-seatd-outside-\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(atPath: sceneFile)
            try? FileManager.default.removeItem(atPath: out)
        }
        let tool = LibinputRecognitionTests.tool
        // A private /run: this seatd is seen by nothing else on the machine.
        let script = """
            mount -t tmpfs tmpfs /run || exit 97
            SEATD_VTBOUND=0 /usr/sbin/seatd 2>/dev/null & seatd=$!
            i=0; while [ ! -S /run/seatd.sock ] && [ $i -lt 1000 ]; do sleep 0.02; i=$((i+1)); done
            [ -S /run/seatd.sock ] || exit 98
            "\(tool)" mockdev "\(Fixtures.path("ts-wacom-isdv4-e6-tap-1f.evemu"))" --out "\(out)" --gate \(MockDeviceGate.token) -- \
              "\(tool)" listen --json --duration 3 --scene "\(sceneFile)" --device /dev/input/event10 --open-gate \(MockDeviceGate.token)
            status=$?; kill $seatd; wait $seatd 2>/dev/null; exit $status
            """
        let run = try runProcess("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", script])
        let output = run.output, errors = run.errors
        #expect(run.status == 0, "the reader beside an outside seatd runs to its end: status \(run.status), stderr: \(errors)")
        #expect(!errors.contains("through the seat"), "it opened its nodes itself, not through the seat: \(errors)")
        #expect(output.contains(#""recognizer":"tap""#) && output.contains(#""to":"ended""#), "its tap is recognized: \(output)")
    }
}
