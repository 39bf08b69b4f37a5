import GestureKit
import GestureMockDevice
import GestureTraces
#if canImport(Glibc)
import Glibc
#endif

/// Replays a recording through real libinput: the recording's devices become mock evdev
/// devices under umockdev-run, and a child process (`gesturekit listen --device ...`) reads
/// them with libinput and recognizes, exactly as it would on hardware. Real time: the replay
/// takes as long as the recording. Each device's recording is gated (`MockDeviceReplay`'s `gate`):
/// it starts when the listener writes `gateToken` to the nodes, once its libinput has opened
/// them (`listen --open-gate`), so nothing is written before anyone reads, however long the
/// listener takes to start.
public enum LibinputReplay {
    public enum Failure: Error, CustomStringConvertible {
        case noRawEvents(path: String)
        case noTouchDevice(path: String)
        case runner(String)
        case child(status: Int32?, stderr: String)

        public var description: String {
            switch self {
            case let .noRawEvents(path):
                return "\(path): a libinput debug-events trace holds libinput's output, not evdev events: it cannot be replayed through libinput (replay it with the built-in decoder)"
            case let .noTouchDevice(path):
                return "\(path): no touchscreen, touchpad or mouse in this recording"
            case let .runner(message):
                return message
            case let .child(status, stderr):
                return "libinput replay failed (exit status \(status.map(String.init) ?? "none")): \(stderr)"
            }
        }
    }

    /// Seconds of silence before the recording starts, counted from the gate's opening (when
    /// libinput has the devices).
    package static let leadInSeconds = UmockdevScriptEncoder.gateSettleSeconds
    /// What the listener writes to each mock node to start its recording.
    package static let gateToken = MockDeviceGate.token

    /// Seconds the listener keeps listening after the recording's last event, so the
    /// engine's last deadlines fire in real time.
    package static let tailSeconds = 1.0

    /// Seconds a listener that stops when its devices vanish (`listen --until-devices-gone`)
    /// may run past the recording's length before it gives up: only a limit, for a mock that
    /// never plays its end. A loaded machine plays a recording late; the listener waits for it.
    package static let lateLimitSeconds = 30.0

    /// The recording's touch devices, pens, mice and keyboards as mock devices, with their events, and how long a
    /// listener must listen to see all of them (lead-in + the recording + `tailSeconds`).
    /// `vanishAtEnd`: every device vanishes `tailSeconds` after the recording's last event
    /// (any device's), so a listener can stop when they are gone instead of counting the
    /// duration on its own clock.
    public static func mockDevices(tracePath: String, screen: Size, vanishAtEnd: Bool = false) throws
        -> (replays: [MockDeviceReplay], duration: Double) {
        let reader = try TraceReader(path: tracePath, screen: screen)
        guard reader.format != .debugEvents else { throw Failure.noRawEvents(path: tracePath) }
        var devices: [(MockDevice, [EvdevEvent])] = []
        for (i, device) in reader.devices.enumerated()
        where device.kind != nil || device.description?.isRelativePointer == true || device.description?.hasWheel == true
            || device.description?.isKeyboard == true {
            guard let description = device.description else { continue }
            var events: [EvdevEvent] = []
            try reader.forEachEvdevEvent(device: device.id) { events.append($0) }
            devices.append((MockDevice(description, eventNumber: 10 + i), events))
        }
        guard !devices.isEmpty else { throw Failure.noTouchDevice(path: tracePath) }
        let offsets = timelineOffsets(devices.map(\.1))
        let first = devices.compactMap { $0.1.first?.time }.min() ?? .zero
        let last = devices.compactMap { $0.1.last?.time }.max() ?? first
        let replays = zip(devices, offsets).map { device, offset in
            // The vanishing counts from the device's own last frame: all vanish together.
            let vanish = vanishAtEnd ? (last - (device.1.last?.time ?? first)).inSeconds + tailSeconds : nil
            return MockDeviceReplay(device: device.0, events: device.1, leadIn: leadInSeconds + offset,
                                    gate: Array(gateToken.utf8), vanishAfter: vanish)
        }
        return (replays, leadInSeconds + (last - first).inSeconds + tailSeconds)
    }

    /// For each device's events, the seconds from the recording's first event (any device's)
    /// to the device's own first: a mock device's script counts from its own first event, so
    /// its lead-in adds this, and every device keeps its place on the recording's timeline (a
    /// second touchscreen that taps 3 s in taps 3 s in).
    package static func timelineOffsets(_ devices: [[EvdevEvent]]) -> [Double] {
        let first = devices.compactMap { $0.first?.time }.min()
        return devices.map { events in
            guard let first, let own = events.first?.time else { return 0 }
            return (own - first).inSeconds
        }
    }

    /// Runs `listener` (this tool's own executable) under umockdev-run on the recording.
    /// `extraArguments` go to `listen` (the scene, `--json`). Returns the child's output lines;
    /// `childErrors` is given the child's standard error when it succeeds.
    public static func run(tracePath: String, screen: Size, listener: String,
                           extraArguments: [String], childErrors: ((String) -> Void)? = nil) throws -> [String] {
        let (replays, duration) = try mockDevices(tracePath: tracePath, screen: screen, vanishAtEnd: true)
        let runner: UmockdevRunner
        do {
            runner = try UmockdevRunner(timeout: duration + lateLimitSeconds + 20)
        } catch {
            throw Failure.runner("\(error)")
        }
        var command = [listener, "listen", "--until-devices-gone", "--duration", String(duration + lateLimitSeconds),
                       "--screen", "\(Int(screen.width))x\(Int(screen.height))", "--open-gate", gateToken]
        for r in replays { command += ["--device", r.device.devicePath] }
        command += extraArguments
        let result = try runner.run(devices: replays, command: command)
        guard result.exitStatus == 0, !result.timedOut else {
            throw Failure.child(status: result.exitStatus, stderr: result.stderr)
        }
        childErrors?(result.stderr)
        return result.stdoutLines
    }
}
