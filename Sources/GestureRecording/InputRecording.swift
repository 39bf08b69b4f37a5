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
        var o = Line()
        o.string("format", formatName)
        o.integer("version", header.version)
        o.string("source", header.source.rawValue)
        o.pair("screen", header.screen.width, header.screen.height)
        o.number("scale", header.scale)
        return o.text
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
        var o = Line(continuing: &buffer)
        defer { o.finish(into: &buffer) }
        switch event {
        case let .deviceAdded(info):
            o.string("e", "device-added")
            o.integer("device", info.id.rawValue)
            o.string("name", info.name)
            o.string("system", info.systemName)
            if let kind = info.kind { o.string("kind", kind.rawValue) }
            o.strings("capabilities", info.capabilities.map(\.rawValue).sorted())
            if let size = info.sizeMillimetres { o.pair("size", size.width, size.height) }
            if let ppm = info.pointsPerMillimetre { o.number("ppm", ppm) }
        case let .touchFrame(frame):
            o.time(frame.time)
            o.string("e", "touch")
            o.integer("device", frame.device.rawValue)
            o.string("kind", frame.deviceKind.rawValue)
            o.changes(frame.changes)
            if let ppm = frame.pointsPerMillimetre { o.number("ppm", ppm) }
            if !frame.buttonMask.isEmpty { o.integer("buttons", Int(frame.buttonMask.rawValue)) }
            if let pen = frame.pen { o.object("pen") { penFields(pen, into: &$0) } }
        case let .touchpadGesture(g):
            o.time(g.time)
            o.string("e", "gesture")
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
            o.string("e", "pointer")
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
            o.string("e", "pen")
            o.integer("device", p.device.rawValue)
            o.string("phase", p.phase.rawValue)
            o.pair("at", p.location.x, p.location.y)
            penFields(p.sample, into: &o)
        case let .modifiers(time, device, flags):
            o.time(time)
            o.string("e", "modifiers")
            o.integer("device", device.rawValue)
            o.strings("flags", flags.names)
        case let .eventsDropped(time, device):
            o.time(time)
            o.string("e", "dropped")
            o.integer("device", device.rawValue)
        case let .note(time, device, text):
            o.time(time)
            o.string("e", "note")
            o.integer("device", device.rawValue)
            o.string("text", text)
        case let .deviceRemoved(device, time):
            if let time { o.time(time) }
            o.string("e", "device-removed")
            o.integer("device", device.rawValue)
        }
    }

    /// The line of the receiver's clock moving on to `time`.
    public static func clockLine(_ time: Instant) -> String {
        var o = Line()
        o.time(time)
        o.string("e", "clock")
        return o.text
    }

    /// The line that says the recorder stopped, and why.
    public static func stoppedLine(at time: Instant, reason: String) -> String {
        var o = Line()
        o.time(time)
        o.string("e", "stopped")
        o.string("reason", reason)
        return o.text
    }

    /// A number that reads back as the same `Double`: Swift's shortest round-trip form, which
    /// is valid JSON; a value that is not finite as a string.
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return x.isNaN ? "\"nan\"" : (x > 0 ? "\"inf\"" : "\"-inf\"") }
        if x == 0 { return x.sign == .minus ? "-0.0" : "0" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }

    /// Appends `number(x)`'s text to `out`, making no string for a whole number.
    static func appendNumber(_ x: Double, to out: inout [UInt8]) {
        if x.isFinite, x != 0, x == x.rounded(), abs(x) < 1e15 {
            DecimalText.appendInteger(Int64(x), to: &out)
        } else if x.isFinite, x != 0 {
            var text = x.description  // the shortest round-trip form, as number(x) writes it
            text.withUTF8 { out.append(contentsOf: $0) }
        } else {
            out.append(contentsOf: number(x).utf8)
        }
    }

    private static func penFields(_ s: PenSample, into o: inout Line) {
        o.number("force", s.force)
        o.number("altitude", s.altitudeAngle)
        o.number("azimuth", s.azimuthAngle)
        if let z = s.zOffset { o.number("z", z) }
        o.string("tool", s.tool.rawValue)
    }

    /// One JSON object, field by field, in order, ending with a line end, as UTF-8 bytes
    /// (`text` as a string; `init(continuing:)` writes at the end of a buffer, in its storage).
    /// Keys are the format's own names, plain text, copied as they are; strings are escaped as
    /// `jsonString` escapes them; numbers as `number(_:)` writes them.
    struct Line {
        private var bytes: [UInt8]
        private var first = true

        init() {
            bytes = []
            bytes.reserveCapacity(128)
        }

        /// A line written at the end of `buffer`, which it holds until `finish(into:)`.
        init(continuing buffer: inout [UInt8]) {
            bytes = []
            swap(&bytes, &buffer)
        }

        /// Ends the line and hands the buffer back.
        mutating func finish(into buffer: inout [UInt8]) {
            close()
            bytes.append(0x0A)
            swap(&bytes, &buffer)
        }

        private mutating func close() {
            if first { bytes.append(UInt8(ascii: "{")) }
            bytes.append(UInt8(ascii: "}"))
        }

        private mutating func key(_ k: StaticString) {
            bytes.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            bytes.append(UInt8(ascii: "\""))
            k.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(UInt8(ascii: ":"))
        }
        mutating func string(_ k: StaticString, _ v: String) {
            key(k)
            JSONObjectText.appendString(v, to: &bytes)
        }
        mutating func integer(_ k: StaticString, _ v: Int) {
            key(k)
            DecimalText.appendInteger(Int64(v), to: &bytes)
        }
        mutating func integer(_ k: StaticString, _ v: Int64) {
            key(k)
            DecimalText.appendInteger(v, to: &bytes)
        }
        mutating func number(_ k: StaticString, _ v: Double) {
            key(k)
            InputRecording.appendNumber(v, to: &bytes)
        }
        mutating func bool(_ k: StaticString, _ v: Bool) {
            key(k)
            bytes.append(contentsOf: (v ? "true" : "false").utf8)
        }
        mutating func pair(_ k: StaticString, _ a: Double, _ b: Double) {
            key(k)
            bytes.append(UInt8(ascii: "["))
            InputRecording.appendNumber(a, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            InputRecording.appendNumber(b, to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        mutating func strings(_ k: StaticString, _ v: [String]) {
            key(k)
            bytes.append(UInt8(ascii: "["))
            for (i, s) in v.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONObjectText.appendString(s, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        /// A touch frame's `changes`: `[[id,"phase",x,y],...]`.
        mutating func changes(_ changes: [TouchChange]) {
            key("changes")
            bytes.append(UInt8(ascii: "["))
            for (i, c) in changes.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(UInt8(ascii: "["))
                DecimalText.appendInteger(Int64(c.sourceID), to: &bytes)
                bytes.append(UInt8(ascii: ","))
                JSONObjectText.appendString(c.phase.rawValue, to: &bytes)
                bytes.append(UInt8(ascii: ","))
                InputRecording.appendNumber(c.location.x, to: &bytes)
                bytes.append(UInt8(ascii: ","))
                InputRecording.appendNumber(c.location.y, to: &bytes)
                bytes.append(UInt8(ascii: "]"))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        /// A nested object, its fields written by `fields`.
        mutating func object(_ k: StaticString, _ fields: (inout Line) -> Void) {
            key(k)
            var inner = Line(continuing: &bytes)
            fields(&inner)
            inner.close()
            swap(&inner.bytes, &bytes)
        }
        mutating func time(_ t: Instant) { integer("t", t.nanoseconds) }
        var text: String {
            var all = bytes
            if first { all.append(UInt8(ascii: "{")) }
            all.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
            return String(decoding: all, as: UTF8.self)
        }
    }
}
