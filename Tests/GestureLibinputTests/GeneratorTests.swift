import GestureKit
import GestureMockDevice
import GestureTraces
import Testing
#if canImport(Glibc)
import Glibc
import GestureTestSupport
#endif

struct GeneratorTests {
    static let small = EvdevDeviceDescription(
        name: "Tiny", bustype: 3, vendor: 1, product: 2, version: 3, properties: [.direct],
        codes: [.syn: [.synReport], .key: [.btnTouch],
                .abs: [.absX, .absMTSlot, .absMTPositionX, .absMTTrackingID]],
        absInfo: [.absX: AbsInfo(minimum: 0, maximum: 100, fuzz: 2, resolution: 4),
                  .absMTSlot: AbsInfo(minimum: 0, maximum: 1),
                  .absMTPositionX: AbsInfo(minimum: 0, maximum: 100),
                  .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535)])

    /// umockdev 0.17.16's ScriptRunner.decode.
    static func decode(_ quoted: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var i = quoted.startIndex
        while i < quoted.endIndex {
            if quoted[i] == 0x5e {
                out.append(quoted[i + 1] == 0x60 ? 0x5e : quoted[i + 1] - 64)
                i += 2
            } else {
                out.append(quoted[i])
                i += 1
            }
        }
        return out
    }

    static func zeros(_ n: Int) -> String { String(repeating: "00", count: n) }

    @Test func ioctlText() {
        let text = MockDevice(Self.small, eventNumber: 7).ioctlText()
        let lines = text.split(separator: "\n").map(String.init)
        let name = "54696E79" + Self.zeros(251)
        var key = [String](repeating: "00", count: 96)
        key[41] = "04"                                   // BTN_TOUCH 0x14a
        let mtslotsX = "35000000" + Self.zeros(1024)
        let mtslotsID = "39000000" + "FFFFFFFF" + "FFFFFFFF" + Self.zeros(254 * 4)
        let expected = [
            "@DEV /dev/input/event7 (evdev)",
            "EVIOCGBIT(0) 8 0B00000000000000",
            "EVIOCGNAME(0) 5 \(name)",
            "EVIOCGID 0 0300010002000300",
            "EVIOCGVERSION 0 01000100",
            "EVIOCGPROP(0) 8 0200000000000000",
            "EVIOCGBIT(2) 8 0000000000000000",
            "EVIOCGBIT(3) 8 0100000000802002",
            "EVIOCGBIT(17) 8 0000000000000000",
            "EVIOCGBIT(1) 96 \(key.joined())",
            "EVIOCGBIT(5) 8 0000000000000000",
            "EVIOCGBIT(4) 8 0000000000000000",
            "EVIOCGBIT(21) 16 \(Self.zeros(16))",
            "EVIOCGBIT(18) 8 0000000000000000",
            "EVIOCGKEY(0) 96 \(Self.zeros(96))",
            "EVIOCGLED(0) 8 0000000000000000",
            "EVIOCGSW(0) 8 0000000000000000",
            // value min max fuzz(moved to LIBINPUT_FUZZ_00) flat resolution
            "EVIOCGABS(0) 0 000000000000000064000000000000000000000004000000",
            "EVIOCGABS(47) 0 000000000000000001000000000000000000000000000000",
            "EVIOCGABS(53) 0 000000000000000064000000000000000000000000000000",
            "EVIOCGABS(57) 0 0000000000000000FFFF0000000000000000000000000000",
            "EVIOCGMTSLOTS(0) 0 \(mtslotsX)",
            "EVIOCGMTSLOTS(0) 0 \(mtslotsID)",
        ]
        #expect(lines == expected)
        // Payload sizes libevdev 1.13 asks for.
        let sizes = lines.dropFirst().map { ($0.split(separator: " ").first!, $0.split(separator: " ").last!.count / 2) }
        for (name, size) in sizes {
            switch name {
            case "EVIOCGNAME(0)": #expect(size == 255)
            case "EVIOCGBIT(1)", "EVIOCGKEY(0)": #expect(size == 96)
            case "EVIOCGBIT(21)": #expect(size == 16)
            case "EVIOCGMTSLOTS(0)": #expect(size == 1028)
            case _ where name.hasPrefix("EVIOCGABS"): #expect(size == 24)
            case "EVIOCGID", "EVIOCGVERSION": break
            default: #expect(size == 8, "\(name)")
            }
        }
    }

    @Test func umockdevText() {
        let text = MockDevice(Self.small, eventNumber: 7).umockdevText()
        #expect(text == """
            P: /devices/virtual/input/input7/event7
            N: input/event7
            E: DEVNAME=/dev/input/event7
            E: ID_INPUT=1
            E: ID_INPUT_TOUCHSCREEN=1
            E: LIBINPUT_FUZZ_00=2
            E: MAJOR=13
            E: MINOR=71
            E: SUBSYSTEM=input
            A: dev=13:71

            P: /devices/virtual/input/input7
            E: NAME="Tiny"
            E: PRODUCT=3/1/2/3
            E: PROP=2
            E: EV=b
            E: KEY=400 0 0 0 0 0
            E: ABS=220800000000001
            E: SUBSYSTEM=input
            A: name=Tiny
            A: properties=2

            """)
        var touchpad = Self.small
        touchpad.properties = [.pointer]
        #expect(MockDevice(touchpad).umockdevText().contains("E: ID_INPUT_TOUCHPAD=1\n"))
    }

    static func event(_ t: Double, _ type: EventType, _ code: EventCode, _ value: Int32) -> EvdevEvent {
        EvdevEvent(time: Instant(nanoseconds: 100_000_000_000 + Int64((t * 1e6).rounded()) * 1000),
                   type: type, code: code, value: value)
    }

    @Test func scriptLinesAndEscaping() {
        let events = [
            Self.event(0, .abs, .absX, 0x5e),          // '^' in the data
            Self.event(0, .syn, .synReport, 0),
            Self.event(0.0104, .abs, .absX, 10),       // 10 = '\n' must be escaped
            Self.event(0.0104, .syn, .synReport, 0),
        ]
        let script = UmockdevScriptEncoder.script(for: events, leadIn: 0.25)
        let lines = script.split(separator: 0x0a, omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty)
        let first = Array(lines[0])
        #expect(first.starts(with: Array("r 250 ".utf8)))
        // tv_sec = 1, tv_usec = 0: 01 00.. then 00 x8.
        let expectedFirst = Array("r 250 ^A^@^@^@^@^@^@^@^@^@^@^@^@^@^@^@^C^@^@^@^`^@^@^@".utf8)
            + Array("^A^@^@^@^@^@^@^@^@^@^@^@^@^@^@^@^@^@^@^@^@^@^@^@".utf8)
        #expect(first == expectedFirst)
        #expect(Array(lines[1]).starts(with: Array("r 10 ".utf8)))
        let payload = Self.decode(lines[1].dropFirst(5))
        #expect(payload.count == 48)
        #expect(payload[8] == 0xa0 && payload[9] == 0x28)   // tv_usec 10400 = 0x28a0
        #expect(payload[20] == 10)
        #expect(!lines[1].contains(0x0a))
        // Every line decodes to whole 24-byte events.
        for line in lines.dropLast() {
            let data = line.drop(while: { $0 != 0x20 }).dropFirst().drop(while: { $0 != 0x20 }).dropFirst()
            #expect(Self.decode(data).count % 24 == 0)
        }
    }

    @Test func delaysDoNotAccumulateRounding() {
        var events: [EvdevEvent] = []
        for i in 0..<10 {
            events.append(Self.event(Double(i) * 0.0104, .syn, .synReport, 0))
        }
        let script = UmockdevScriptEncoder.script(for: events, leadIn: 0.1)
        let delays = script.split(separator: 0x0a).map {
            Int(String(decoding: $0.split(separator: 0x20)[1], as: UTF8.self))!
        }
        #expect(delays.first == 100)
        #expect(delays.dropFirst().reduce(0, +) == 94)      // 9 × 10.4 ms = 93.6 → 94
    }

    @Test func firstByteIsNeverSpace() {
        // 31 s after the first event, tv_sec = 1 + 31 = 32 = 0x20.
        let events = [Self.event(0, .syn, .synReport, 0),
                      Self.event(31.5, .abs, .absX, 1), Self.event(31.5, .syn, .synReport, 0)]
        let script = UmockdevScriptEncoder.script(for: events, leadIn: 0.1)
        let lines = script.split(separator: 0x0a)
        let second = Array(lines[1])
        let data = second[(second.firstIndex(of: 0x20)! + 1)...]
        let afterDelay = data[(data.firstIndex(of: 0x20)! + 1)...]
        #expect(afterDelay.first != 0x20)
        let payload = Self.decode(afterDelay)
        #expect(payload.count == 48)
        #expect(payload[0] == 0x1f)                                     // tv_sec 31
        let usec = payload[8..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(usec == 1_500_000)                                      // same instant
        #expect(payload[24] == 0x20)                                    // later events untouched
    }

    @Test func vanishMarker() {
        let events = [Self.event(0, .syn, .synReport, 0)]
        let script = UmockdevScriptEncoder.script(for: events, leadIn: 0.1, vanishAfter: 0.05)
        let lines = script.split(separator: 0x0a)
        #expect(lines.count == 2)
        #expect(Array(lines[1]).starts(with: Array("r 50 ".utf8)))
        let payload = Self.decode(lines[1].dropFirst(5))
        #expect(payload[16..<20] == [0xff, 0xff, 0x56, 0x47])
    }

    @Test func streamingEncoderMatchesWholeScript() {
        let events = Fixtures.pinch(touchpad: false, cx: 2000, cy: 2000, startGap: 300, step: 10, frames: 5)
        var encoder = UmockdevScriptEncoder(leadIn: 0.2)
        var streamed: [UInt8] = []
        for e in events { streamed += encoder.append(e) ?? [] }
        streamed += encoder.finish()
        #expect(streamed == UmockdevScriptEncoder.script(for: events, leadIn: 0.2))
        #expect(streamed.split(separator: 0x0a).count == 7)
    }

    @Test func runnerCommandLinePutsFixFirstInChildOnly() throws {
        guard UmockdevRunner.findUmockdevRun() != nil else {
            Issue.record("umockdev-run is missing: install the Debian package 'umockdev'")
            return
        }
        let runner = try UmockdevRunner(preloadLibrary: "/proc/self/exe")
        let replay = MockDeviceReplay(device: MockDevice(Self.small, eventNumber: 7), script: [])
        let args = runner.commandLine(devices: [replay], directory: "/tmp/d", command: ["probe", "x"])
        #expect(Array(args.prefix(3)) == ["/usr/bin/env", "SEATD_SOCK=/tmp/d/no-seatd.sock", "XDG_SESSION_ID="],
                "the testbed runs with no seat daemon or logind session to ask: \(args.prefix(3))")
        #expect(Array(args[3..<6]) == ["LD_PRELOAD=/proc/self/exe", "GESTUREKIT_UMOCKDEV_WRITE_LOG=/tmp/d", runner.umockdevRun],
                "umockdev-run keeps its write log in the run's directory: \(args[3..<6])")
        #expect(args.dropFirst(6) == [
            "-d", "/tmp/d/device0.umockdev", "-i", "/dev/input/event7=/tmp/d/device0.ioctl",
            "-s", "/dev/input/event7=/tmp/d/device0.script",
            "--", "/bin/bash", "-c",
            #"n="$1"; shift; while [ "$n" -gt 0 ]; do exec {held}<"$1"; shift; n=$((n - 1)); done; LD_PRELOAD="$0${LD_PRELOAD:+:$LD_PRELOAD}" exec "$@""#,
            "/proc/self/exe", "0", "probe", "x"])
        let gated = MockDeviceReplay(device: MockDevice(Self.small, eventNumber: 7), events: [], gate: Array("go".utf8))
        let held = runner.commandLine(devices: [gated, replay], directory: "/tmp/d", command: ["probe"])
        #expect(Array(held.suffix(4)) == ["/proc/self/exe", "1", "/dev/input/event7", "probe"],
                "the wrapper holds the gated node open, so umockdev-run waits for its gate without spinning: \(held.suffix(4))")
        let ownSeatd = try UmockdevRunner(preloadLibrary: "/proc/self/exe", environment: ["SEATD_SOCK": "/run/seatd.sock"])
        #expect(!ownSeatd.commandLine(devices: [replay], directory: "/tmp/d", command: ["probe"]).contains { $0.hasPrefix("SEATD_SOCK=") },
                "a caller that starts its own seatd in the testbed keeps its SEATD_SOCK")
    }

    @Test func missingPreloadLibraryIsAClearError() {
        guard UmockdevRunner.findUmockdevRun() != nil else { return }
        #expect {
            try UmockdevRunner(preloadLibrary: "/nonexistent/libGestureKitUmockdevFix.so")
        } throws: { error in
            "\(error)".contains("apt-get install gcc")
        }
    }

    @Test func missingUmockdevRunIsAClearError() {
        #expect(UmockdevRunner.findUmockdevRun(searchPath: "/nonexistent") == nil)
        #expect {
            try UmockdevRunner(searchPath: "/nonexistent")
        } throws: { error in
            "\(error)".contains("umockdev-run was not found") && "\(error)".contains("apt-get install umockdev")
        }
    }

    /// umockdev-run waits for every device script to play to its end after the command under
    /// test is gone (forever when the script's pseudo-terminal fills with nobody reading).
    @Test("a command that stops at once ends the run at once, with its own exit status, though a device script still has 20 s to play",
          .enabled(if: UmockdevRunner.findUmockdevRun() != nil, "umockdev-run is missing"))
    func runEndsWithTheCommand() throws {
        var runner = try UmockdevRunner(timeout: 60, preloadLibrary: "/proc/self/exe")
        runner.preloadLibrary = ""
        let late = [EvdevEvent(time: Instant(seconds: 0), type: .syn, code: .synReport, value: 0)]
        let replay = MockDeviceReplay(device: MockDevice(Self.small), events: late, leadIn: 20)
        let failed = try runner.run(devices: [replay], command: ["/bin/sh", "-c", "echo starting; exit 3"])
        #expect(failed.exitStatus == 3, "the command's exit status is the run's")
        #expect(!failed.timedOut && failed.elapsed < 10, "the run ended with the command, not with the script (\(failed.elapsed) s)")
        #expect(failed.stdoutLines == ["starting"])
        let killed = try runner.run(devices: [replay], command: ["/bin/sh", "-c", "kill -TERM $$"])
        #expect(killed.signal == SIGTERM && killed.exitStatus == nil, "a command ended by a signal is reported so")
        #expect(killed.elapsed < 10)
    }

    @Test(.enabled(if: UmockdevRunner.findUmockdevRun() != nil, "umockdev-run is missing"))
    func runnerNeverHangs() throws {
        let runner = try UmockdevRunner(timeout: 0.5, preloadLibrary: "/proc/self/exe")
        let replay = MockDeviceReplay(device: MockDevice(Self.small), script: [])
        // The fix library path is only passed to sh; use a command that ignores it.
        var r = runner
        r.preloadLibrary = ""
        let result = try r.run(devices: [replay], command: ["/bin/sleep", "30"])
        #expect(result.timedOut)
        #expect(result.elapsed < 3)
    }
}
