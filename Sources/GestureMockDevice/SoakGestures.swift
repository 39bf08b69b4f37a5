import GestureKit
import GestureTraces

/// The three kinds of mock device a soak plays on.
package enum SoakDeviceKind: String, CaseIterable, Hashable, Sendable {
    case touchscreen, touchpad, mouse

    /// The engine's kind of device libinput announces it as (a mouse is a pointer).
    package var inputKind: InputDeviceKind {
        switch self {
        case .touchscreen: .touchscreen
        case .touchpad: .touchpad
        case .mouse: .pointer
        }
    }
}

/// One gesture cut from a recording, in a form that can be played again on the soak's device
/// of its kind, wherever on it and however jittered:
/// - a touchscreen's touch sequence: its touch frames, locations in `SoakRecording.TargetPanel` units;
/// - a touchpad's: from the first finger down (or button) to all fingers up and the button
///   released, as frames of contacts in millimetres from the pad's top left corner, and the
///   button;
/// - a mouse's: a run of its evdev frames (motion, buttons, wheel) with no pause of
///   `SoakGesture.mousePause` or more while no button is held.
/// Times are seconds from the gesture's first frame.
package struct SoakGesture: Sendable {
    package struct PadContact: Sendable {
        package var id: Int
        package var x: Double, y: Double
    }
    package struct PadFrame: Sendable {
        package var time: Double
        package var contacts: [PadContact]
        package var button: Bool
    }
    package struct MouseFrame: Sendable {
        package var time: Double
        /// The frame's events without its SYN_REPORT (times unused).
        package var events: [EvdevEvent]
    }
    package enum Content: Sendable {
        case touches([TouchFrame])
        case pad([PadFrame])
        case mouse([MouseFrame])
    }

    package var content: Content
    package var kind: SoakDeviceKind {
        switch content {
        case .touches: .touchscreen
        case .pad: .touchpad
        case .mouse: .mouse
        }
    }
    package var duration: Double {
        switch content {
        case let .touches(f): f.last.map { $0.time.seconds } ?? 0
        case let .pad(f): f.last?.time ?? 0
        case let .mouse(f): f.last?.time ?? 0
        }
    }
    package var frameCount: Int {
        switch content {
        case let .touches(f): f.count
        case let .pad(f): f.count
        case let .mouse(f): f.count
        }
    }

    /// A mouse's gestures are cut at pauses this long (seconds) with no button held.
    package static let mousePause = 0.3

    // MARK: Cutting

    /// The touch sequences of a touchscreen recording, on the target panel.
    package static func touchSequences(from reader: TraceReader) throws -> [SoakGesture] {
        var result: [SoakGesture] = []
        var current: [TouchFrame] = []
        var down = Set<Int>()
        for frame in try reader.frames() where frame.deviceKind == .touchscreen {
            if down.isEmpty && !frame.changes.contains(where: { $0.phase == .began }) { continue }
            current.append(frame)
            for change in frame.changes {
                switch change.phase {
                case .began: down.insert(change.sourceID)
                case .ended, .cancelled: down.remove(change.sourceID)
                default: break
                }
            }
            if down.isEmpty {
                let t0 = current[0].time
                result.append(SoakGesture(content: .touches(current.map { f in
                    var f = f
                    f.time = Instant(nanoseconds: f.time.nanoseconds - t0.nanoseconds)
                    return f
                })))
                current.removeAll()
            }
        }
        return result
    }

    /// The gestures of a touchpad recording (multitouch protocol B): its contacts in
    /// millimetres (units over the axis's resolution; without one, the axis's range spread
    /// over `targetSize`), its button, cut where no finger is down and the button is up.
    package static func touchpadGestures(from reader: TraceReader, device: TraceDevice,
                                        targetSize: Size) throws -> [SoakGesture] {
        guard let d = device.description, let ax = d.absInfo[.absMTPositionX] ?? d.absInfo[.absX],
              let ay = d.absInfo[.absMTPositionY] ?? d.absInfo[.absY] else { return [] }
        func mm(_ v: Int32, _ a: AbsInfo, _ size: Double) -> Double {
            let units = Double(v) - Double(a.minimum)
            if a.resolution > 0 { return units / Double(a.resolution) }
            return units / max(1, Double(a.maximum) - Double(a.minimum)) * size
        }
        let multitouch = d.has(.abs, .absMTSlot)
        var slot = 0
        var slots: [Int: (id: Int, x: Int32?, y: Int32?)] = [:]
        var single: (x: Int32?, y: Int32?, down: Bool) = (nil, nil, false)
        var button = false
        var nextID = 1
        var frames: [PadFrame] = []
        var result: [SoakGesture] = []
        try reader.forEachEvdevEvent(device: device.id) { e in
            switch (e.type, e.code) {
            case (.abs, .absMTSlot): slot = Int(e.value)
            case (.abs, .absMTTrackingID):
                if e.value < 0 { slots[slot] = nil } else if slots[slot] == nil { slots[slot] = (nextID, nil, nil); nextID += 1 }
            case (.abs, .absMTPositionX): slots[slot]?.x = e.value
            case (.abs, .absMTPositionY): slots[slot]?.y = e.value
            case (.abs, .absX): single.x = e.value
            case (.abs, .absY): single.y = e.value
            case (.key, .btnTouch): single.down = e.value != 0
            case (.key, .btnLeft): button = e.value != 0
            case (.syn, .synReport):
                var contacts: [PadContact] = []
                if multitouch {
                    for c in slots.sorted(by: { $0.key < $1.key }).map(\.value) {
                        guard let x = c.x, let y = c.y else { continue }
                        contacts.append(PadContact(id: c.id, x: mm(x, ax, targetSize.width), y: mm(y, ay, targetSize.height)))
                    }
                } else if single.down, let x = single.x, let y = single.y {
                    contacts.append(PadContact(id: 0, x: mm(x, ax, targetSize.width), y: mm(y, ay, targetSize.height)))
                }
                let idle = contacts.isEmpty && !button
                if frames.isEmpty && idle { return }
                frames.append(PadFrame(time: e.time.seconds, contacts: contacts, button: button))
                if idle {
                    let t0 = frames[0].time
                    result.append(SoakGesture(content: .pad(frames.map { f in
                        var f = f
                        f.time -= t0
                        return f
                    })))
                    frames.removeAll()
                }
            default: break
            }
        }
        return result
    }

    /// The gestures of a mouse recording: its frames, cut at pauses of `mousePause` with no
    /// button held; only the codes `target` has are kept (a keyboard's keys are left out).
    package static func mouseGestures(from reader: TraceReader, device: TraceDevice,
                                     target: EvdevDeviceDescription) throws -> [SoakGesture] {
        var frames: [MouseFrame] = []
        var pending: [EvdevEvent] = []
        var held = Set<EventCode>()
        var result: [SoakGesture] = []
        func close() {
            guard let t0 = frames.first?.time else { return }
            result.append(SoakGesture(content: .mouse(frames.map { MouseFrame(time: $0.time - t0, events: $0.events) })))
            frames.removeAll()
        }
        try reader.forEachEvdevEvent(device: device.id) { e in
            if e.type == .syn && e.code == .synReport {
                defer { pending.removeAll() }
                guard !pending.isEmpty else { return }
                if let last = frames.last, held.isEmpty, e.time.seconds - last.time >= mousePause { close() }
                for p in pending where p.type == .key {
                    if p.value != 0 { held.insert(p.code) } else { held.remove(p.code) }
                }
                frames.append(MouseFrame(time: e.time.seconds, events: pending))
            } else if e.type != .syn, target.has(e.type, e.code), e.type == .rel || e.type == .key || e.type == .msc {
                pending.append(e)
            }
        }
        close()
        return result.filter { g in
            // A gesture that only lets go of a button held before it began is left out.
            guard case let .mouse(f) = g.content else { return false }
            return f.contains { $0.events.contains { $0.type == .rel || ($0.type == .key && $0.value != 0) } }
        }
    }
}

/// A touchpad's contacts as the evdev multitouch protocol B of the target pad: a slot per
/// contact (the lowest free), a new tracking id per contact, `contactPressure` on every
/// contact, BTN_TOUCH while any is down, BTN_TOOL_FINGER … QUADTAP for their number (as far
/// as the pad has them), ABS_X/ABS_Y/ABS_PRESSURE following the first, BTN_LEFT for the button.
package struct TouchpadEncoder {
    /// A firm finger on the Elantech pad: above libinput's pressure range for it (10:8, its
    /// quirk) and below its palm threshold (130).
    package static let contactPressure: Int32 = 60

    private let target: EvdevDeviceDescription
    private let slotCount: Int
    private var slots: [Int: Int32] = [:]        // contact → slot
    private var positions: [Int32: (Int32, Int32)] = [:]
    private var slot: Int32 = -1
    private var nextTrackingID: Int32 = 1
    private var count = 0
    private var button = false

    package init(target: EvdevDeviceDescription) {
        self.target = target
        slotCount = max(1, target.slotCount)
    }

    static let tools: [EventCode] = [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap, .btnToolQuintTap]

    /// `contacts` in device units (already placed and clamped).
    package mutating func encode(_ contacts: [(id: Int, x: Int32, y: Int32)], button pressed: Bool, at time: Instant) -> [EvdevEvent] {
        var out: [EvdevEvent] = []
        func emit(_ type: EventType, _ code: EventCode, _ value: Int32) {
            if type == .syn || target.has(type, code) { out.append(EvdevEvent(time: time, type: type, code: code, value: value)) }
        }
        func select(_ s: Int32) { if s != slot { emit(.abs, .absMTSlot, s); slot = s } }
        let present = Set(contacts.map(\.id))
        for (id, s) in slots.sorted(by: { $0.value < $1.value }) where !present.contains(id) {
            select(s)
            emit(.abs, .absMTTrackingID, -1)
            slots[id] = nil
            positions[s] = nil
        }
        for c in contacts {
            if let s = slots[c.id] {
                guard positions[s].map({ $0 != (c.x, c.y) }) ?? true else { continue }
                select(s)
                if positions[s]?.0 != c.x { emit(.abs, .absMTPositionX, c.x) }
                if positions[s]?.1 != c.y { emit(.abs, .absMTPositionY, c.y) }
                positions[s] = (c.x, c.y)
            } else {
                guard let free = (0..<Int32(slotCount)).first(where: { !slots.values.contains($0) }) else { continue }
                slots[c.id] = free
                select(free)
                emit(.abs, .absMTTrackingID, nextTrackingID)
                nextTrackingID = nextTrackingID % 65535 + 1
                emit(.abs, .absMTPositionX, c.x)
                emit(.abs, .absMTPositionY, c.y)
                emit(.abs, .absMTPressure, Self.contactPressure)
                positions[free] = (c.x, c.y)
            }
        }
        let n = min(slots.count, Self.tools.count)
        if n != count {
            if count == 0 { emit(.key, .btnTouch, 1) }
            if count > 0 { emit(.key, Self.tools[count - 1], 0) }
            if n > 0 { emit(.key, Self.tools[n - 1], 1) }
            if n == 0 { emit(.key, .btnTouch, 0) }
            count = n
        }
        if let first = slots.values.min(), let p = positions[first] {
            emit(.abs, .absX, p.0)
            emit(.abs, .absY, p.1)
            emit(.abs, .absPressure, Self.contactPressure)
        } else if count == 0 && !out.isEmpty {
            emit(.abs, .absPressure, 0)
        }
        if pressed != button {
            emit(.key, .btnLeft, pressed ? 1 : 0)
            button = pressed
        }
        if !out.isEmpty { emit(.syn, .synReport, 0) }
        return out
    }
}
