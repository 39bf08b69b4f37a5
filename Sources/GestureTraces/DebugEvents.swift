import GestureKit

/// `libinput debug-events` text.
///
/// Lines look like `-event4   TOUCH_DOWN   +0.000s\t0 (0) 58.64/44.04 (148.16/73.74mm)`: a `-`
/// when the device changed, the device's sysname, the event type, the time since libinput's
/// first event, then type-specific fields:
/// - `TOUCH_DOWN`/`TOUCH_MOTION`: `<slot> (<seat slot>) <x>/<y> (<x>/<y>mm)`, x/y in percent of
///   the surface (mapped to points: 100 % → screen width/height), mm kept for the device size;
/// - `TOUCH_UP`/`TOUCH_CANCEL`: `<slot> (<seat slot>)`; `TOUCH_FRAME`: nothing;
/// - `GESTURE_*_BEGIN`/`_END`, `GESTURE_HOLD_*`: `<fingers>[ cancelled]`;
/// - `GESTURE_SWIPE_UPDATE`: `<fingers> <dx>/<dy> (<dx>/<dy> unaccelerated)`;
///   `GESTURE_PINCH_UPDATE`: the same then ` <scale> @ <angle delta>`;
/// - `DEVICE_ADDED`: `<name> <seat> <logical seat> group<N> cap:<caps> [size <w>x<h>mm] ...`.
///
/// Rules: a touch's sourceID is its seat slot. TOUCH_* lines of one device and time gather into
/// one frame, delivered at TOUCH_FRAME (or when the device or time changes, or at the end).
/// Gesture events use the accelerated dx/dy as points, the screen centre as location (the text
/// has no pointer position), the absolute pinch scale (1 at begin; END repeats the last), and
/// `cancelled` END lines as phase `.cancel`. Other event types are ignored.
enum DebugEventsScanner {
    struct Scan {
        var devices: [TraceDevice]
        var origin: Int64
    }

    enum LineType {
        case touchDown, touchMotion, touchUp, touchCancel, touchFrame
        case gesture(TouchpadGestureEvent.Kind, TouchpadGestureEvent.Phase)
        case deviceAdded, deviceRemoved, other
    }

    static func lineType(_ token: UnsafeBufferPointer<UInt8>) -> LineType {
        switch token.string {
        case "TOUCH_DOWN": return .touchDown
        case "TOUCH_MOTION": return .touchMotion
        case "TOUCH_UP": return .touchUp
        case "TOUCH_CANCEL": return .touchCancel
        case "TOUCH_FRAME": return .touchFrame
        case "GESTURE_PINCH_BEGIN": return .gesture(.pinch, .begin)
        case "GESTURE_PINCH_UPDATE": return .gesture(.pinch, .update)
        case "GESTURE_PINCH_END": return .gesture(.pinch, .end)
        case "GESTURE_SWIPE_BEGIN": return .gesture(.swipe, .begin)
        case "GESTURE_SWIPE_UPDATE": return .gesture(.swipe, .update)
        case "GESTURE_SWIPE_END": return .gesture(.swipe, .end)
        case "GESTURE_HOLD_BEGIN": return .gesture(.hold, .begin)
        case "GESTURE_HOLD_END": return .gesture(.hold, .end)
        case "DEVICE_ADDED": return .deviceAdded
        case "DEVICE_REMOVED": return .deviceRemoved
        default: return .other
        }
    }

    /// ` event4   TOUCH_DOWN ...`, `-event4 DEVICE_ADDED ...`: a device token then an
    /// upper-case type token.
    static func looksLikeEventLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var c = ByteCursor(line)
        c.skipSpaces()
        _ = c.eat(ASCII.minus)
        let device = c.token()
        let type = c.token()
        guard device.count > 0, type.count > 2 else { return false }
        return type.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x5F || ($0 >= 0x30 && $0 <= 0x39) }
            && type.contains(0x5F)
    }

    /// The device token and type of a line, or nil for a line that is not an event line.
    static func split(_ c: inout ByteCursor) -> (device: UnsafeBufferPointer<UInt8>, type: LineType)? {
        c.skipSpaces()
        _ = c.eat(ASCII.minus)
        let device = c.token()
        let type = c.token()
        guard device.count > 0, type.count > 0 else { return nil }
        return (device, lineType(type))
    }

    /// Pre-scan: the devices (in order of appearance), their kind and size, and the origin.
    static func scan(_ reader: LineReader, screen: Size) throws -> Scan {
        var index: [String: Int] = [:]
        var devices: [TraceDevice] = []
        var touchSeen: [Bool] = []
        var gestureSeen: [Bool] = []
        var caps: [String?] = []
        var origin: Int64?
        while let line = try reader.nextLine() {
            if line.isBlankOrComment { continue }
            var c = ByteCursor(line)
            guard let (deviceToken, type) = split(&c) else { continue }
            let node = deviceToken.string
            let i: Int
            if let known = index[node] {
                i = known
            } else {
                i = devices.count
                index[node] = i
                devices.append(TraceDevice(id: InputDeviceID(i), name: node, kind: nil, description: nil, node: node))
                touchSeen.append(false)
                gestureSeen.append(false)
                caps.append(nil)
            }
            switch type {
            case .deviceAdded:
                let tokens = c.rest().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                if let g = tokens.lastIndex(where: { $0.hasPrefix("group") && $0.dropFirst(5).allSatisfy(\.isASCIIDigit) }),
                   g >= 2 {
                    let name = tokens[0..<(g - 2)].joined(separator: " ")
                    if !name.isEmpty { devices[i].name = name }
                }
                if let cap = tokens.first(where: { $0.hasPrefix("cap:") }) { caps[i] = String(cap.dropFirst(4)) }
                if let s = tokens.firstIndex(of: "size"), s + 1 < tokens.count {
                    let dims = tokens[s + 1].replacingMM().split(separator: "x")
                    if dims.count == 2, let w = Double(dims[0]), let h = Double(dims[1]), w > 0, h > 0 {
                        devices[i].physicalSize = Size(width: w, height: h)
                    }
                }
            case .deviceRemoved, .other:
                break
            case .touchDown, .touchMotion, .touchUp, .touchCancel, .touchFrame, .gesture:
                c.skipSpaces()
                let t = c.secondsAsNanoseconds()
                _ = c.eat(0x73)  // "s"
                if origin == nil, let t { origin = t }
                if case .gesture = type { gestureSeen[i] = true } else { touchSeen[i] = true }
                if devices[i].physicalSize == nil, case .touchDown = type,
                   let touch = parseTouch(&c), touch.x > 1, touch.y > 1, touch.xmm > 0, touch.ymm > 0 {
                    devices[i].physicalSize = Size(width: touch.xmm / (touch.x / 100), height: touch.ymm / (touch.y / 100))
                }
            }
        }
        for i in devices.indices {
            if let cap = caps[i] {
                devices[i].kind = cap.contains("t") ? .touchscreen : (cap.contains("g") ? .touchpad : nil)
            }
            if devices[i].kind == nil {
                devices[i].kind = touchSeen[i] ? .touchscreen : (gestureSeen[i] ? .touchpad : nil)
            }
        }
        return Scan(devices: devices, origin: origin ?? 0)
    }

    struct Touch {
        var slot: Int64
        var seatSlot: Int64
        var x = 0.0, y = 0.0, xmm = 0.0, ymm = 0.0
    }

    /// `0 (0) 58.64/44.04 (148.16/73.74mm)` (after the time).
    static func parseTouch(_ c: inout ByteCursor, withPosition: Bool = true) -> Touch? {
        c.skipSpaces()
        guard let slot = c.decimal() else { return nil }
        c.skipSpaces()
        guard c.eat(ASCII.openParen), let seat = c.decimal(), c.eat(ASCII.closeParen) else { return nil }
        var t = Touch(slot: slot, seatSlot: seat)
        guard withPosition else { return t }
        guard let (x, y) = pair(&c) else { return nil }
        c.skipSpaces()
        guard c.eat(ASCII.openParen), let (xmm, ymm) = pair(&c), c.eat("mm)") else { return nil }
        t.x = x; t.y = y; t.xmm = xmm; t.ymm = ymm
        return t
    }

    /// `<a>/<b>` where printf's `%5.2f` may pad either number with spaces.
    static func pair(_ c: inout ByteCursor) -> (Double, Double)? {
        c.skipSpaces()
        guard let a = c.double() else { return nil }
        c.skipSpaces()
        guard c.eat(ASCII.slash) else { return nil }
        c.skipSpaces()
        guard let b = c.double() else { return nil }
        return (a, b)
    }

    static func run(path: String, screen: Size, devices: [TraceDevice], origin: Int64,
                    _ body: (InputEvent) throws -> Void) throws {
        let reader = try LineReader(path: path)
        var index: [String: Int] = [:]
        for (i, d) in devices.enumerated() { if let node = d.node { index[node] = i } }
        var lastToken: [UInt8] = []
        var lastIndex = -1
        var frame = TouchFrame(time: .zero)
        frame.changes.reserveCapacity(16)
        var pendingDevice = -1
        // Last location of each (device, seat slot) that is down.
        var locations: [Int: [Int64: Point]] = [:]
        var lastScale: [Int: Double] = [:]
        var removed = Set<Int>()
        var last = Instant.zero
        let centre = Point(x: screen.width / 2, y: screen.height / 2)

        func flush() throws {
            if pendingDevice >= 0 && !frame.changes.isEmpty { try body(.touchFrame(frame)) }
            frame.changes.removeAll(keepingCapacity: true)
            pendingDevice = -1
        }

        while let line = try reader.nextLine() {
            if line.isBlankOrComment { continue }
            let number = reader.lineNumber
            var c = ByteCursor(line)
            guard let (deviceToken, type) = split(&c) else { continue }
            // Device index (cached by the token's bytes).
            if !deviceToken.elementsEqual(lastToken) {
                lastToken = Array(deviceToken)
                lastIndex = index[deviceToken.string] ?? -1
            }
            let d = lastIndex
            guard d >= 0 else { continue }
            func fail(_ shape: String) -> TraceError {
                TraceError(.malformedLine, file: path, line: number, "expected \(shape), found \(quoted(line.string))")
            }
            switch type {
            case .other, .deviceAdded:
                continue
            case .deviceRemoved:
                try flush()
                if removed.insert(d).inserted { try body(.deviceRemoved(devices[d].id, time: last)) }
                continue
            default:
                break
            }
            c.skipSpaces()
            guard let nanos = c.secondsAsNanoseconds(), c.eat(0x73) else {
                throw fail("a time such as '+0.079s' after the event type")
            }
            let time = Instant(nanoseconds: nanos &- origin)
            if time < last {
                throw TraceError(.malformedLine, file: path, line: number,
                                 "expected times in order, found \(time.seconds)s after \(last.seconds)s")
            }
            last = time
            let kind = devices[d].kind ?? .touchscreen
            switch type {
            case .touchDown, .touchMotion, .touchUp, .touchCancel:
                let withPosition: Bool
                switch type {
                case .touchDown, .touchMotion: withPosition = true
                default: withPosition = false
                }
                guard let touch = parseTouch(&c, withPosition: withPosition) else {
                    throw fail(withPosition ? "'<slot> (<seat slot>) <x>/<y> (<x>/<y>mm)' after the time"
                                            : "'<slot> (<seat slot>)' after the time")
                }
                if pendingDevice >= 0 && (pendingDevice != d || frame.time != time) { try flush() }
                pendingDevice = d
                frame.time = time
                frame.device = devices[d].id
                frame.deviceKind = kind
                let id = Int(truncatingIfNeeded: touch.seatSlot)
                let phase: TouchPhase
                var point: Point
                switch type {
                case .touchDown:
                    phase = .began
                    point = Point(x: touch.x / 100 * screen.width, y: touch.y / 100 * screen.height)
                    locations[d, default: [:]][touch.seatSlot] = point
                case .touchMotion:
                    phase = .moved
                    point = Point(x: touch.x / 100 * screen.width, y: touch.y / 100 * screen.height)
                    if locations[d]?[touch.seatSlot] == point { continue }
                    locations[d, default: [:]][touch.seatSlot] = point
                default:
                    phase = type.isCancel ? .cancelled : .ended
                    point = locations[d]?[touch.seatSlot] ?? centre
                    locations[d]?[touch.seatSlot] = nil
                }
                frame.changes.append(TouchChange(sourceID: id, phase: phase, location: point))
            case .touchFrame:
                try flush()
            case .gesture(let gestureKind, var phase):
                try flush()
                c.skipSpaces()
                guard let fingers = c.decimal(), fingers >= 0, fingers < 1000 else {
                    throw fail("'<fingers>' after the time")
                }
                var event = TouchpadGestureEvent(kind: gestureKind, phase: phase, time: time, device: devices[d].id,
                                                 fingers: Int(fingers), location: centre)
                switch phase {
                case .begin:
                    if gestureKind == .pinch { lastScale[d] = 1 }
                case .end, .cancel:
                    c.skipSpaces()
                    if c.eat("cancelled") { phase = .cancel; event.phase = .cancel }
                    if gestureKind == .pinch { event.scale = lastScale[d] ?? 1 }
                case .update:
                    c.skipSpaces()
                    guard let (dx, dy) = pair(&c) else {
                        throw fail("'<fingers> <dx>/<dy> (<dx>/<dy> unaccelerated)' after the time")
                    }
                    event.delta = Point(x: dx, y: dy)
                    c.skipSpaces()
                    guard c.eat(ASCII.openParen), pair(&c) != nil else {
                        throw fail("'<fingers> <dx>/<dy> (<dx>/<dy> unaccelerated)' after the time")
                    }
                    c.skipSpaces()
                    _ = c.eat("unaccelerated")
                    _ = c.eat(ASCII.closeParen)
                    if gestureKind == .pinch {
                        c.skipSpaces()
                        guard let scale = c.double() else {
                            throw fail("'<fingers> <dx>/<dy> (<dx>/<dy> unaccelerated) <scale> @ <angle>' after the time")
                        }
                        c.skipSpaces()
                        guard c.eat(ASCII.at) else {
                            throw fail("'<fingers> <dx>/<dy> (<dx>/<dy> unaccelerated) <scale> @ <angle>' after the time")
                        }
                        c.skipSpaces()
                        guard let angle = c.double() else {
                            throw fail("'<fingers> <dx>/<dy> (<dx>/<dy> unaccelerated) <scale> @ <angle>' after the time")
                        }
                        event.scale = scale
                        event.angleDelta = angle
                        lastScale[d] = scale
                    }
                }
                try body(.touchpadGesture(event))
            default:
                break
            }
        }
        try flush()
        for device in devices where !removed.contains(device.id.rawValue) {
            try body(.deviceRemoved(device.id, time: last))
        }
    }
}

extension DebugEventsScanner.LineType {
    var isCancel: Bool {
        if case .touchCancel = self { return true }
        return false
    }
}

extension String {
    func replacingMM() -> String {
        hasSuffix("mm") ? String(dropLast(2)) : self
    }
}
