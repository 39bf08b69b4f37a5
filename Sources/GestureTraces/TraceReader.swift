import GestureKit
import GestureRecording

/// The trace formats, detected from the content (never the file name).
public enum TraceFormat: String, Hashable, Sendable, CaseIterable {
    /// `evemu-record` output: `# EVEMU 1.x`, `N:` `I:` `P:` `B:` `A:`, then `E:` lines.
    case evemu
    /// `libinput record` YAML, version 1.
    case libinputRecord
    /// `libinput debug-events` text output.
    case debugEvents
    /// GestureKit's own input recording (docs/RECORDING.md): what an app received, one JSON
    /// object a line, starting `{"format":"gesturekit-input",…}`.
    case inputRecording
}

/// Reads a trace file: detects its format, describes its devices, and streams its touch
/// frames and gestures (`run`) or its raw evdev events (`forEachEvdevEvent`).
///
/// Nothing is loaded whole: the file is read in 64 KiB chunks, event lines are parsed from
/// bytes, and memory stays flat however long the trace is. A multi-device `libinput record`
/// file is opened once per device and the devices' events are merged in time order.
///
/// Times are `Instant`s counted from the trace's first event (across all devices).
public struct TraceReader: Sendable {
    public let path: String
    /// The screen, in points, that touch positions are mapped onto (axis min → 0, max → size).
    public let screen: Size
    /// How touchscreens' coordinates land on the screen (rotation, calibration, region).
    public let mapping: TouchMapping
    public let format: TraceFormat
    public let devices: [TraceDevice]
    /// The raw timestamp of the trace's first event; every emitted time is relative to it
    /// (zero for an input recording, whose clock is the replay's).
    public let origin: Instant
    /// An input recording's header (its source, screen and scale); nil for other formats.
    public private(set) var recordingHeader: InputRecording.Header?

    let sections: [EventSection]

    /// Opens `path`, detects the format and reads the device descriptions.
    /// Throws `TraceError` for an unreadable, empty, binary or malformed file.
    public init(path: String, screen: Size = Size(width: 1000, height: 1000), mapping: TouchMapping = .identity) throws {
        self.path = path
        self.screen = screen
        self.mapping = mapping
        let reader = try LineReader(path: path)
        let format = try TraceReader.detect(reader)
        self.format = format
        let header = try LineReader(path: path)
        switch format {
        case .evemu:
            let (description, section) = try EvemuHeaderParser.parse(header)
            devices = [TraceDevice(id: InputDeviceID(0), description: description)]
            sections = [section]
        case .libinputRecord:
            let parsed = try LibinputRecordHeaderParser.parse(header)
            devices = parsed.enumerated().map { index, device in
                TraceDevice(id: InputDeviceID(index), description: device.description, node: device.node)
            }
            sections = parsed.map { $0.section ?? EventSection(syntax: .evemu, offset: 0, line: 0, empty: true) }
        case .inputRecording:
            let scan = try InputRecordingReader.scan(path: path)
            devices = scan.devices
            sections = []
            recordingHeader = scan.header
            // The recording's clock is the replay's: times are not shifted.
            origin = .zero
            return
        case .debugEvents:
            let scan = try DebugEventsScanner.scan(header, screen: screen)
            devices = scan.devices
            sections = []
            origin = Instant(nanoseconds: scan.origin)
            return
        }
        // The origin: the earliest first event of all devices.
        var first: Instant?
        for section in sections {
            var stream = try EvdevStream(path: path, section: section)
            if let event = try stream.next(), event.time < (first ?? event.time + Duration(seconds: 1)) {
                first = event.time
            }
        }
        origin = first ?? .zero
    }

    // MARK: Format detection

    static func detect(_ reader: LineReader) throws -> TraceFormat {
        let path = reader.path
        let head = try reader.peek(4096)
        if head.isEmpty { throw TraceError(.empty, file: path, "the file is empty: expected a trace (evemu, libinput record or debug-events)") }
        var control = 0
        for byte in head {
            if byte == 0 {
                throw TraceError(.binary, file: path, "the file is binary (it contains NUL bytes): expected a text trace")
            }
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C { control += 1 }
        }
        if control * 10 > head.count {
            throw TraceError(.binary, file: path, "the file is binary (control bytes): expected a text trace")
        }
        while let line = try reader.nextLine() {
            let indent = line.indentation
            if indent >= line.count { continue }
            if InputRecording.looksLikeHeader(line[indent...]) { return .inputRecording }
            if line.hasPrefix("# EVEMU", at: indent) { return .evemu }
            if line.hasPrefix("# libinput record", at: indent) { return .libinputRecord }
            if line[indent] == ASCII.hash { continue }
            if line.count >= 2 && line[1] == ASCII.colon && indent == 0 {
                switch line[0] {
                case 0x4E, 0x49, 0x50, 0x42, 0x41, 0x45: return .evemu  // N I P B A E
                default: break
                }
            }
            for key: StaticString in ["version:", "ndevices:", "libinput:", "system:", "devices:"]
            where indent == 0 && line.hasPrefix(key) {
                return .libinputRecord
            }
            if DebugEventsScanner.looksLikeEventLine(line) { return .debugEvents }
            throw TraceError(.unknownFormat, file: path, line: reader.lineNumber,
                             "expected '# EVEMU 1.x' (evemu), 'version: 1' (libinput record) or a libinput debug-events line such as ' event4  TOUCH_DOWN  +0.000s ...', found \(quoted(line.string))")
        }
        throw TraceError(.empty, file: path, "the file is empty (only blank or comment lines): expected a trace")
    }

    // MARK: Streaming

    /// Streams the trace: `deviceAdded` for every device, then frames, gestures and drops in
    /// time order, then `deviceRemoved` for every device still present.
    ///
    /// The `TouchFrame` handed to `body` shares its change storage with the next frame: a
    /// handler should use it and not keep it. (If it does keep it, copy-on-write makes the
    /// kept copy stay correct, at the cost of one allocation.)
    public func run(_ body: (InputEvent) throws -> Void) throws {
        try run(eventHook: nil, body)
    }

    /// As `run`, handing `clock` the times an input recording says the receiver's clock moved
    /// on to with no input (`InputRecording.Entry.clock`), in order with the events: a replay
    /// that drives an engine advances it there, so every event happens at the engine time it
    /// happened at live. Other formats have no such times.
    public func run(advancingClock clock: (Instant) throws -> Void, _ body: (InputEvent) throws -> Void) throws {
        try withoutActuallyEscaping(clock) { clock in try run(eventHook: nil, clock: clock, body) }
    }

    /// How a touchpad's contacts come out of `run(touchpads:_:)`.
    public enum TouchpadReading: Sendable {
        /// As a pointer (REPLAY.md): motion, clicks, scrolls and touchpad gestures, never
        /// touches. What a replay uses.
        case pointer
        /// As the raw contacts, touch frames of a `.touchpad` device: what the pad reported,
        /// for summaries and decoder checks.
        case contacts
    }

    /// As `run`, reading touchpads as `touchpads` says.
    public func run(touchpads: TouchpadReading, _ body: (InputEvent) throws -> Void) throws {
        try run(eventHook: nil, touchpads: touchpads, body)
    }

    /// As `run`, with a hook that sees every raw evdev event (device index, event with its
    /// time relative to the origin) before it is decoded.
    func run(eventHook: ((Int, EvdevEvent) -> Void)?, touchpads reading: TouchpadReading = .pointer,
             clock: ((Instant) throws -> Void)? = nil, _ body: (InputEvent) throws -> Void) throws {
        if format == .inputRecording {
            // Already the engine's events, devices added and removed where they were.
            try InputRecordingReader.run(path: path, clock: clock, body)
            return
        }
        for device in devices { try body(.deviceAdded(device.info)) }
        if format == .debugEvents {
            try DebugEventsScanner.run(path: path, screen: screen, devices: devices,
                                       origin: origin.nanoseconds, body)
            return
        }
        var frame = TouchFrame(time: .zero)
        frame.changes.reserveCapacity(16)
        var decoders: [MultitouchDecoder?] = devices.map {
            $0.kind == nil || $0.kind == .pen ? nil : MultitouchDecoder(device: $0, screen: screen, mapping: mapping)
        }
        // Pens hover, touch and lift as libinput's tablet code says (PenDecoder).
        var pens: [PenDecoder?] = devices.map { $0.kind == .pen ? PenDecoder(device: $0, screen: screen) : nil }
        // Keyboards hold modifier keys (KeyboardDecoder); a keyboard may point too.
        var keyboards: [KeyboardDecoder?] = devices.map { $0.description?.isKeyboard == true ? KeyboardDecoder(device: $0.id) : nil }
        // Mice and other devices with relative axes or a wheel move the one pointer.
        var pointer = PointerDecoder(screen: screen)
        let pointers = devices.map { $0.kind == nil && ($0.description?.isRelativePointer == true || $0.description?.hasWheel == true) }
        for (device, isPointer) in zip(devices, pointers) where isPointer { pointer.add(device) }
        // Touchpads are pointers: they move the pointer, click, scroll, pinch, swipe and hold
        // (TouchpadInterpreter); their contacts never become touches.
        var touchpads: [TouchpadInterpreter?] = devices.map {
            reading == .pointer && $0.kind == .touchpad && $0.description != nil ? TouchpadInterpreter(device: $0, screen: screen, tapping: mapping.touchpadTapping) : nil
        }
        var streams = try sections.map { try EvdevStream(path: path, section: $0) }
        var last = Instant.zero
        let origin = self.origin.nanoseconds

        @inline(__always)
        func deliver(_ index: Int, _ output: MultitouchDecoder.Output) throws {
            switch output {
            case .none: break
            case .frame: try body(.touchFrame(frame))
            case .dropped:
                try body(.eventsDropped(time: frame.time, device: devices[index].id))
                if !frame.changes.isEmpty { try body(.touchFrame(frame)) }
            }
        }

        func noted(_ decoder: inout MultitouchDecoder, _ index: Int, _ time: Instant) throws {
            for text in decoder.takeNotes() { try body(.note(time: time, device: devices[index].id, text)) }
        }

        if streams.count == 1, !pointers[0], touchpads[0] == nil, keyboards[0] == nil, var decoder = decoders[0] {
            // One touch device: no merging, no optional decoder (the hot loop).
            var stream = streams[0]
            if let eventHook {
                while var event = try stream.next() {
                    event.time.nanoseconds = event.time.nanoseconds &- origin
                    last = event.time
                    eventHook(0, event)
                    let output = decoder.feed(event, into: &frame)
                    if !decoder.notes.isEmpty { try noted(&decoder, 0, event.time) }
                    if output != .none { try deliver(0, output) }
                }
            } else {
                while var event = try stream.next() {
                    event.time.nanoseconds = event.time.nanoseconds &- origin
                    last = event.time
                    let output = decoder.feed(event, into: &frame)
                    if !decoder.notes.isEmpty { try noted(&decoder, 0, event.time) }
                    if output != .none { try deliver(0, output) }
                }
            }
        } else {
            var pending: [EvdevEvent?] = []
            for i in streams.indices { pending.append(try streams[i].next()) }
            while true {
                // The device whose next event is earliest (ties: the lower index).
                var best = -1
                var bestTime = Instant.zero
                for i in pending.indices {
                    if let e = pending[i], best < 0 || e.time < bestTime { best = i; bestTime = e.time }
                }
                guard best >= 0, var event = pending[best] else { break }
                pending[best] = try streams[best].next()
                event.time.nanoseconds = event.time.nanoseconds &- origin
                last = event.time
                eventHook?(best, event)
                if keyboards[best] != nil { try keyboards[best]!.feed(event, body) }
                if pens[best] != nil {
                    try pens[best]!.feed(event) { try body(.pen($0)) }
                } else if pointers[best] {
                    try pointer.feed(event, device: devices[best].id) { try body(.pointer($0)) }
                    for text in pointer.takeNotes() { try body(.note(time: event.time, device: devices[best].id, text)) }
                } else if touchpads[best] != nil, var decoder = decoders[best] {
                    touchpads[best]!.feed(event)
                    let output = decoder.feed(event, into: &frame)
                    if !decoder.notes.isEmpty { try noted(&decoder, best, event.time) }
                    decoders[best] = decoder
                    if event.type == .syn && event.code == .synReport {
                        try touchpads[best]!.commit(time: event.time, frame: output == .frame ? frame : nil,
                                                    pointer: &pointer, body)
                    }
                    // A touchpad's contacts are never touches: only a kernel drop is reported.
                    if output == .dropped { try body(.eventsDropped(time: frame.time, device: devices[best].id)) }
                } else if decoders[best] != nil, let output = decoders[best]?.feed(event, into: &frame) {
                    if decoders[best]?.notes.isEmpty == false { try noted(&decoders[best]!, best, event.time) }
                    if output != .none { try deliver(best, output) }
                }
            }
        }
        // The touchpads' timers still set (a tap's button released after the tap timeout).
        for i in touchpads.indices where touchpads[i] != nil {
            if let end = try touchpads[i]!.finish(pointer: pointer, body), end > last { last = end }
        }
        for device in devices { try body(.deviceRemoved(device.id, time: last)) }
    }

    /// Streams one device's raw evdev events, in file order, with times relative to the
    /// trace's origin. For the libinput backend (replaying into a mock device).
    /// Throws `TraceError(.unsupported)` for a debug-events trace, which has no evdev events.
    public func forEachEvdevEvent(device: InputDeviceID, _ body: (EvdevEvent) throws -> Void) throws {
        guard format != .debugEvents, format != .inputRecording else {
            throw TraceError(.unsupported, file: path, "a \(format == .debugEvents ? "libinput debug-events trace" : "GestureKit input recording") carries no evdev events")
        }
        guard let index = devices.firstIndex(where: { $0.id == device }) else {
            throw TraceError(.unsupported, file: path, "the trace has no \(device)")
        }
        var stream = try EvdevStream(path: path, section: sections[index])
        while var event = try stream.next() {
            event.time.nanoseconds = event.time.nanoseconds &- origin.nanoseconds
            try body(event)
        }
    }

    /// Streams every device's raw evdev events merged in time order (ties keep device order),
    /// with times relative to the trace's origin.
    public func forEachEvdevEvent(_ body: (InputDeviceID, EvdevEvent) throws -> Void) throws {
        guard format != .debugEvents, format != .inputRecording else {
            throw TraceError(.unsupported, file: path, "a \(format == .debugEvents ? "libinput debug-events trace" : "GestureKit input recording") carries no evdev events")
        }
        var streams = try sections.map { try EvdevStream(path: path, section: $0) }
        var pending: [EvdevEvent?] = []
        for i in streams.indices { pending.append(try streams[i].next()) }
        while true {
            var best = -1
            var bestTime = Instant.zero
            for i in pending.indices {
                if let e = pending[i], best < 0 || e.time < bestTime { best = i; bestTime = e.time }
            }
            guard best >= 0, var event = pending[best] else { return }
            pending[best] = try streams[best].next()
            event.time.nanoseconds = event.time.nanoseconds &- origin.nanoseconds
            try body(devices[best].id, event)
        }
    }

    /// All frames of the trace, copied, a touchpad's contacts included (convenience for tests
    /// and small traces).
    public func frames() throws -> [TouchFrame] {
        var out: [TouchFrame] = []
        try run(touchpads: .contacts) { item in if case .touchFrame(let f) = item { out.append(f) } }
        return out
    }
}
