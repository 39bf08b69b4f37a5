import GestureInput
import GestureKit
import GestureLibinput
import GestureReplay
import GestureTraces

#if canImport(Glibc)
import Glibc
#endif

/// Live input from libinput through a scene, in real time, with the same records as a
/// replay (REPLAY.md's JSON lines): what `gesturekit listen` runs. The session builds the
/// scene's views and recognizers itself (`LiveScene`, from a `Scene` read from JSON or made
/// in code) and prints what they do; it does not take an app's own views or engine.
/// `LiveInput` runs the loop: times are on the session's clock (zero at the first event),
/// and the engine's deadlines arm the loop's timer, so they fire on time with no busy
/// waiting.
///
/// An app feeds its own engine (its own views and recognizers) from libinput with
/// `LiveInput` directly, as PhotoWall does: a `GestureEngine` is a `LiveInputClient`.
///
/// ```swift
/// let engine = GestureEngine()
/// engine.addRoot(myRootView)
/// let listener = LibinputListener(source: .seat("seat0"), screenSize: Size(width: 1920, height: 1080))
/// try LiveInput(listener).run(engine)   // until SIGINT/SIGTERM (or listener.timeLimit)
/// ```
///
/// (`LiveInputRun` runs any other `InputEventSource` into it the same way; in a desktop
/// session, `WaylandInput` does.)
public final class LiveSession: LiveInputClient {
    public let replay: ReplaySession
    public var engine: GestureEngine { replay.live.engine }
    /// Devices the source reported and has not removed, by id.
    public private(set) var devices: [InputDeviceID: InputDeviceInfo] = [:]

    public init(scene: Scene, output: @escaping (ReplayRecord) -> Void) throws {
        replay = try ReplaySession(scene: scene, output: output)
    }

    /// Hands one event of a live source (its time on the session's clock) to the scene, as a
    /// replay does (a removal takes effect at once: the source has already cancelled the
    /// device's touches and gestures, and this catches anything still held for it).
    public func handle(_ event: InputEvent) {
        switch event {
        case let .deviceAdded(info): devices[info.id] = info
        case let .deviceRemoved(id, _): devices[id] = nil
        default: break
        }
        replay.feed(event)
    }

    /// The engine's next deadline on the session's clock.
    public var nextDeadline: Instant? { engine.nextDeadline }

    /// The session's clock reached `now`: fire the deadlines due.
    public func advance(to now: Instant) { engine.advance(to: now) }

    /// The end of input: pending deadlines run, touches still down are cancelled.
    public func finish() { engine.finish() }

    public typealias StopReason = LibinputListener.StopReason

    /// Listens to libinput devices (a udev seat, or device paths) for `timeLimit` (nil: until
    /// SIGINT or SIGTERM), or until every device is gone with `stopWhenDevicesGone`
    /// (`LibinputListener.stopWhenDevicesGone`), feeding the scene; at the end every device is released (its
    /// touches cancelled) and the session finished. `log` receives libinput's own messages;
    /// `notice` the loop's word on what it sees (a seat with no touch device yet). `through`: a
    /// client that stands between the loop and this session and passes everything on (an
    /// `ActionLatency`). `devicesOpened`: called once libinput has opened the devices, before
    /// the first event is read (`LiveInput.onDevicesOpened`).
    @discardableResult
    public func listen(source: LibinputListener.Source, screenSize: Size, mapping: TouchMapping? = nil,
                       access: DeviceAccess = .automatic, grab: Bool = false, timeLimit: Duration?,
                       stopWhenDevicesGone: Bool = false,
                       through: (any LiveInputClient)? = nil,
                       log: ((LibinputLogPriority, String) -> Void)? = nil,
                       notice: ((String) -> Void)? = nil,
                       devicesOpened: (() throws -> Void)? = nil) throws -> StopReason {
        var listener = LibinputListener(source: source, screenSize: screenSize, mapping: mapping ?? replay.live.scene.input,
                                        timeLimit: timeLimit,
                                        logPriority: .error)
        listener.access = access
        listener.grab = grab
        listener.stopWhenDevicesGone = stopWhenDevicesGone
        let client: any LiveInputClient = through ?? self
        let input = LiveInput(listener)
        input.onDevicesOpened = devicesOpened
        return try input.run(client, log: log, notice: notice)
    }

    @available(*, deprecated, message: "durations are Duration values: use listen(source:screenSize:mapping:access:grab:timeLimit:...) with timeLimit: .seconds(s)")
    @discardableResult
    public func listen(source: LibinputListener.Source, screenSize: Size, mapping: TouchMapping? = nil,
                       access: DeviceAccess = .automatic, grab: Bool = false, duration: Double?,
                       stopWhenDevicesGone: Bool = false,
                       through: (any LiveInputClient)? = nil,
                       log: ((LibinputLogPriority, String) -> Void)? = nil,
                       notice: ((String) -> Void)? = nil,
                       devicesOpened: (() throws -> Void)? = nil) throws -> StopReason {
        try listen(source: source, screenSize: screenSize, mapping: mapping, access: access, grab: grab,
                   timeLimit: duration.map { Duration(seconds: $0) }, stopWhenDevicesGone: stopWhenDevicesGone,
                   through: through, log: log, notice: notice, devicesOpened: devicesOpened)
    }
}
