import GestureKit
import GestureLibinput
import GestureReplay
import GestureTraces

#if canImport(Glibc)
import Glibc
#endif

/// Live input from libinput through a scene's views and recognizers, in real time, with the
/// same records as a replay (REPLAY.md's JSON lines). `LiveInput` runs the loop: times are on
/// the session's clock (zero at the first event), and the engine's deadlines arm the loop's
/// timer, so they fire on time with no busy waiting.
public final class LiveSession: LiveInputClient {
    public let replay: ReplaySession
    public var engine: GestureEngine { replay.live.engine }
    /// Devices libinput reported, by id.
    public private(set) var devices: [InputDeviceID: LibinputDeviceInfo] = [:]

    public init(scene: Scene, output: @escaping (ReplayRecord) -> Void) throws {
        replay = try ReplaySession(scene: scene, output: output)
    }

    /// Hands one libinput event (its time on the session's clock) to the engine.
    public func handle(_ event: LibinputInputEvent) {
        switch event {
        case let .touchFrame(frame):
            replay.feed(.frame(frame))
        case let .touchpadGesture(gesture):
            replay.feed(.gesture(gesture))
        case let .pointer(p):
            replay.feed(.pointer(p))
        case let .deviceAdded(info):
            devices[info.id] = info
            // A touchscreen of known size: physical distances (an edge pan's margin) in mm.
            if info.kind == .touchscreen, let size = info.sizeMillimeters,
               let scale = replay.live.scene.input.pointsPerMillimetre(deviceSize: size, screen: replay.live.scene.screen) {
                engine.pointsPerMillimetre[info.id] = scale
            }
        case let .deviceRemoved(id):
            devices[id] = nil
            // The wrapper has already cancelled the device's touches and gestures; this
            // catches anything still held for it.
            engine.deviceRemoved(id, at: engine.now)
        }
    }

    /// The engine's next deadline on the session's clock.
    public var nextDeadline: Instant? { engine.nextDeadline }

    /// The session's clock reached `now`: fire the deadlines due.
    public func advance(to now: Instant) { engine.advance(to: now) }

    /// The end of input: pending deadlines run, touches still down are cancelled.
    public func finish() { engine.finish() }

    public typealias StopReason = LibinputListener.StopReason

    /// Listens to libinput devices (a udev seat, or device paths) for `duration` seconds (nil:
    /// until SIGINT or SIGTERM), feeding the scene; at the end every device is released (its
    /// touches cancelled) and the session finished. `log` receives libinput's own messages;
    /// `notice` the loop's word on what it sees (a seat with no touch device yet).
    @discardableResult
    public func listen(source: LibinputListener.Source, screenSize: Size, mapping: TouchMapping? = nil,
                       access: DeviceAccess = .automatic, grab: Bool = false, duration: Double?,
                       log: ((LibinputLogPriority, String) -> Void)? = nil,
                       notice: ((String) -> Void)? = nil) throws -> StopReason {
        var listener = LibinputListener(source: source, screenSize: screenSize, mapping: mapping ?? replay.live.scene.input,
                                        duration: duration,
                                        logPriority: .error)
        listener.access = access
        listener.grab = grab
        return try LiveInput(listener).run(self, log: log, notice: notice)
    }
}
