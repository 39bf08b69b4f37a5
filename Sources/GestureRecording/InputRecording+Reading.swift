import GestureFormat
import GestureKit

/// Reading a recording's lines back (docs/RECORDING.md, "Reading rules"): strict, so that a
/// line the format does not describe is an error naming the line and the field, never a
/// guess. A newer reader reads every older version. Every number is checked against the
/// range its field has (a `buttons` mask of 256 is an error, not no buttons), and a line is
/// held to the budgets of one line (`Budget`: its keys, its strings, its changes).
extension InputRecording {
    /// Why a line is not a line of the format, and where.
    public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// 1-based line number.
        public var line: Int
        public var message: String
        public init(line: Int, _ message: String) {
            self.line = line
            self.message = message
        }
        /// The message with the file's text in it made safe for a terminal (`printable`).
        public var description: String { "line \(line): \(printable(message))" }
    }

    /// Whether `line` (a file's first non-blank line) is a recording's header.
    public static func looksLikeHeader(_ line: some RandomAccessCollection<UInt8>) -> Bool {
        line.first == UInt8(ascii: "{") && bytes(line, contain: headerMarker)
    }

    private static let headerMarker = Array("\"format\":\"\(formatName)\"".utf8)

    /// Whether `marker` occurs in `line`: the cheap look at a line's bytes before it is
    /// decoded (its header, a device's arrival), with no copy of the line.
    package static func bytes(_ line: some RandomAccessCollection<UInt8>, contain marker: [UInt8]) -> Bool {
        guard let first = marker.first else { return true }
        guard line.count >= marker.count else { return false }
        let last = line.index(line.endIndex, offsetBy: -marker.count)
        var start = line.startIndex
        while start <= last {
            if line[start] == first {
                var i = start, k = 0
                while k < marker.count, line[i] == marker[k] {
                    i = line.index(after: i)
                    k += 1
                }
                if k == marker.count { return true }
            }
            start = line.index(after: start)
        }
        return false
    }

    /// Reads the header line (line `number` of the file).
    public static func header(_ line: [UInt8], number: Int) throws -> Header {
        var o = try Fields(line, number: number)
        guard try o.string("format") == formatName else {
            throw ReadError(line: number, "expected \"format\": \"\(formatName)\" in the header")
        }
        let version = try o.integer("version")
        guard version >= 1 else { throw ReadError(line: number, "version \(version) is not a version of the format (the first is 1)") }
        guard version <= InputRecording.version else {
            throw ReadError(line: number, "version \(version) is newer than this reader, which reads versions 1 to \(InputRecording.version)")
        }
        let sourceName = try o.string("source")
        guard let source = Source(rawValue: sourceName) else {
            throw ReadError(line: number, "\"source\": \"\(sourceName)\" is none of \(Source.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let screen = try o.pair("screen")
        let scale = try o.number("scale")
        try o.end()
        guard screen.x > 0, screen.y > 0, screen.x <= maximumScreen, screen.y <= maximumScreen else {
            throw ReadError(line: number, "\"screen\" should be a width and height in points, each above 0 and at most \(Int(maximumScreen))")
        }
        guard scale > 0, scale <= maximumScale else {
            throw ReadError(line: number, "\"scale\" should be device pixels a point, above 0 and at most \(Int(maximumScale))")
        }
        return Header(source: source, screen: Size(width: screen.x, height: screen.y), scale: scale, version: version)
    }

    /// The largest screen or window a header may give, in points, each way.
    static let maximumScreen = 1_000_000.0
    /// The largest scale a header may give, in device pixels a point.
    static let maximumScale = 1000.0
    /// The capabilities a device may have (`InputDeviceCapability`).
    static let capabilityNames: Set<String> = ["keyboard", "pointer", "touch", "tablet-tool", "tablet-pad", "gesture", "switch"]
    /// The highest evdev key or button code (`KEY_MAX`).
    static let maximumButtonCode = 0x2FF

    /// Reads one line after the header (line `number` of the file).
    public static func entry(_ line: [UInt8], number: Int) throws -> Entry {
        var o = try Fields(line, number: number)
        let e = try o.string("e")
        let entry: Entry
        switch e {
        case "device-added":
            let id = try o.device()
            let name = try o.string("name")
            let system = try o.string("system")
            let kind = try o.optionalString("kind").map { try o.enumValue(InputDeviceKind.self, $0, "kind") }
            var capabilities: Set<InputDeviceCapability> = []
            for name in try o.strings("capabilities") {
                guard capabilityNames.contains(name), capabilities.insert(InputDeviceCapability(rawValue: name)).inserted else {
                    throw ReadError(line: number, "\"capabilities\": \"\(name)\" is \(capabilityNames.contains(name) ? "named twice" : "none of \(capabilityNames.sorted().joined(separator: ", "))")")
                }
            }
            let size = try o.optionalPair("size").map { Size(width: $0.x, height: $0.y) }
            if let size, !(size.width.isFinite && size.height.isFinite && size.width >= 0 && size.height >= 0) {
                throw ReadError(line: number, "\"size\" should be a width and height in millimetres, finite and not negative")
            }
            let ppm = try o.optionalPositive("ppm")
            entry = .event(.deviceAdded(InputDeviceInfo(id: id, name: name, systemName: system, kind: kind,
                                                        capabilities: capabilities, sizeMillimetres: size, pointsPerMillimetre: ppm)))
        case "touch":
            let time = try o.time()
            let device = try o.device()
            let kind = try o.enumValue(InputDeviceKind.self, try o.string("kind"), "kind")
            let items = try o.array("changes")
            guard items.count <= Budget.changesPerLine else {
                throw ReadError(line: number, "\"changes\" has \(items.count) changes: a line holds at most \(Budget.changesPerLine)")
            }
            let changes = try items.enumerated().map { index, value in
                guard case let .array(items) = value, items.count == 4,
                      case let .number(id) = items[0], id == id.rounded(), abs(id) < 1e15,
                      case let .string(phaseName) = items[1], let phase = TouchPhase(rawValue: phaseName) else {
                    throw ReadError(line: number, "\"changes\"[\(index)] should be [id, phase, x, y] with phase began, moved, ended or cancelled")
                }
                return TouchChange(sourceID: Int(id), phase: phase,
                                   location: Point(x: try o.number(items[2], "changes"), y: try o.number(items[3], "changes")))
            }
            let ppm = try o.optionalPositive("ppm")
            let buttons = try o.optionalInteger("buttons", in: 0...7, "a mask of 1 primary, 2 secondary, 4 tertiary").map { ButtonMask(rawValue: UInt8($0)) } ?? []
            let pen = try o.optionalObject("pen").map { try PenFields($0, number: number).sample() }
            entry = .event(.touchFrame(TouchFrame(time: time, device: device, deviceKind: kind, changes: changes,
                                                  pointsPerMillimetre: ppm, buttonMask: buttons, pen: pen)))
        case "gesture":
            let time = try o.time()
            let device = try o.device()
            let kind = try o.enumValue(TouchpadGestureEvent.Kind.self, try o.string("kind"), "kind")
            let phase = try o.enumValue(TouchpadGestureEvent.Phase.self, try o.string("phase"), "phase")
            let fingers = try o.integer("fingers", in: 0...Budget.touchesPerDevice, "a count of fingers")
            let at = try o.pair("at")
            let scale = try o.finite("scale")
            let angle = try o.finite("angle")
            let delta = try o.finitePair("delta")
            entry = .event(.touchpadGesture(TouchpadGestureEvent(kind: kind, phase: phase, time: time, device: device, fingers: fingers,
                                                                 location: at, scale: scale, angleDelta: angle, delta: delta)))
        case "pointer":
            let time = try o.time()
            let device = try o.device()
            let kind = try o.enumValue(PointerEvent.Kind.self, try o.string("kind"), "kind")
            let at = try o.pair("at")
            var event = PointerEvent(kind: kind, time: time, device: device, location: at)
            switch kind {
            case .button:
                event.button = try o.integer("button", in: 0...maximumButtonCode, "an evdev button code")
                event.pressed = try o.bool("pressed")
            case .scroll:
                event.delta = try o.finitePair("delta")
                let type = try o.string("scroll")
                guard type == "continuous" || type == "discrete" else {
                    throw ReadError(line: number, "\"scroll\": \"\(type)\" is neither continuous nor discrete")
                }
                event.scrollType = type == "continuous" ? .continuous : .discrete
                event.scrollStop = try o.bool("stop")
            case .motion, .leave:
                break
            }
            entry = .event(.pointer(event))
        case "pen":
            let time = try o.time()
            let device = try o.device()
            let phase = try o.enumValue(PenEvent.Phase.self, try o.string("phase"), "phase")
            let at = try o.pair("at")
            let sample = try PenFields(&o).sample()
            entry = .event(.pen(PenEvent(phase: phase, time: time, device: device, location: at, sample: sample)))
        case "modifiers":
            let time = try o.time()
            let device = try o.device()
            var flags = ModifierFlags()
            for name in try o.strings("flags") {
                guard let flag = ModifierFlags.named(name) else {
                    throw ReadError(line: number, "\"flags\": \"\(name)\" is none of shift, control, alternate, command, alphaShift")
                }
                flags.insert(flag)
            }
            entry = .event(.modifiers(time: time, device: device, flags))
        case "dropped":
            entry = .event(.eventsDropped(time: try o.time(), device: try o.device()))
        case "note":
            entry = .event(.note(time: try o.time(), device: try o.device(), try o.string("text")))
        case "device-removed":
            let time = try o.optionalTime()
            entry = .event(.deviceRemoved(try o.device(), time: time))
        case "clock":
            entry = .clock(try o.time())
        case "stopped":
            entry = .stopped(time: try o.time(), reason: try o.string("reason"))
        default:
            throw ReadError(line: number, "\"e\": \"\(e)\" is no event of the format (device-added, touch, gesture, pointer, pen, modifiers, dropped, note, device-removed, clock, stopped)")
        }
        try o.end()
        return entry
    }

    /// A pen sample's fields, in a line or in a touch's `pen` object.
    private struct PenFields {
        var force: Double, altitude: Double, azimuth: Double, z: Double?, tool: PenTool

        init(_ o: inout Fields) throws {
            force = try o.finite("force", in: 0...1, "from 0 to 1")
            altitude = try o.finite("altitude", in: 0...(Double.pi / 2), "radians from 0 to π/2")
            azimuth = try o.finite("azimuth", in: -2 * Double.pi...2 * Double.pi, "radians from -2π to 2π")
            z = try o.optionalNumber("z")
            if let z, !(0...1).contains(z) { throw ReadError(line: o.number, "\"z\" should be from 0 to 1") }
            tool = try o.enumValue(PenTool.self, try o.string("tool"), "tool")
        }

        init(_ members: [(key: String, value: JSONValue)], number: Int) throws {
            var o = Fields(members: members, number: number, context: "\"pen\"")
            try self.init(&o)
            try o.end()
        }

        func sample() -> PenSample {
            PenSample(force: force, altitudeAngle: altitude, azimuthAngle: azimuth, zOffset: z, tool: tool)
        }
    }

    /// The members of one object, taken one by one; `end()` says which were left over.
    struct Fields {
        private var members: [(key: String, value: JSONValue)]
        private var taken: Set<String> = []
        let number: Int
        let context: String

        init(_ line: [UInt8], number: Int) throws {
            let value: JSONValue
            do {
                // An object with more keys than the format has is refused at its first extra
                // key: the parse is linear and no duplicate check runs over thousands of keys.
                value = try JSONParser.parse(bytes: line, maximumKeys: Budget.keysPerObject)
            } catch let e as JSONSyntaxError {
                throw ReadError(line: number, "not a JSON object: column \(e.column): \(e.message)")
            }
            guard case let .object(members) = value else {
                throw ReadError(line: number, "expected a JSON object, found \(value.typeDescription)")
            }
            self.init(members: members, number: number, context: "the line")
        }

        init(members: [(key: String, value: JSONValue)], number: Int, context: String) {
            self.members = members
            self.number = number
            self.context = context
        }

        private mutating func take(_ key: String) -> JSONValue? {
            taken.insert(key)
            return members.first { $0.key == key }?.value
        }
        private func missing(_ key: String, _ what: String) -> ReadError {
            ReadError(line: number, "\(context) has no \"\(key)\" (\(what))")
        }
        private func wrong(_ key: String, _ what: String, _ found: JSONValue) -> ReadError {
            ReadError(line: number, "\"\(key)\" should be \(what), found \(found.typeDescription)")
        }

        mutating func string(_ key: String) throws -> String {
            guard let v = take(key) else { throw missing(key, "a string") }
            guard case let .string(s) = v else { throw wrong(key, "a string", v) }
            guard s.utf8.count <= Budget.stringBytes else {
                throw ReadError(line: number, "\"\(key)\" is \(s.utf8.count) bytes: a string holds at most \(Budget.stringBytes)")
            }
            return s
        }
        mutating func optionalString(_ key: String) throws -> String? {
            guard take(key) != nil else { return nil }
            return try string(key)
        }
        mutating func strings(_ key: String) throws -> [String] {
            try array(key).map { v in
                guard case let .string(s) = v else { throw wrong(key, "an array of strings", v) }
                return s
            }
        }
        mutating func array(_ key: String) throws -> [JSONValue] {
            guard let v = take(key) else { throw missing(key, "an array") }
            guard case let .array(a) = v else { throw wrong(key, "an array", v) }
            return a
        }
        mutating func optionalObject(_ key: String) throws -> [(key: String, value: JSONValue)]? {
            guard let v = take(key) else { return nil }
            guard case let .object(m) = v else { throw wrong(key, "an object", v) }
            return m
        }
        mutating func bool(_ key: String) throws -> Bool {
            guard let v = take(key) else { throw missing(key, "true or false") }
            guard case let .bool(b) = v else { throw wrong(key, "true or false", v) }
            return b
        }
        /// A number: a JSON number, or "nan", "inf", "-inf" for values that are not finite.
        func number(_ v: JSONValue, _ key: String) throws -> Double {
            switch v {
            case let .number(x): return x
            case .string("nan"): return .nan
            case .string("inf"): return .infinity
            case .string("-inf"): return -.infinity
            default: throw wrong(key, "a number", v)
            }
        }
        mutating func number(_ key: String) throws -> Double {
            guard let v = take(key) else { throw missing(key, "a number") }
            return try number(v, key)
        }
        mutating func optionalNumber(_ key: String) throws -> Double? {
            guard take(key) != nil else { return nil }
            return try number(key)
        }
        mutating func integer(_ key: String) throws -> Int {
            guard let v = take(key) else { throw missing(key, "an integer") }
            guard case let .number(x) = v, x == x.rounded(), abs(x) < 9.007_199_254_740_992e15 else {
                throw wrong(key, "an integer", v)
            }
            return Int(x)
        }
        mutating func optionalInteger(_ key: String) throws -> Int? {
            guard take(key) != nil else { return nil }
            return try integer(key)
        }
        /// An integer in `range`, `what` saying what it is for the message.
        mutating func integer(_ key: String, in range: ClosedRange<Int>, _ what: String) throws -> Int {
            let v = try integer(key)
            guard range.contains(v) else {
                throw ReadError(line: number, "\"\(key)\": \(v) is out of range: \(what), from \(range.lowerBound) to \(range.upperBound)")
            }
            return v
        }
        mutating func optionalInteger(_ key: String, in range: ClosedRange<Int>, _ what: String) throws -> Int? {
            guard take(key) != nil else { return nil }
            return try integer(key, in: range, what)
        }
        /// A device number: 0 to 2³¹ − 1.
        mutating func device() throws -> InputDeviceID {
            InputDeviceID(try integer("device", in: 0...Int(Int32.max), "a device number"))
        }
        /// A finite number (no "nan" or "inf"), in `range` when one is given.
        mutating func finite(_ key: String, in range: ClosedRange<Double>? = nil, _ what: String = "") throws -> Double {
            let v = try number(key)
            guard v.isFinite else { throw ReadError(line: number, "\"\(key)\" should be a finite number, found \(v)") }
            if let range, !range.contains(v) {
                throw ReadError(line: number, "\"\(key)\": \(v) is out of range: \(what)")
            }
            return v
        }
        /// A finite number above zero, or nothing.
        mutating func optionalPositive(_ key: String) throws -> Double? {
            guard take(key) != nil else { return nil }
            let v = try number(key)
            guard v.isFinite, v > 0 else { throw ReadError(line: number, "\"\(key)\" should be a finite number above 0, found \(v)") }
            return v
        }
        mutating func finitePair(_ key: String) throws -> Point {
            let p = try pair(key)
            guard p.x.isFinite, p.y.isFinite else { throw ReadError(line: number, "\"\(key)\" should be two finite numbers") }
            return p
        }
        mutating func pair(_ key: String) throws -> Point {
            let a = try array(key)
            guard a.count == 2 else { throw ReadError(line: number, "\"\(key)\" should be [x, y], found \(a.count) values") }
            return Point(x: try number(a[0], key), y: try number(a[1], key))
        }
        mutating func optionalPair(_ key: String) throws -> Point? {
            guard take(key) != nil else { return nil }
            return try pair(key)
        }
        mutating func time() throws -> Instant { Instant(nanoseconds: Int64(try integer("t"))) }
        mutating func optionalTime() throws -> Instant? { try optionalInteger("t").map { Instant(nanoseconds: Int64($0)) } }
        func enumValue<E: RawRepresentable & CaseIterable>(_ type: E.Type, _ name: String, _ key: String) throws -> E where E.RawValue == String {
            guard let v = E(rawValue: name) else {
                throw ReadError(line: number, "\"\(key)\": \"\(name)\" is none of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return v
        }
        /// Every member must have been taken: a field the format does not have is an error.
        func end() throws {
            if let extra = members.first(where: { !taken.contains($0.key) }) {
                throw ReadError(line: number, "\(context) has a field the format does not have: \"\(extra.key)\"")
            }
        }
    }
}

extension ModifierFlags {
    /// The flag of one of the replay contract's names (`names`).
    static func named(_ name: String) -> ModifierFlags? {
        switch name {
        case "shift": .shift
        case "control": .control
        case "alternate": .alternate
        case "command": .command
        case "alphaShift": .alphaShift
        default: nil
        }
    }
}
