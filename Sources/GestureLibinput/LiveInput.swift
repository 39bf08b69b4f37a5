import GestureInput
import GestureKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Live input from libinput, which `gesturekit listen`, `LiveSession`, the probe and PhotoWall
/// share: opens libinput on a seat or on device paths and runs it as a source of the shared
/// live loop (`LiveInputRun`: the fd and the client's next deadline in one poll, times rebased
/// to the first event, stops on SIGINT/SIGTERM, after `timeLimit`, on `stop()`, or once every
/// device is gone when `stopWhenDevicesGone` is set); at the end
/// it removes every device (libinput_suspend, so touches still down are reported cancelled)
/// and finishes the client.
public final class LiveInput {
    public let listener: LibinputListener
    /// How often the client's `batchHandled` runs when nothing else happens (a window's own
    /// events need reading); nil: only after input and deadlines.
    public var idleTick: Duration?
    /// Called once libinput has opened its devices (after its first dispatch), before the
    /// first event is read: where a test starts a gated mock recording (`MockDeviceGate`).
    public var onDevicesOpened: (() throws -> Void)?
    /// During a run: the monotonic time of the first timed event, time zero of the client's
    /// clock.
    public var origin: Instant? { run?.origin }
    private var run: LiveInputRun?
    private var stopRequested = false

    public init(_ listener: LibinputListener, idleTick: Duration? = nil) {
        self.listener = listener
        self.idleTick = idleTick
    }

    /// Ends a run from inside a client's callback (or before it starts).
    public func stop() {
        stopRequested = true
        run?.stop()
    }

    /// Runs `client` until a signal, `timeLimit` or `stop()`. `log` receives libinput's own
    /// messages; `notice` this loop's word on what it sees (a seat with no touch device yet).
    /// Throws when libinput cannot start, or when a seat's only touch devices may not be read
    /// (the permission error names the device and the fix).
    @discardableResult
    public func run(_ client: some LiveInputClient,
                    log: ((LibinputLogPriority, String) -> Void)? = nil,
                    notice: ((String) -> Void)? = nil) throws -> LibinputListener.StopReason {
        let context: LibinputContext
        switch listener.source {
        case let .seat(seat):
            context = try LibinputContext(seat: seat, screenSize: listener.screenSize, mapping: listener.mapping,
                                          access: listener.access, grab: listener.grab,
                                          logPriority: listener.logPriority, log: log)
        case let .paths(paths):
            context = try LibinputContext(paths: paths, screenSize: listener.screenSize, mapping: listener.mapping,
                                          access: listener.access, grab: listener.grab,
                                          logPriority: listener.logPriority, log: log)
        }
        let run = LiveInputRun(source: context, timeLimit: listener.timeLimit, idleTick: idleTick)
        self.run = run
        defer { self.run = nil }
        if stopRequested { run.stop() }
        let deliver: (InputEvent) -> Void = { run.deliver($0, to: client) }
        // A seat's devices are opened as libinput finds them; one the user may not read is
        // skipped by libinput in silence. With no touch device at all, say why.
        try context.dispatch(into: deliver)
        if let seat = context.seatName { notice?("devices opened through the seat \(seat) (libseat)") }
        if listener.grab {
            for path in context.grabbedDevices { notice?("grabbed \(path) (EVIOCGRAB): nothing else receives its events") }
            for failure in context.grabFailures { notice?(failure) }
        }
        if case .seat = listener.source, !context.devices.contains(where: { $0.kind != nil }) {
            if let denied = context.openFailures.first(where: {
                if case .permissionDenied = $0 { true } else { false }
            }) {
                throw denied
            }
            notice?("no touchscreen or touchpad on this seat (yet); listening for devices to appear")
        }
        try onDevicesOpened?()
        let reason = try run.run(client, endWhen: listener.stopWhenDevicesGone ? { context.devices.isEmpty } : nil)
        let allGone = listener.stopWhenDevicesGone && context.devices.isEmpty
        if listener.removeDevicesAtEnd {
            context.suspend()
            try context.dispatch(into: deliver)
        }
        client.finish()
        switch reason {
        case .signal: return .signal
        case .stopped where allGone: return .devicesGone
        default: return .duration
        }
    }
}
