import Foundation
import GestureKit
import GestureMockDevice
import GestureTestSupport
import GestureTraces
import Testing

/// What the recognizers make of recordings read by real libinput (under umockdev, in
/// `gesturekit listen`, a child process), against the built-in decoder.
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct LibinputRecognitionTests {
    static let tool = builtProduct("gesturekit")

    /// One JSON line of output (GestureTestSupport's).
    typealias Line = JSONLine

    static func parse(_ out: String) -> [Line] { Line.parse(out) }

    /// Runs the tool. A replay through real libinput (`--backend libinput`) is read again while
    /// umockdev's writer paused the fingers (`MockDeviceTiming`): the tests compare libinput's
    /// timers' decisions with the decoder's on the recording's timing. (One that records what it
    /// received judges by that instead, and is run once.)
    static func gesturekit(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let throughLibinput = zip(arguments, arguments.dropFirst()).contains { $0 == "--backend" && $1 == "libinput" }
        let r = throughLibinput && !arguments.contains("--record")
            ? try MockDeviceTiming.onTime(arguments.prefix(2).map { ($0 as NSString).lastPathComponent }.joined(separator: " ") + " through libinput") {
                try runProcess(tool, arguments, environment: $0)
            }
            : try runProcess(tool, arguments)
        return (r.status, r.output, r.errors)
    }

    /// The recognized transitions (everything but failures and changes) of a replay.
    static func recognized(_ lines: [Line]) -> [String] { Line.recognized(lines) }

    static func writeEvemu(_ description: EvdevDeviceDescription, _ events: [EvdevEvent], name: String) throws -> String {
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-\(name).evemu"
        try TraceWriter.evemu(description: description, events: events).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func sceneFile(_ json: String) throws -> String {
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-scene.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("touchscreen tap and double tap: libinput and the built-in decoder recognize the same",
          arguments: ["ts-wacom-isdv4-e6-tap-1f.evemu", "ts-wacom-isdv4-e6-double-tap-1f.evemu", "ts-atmel-maxtouch-9-taps-1f.evemu"])
    func tapsAgree(_ fixture: String) throws {
        let trace = Fixtures.path(fixture)
        let recording = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString).input.jsonl"
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let live = try Self.gesturekit(["replay", trace, "--json", "--backend", "libinput", "--record", recording])
        #expect(live.status == 0, "stderr: \(live.err)")
        // The late-read rule (Delivery): libinput's reading is the replay of what it delivered,
        // and the built-in decoder's when that arrived on time.
        let lines = Self.parse(live.out)
        let (expected, onTime) = try expectedReading(live: lines, recording: recording, fixture: trace, client: "libinput under umockdev")
        let a = Self.recognized(lines), b = Self.recognized(expected)
        #expect(!a.isEmpty, "libinput's replay recognizes something")
        #expect(a == b, "libinput: \(a)\nexpected: \(b)")
        if onTime, fixture.contains("double") { #expect(a == ["double ended"]) }
        if onTime, fixture.hasSuffix("e6-tap-1f.evemu") { #expect(a == ["single ended"]) }
    }

    @Test("a touchscreen pinch through libinput: the Dell Canvas five-finger pinch-in, cut from the recording")
    func touchscreenPinch() throws {
        let (description, events) = Fixtures.recording("ts-dell-canvas27-hold2f-drag4f-pinch5f-swipe1f.evemu")
        let first = try #require(events.first?.time)
        // The pinch sequence runs from about 12.55 s to 13.1 s after the first event; no
        // finger is down at 12.3 s or at 13.5 s.
        let cut = events.filter {
            let t = ($0.time - first).inSeconds
            return t >= 12.3 && t < 13.5
        }
        let path = try Self.writeEvemu(description, cut, name: "dell-pinch")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let live = try Self.gesturekit(["replay", path, "--json", "--backend", "libinput"])
        #expect(live.status == 0, "stderr: \(live.err)")
        let lines = Self.parse(live.out)
        let pinch = lines.filter { $0.recognizer == "pinch" }
        #expect(pinch.first { $0.to == "began" } != nil, "the pinch begins: \(Self.recognized(lines))")
        let end = try #require(pinch.last { $0.to == "ended" })
        #expect(try #require(end.scale) < 0.7)
        let builtin = Self.recognized(Self.parse(try Self.gesturekit(["replay", path, "--json"]).out))
        #expect(Self.recognized(lines) == builtin, "libinput and the built-in decoder agree")
    }

    @Test("a touchpad two-finger pinch: libinput's hold comes first (a gesture line, no long press), then its pinch drives the pinch recognizer")
    func touchpadPinch() throws {
        // The fingers land and rest 100 ms (long enough for libinput's hold to start), then
        // spread 24 units per 10 ms frame.
        let events = Fixtures.pinch(touchpad: true, cx: 600, cy: 400, startGap: 200, step: 12, frames: 30, restFirst: 0.1)
        let path = try Self.writeEvemu(Fixtures.touchpad, events, name: "touchpad-pinch")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scene = try Self.sceneFile(#"{"recognizers": [{"id": "pinch", "kind": "pinch", "view": "root"}, {"id": "hold", "kind": "longPress", "view": "root", "touches": 2}]}"#)
        defer { try? FileManager.default.removeItem(atPath: scene) }
        let live = try Self.gesturekit(["replay", path, "--json", "--touchpad-gestures", "--backend", "libinput", "--scene", scene])
        #expect(live.status == 0, "stderr: \(live.err)")
        let all = Self.parse(live.out)
        let lines = all.filter { $0.type == "state" }
        let summary = all.map { $0.type == "gesture" ? "gesture \($0.object["kind"] ?? "") \($0.phase)" : $0.summary }
        // libinput starts a two-finger hold ~40 ms after touch-down (the gesture lines show it;
        // the long press does not hear of it: a resting finger is no press), cancels it when the
        // fingers spread, then the pinch begins.
        func gesture(_ kind: String, _ phase: String) -> Bool {
            all.first { $0.type == "gesture" && $0.object["kind"] as? String == kind && $0.phase == phase } != nil
        }
        let holdCancelled = try #require(all.firstIndex { $0.type == "gesture" && $0.object["kind"] as? String == "hold" && $0.phase == "cancelled" }, "\(summary)")
        let pinchBegan = try #require(all.firstIndex { $0.recognizer == "pinch" && $0.to == "began" }, "\(summary)")
        #expect(gesture("hold", "began") && holdCancelled < pinchBegan, "hold before pinch: \(summary)")
        #expect(!lines.contains { $0.recognizer == "hold" }, "the long press hears nothing of the hold: \(summary)")
        let scales = lines.filter { $0.recognizer == "pinch" }.compactMap(\.scale)
        #expect(scales.first == 1)
        #expect((scales.last ?? 0) > 2, "fingers 200 → 920 units apart: scale \(scales.last ?? 0)")
        #expect(lines.last { $0.recognizer == "pinch" }?.to == "ended")
    }

    @Test("a touchpad two-finger hold through libinput begins no long press: fingers resting on the pad are no press, as on an iPad's trackpad")
    func touchpadHold() throws {
        let path = try Self.writeEvemu(Fixtures.touchpad, Fixtures.hold(seconds: 1.0), name: "touchpad-hold")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scene = try Self.sceneFile(#"{"recognizers": [{"id": "press", "kind": "longPress", "view": "root", "touches": 2}, {"id": "press1", "kind": "longPress", "view": "root"}], "simultaneous": [["press", "press1"]]}"#)
        defer { try? FileManager.default.removeItem(atPath: scene) }
        let live = try Self.gesturekit(["replay", path, "--json", "--backend", "libinput", "--scene", scene])
        #expect(live.status == 0, "stderr: \(live.err)")
        let press = Self.parse(live.out).filter { $0.type == "state" }
        #expect(press.isEmpty, "no long press hears of the hold: \(press.map(\.summary))")
    }

    @Test("the device vanishes mid-pinch: the pinch is cancelled and `gesturekit listen` goes on to a clean exit",
          arguments: [false, true])
    func deviceVanishes(_ touchpad: Bool) throws {
        let events = Fixtures.pinch(touchpad: touchpad, cx: touchpad ? 600 : 2048, cy: touchpad ? 400 : 2048,
                                    startGap: touchpad ? 200 : 400, step: touchpad ? 12 : 20, frames: 25, lift: false)
        let replay = MockDeviceReplay(device: MockDevice(touchpad ? Fixtures.touchpad : Fixtures.touchscreen),
                                      events: events, leadIn: UmockdevScriptEncoder.gateSettleSeconds,
                                      gate: Array(MockDeviceGate.token.utf8), vanishAfter: 0.05)
        let runner = try UmockdevRunner(timeout: 20)
        let result = try runner.run(devices: [replay], command: [
            Self.tool, "listen", "--device", replay.device.devicePath, "--json", "--duration", "1.2",
            "--open-gate", MockDeviceGate.token])
        #expect(result.exitStatus == 0 && !result.timedOut, "stderr: \(result.stderr)")
        let lines = Self.parse(result.stdoutLines.joined(separator: "\n"))
        let pinch = lines.filter { $0.recognizer == "pinch" }.map(\.to)
        #expect(pinch.contains("began"), "the pinch began before the device vanished: \(pinch)")
        #expect(pinch.last == "cancelled", "and was cancelled when it vanished: \(pinch)")
        if !touchpad {
            #expect(lines.contains { $0.type == "touches" && ($0.object["phase"] as? String) == "cancelled" },
                    "the view's touches are cancelled")
        }
    }

    @Test("listen --until-devices-gone waits for a recording played late, and ends when its device vanishes")
    func untilDevicesGone() throws {
        // The pinch starts 3 s after the gate: later than the 1.2 s a --duration of the
        // recording's own length would have listened, as on a machine too loaded to play it on time.
        let replay = MockDeviceReplay(device: MockDevice(Fixtures.touchscreen),
                                      events: Fixtures.pinch(touchpad: false, cx: 2048, cy: 2048, startGap: 400, step: 20, frames: 25),
                                      leadIn: 3.0, gate: Array(MockDeviceGate.token.utf8), vanishAfter: 0.5)
        let runner = try UmockdevRunner(timeout: 40)
        let result = try runner.run(devices: [replay], command: [
            Self.tool, "listen", "--device", replay.device.devicePath, "--json", "--until-devices-gone", "--duration", "30",
            "--open-gate", MockDeviceGate.token])
        #expect(result.exitStatus == 0 && !result.timedOut,
                "the run ends when the device vanishes, before its 30 s limit: \(result.stderr)")
        let pinch = Self.parse(result.stdoutLines.joined(separator: "\n")).filter { $0.recognizer == "pinch" }.map(\.to)
        #expect(pinch.first == "began" && pinch.last == "ended", "the whole late pinch is seen: \(pinch)")
    }

    @Test("listen --until-devices-gone on a device that stays fails at --duration, saying the recording did not end")
    func untilDevicesGoneLimit() throws {
        let replay = MockDeviceReplay(device: MockDevice(Fixtures.touchscreen),
                                      events: Fixtures.pinch(touchpad: false, cx: 2048, cy: 2048, startGap: 400, step: 20, frames: 5),
                                      leadIn: UmockdevScriptEncoder.gateSettleSeconds, gate: Array(MockDeviceGate.token.utf8))
        let runner = try UmockdevRunner(timeout: 20)
        let result = try runner.run(devices: [replay], command: [
            Self.tool, "listen", "--device", replay.device.devicePath, "--json", "--until-devices-gone", "--duration", "1",
            "--open-gate", MockDeviceGate.token])
        #expect(result.exitStatus == 2, "a limit reached is a failure: status \(result.exitStatus.map(String.init) ?? "none")")
        #expect(result.stderr.contains("did not play to its end"), "and says why: \(result.stderr)")
    }

    @Test("listen without the device: exit status 2 and a message naming the device")
    func missingDevice() throws {
        let r = try Self.gesturekit(["listen", "--device", "/dev/input/event999", "--duration", "0.1"])
        #expect(r.status == 2)
        #expect(r.err.contains("/dev/input/event999"), "\(r.err)")
    }

    @Test("listen without permission to read the device says so and how to fix it, never a bare errno",
          .enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0, "needs root to run the tool as nobody"))
    func permissionDenied() throws {
        let node = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-event"
        FileManager.default.createFile(atPath: node, contents: Data())
        chmod(node, 0)
        defer { try? FileManager.default.removeItem(atPath: node) }
        let run = try runProcess("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", Self.tool,
                                                      "listen", "--device", node, "--duration", "0.1"])
        let text = run.errors
        #expect(run.status == 2)
        #expect(text == "gesturekit: Permission denied: user 'nobody' may not read \(node). Input devices (/dev/input/eventN) are readable only by root and the 'input' group: add the user to it (sudo usermod -aG input nobody, then log out and in again) or run as root.\n")
    }

    @Test("a debug-events trace cannot go through libinput, and says why")
    func debugEventsThroughLibinput() throws {
        let r = try Self.gesturekit(["replay", Fixtures.path("ts-surface-pro3-tap-3f.debug-events.txt"), "--backend", "libinput"])
        #expect(r.status == 2)
        #expect(r.err.contains("holds libinput's output, not evdev events"), "\(r.err)")
    }
}

/// What a live session received from libinput, recorded (`listen --record`), replays to what
/// the session printed live.
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct LibinputRecordingRoundTripTests {
    @Test("Recorded live through libinput, replayed on virtual time: every line the live session printed, the same",
          arguments: ["ts-atmel-maxtouch-9-taps-1f.evemu", "synthetic-tp-elantech-pinch-out-2f.evemu",
                      "synthetic-mouse-saitek-double-click.evemu", "pen-wacom-cintiq13hd-double-tap.evemu"])
    func liveRecordingReplays(fixture: String) throws {
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-live.input.jsonl"
        defer { unlink(path) }
        let live = try LibinputRecognitionTests.gesturekit(["replay", Fixtures.path(fixture), "--json", "--backend", "libinput", "--record", path])
        #expect(live.status == 0, "stderr: \(live.err)")
        let replayed = try LibinputRecognitionTests.gesturekit(["replay", path, "--json"])
        #expect(replayed.status == 0, "stderr: \(replayed.err)")
        #expect(!live.out.isEmpty, "the live session printed something")
        #expect(replayed.out == live.out, "live:\n\(live.out)\nreplayed:\n\(replayed.out)")
    }
}
