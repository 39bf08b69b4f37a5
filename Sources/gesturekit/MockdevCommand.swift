import ArgumentParser
import GestureKit
import GestureLive
import GestureMockDevice
import GestureTraces

#if canImport(Glibc)
import Glibc
#endif

/// `gesturekit mockdev`: a recording's devices as a umockdev testbed, for any program (a
/// compositor, an SDL app) to read through its own libinput.
struct Mockdev: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set up a umockdev testbed for a recording and run a command in it.",
        discussion: """
        Writes the recording's touchscreens, touchpads and mice as umockdev device files \
        (deviceN.umockdev, .ioctl, .script) into --out, then runs COMMAND under umockdev-run \
        with GestureKit's umockdev fix library preloaded: a compositor started this way finds \
        the devices through udev and libinput and reads the recording after --lead-in seconds, \
        in real time. With --gate TOKEN the recording waits instead until a process in the \
        testbed writes TOKEN to each device node (`printf %s TOKEN > /dev/input/event10` from \
        the compositor's exec line once its client is ready, or `gesturekit listen --device \
        ... --open-gate TOKEN`), then plays after --lead-in seconds (default \
        \(UmockdevScriptEncoder.gateSettleSeconds)). Without COMMAND it prints the umockdev-run \
        command line. Example: \
        gesturekit mockdev Fixtures/ts-wacom-isdv4-e6-tap-1f.evemu --out /tmp/tb --lead-in 2 -- sway -c sway.conf
        """
    )

    @Argument(help: "The recording (evemu or libinput record YAML).")
    var trace: String

    @Option(help: "The directory for the device files (created if missing).")
    var out: String

    @Option(name: .customLong("lead-in"), help: "Seconds before the recording's first event (cover the program's start-up: libinput drops events queued before it opens a device); with --gate, seconds after the gate opens. Default: 2, with --gate \(UmockdevScriptEncoder.gateSettleSeconds).")
    var leadIn: Double?

    @Option(help: "Play each device's recording only once TOKEN is written to its node by a process in the testbed (umockdev's script write operation): a wait for the reader instead of a fixed --lead-in.")
    var gate: String?

    @Flag(help: "Stop the recording before its first lift: the touches stay down (for tests of faults mid-gesture).")
    var hold = false

    @Option(name: .customLong("vanish-after"), help: "Seconds after the recording's last event at which its devices vanish (reads fail with ENODEV, as on an unplug).")
    var vanishAfter: Double?

    @Argument(parsing: .postTerminator, help: "The command to run in the testbed.")
    var command: [String] = []

    func run() throws {
        if let gate, gate.isEmpty || gate.utf8.count % 24 == 0 {
            throw fail("--gate: the token must not be empty, nor a multiple of 24 bytes long (a write of whole input events to a mock node is dropped)")
        }
        let replays: [MockDeviceReplay]
        do {
            let (devices, _) = try LibinputReplay.mockDevices(tracePath: trace, screen: Size(width: 1000, height: 1000))
            let events = devices.map { Mockdev.events(of: $0, trace: trace, hold: hold) }
            // Every device keeps its place on the recording's timeline (its script counts from its own first event).
            let offsets = LibinputReplay.timelineOffsets(events)
            replays = zip(zip(devices, events), offsets).map { pair, offset in
                MockDeviceReplay(device: pair.0.device, events: pair.1,
                                 leadIn: (leadIn ?? (gate == nil ? 2 : UmockdevScriptEncoder.gateSettleSeconds)) + offset,
                                 gate: gate.map { Array($0.utf8) }, vanishAfter: vanishAfter)
            }
        } catch let e as TraceError {
            throw fail(e.description)
        } catch let e as LibinputReplay.Failure {
            throw fail(e.description)
        }
        mkdir(out, 0o755)
        let runner: UmockdevRunner
        do {
            runner = try UmockdevRunner()
            try runner.writeFiles(devices: replays, directory: out)
        } catch {
            throw fail("\(error)")
        }
        let line = runner.commandLine(devices: replays, directory: out,
                                      command: command.isEmpty ? ["COMMAND"] : command)
        guard !command.isEmpty else {
            print(line.map(Mockdev.shellQuoted).joined(separator: " "))
            return
        }
        var argv: [UnsafeMutablePointer<CChar>?] = line.map { strdup($0) } + [nil]
        execv(line[0], &argv)
        throw fail("cannot run \(line[0]): \(String(cString: strerror(errno)))")
    }

    /// The evdev events of one mock device, cut before the first lift with `hold`.
    static func events(of replay: MockDeviceReplay, trace: String, hold: Bool) -> [EvdevEvent] {
        var events: [EvdevEvent] = []
        guard let reader = try? TraceReader(path: trace, screen: Size(width: 1000, height: 1000)) else { return [] }
        let index = replay.device.eventNumber - 10
        guard index >= 0, index < reader.devices.count else { return [] }
        try? reader.forEachEvdevEvent(device: reader.devices[index].id) { events.append($0) }
        guard hold else { return events }
        var frameStart = 0
        for (i, e) in events.enumerated() {
            let lifts = (e.type == .abs && e.code == .absMTTrackingID && e.value == -1)
                || (e.type == .key && e.code == .btnTouch && e.value == 0)
            if lifts { return Array(events[..<frameStart]) }
            if e.type == .syn && e.code == .synReport { frameStart = i + 1 }
        }
        return events
    }

    static func shellQuoted(_ s: String) -> String {
        s.allSatisfy({ $0.isLetter || $0.isNumber || "/._-=:,+".contains($0) }) ? s
            : "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
