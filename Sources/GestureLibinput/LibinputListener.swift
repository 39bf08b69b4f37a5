import GestureFormat
import GestureInput
import GestureKit
import GestureTraces
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Formats converted events as normalized JSON lines (what `gesturekit-libinput-probe`
/// prints and `gesturekit listen --device` will): times in seconds relative to the first
/// timed event, coordinates in points, numbers rounded to 6 decimals.
public struct LibinputJSONFormatter: Sendable {
    public private(set) var firstTime: Instant?

    public init() {}

    public mutating func line(for event: InputEvent) -> String {
        var o = JSONObjectText()
        switch event {
        case let .deviceAdded(info):
            o.string("type", "device-added")
            o.integer("device", info.id.rawValue)
            o.string("name", info.name)
            o.string("sysname", info.systemName)
            o.raw("kind", info.kind.map { jsonString($0.rawValue) } ?? "null")
            o.strings("capabilities", info.capabilities.map(\.description).sorted())
            if let size = info.sizeMillimetres { o.numbers("size", [size.width, size.height]) }
            if let scale = info.pointsPerMillimetre { o.number("pointsPerMillimetre", scale) }
        case let .deviceRemoved(id, time):
            o.string("type", "device-removed")
            if let time { o.number("time", relative(time)) }
            o.integer("device", id.rawValue)
        case let .eventsDropped(time, device):
            o.string("type", "events-dropped")
            o.number("time", relative(time))
            o.integer("device", device.rawValue)
        case let .note(time, device, text):
            o.string("type", "note")
            o.number("time", relative(time))
            o.integer("device", device.rawValue)
            o.string("text", text)
        case let .touchFrame(frame):
            o.string("type", "touch")
            o.number("time", relative(frame.time))
            o.integer("device", frame.device.rawValue)
            o.string("kind", frame.deviceKind.rawValue)
            let changes = frame.changes.map { c in
                var change = JSONObjectText()
                change.integer("id", c.sourceID)
                change.string("phase", c.phase.rawValue)
                change.number("x", c.location.x)
                change.number("y", c.location.y)
                return change.json
            }
            o.raw("changes", "[" + changes.joined(separator: ",") + "]")
        case let .pointer(p):
            o.string("type", "pointer")
            o.number("time", relative(p.time))
            o.integer("device", p.device.rawValue)
            o.string("kind", p.kind.rawValue)
            o.number("x", p.location.x)
            o.number("y", p.location.y)
            switch p.kind {
            case .motion, .leave: break
            case .button:
                o.integer("button", p.button)
                o.string("state", p.pressed ? "pressed" : "released")
            case .scroll:
                o.string("scroll", p.scrollType.contains(.continuous) ? "continuous" : "discrete")
                o.number("dx", p.delta.x)
                o.number("dy", p.delta.y)
                if p.scrollStop { o.string("phase", "stop") }
            }
        case let .modifiers(time, device, flags):
            o.string("type", "modifiers")
            o.number("time", relative(time))
            o.integer("device", device.rawValue)
            o.strings("flags", flags.names)
        case let .pen(p):
            o.string("type", "pen")
            o.number("time", relative(p.time))
            o.integer("device", p.device.rawValue)
            o.string("phase", p.phase.rawValue)
            o.number("x", p.location.x)
            o.number("y", p.location.y)
            o.number("force", p.sample.force)
            o.number("altitude", p.sample.altitudeAngle)
            o.number("azimuth", p.sample.azimuthAngle)
            o.string("tool", p.sample.tool.rawValue)
            if let z = p.sample.zOffset { o.number("zOffset", z) }
        case let .touchpadGesture(g):
            o.string("type", "gesture")
            o.number("time", relative(g.time))
            o.integer("device", g.device.rawValue)
            o.string("kind", g.kind.rawValue)
            o.string("phase", g.phase.rawValue)
            o.integer("fingers", g.fingers)
            o.number("scale", g.scale)
            o.number("angleDelta", g.angleDelta)
            o.number("dx", g.delta.x)
            o.number("dy", g.delta.y)
            o.number("x", g.location.x)
            o.number("y", g.location.y)
        }
        return o.json
    }

    private mutating func relative(_ time: Instant) -> Double {
        if firstTime == nil { firstTime = time }
        return (time - firstTime!).inSeconds
    }
}

/// Listens to libinput devices for a while and reports converted events: the logic of
/// `gesturekit-libinput-probe` (and later `gesturekit listen --device`).
public struct LibinputListener {
    public enum Source: Hashable, Sendable {
        case seat(String)
        case paths([String])
    }

    public var source: Source
    public var screenSize: Size
    /// Rotation, calibration and region of touchscreens (`TouchMapping`).
    public var mapping: TouchMapping
    /// How devices are opened: through the seat (libseat) or directly.
    public var access: DeviceAccess = .automatic
    /// Grab every device (EVIOCGRAB), so a compositor or console below does not also act on it.
    public var grab = false
    /// How long to listen at most; nil = until stopped by SIGINT/SIGTERM.
    public var timeLimit: Duration?
    /// Seconds to listen; nil = until stopped by SIGINT/SIGTERM.
    @available(*, deprecated, renamed: "timeLimit", message: "durations are Duration values: use timeLimit (.seconds(s))")
    public var duration: Double? {
        get { timeLimit?.inSeconds }
        set { timeLimit = newValue.map { Duration(seconds: $0) } }
    }
    public var logPriority: LibinputLogPriority
    /// Remove every device at the end (libinput_suspend), so touches and gestures still in
    /// progress are reported cancelled.
    public var removeDevicesAtEnd: Bool
    /// End the run once every device is gone (each removed by libinput after its node
    /// vanished, as a mock device does at the end of its recording): the end then follows the
    /// input, however late a loaded machine plays it, and `timeLimit` is only a limit.
    public var stopWhenDevicesGone = false

    public init(source: Source, screenSize: Size = Size(width: 1000, height: 1000),
                mapping: TouchMapping = .identity, timeLimit: Duration? = nil, logPriority: LibinputLogPriority = .error,
                removeDevicesAtEnd: Bool = true) {
        self.source = source
        self.screenSize = screenSize
        self.mapping = mapping
        self.timeLimit = timeLimit
        self.logPriority = logPriority
        self.removeDevicesAtEnd = removeDevicesAtEnd
    }

    @available(*, deprecated, renamed: "init(source:screenSize:mapping:timeLimit:logPriority:removeDevicesAtEnd:)",
               message: "durations are Duration values: use timeLimit: .seconds(s)")
    public init(source: Source, screenSize: Size = Size(width: 1000, height: 1000),
                mapping: TouchMapping = .identity, duration: Double?, logPriority: LibinputLogPriority = .error,
                removeDevicesAtEnd: Bool = true) {
        self.init(source: source, screenSize: screenSize, mapping: mapping, timeLimit: duration.map { Duration(seconds: $0) },
                  logPriority: logPriority, removeDevicesAtEnd: removeDevicesAtEnd)
    }

    /// Why a run ended: `duration` (the time limit passed, or the run was stopped), `signal`
    /// (SIGINT or SIGTERM), or `devicesGone` (every device was gone: `stopWhenDevicesGone`).
    public typealias StopReason = InputStopReason

    /// Runs; `onEvent` gets every converted event (times from the first event, as
    /// `LiveInput` gives them), `log` libinput's messages; `onDevicesOpened` is called once
    /// libinput has opened the devices, before `timeLimit` starts (`LiveInput.onDevicesOpened`).
    @discardableResult
    public func run(onEvent: (InputEvent) -> Void,
                    log: ((LibinputLogPriority, String) -> Void)? = nil,
                    onDevicesOpened: (() throws -> Void)? = nil) throws -> StopReason {
        try withoutActuallyEscaping(onEvent) { onEvent in
            let input = LiveInput(self)
            input.onDevicesOpened = onDevicesOpened
            return try input.run(EventCallback(onEvent), log: log)
        }
    }
}

/// A client that only hears events: no deadlines of its own.
private final class EventCallback: LiveInputClient {
    let onEvent: (InputEvent) -> Void
    init(_ onEvent: @escaping (InputEvent) -> Void) { self.onEvent = onEvent }
    func handle(_ event: InputEvent) { onEvent(event) }
    var nextDeadline: Instant? { nil }
    func advance(to now: Instant) {}
}
