import GestureKit
import GestureTraces

/// One report of a touchpad: the fingers on it (millimetres from its top left corner, each with
/// an id that stays while the finger stays) and its button, at a time from the gesture's start.
public struct PadFrame: Hashable, Sendable {
    public var time: Instant
    public var contacts: [Int: Point]
    public var button: Bool

    public init(time: Instant, contacts: [Int: Point], button: Bool = false) {
        self.time = time
        self.contacts = contacts
        self.button = button
    }
}

/// Touchpad reports as the pad's evdev frames, multitouch protocol B, as a clickpad's
/// controller sends them: a finger takes the lowest free slot and a new tracking id and keeps
/// them; positions in the pad's units (millimetres × resolution, kept in range); pressure a
/// third of the axis (libinput takes a touch from 12 % of a pressure axis without a quirk, and a
/// palm from 130 of 255); `BTN_TOUCH` while a finger is down; `BTN_TOOL_FINGER` …
/// `QUINTTAP` by the count; `ABS_X`/`ABS_Y` following the lowest slot; `BTN_LEFT` for the
/// button under the pad.
package struct TouchpadEncoder: Sendable {
    package let device: VirtualDevice
    private var slots: [Int: Int32] = [:]
    private var positions: [Int: (Int32, Int32)] = [:]
    private var current: Int32 = -1
    private var nextTrackingID: Int32 = 1
    private var button = false

    package init(device: VirtualDevice) {
        self.device = device
    }

    func units(_ mm: Double, _ axis: AbsInfo) -> Int32 {
        let res = Double(axis.resolution > 0 ? axis.resolution : 32)
        let v = (Double(axis.minimum) + mm * res).rounded()
        return Int32(Swift.min(Double(axis.maximum), Swift.max(Double(axis.minimum), v)))
    }

    package mutating func encode(_ frame: PadFrame) -> [EvdevEvent] {
        let d = device.description
        var out: [EvdevEvent] = []
        func emit(_ type: EventType, _ code: EventCode, _ value: Int32) {
            out.append(EvdevEvent(time: frame.time, type: type, code: code, value: value))
        }
        guard let ax = d.absInfo[.absMTPositionX] ?? d.absInfo[.absX], let ay = d.absInfo[.absMTPositionY] ?? d.absInfo[.absY] else { return [] }
        let wasDown = slots.count
        let slotCount = Int32(device.slots)
        // Lifts first, so a slot freed in this frame can be taken by a finger landing in it.
        for id in slots.keys.sorted() where frame.contacts[id] == nil {
            let slot = slots[id]!
            if slot != current { emit(.abs, .absMTSlot, slot); current = slot }
            emit(.abs, .absMTTrackingID, -1)
            slots[id] = nil
            positions[id] = nil
        }
        for id in frame.contacts.keys.sorted() {
            let p = frame.contacts[id]!
            let x = units(p.x, ax), y = units(p.y, ay)
            if let slot = slots[id] {
                guard positions[id]! != (x, y) else { continue }
                if slot != current { emit(.abs, .absMTSlot, slot); current = slot }
                if positions[id]!.0 != x { emit(.abs, .absMTPositionX, x) }
                if positions[id]!.1 != y { emit(.abs, .absMTPositionY, y) }
            } else {
                guard let free = (0..<slotCount).first(where: { s in !slots.values.contains(s) }) else { continue }
                slots[id] = free
                if free != current { emit(.abs, .absMTSlot, free); current = free }
                emit(.abs, .absMTTrackingID, nextTrackingID)
                nextTrackingID = nextTrackingID % 65535 + 1
                emit(.abs, .absMTPositionX, x)
                emit(.abs, .absMTPositionY, y)
                if let pressure = d.absInfo[.absMTPressure] { emit(.abs, .absMTPressure, TouchscreenEncoder.restingPressure(pressure)) }
            }
            positions[id] = (x, y)
        }
        let down = slots.count
        for key in ContactCountKeys.changes(from: wasDown, to: down, on: d) { emit(.key, key.code, key.value) }
        if let lowest = slots.min(by: { $0.value < $1.value }), let (x, y) = positions[lowest.key] {
            emit(.abs, .absX, x)
            emit(.abs, .absY, y)
            if let p = d.absInfo[.absPressure] {
                if wasDown == 0 { emit(.abs, .absPressure, TouchscreenEncoder.restingPressure(p)) }
            }
        }
        if wasDown > 0 && down == 0, d.absInfo[.absPressure] != nil { emit(.abs, .absPressure, 0) }
        if frame.button != button, d.has(.key, .btnLeft) {
            emit(.key, .btnLeft, frame.button ? 1 : 0)
            button = frame.button
        }
        if !out.isEmpty { emit(.syn, .synReport, 0) }
        return out
    }
}
