import GestureFormat
import GestureKit

/// GestureKit's input recording format (docs/RECORDING.md): what an app received, one JSON
/// object a line, every `InputEvent` with its time to the nanosecond. This file writes lines;
/// InputRecording+Reading.swift reads them. The contract is the document: a field written
/// here is a row there.
public enum InputRecording {
    /// The format's name, the header's `format`.
    public static let formatName = "gesturekit-input"
    /// The version this code writes, and the newest it reads.
    public static let version = 1

    /// Who produced the recorded events.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        case libinput, wayland, gtk, sdl2, sdl3, replay
        /// An app's own engine, fed by the app.
        case app
    }

    /// The first line: the format, its version, the source, the screen.
    public struct Header: Hashable, Sendable {
        public var version: Int
        public var source: Source
        /// The screen or window size, in points.
        public var screen: Size
        /// Device pixels per point (1 when unknown).
        public var scale: Double

        public init(source: Source, screen: Size, scale: Double = 1, version: Int = InputRecording.version) {
            self.version = version
            self.source = source
            self.screen = screen
            self.scale = scale
        }
    }

    /// A line after the header: an event, the receiver's clock, or the recorder's stop.
    public enum Entry: Hashable, Sendable {
        case event(InputEvent)
        /// The receiver's clock was moved on to this time with no input (a live loop woke for
        /// a deadline: `advance(to:)`), and the next event's time is not later, or the next
        /// event takes the receiver's time (a removal without one), or input ended: a replay
        /// moves its clock here too, so that event happens at the same engine time as live.
        case clock(Instant)
        /// The recorder stopped here (its size limit): nothing after it was recorded.
        case stopped(time: Instant, reason: String)
    }

    // MARK: Writing

    /// The header line, with its line end.
    public static func headerLine(_ header: Header) -> String {
        Line.text { o in
            o.string("format", formatName)
            o.integer("version", header.version)
            o.string("source", header.source.rawValue)
            o.pair("screen", header.screen.width, header.screen.height)
            o.number("scale", header.scale)
        }
    }

    /// The line of one event, with its line end.
    public static func line(_ event: InputEvent) -> String {
        var bytes: [UInt8] = []
        appendLine(event, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line of one event, with its line end, to `buffer`, writing straight into
    /// its storage (a recorder's buffer): no string is made for a field, a number or the line.
    package static func appendLine(_ event: InputEvent, to buffer: inout [UInt8]) {
        Line.append(to: &buffer) { fields(of: event, into: &$0) }
    }

    private static func fields(of event: InputEvent, into o: inout Line) {
        switch event {
        case let .deviceAdded(info):
            o.name("e", "device-added")
            o.integer("device", info.id.rawValue)
            o.string("name", info.name)
            o.string("system", info.systemName)
            if let kind = info.kind { o.string("kind", kind.rawValue) }
            o.strings("capabilities", info.capabilities.map(\.rawValue).sorted())
            if let size = info.sizeMillimetres { o.pair("size", size.width, size.height) }
            if let ppm = info.pointsPerMillimetre { o.number("ppm", ppm) }
        case let .touchFrame(frame):
            o.time(frame.time)
            o.name("e", "touch")
            o.integer("device", frame.device.rawValue)
            o.name("kind", frame.deviceKind.formatName)
            o.changes(frame.changes)
            if let ppm = frame.pointsPerMillimetre { o.number("ppm", ppm) }
            if !frame.buttonMask.isEmpty { o.integer("buttons", Int(frame.buttonMask.rawValue)) }
            if let pen = frame.pen { o.object("pen") { penFields(pen, into: &$0) } }
        case let .touchpadGesture(g):
            o.time(g.time)
            o.name("e", "gesture")
            o.integer("device", g.device.rawValue)
            o.string("kind", g.kind.rawValue)
            o.string("phase", g.phase.rawValue)
            o.integer("fingers", g.fingers)
            o.pair("at", g.location.x, g.location.y)
            o.number("scale", g.scale)
            o.number("angle", g.angleDelta)
            o.pair("delta", g.delta.x, g.delta.y)
        case let .pointer(p):
            o.time(p.time)
            o.name("e", "pointer")
            o.integer("device", p.device.rawValue)
            o.string("kind", p.kind.rawValue)
            o.pair("at", p.location.x, p.location.y)
            switch p.kind {
            case .button:
                o.integer("button", p.button)
                o.bool("pressed", p.pressed)
            case .scroll:
                o.pair("delta", p.delta.x, p.delta.y)
                o.string("scroll", p.scrollType == .continuous ? "continuous" : "discrete")
                o.bool("stop", p.scrollStop)
            case .motion, .leave:
                break
            }
        case let .pen(p):
            o.time(p.time)
            o.name("e", "pen")
            o.integer("device", p.device.rawValue)
            o.string("phase", p.phase.rawValue)
            o.pair("at", p.location.x, p.location.y)
            penFields(p.sample, into: &o)
        case let .modifiers(time, device, flags):
            o.time(time)
            o.name("e", "modifiers")
            o.integer("device", device.rawValue)
            o.strings("flags", flags.names)
        case let .eventsDropped(time, device):
            o.time(time)
            o.name("e", "dropped")
            o.integer("device", device.rawValue)
        case let .note(time, device, text):
            o.time(time)
            o.name("e", "note")
            o.integer("device", device.rawValue)
            o.string("text", text)
        case let .deviceRemoved(device, time):
            if let time { o.time(time) }
            o.name("e", "device-removed")
            o.integer("device", device.rawValue)
        }
    }

    /// The line of the receiver's clock moving on to `time`.
    public static func clockLine(_ time: Instant) -> String {
        Line.text { o in
            o.time(time)
            o.name("e", "clock")
        }
    }

    /// The line that says the recorder stopped, and why.
    public static func stoppedLine(at time: Instant, reason: String) -> String {
        Line.text { o in
            o.time(time)
            o.name("e", "stopped")
            o.string("reason", reason)
        }
    }

    /// A number that reads back as the same `Double`: Swift's shortest round-trip form, which
    /// is valid JSON; a value that is not finite as a string.
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return x.isNaN ? "\"nan\"" : (x > 0 ? "\"inf\"" : "\"-inf\"") }
        if x == 0 { return x.sign == .minus ? "-0.0" : "0" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }

    private static func penFields(_ s: PenSample, into o: inout Line) {
        o.number("force", s.force)
        o.number("altitude", s.altitudeAngle)
        o.number("azimuth", s.azimuthAngle)
        if let z = s.zOffset { o.number("z", z) }
        o.string("tool", s.tool.rawValue)
    }
}
