import GestureKit
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

    public mutating func line(for event: LibinputInputEvent) -> String {
        switch event {
        case let .deviceAdded(info):
            var fields: [(String, String)] = [
                ("type", q("device-added")), ("device", "\(info.id.rawValue)"),
                ("name", q(info.name)), ("sysname", q(info.sysname)),
                ("kind", info.kind.map { q($0.rawValue) } ?? "null"),
                ("capabilities", "[" + info.capabilities.map(\.description).sorted().map(q)
                    .joined(separator: ",") + "]"),
            ]
            if let size = info.sizeMillimeters {
                fields.append(("size", "[\(n(size.width)),\(n(size.height))]"))
            }
            return object(fields)
        case let .deviceRemoved(id):
            return object([("type", q("device-removed")), ("device", "\(id.rawValue)")])
        case let .touchFrame(frame):
            let changes = frame.changes.map { c in
                object([("id", "\(c.sourceID)"), ("phase", q(c.phase.rawValue)),
                        ("x", n(c.location.x)), ("y", n(c.location.y))])
            }
            return object([("type", q("touch")), ("time", n(relative(frame.time))),
                           ("device", "\(frame.device.rawValue)"),
                           ("kind", q(frame.deviceKind.rawValue)),
                           ("changes", "[" + changes.joined(separator: ",") + "]")])
        case let .touchpadGesture(g):
            return object([("type", q("gesture")), ("time", n(relative(g.time))),
                           ("device", "\(g.device.rawValue)"),
                           ("kind", q(g.kind.rawValue)), ("phase", q(g.phase.rawValue)),
                           ("fingers", "\(g.fingers)"), ("scale", n(g.scale)),
                           ("angleDelta", n(g.angleDelta)), ("dx", n(g.delta.x)),
                           ("dy", n(g.delta.y)), ("x", n(g.location.x)), ("y", n(g.location.y))])
        }
    }

    private mutating func relative(_ time: Instant) -> Double {
        if firstTime == nil { firstTime = time }
        return time.seconds(since: firstTime!)
    }

    private func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(q($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    func n(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        let r = (v * 1_000_000).rounded() / 1_000_000
        if r == r.rounded() && abs(r) < 1e15 { return String(Int64(r)) }
        return "\(r)"
    }

    func q(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
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
    /// Seconds to listen; nil = until stopped by SIGINT/SIGTERM.
    public var duration: Double?
    public var logPriority: LibinputLogPriority
    /// Remove every device at the end (libinput_suspend), so touches and gestures still in
    /// progress are reported cancelled.
    public var removeDevicesAtEnd: Bool

    public init(source: Source, screenSize: Size = Size(width: 1000, height: 1000),
                duration: Double? = nil, logPriority: LibinputLogPriority = .error,
                removeDevicesAtEnd: Bool = true) {
        self.source = source
        self.screenSize = screenSize
        self.duration = duration
        self.logPriority = logPriority
        self.removeDevicesAtEnd = removeDevicesAtEnd
    }

    public enum StopReason: String, Sendable {
        case duration, signal
    }

    /// Runs; `onEvent` gets every converted event, `log` libinput's messages.
    @discardableResult
    public func run(onEvent: (LibinputInputEvent) -> Void,
                    log: ((LibinputLogPriority, String) -> Void)? = nil) throws -> StopReason {
        let context: LibinputContext
        switch source {
        case let .seat(seat):
            context = try LibinputContext(seat: seat, screenSize: screenSize,
                                          logPriority: logPriority, log: log)
        case let .paths(paths):
            context = try LibinputContext(paths: paths, screenSize: screenSize,
                                          logPriority: logPriority, log: log)
        }
        let loop = try InputEventLoop(context: context)
        try loop.stopOnSignals([SIGINT, SIGTERM])
        let end = duration.map { MonotonicClock.now().advanced(bySeconds: $0) }
        let signal = try loop.run(onEvent: onEvent,
                                  nextDeadline: { end },
                                  advance: { now in
                                      if let end, now >= end { loop.stop() }
                                  })
        if removeDevicesAtEnd {
            context.suspend()
            try context.dispatch(into: onEvent)
        }
        return signal == nil ? .duration : .signal
    }
}
