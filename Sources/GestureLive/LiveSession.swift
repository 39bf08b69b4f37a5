import GestureKit
import GestureLibinput
import GestureReplay

#if canImport(Glibc)
import Glibc
#endif

/// Live input from libinput through a scene's views and recognizers, in real time, with the
/// same records as a replay (REPLAY.md's JSON lines).
///
/// Times are rebased to the first event, as a replay's are, so a live session and a replay
/// of the same recording print comparable times. The engine's deadlines (a long press's
/// duration, a double tap's interval) arm the event loop's timer, so they fire on time with
/// no busy waiting.
public final class LiveSession {
    public let replay: ReplaySession
    public var engine: GestureEngine { replay.live.engine }
    /// The monotonic time of the first event: time zero of the output.
    public private(set) var origin: Instant?
    /// Devices libinput reported, by id.
    public private(set) var devices: [InputDeviceID: LibinputDeviceInfo] = [:]

    public init(scene: Scene, output: @escaping (ReplayRecord) -> Void) throws {
        replay = try ReplaySession(scene: scene, output: output)
    }

    private func rebase(_ t: Instant) -> Instant {
        if origin == nil { origin = t }
        return Instant(nanoseconds: t.nanoseconds &- origin!.nanoseconds)
    }

    /// Hands one libinput event to the engine.
    public func handle(_ event: LibinputInputEvent) {
        switch event {
        case var .touchFrame(frame):
            frame.time = rebase(frame.time)
            replay.feed(.frame(frame))
        case var .touchpadGesture(gesture):
            gesture.time = rebase(gesture.time)
            replay.feed(.gesture(gesture))
        case let .deviceAdded(info):
            devices[info.id] = info
        case let .deviceRemoved(id):
            devices[id] = nil
            // The wrapper has already cancelled the device's touches and gestures; this
            // catches anything still held for it.
            engine.deviceRemoved(id, at: engine.now)
        }
    }

    /// The engine's next deadline on the monotonic clock.
    public var nextDeadline: Instant? {
        guard let origin, let d = engine.nextDeadline else { return nil }
        return Instant(nanoseconds: d.nanoseconds &+ origin.nanoseconds)
    }

    /// The monotonic clock reached `now`: fire the deadlines due.
    public func advance(to now: Instant) {
        guard let origin else { return }
        engine.advance(to: Instant(nanoseconds: now.nanoseconds &- origin.nanoseconds))
    }

    /// The end of input: pending deadlines run, touches still down are cancelled.
    public func finish() {
        engine.finish()
    }

    public enum StopReason: String, Sendable {
        case duration, signal
    }

    /// Listens to libinput devices (a udev seat, or device paths) for `duration` seconds (nil:
    /// until SIGINT or SIGTERM), feeding the scene; at the end every device is released (its
    /// touches cancelled) and the session finished.
    @discardableResult
    /// `log` receives libinput's own messages; `notice` this session's word on what it sees
    /// (a seat with no touch device yet).
    public func listen(source: LibinputListener.Source, screenSize: Size, duration: Double?,
                       log: ((LibinputLogPriority, String) -> Void)? = nil,
                       notice: ((String) -> Void)? = nil) throws -> StopReason {
        let context: LibinputContext
        switch source {
        case let .seat(seat):
            context = try LibinputContext(seat: seat, screenSize: screenSize, log: log)
        case let .paths(paths):
            context = try LibinputContext(paths: paths, screenSize: screenSize, log: log)
        }
        // A seat's devices are opened as libinput finds them; one the user may not read is
        // skipped by libinput in silence. With no touch device at all, say why.
        try context.dispatch { [unowned self] in handle($0) }
        if case .seat = source, !context.devices.contains(where: { $0.kind != nil }) {
            if let denied = context.openFailures.first(where: {
                if case .permissionDenied = $0 { true } else { false }
            }) {
                throw denied
            }
            notice?("no touchscreen or touchpad on this seat (yet); listening for devices to appear")
        }
        let loop = try InputEventLoop(context: context)
        try loop.stopOnSignals([SIGINT, SIGTERM])
        let end = duration.map { MonotonicClock.now().advanced(bySeconds: $0) }
        let signal = try loop.run(
            onEvent: { [unowned self] in handle($0) },
            nextDeadline: { [unowned self] in
                switch (end, nextDeadline) {
                case let (e?, d?): return min(e, d)
                case let (e, d): return e ?? d
                }
            },
            advance: { [unowned self] now in
                advance(to: now)
                if let end, now >= end { loop.stop() }
            })
        context.suspend()
        try context.dispatch { [unowned self] in handle($0) }
        finish()
        return signal == nil ? .duration : .signal
    }
}
