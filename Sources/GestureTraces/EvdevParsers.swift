import GestureKit

// MARK: - Where a device's events are

/// Where one device's event rows start in the file, and how they are written.
struct EventSection: Sendable {
    enum Syntax: Sendable {
        /// evemu `E: <sec>.<usec> <type> <code> <value>` lines.
        case evemu
        /// libinput record `- [sec, usec, type, code, value]` rows under `events:` at this
        /// indentation; the section ends at a line indented less (or a key at this indentation).
        case yaml(eventsIndent: Int)
    }
    var syntax: Syntax
    /// File offset of the first line after the description (`E:` line / line after `events:`).
    var offset: Int64
    /// Number of the line before `offset` (so the first line read is `line + 1`).
    var line: Int
    /// No events at all (the stream ends at once).
    var empty = false
}

// MARK: - Event streams

/// Streams one device's raw events from the file: one line at a time, no allocation per event.
/// Times are as written in the file (the reader subtracts the trace's origin).
struct EvdevStream {
    let reader: LineReader
    let syntax: EventSection.Syntax
    private var inEvdevBlock = false
    private var finished = false

    init(path: String, section: EventSection) throws {
        reader = try LineReader(path: path, offset: section.offset, lineNumber: section.line)
        syntax = section.syntax
        finished = section.empty
    }

    var path: String { reader.path }
    var lineNumber: Int { reader.lineNumber }

    @inline(__always)
    mutating func next() throws -> EvdevEvent? {
        if finished { return nil }
        switch syntax {
        case .evemu: return try nextEvemu()
        case .yaml(let indent): return try nextYAML(eventsIndent: indent)
        }
    }

    @inline(__always)
    private mutating func nextEvemu() throws -> EvdevEvent? {
        while let line = try reader.nextLine() {
            if line.count > 2, line[0] == 0x45, line[1] == ASCII.colon,
               let event = EvdevStream.fastEvemuEvent(line) {
                return event
            }
            if line.isBlankOrComment { continue }
            if line.count >= 2, line[0] == 0x45, line[1] == ASCII.colon {
                throw EvdevStream.diagnoseEvemuEvent(line, file: reader.path, line: reader.lineNumber)
            }
            throw TraceError(.malformedLine, file: reader.path, line: reader.lineNumber,
                             "expected an event line 'E: <sec>.<usec> <type> <code> <value>', found \(quoted(line.string))")
        }
        finished = true
        return nil
    }

    /// `E: 1330495944.185030 0003 0039 1  # comment`
    @inline(__always)
    static func fastEvemuEvent(_ line: UnsafeBufferPointer<UInt8>) -> EvdevEvent? {
        var c = ByteCursor(line)
        c.index = 2
        c.skipSpaces()
        guard let sec = c.unsignedDigits(), c.eat(ASCII.dot), let usec = c.unsignedDigits(),
              usec.value < 1_000_000 else { return nil }
        c.skipSpaces()
        guard let type = c.hex(), type <= UInt32(EventType.max.rawValue) else { return nil }
        c.skipSpaces()
        guard let code = c.hex(), code <= UInt32(EventCode.keyMax.rawValue) else { return nil }
        c.skipSpaces()
        guard let value = c.decimal(), value >= Int64(Int32.min), value <= Int64(Int32.max),
              c.atEndOrComment() else { return nil }
        return EvdevEvent(time: Instant(nanoseconds: sec.value &* 1_000_000_000 &+ usec.value &* 1_000),
                          type: EventType(rawValue: UInt16(truncatingIfNeeded: type)),
                          code: EventCode(rawValue: UInt16(truncatingIfNeeded: code)),
                          value: Int32(truncatingIfNeeded: value))
    }

    /// The slow path: says precisely what is wrong with an `E:` line.
    static func diagnoseEvemuEvent(_ line: UnsafeBufferPointer<UInt8>, file: String, line number: Int) -> TraceError {
        let shape = "'E: <sec>.<usec> <type> <code> <value>'"
        var text = String(line.string.dropFirst(2))
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        func failKind(_ kind: TraceError.Kind, _ message: String) -> TraceError {
            TraceError(kind, file: file, line: number, message)
        }
        func fail(_ message: String) -> TraceError { failKind(.malformedLine, message) }
        func failRange(_ message: String) -> TraceError { failKind(.outOfRange, message) }
        guard fields.count == 4 else {
            return fail("expected 4 fields \(shape), found \(fields.count)")
        }
        let time = fields[0].split(separator: ".", omittingEmptySubsequences: false)
        if time.count != 2 || time[0].isEmpty || time[1].isEmpty || !time.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) })
            || time[0].count > 18 || time[1].count > 6 {
            return fail("expected a time '<sec>.<usec>' (microseconds: at most 6 digits), found \(quoted(fields[0]))")
        }
        for (index, name) in [(1, "event type"), (2, "event code")] {
            let field = fields[index]
            guard field.count <= 8, !field.isEmpty, field.allSatisfy(\.isHexDigit) else {
                return fail("bad hex \(quoted(field)) for the \(name): expected hex digits such as '0003'")
            }
        }
        let type = UInt32(fields[1], radix: 16) ?? UInt32.max
        if type > UInt32(EventType.max.rawValue) {
            return failRange("unknown event type 0x\(fields[1]): expected at most 0x1f (EV_MAX)")
        }
        let code = UInt32(fields[2], radix: 16) ?? UInt32.max
        if code > UInt32(EventCode.keyMax.rawValue) {
            return failRange("unknown event code 0x\(fields[2]): expected at most 0x2ff (KEY_MAX)")
        }
        guard let value = Int64(fields[3]) else {
            return fail("expected a decimal event value, found \(quoted(fields[3]))")
        }
        if value < Int64(Int32.min) || value > Int64(Int32.max) {
            return failRange("event value \(value) does not fit in 32 bits")
        }
        return fail("expected \(shape), found \(quoted(line.string))")
    }

    @inline(__always)
    private mutating func nextYAML(eventsIndent: Int) throws -> EvdevEvent? {
        while let line = try reader.nextLine() {
            let indent = line.indentation
            if indent >= line.count || line[indent] == ASCII.hash { continue }
            let isItem = line[indent] == ASCII.minus
            if indent < eventsIndent || (indent == eventsIndent && !isItem) {
                finished = true
                return nil
            }
            guard isItem else { continue }  // `time:` of a hid block, `libinput:` key, ...
            var c = ByteCursor(line)
            c.index = indent + 1
            c.skipSpaces()
            if c.eat(ASCII.openBracket) {
                guard inEvdevBlock else { continue }
                if let event = EvdevStream.fastYAMLRow(&c) { return event }
                throw EvdevStream.diagnoseYAMLRow(line, file: reader.path, line: reader.lineNumber)
            }
            // A new item of the events list: `- evdev:`, `- libinput:`, `- hid:`; or a
            // `- {...}` row of a libinput block.
            if c.eat("evdev:") { inEvdevBlock = true } else if !c.eat("{") { inEvdevBlock = false }
        }
        finished = true
        return nil
    }

    /// `[  0,      0,   3,  57,    1394] # comment`, after the `[`.
    @inline(__always)
    static func fastYAMLRow(_ c: inout ByteCursor) -> EvdevEvent? {
        c.skipSpaces()
        guard let sec = c.decimal(), sec >= 0 else { return nil }
        c.skipSpaces()
        guard c.eat(ASCII.comma) else { return nil }
        c.skipSpaces()
        guard let usec = c.decimal(), usec >= 0, usec < 1_000_000 else { return nil }
        c.skipSpaces()
        guard c.eat(ASCII.comma) else { return nil }
        c.skipSpaces()
        guard let type = c.decimal(), type >= 0, type <= Int64(EventType.max.rawValue) else { return nil }
        c.skipSpaces()
        guard c.eat(ASCII.comma) else { return nil }
        c.skipSpaces()
        guard let code = c.decimal(), code >= 0, code <= Int64(EventCode.keyMax.rawValue) else { return nil }
        c.skipSpaces()
        guard c.eat(ASCII.comma) else { return nil }
        c.skipSpaces()
        guard let value = c.decimal(), value >= Int64(Int32.min), value <= Int64(Int32.max) else { return nil }
        c.skipSpaces()
        guard c.eat(ASCII.closeBracket), c.atEndOrComment() else { return nil }
        return EvdevEvent(time: Instant(nanoseconds: sec &* 1_000_000_000 &+ usec &* 1_000),
                          type: EventType(rawValue: UInt16(truncatingIfNeeded: type)),
                          code: EventCode(rawValue: UInt16(truncatingIfNeeded: code)),
                          value: Int32(truncatingIfNeeded: value))
    }

    static func diagnoseYAMLRow(_ line: UnsafeBufferPointer<UInt8>, file: String, line number: Int) -> TraceError {
        let shape = "'- [<sec>, <usec>, <type>, <code>, <value>]'"
        func failKind(_ kind: TraceError.Kind, _ message: String) -> TraceError {
            TraceError(kind, file: file, line: number, message)
        }
        func fail(_ message: String) -> TraceError { failKind(.malformedLine, message) }
        func failRange(_ message: String) -> TraceError { failKind(.outOfRange, message) }
        var text = line.string
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        guard let open = text.firstIndex(of: "[") else { return fail("expected an event row \(shape)") }
        guard let close = text.lastIndex(of: "]"), close > open else {
            return fail("expected ']' closing the event row \(shape)")
        }
        let inner = text[text.index(after: open)..<close]
        let fields = inner.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters() }
        if fields.count != 5 {
            return fail("expected 5 numbers \(shape), found \(fields.count)")
        }
        let names = ["seconds", "microseconds", "event type", "event code", "event value"]
        var numbers: [Int64] = []
        for (field, name) in zip(fields, names) {
            guard let n = Int64(field) else { return fail("expected a decimal \(name), found \(quoted(field))") }
            numbers.append(n)
        }
        if numbers[0] < 0 { return failRange("expected non-negative seconds, found \(numbers[0])") }
        if numbers[1] < 0 || numbers[1] >= 1_000_000 {
            return failRange("expected microseconds 0...999999, found \(numbers[1])")
        }
        if numbers[2] < 0 || numbers[2] > Int64(EventType.max.rawValue) {
            return failRange("unknown event type \(numbers[2]): expected at most 31 (EV_MAX)")
        }
        if numbers[3] < 0 || numbers[3] > Int64(EventCode.keyMax.rawValue) {
            return failRange("unknown event code \(numbers[3]): expected at most 767 (KEY_MAX)")
        }
        if numbers[4] < Int64(Int32.min) || numbers[4] > Int64(Int32.max) {
            return failRange("event value \(numbers[4]) does not fit in 32 bits")
        }
        return fail("expected an event row \(shape), found \(quoted(line.string))")
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

extension String {
    func trimmed() -> String { self[...].trimmingCharacters() }
}

// MARK: - evemu description

enum EvemuHeaderParser {
    /// Reads `N:` `I:` `P:` `B:` `A:` lines up to the first `E:` line.
    static func parse(_ reader: LineReader) throws -> (EvdevDeviceDescription, EventSection) {
        var description = EvdevDeviceDescription(name: "")
        var sawName = false
        var sawBits = false
        var propertyBytes = 0
        var bitBytes: [UInt16: Int] = [:]
        var types: Set<EventType> = []
        let path = reader.path
        var sectionLine = 0
        var sectionOffset: Int64 = -1
        lines: while let line = try reader.nextLine() {
            if line.isBlankOrComment { continue }
            let number = reader.lineNumber
            func failKind(_ kind: TraceError.Kind, _ message: String) -> TraceError {
                TraceError(kind, file: path, line: number, message)
            }
            func fail(_ message: String) -> TraceError { failKind(.malformedLine, message) }
            func failRange(_ message: String) -> TraceError { failKind(.outOfRange, message) }
            if line.hasPrefix("E:") {
                guard sawName || sawBits else {
                    throw failKind(.missingDescription,
                               "expected a device description (N:, I:, B:, A: lines) before the first event")
                }
                sectionOffset = reader.lineOffset
                sectionLine = number - 1
                break lines
            }
            var c = ByteCursor(line)
            guard line.count >= 2, line[1] == ASCII.colon else {
                throw fail("expected a description line (N:, I:, P:, B:, A:) or an event line 'E: ...', found \(quoted(line.string))")
            }
            c.index = 2
            switch line[0] {
            case 0x4E: // N:
                c.skipSpaces()
                description.name = c.rest().trimmed()
                sawName = true
            case 0x49: // I:
                var ids: [UInt16] = []
                for _ in 0..<4 {
                    c.skipSpaces()
                    guard let v = c.hex(), v <= 0xFFFF else {
                        throw fail("expected 4 hex numbers 'I: <bus> <vendor> <product> <version>', found \(quoted(line.string))")
                    }
                    ids.append(UInt16(v))
                }
                description.bustype = ids[0]; description.vendor = ids[1]
                description.product = ids[2]; description.version = ids[3]
            case 0x50: // P:
                while !c.atEndOrComment() {
                    guard let byte = c.hex(), byte <= 0xFF else {
                        throw fail("bad hex in 'P: <byte> ...': expected bytes such as '02', found \(quoted(line.string))")
                    }
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        let prop = propertyBytes * 8 + bit
                        if prop <= Int(InputProperty.max.rawValue) {
                            description.properties.insert(InputProperty(rawValue: UInt16(prop)))
                        }
                    }
                    propertyBytes += 1
                }
            case 0x42: // B:
                c.skipSpaces()
                guard let type = c.hex() else {
                    throw fail("bad hex in 'B: <type> <byte> ...': expected a type such as '03', found \(quoted(line.string))")
                }
                guard type <= UInt32(EventType.max.rawValue) else {
                    throw failRange("unknown event type 0x\(String(type, radix: 16)): expected at most 0x1f (EV_MAX)")
                }
                sawBits = true
                let key = UInt16(type)
                var index = bitBytes[key] ?? 0
                while !c.atEndOrComment() {
                    guard let byte = c.hex(), byte <= 0xFF else {
                        throw fail("bad hex in 'B: <type> <byte> ...': expected bytes such as '0b', found \(quoted(line.string))")
                    }
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        let code = index * 8 + bit
                        if type == 0 {
                            if code <= Int(EventType.max.rawValue) { types.insert(EventType(rawValue: UInt16(code))) }
                        } else if code <= Int(EventCode.keyMax.rawValue) {
                            description.codes[EventType(rawValue: key), default: []].insert(EventCode(rawValue: UInt16(code)))
                        }
                    }
                    index += 1
                }
                bitBytes[key] = index
            case 0x41: // A:
                c.skipSpaces()
                let shape = "'A: <code> <min> <max> <fuzz> <flat> [<resolution>]'"
                guard let code = c.hex() else {
                    throw fail("bad hex axis code: expected \(shape), found \(quoted(line.string))")
                }
                guard code <= UInt32(EventCode.absMax.rawValue) else {
                    throw failRange("unknown axis 0x\(String(code, radix: 16)): expected at most 0x3f (ABS_MAX)")
                }
                var numbers: [Int32] = []
                while !c.atEndOrComment() {
                    guard let n = c.decimal(), n >= Int64(Int32.min), n <= Int64(Int32.max) else {
                        throw fail("expected decimal numbers \(shape), found \(quoted(line.string))")
                    }
                    numbers.append(Int32(n))
                    c.skipSpaces()
                }
                guard numbers.count == 4 || numbers.count == 5 else {
                    throw fail("expected \(shape), found \(numbers.count + 1) fields")
                }
                description.absInfo[EventCode(rawValue: UInt16(code))] = AbsInfo(
                    minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                    resolution: numbers.count == 5 ? numbers[4] : 0)
                description.codes[.abs, default: []].insert(EventCode(rawValue: UInt16(code)))
            case 0x4C, 0x53: // L: (LED state), S: (switch state)
                continue
            default:
                throw fail("expected a description line (N:, I:, P:, B:, A:) or an event line 'E: ...', found \(quoted(line.string))")
            }
        }
        guard sawName || sawBits else {
            throw TraceError(.missingDescription, file: path, line: reader.lineNumber,
                             "expected a device description (N:, I:, B:, A: lines)")
        }
        for t in types where description.codes[t] == nil && t != .syn { description.codes[t] = [] }
        description.codes[.syn] = [.synReport, .synConfig, .synMTReport, .synDropped]
        if sectionOffset < 0 {
            // No events: an empty section at the end of the file.
            return (description, EventSection(syntax: .evemu, offset: 0, line: reader.lineNumber, empty: true))
        }
        return (description, EventSection(syntax: .evemu, offset: sectionOffset, line: sectionLine))
    }
}

// MARK: - libinput record (YAML) description

enum LibinputRecordHeaderParser {
    struct Device {
        var description: EvdevDeviceDescription
        var node: String?
        var section: EventSection?
    }

    /// Reads the top-level keys and every device's `evdev:` and `udev:` blocks; skips over
    /// the events (byte scan) to find the next device.
    static func parse(_ reader: LineReader) throws -> [Device] {
        let path = reader.path
        var devices: [Device] = []
        var sawVersion = false
        var inDevices = false
        var deviceIndent = -1
        var keyIndent = -1
        enum Block { case none, evdev, udev, udevProperties, events, other, codes, absinfo }
        var block = Block.none
        var current: Device?
        var sawEvdev = false
        var expectedDevices = -1

        var deviceLine = 0
        func finish(_ number: Int) throws {
            guard var device = current else { return }
            guard sawEvdev else {
                throw TraceError(.missingDescription, file: path, line: deviceLine,
                                 "expected an 'evdev:' block (name, id, codes, absinfo, properties) for the device")
            }
            if device.description.name.isEmpty { device.description.name = "device \(devices.count)" }
            device.description.codes[.syn] = device.description.codes[.syn] ?? [.synReport]
            devices.append(device)
            current = nil
            sawEvdev = false
        }

        lines: while let line = try reader.nextLine() {
            let indent = line.indentation
            if indent >= line.count || line[indent] == ASCII.hash { continue }
            let number = reader.lineNumber
            func failKind(_ kind: TraceError.Kind, _ message: String) -> TraceError {
                TraceError(kind, file: path, line: number, message)
            }
            func fail(_ message: String) -> TraceError { failKind(.malformedLine, message) }
            func failRange(_ message: String) -> TraceError { failKind(.outOfRange, message) }
            // Fast skip of event rows (no String is made for them).
            if block == .events, case .yaml(let eventsIndent)? = current?.section?.syntax {
                let isItem = line[indent] == ASCII.minus
                if indent > eventsIndent || (indent == eventsIndent && isItem) { continue }
            }
            var text = line.string
            let isItem = line[indent] == ASCII.minus
            if indent == 0 && !isItem {
                // Top-level key.
                if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
                let (key, value) = splitKey(text)
                try finish(number)
                inDevices = false
                block = .none
                switch key {
                case "version":
                    guard value == "1" else {
                        throw failKind(.unsupported, "expected 'version: 1' (libinput record format version 1), found \(quoted(text))")
                    }
                    sawVersion = true
                case "ndevices":
                    expectedDevices = Int(value) ?? -1
                case "devices":
                    inDevices = true
                    deviceIndent = -1
                default:
                    break
                }
                continue
            }
            guard inDevices else { continue }
            if isItem && (deviceIndent < 0 || indent <= deviceIndent) {
                // A new device: `- node: /dev/input/event9`
                try finish(number)
                deviceIndent = indent
                deviceLine = number
                keyIndent = indent + 2
                current = Device(description: EvdevDeviceDescription(name: ""), node: nil, section: nil)
                block = .none
                var rest = String(text.dropFirst(indent + 1))
                rest = rest.trimmed()
                if rest.isEmpty { continue }
                text = String(repeating: " ", count: keyIndent) + rest
                let (key, value) = splitKey(rest)
                if key == "node" { current?.node = value }
                block = startBlock(key)
                if key == "evdev" { sawEvdev = true }
                if key == "events" {
                    current?.section = EventSection(syntax: .yaml(eventsIndent: keyIndent),
                                                    offset: reader.lineOffset &+ Int64(line.count) &+ 1, line: number)
                }
                continue
            }
            guard current != nil else { continue }
            if let hash = text.firstIndex(of: "#"), !text[..<hash].contains("\"") { text = String(text[..<hash]) }
            let trimmed = text.trimmed()
            if indent <= keyIndent && !isItem {
                let (key, value) = splitKey(trimmed)
                block = startBlock(key)
                if key == "node" { current?.node = value }
                if key == "evdev" { sawEvdev = true }
                if key == "events" {
                    // The rows start on the next line; `lineOffset + count + 1` may be off by
                    // one for a CRLF file, which only shifts the start into the `\n`.
                    current?.section = EventSection(syntax: .yaml(eventsIndent: indent),
                                                    offset: reader.lineOffset &+ Int64(line.count) &+ 1, line: number)
                    // The last device's events run to the end of the file: no need to scan them.
                    if expectedDevices == devices.count + 1 { break lines }
                }
                continue
            }
            switch block {
            case .evdev, .codes, .absinfo:
                let (key, value) = splitKey(trimmed)
                switch key {
                case "name":
                    current?.description.name = unquote(value)
                    block = .evdev
                case "id":
                    let ids = try numberList(value, failKind)
                    guard ids.count == 4, ids.allSatisfy({ $0 >= 0 && $0 <= 0xFFFF }) else {
                        throw fail("expected 'id: [<bus>, <vendor>, <product>, <version>]', found \(quoted(trimmed))")
                    }
                    current?.description.bustype = UInt16(ids[0]); current?.description.vendor = UInt16(ids[1])
                    current?.description.product = UInt16(ids[2]); current?.description.version = UInt16(ids[3])
                    block = .evdev
                case "codes":
                    block = .codes
                case "absinfo":
                    block = .absinfo
                case "properties":
                    let props = try numberList(value, failKind)
                    for p in props where p >= 0 && p <= Int64(InputProperty.max.rawValue) {
                        current?.description.properties.insert(InputProperty(rawValue: UInt16(p)))
                    }
                    block = .evdev
                default:
                    guard let n = Int64(key) else { block = .evdev; continue }
                    if block == .codes {
                        guard n >= 0 && n <= Int64(EventType.max.rawValue) else {
                            throw failRange("unknown event type \(n): expected at most 31 (EV_MAX)")
                        }
                        let codes = try numberList(value, failKind)
                        var set = Set<EventCode>()
                        for code in codes {
                            guard code >= 0 && code <= Int64(EventCode.keyMax.rawValue) else {
                                throw failRange("unknown event code \(code): expected at most 767 (KEY_MAX)")
                            }
                            set.insert(EventCode(rawValue: UInt16(code)))
                        }
                        current?.description.codes[EventType(rawValue: UInt16(n))] = set
                    } else if block == .absinfo {
                        guard n >= 0 && n <= Int64(EventCode.absMax.rawValue) else {
                            throw failRange("unknown axis \(n): expected at most 63 (ABS_MAX)")
                        }
                        let v = try numberList(value, failKind)
                        guard v.count == 5, v.allSatisfy({ $0 >= Int64(Int32.min) && $0 <= Int64(Int32.max) }) else {
                            throw fail("expected '<code>: [<min>, <max>, <fuzz>, <flat>, <resolution>]', found \(quoted(trimmed))")
                        }
                        current?.description.absInfo[EventCode(rawValue: UInt16(n))] = AbsInfo(
                            minimum: Int32(v[0]), maximum: Int32(v[1]), fuzz: Int32(v[2]), flat: Int32(v[3]),
                            resolution: Int32(v[4]))
                    }
                }
            case .udev, .udevProperties:
                if trimmed.hasPrefix("properties") { block = .udevProperties; continue }
                if block == .udevProperties && trimmed.hasPrefix("-") {
                    let entry = String(trimmed.dropFirst()).trimmed()
                    if let eq = entry.firstIndex(of: "=") {
                        current?.description.udevProperties[String(entry[..<eq])] =
                            unquote(String(entry[entry.index(after: eq)...]))
                    }
                }
            case .events, .none, .other:
                continue
            }
        }
        try finish(reader.lineNumber)
        guard sawVersion else {
            throw TraceError(.malformedLine, file: path, line: 1, "expected 'version: 1' (libinput record format version 1)")
        }
        guard !devices.isEmpty else {
            throw TraceError(.missingDescription, file: path, line: reader.lineNumber,
                             "expected 'devices:' with at least one device (an 'evdev:' block)")
        }
        return devices

        func startBlock(_ key: String) -> Block {
            switch key {
            case "evdev": return .evdev
            case "udev": return .udev
            case "events": return .events
            default: return .other
            }
        }
    }

    static func splitKey(_ text: String) -> (String, String) {
        let t = text.trimmed()
        guard let colon = t.firstIndex(of: ":") else { return (t, "") }
        return (String(t[..<colon]).trimmed(), String(t[t.index(after: colon)...]).trimmed())
    }

    static func unquote(_ value: String) -> String {
        var v = value.trimmed()
        if v.count >= 2, v.first == "\"", v.last == "\"" { v = String(v.dropFirst().dropLast()) }
        return v
    }

    static func numberList(_ value: String, _ fail: (TraceError.Kind, String) -> TraceError) throws -> [Int64] {
        var v = value.trimmed()
        if let hash = v.firstIndex(of: "#") { v = String(v[..<hash]).trimmed() }
        guard v.first == "[", v.last == "]" else {
            throw fail(.malformedLine, "expected a list '[<n>, <n>, ...]', found \(quoted(v))")
        }
        let inner = v.dropFirst().dropLast()
        if inner.trimmingCharacters().isEmpty { return [] }
        var out: [Int64] = []
        for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
            let p = part.trimmingCharacters()
            guard let n = Int64(p) else {
                throw fail(.malformedLine, "expected a decimal number in the list, found \(quoted(p))")
            }
            out.append(n)
        }
        return out
    }
}

extension Character {
    var isASCIIDigit: Bool { self >= "0" && self <= "9" }
}
