import GestureKit
import GestureTraces

/// Touch frames (output points) as a touchscreen's evdev frames, multitouch protocol B, as a
/// panel's controller sends them:
/// - a finger takes the lowest free slot and a new tracking id; a lift ends it (id −1); a
///   cancelled touch lifts too (a panel cannot cancel: the compositor and the app see a lift);
/// - positions in the device's units (`AxisMapping`); pressure at a light touch's third of the
///   axis where the device has one (`ABS_MT_PRESSURE`, `ABS_PRESSURE`);
/// - `BTN_TOUCH` while any finger is down, `BTN_TOOL_FINGER` … `QUINTTAP` by the count where
///   the device has them, `ABS_X`/`ABS_Y` following the lowest slot down (the kernel's pointer
///   emulation);
/// - one SYN_REPORT a frame, at the frame's time. A frame with more fingers than the device
///   has slots drops the extra fingers (the panel would not see them), and says so.
package struct TouchscreenEncoder: Sendable {
    package let device: VirtualDevice
    package let mapping: AxisMapping
    private var slots: [Int: Int32] = [:]       // touch → slot
    private var current: Int32 = -1
    private var nextTrackingID: Int32 = 1
    /// Touches dropped because every slot was taken.
    package private(set) var droppedTouches = 0

    package init?(device: VirtualDevice, output: Size) {
        guard let mapping = AxisMapping(device: device, output: output, multitouch: true) else { return nil }
        self.device = device
        self.mapping = mapping
    }

    /// Pressure of a resting finger: a third of the axis.
    static func restingPressure(_ axis: AbsInfo) -> Int32 {
        axis.minimum + (axis.maximum - axis.minimum) / 3
    }

    package mutating func encode(_ frame: TouchFrame) -> [EvdevEvent] {
        let d = device.description
        var out: [EvdevEvent] = []
        func emit(_ type: EventType, _ code: EventCode, _ value: Int32) {
            out.append(EvdevEvent(time: frame.time, type: type, code: code, value: value))
        }
        let wasDown = slots.count
        let multitouch = d.has(.abs, .absMTSlot)
        let slotCount = Int32(device.slots)
        for change in frame.changes {
            let slot: Int32
            if let existing = slots[change.sourceID] {
                slot = existing
            } else if change.phase == .began {
                guard let free = (0..<slotCount).first(where: { s in !slots.values.contains(s) }) else {
                    droppedTouches += 1
                    continue
                }
                slot = free
            } else {
                continue
            }
            if multitouch && slot != current { emit(.abs, .absMTSlot, slot); current = slot }
            let (x, y) = mapping.units(change.location)
            switch change.phase {
            case .began:
                slots[change.sourceID] = slot
                if multitouch {
                    emit(.abs, .absMTTrackingID, nextTrackingID)
                    nextTrackingID = nextTrackingID % 65535 + 1
                    emit(.abs, .absMTPositionX, x)
                    emit(.abs, .absMTPositionY, y)
                    if let p = d.absInfo[.absMTPressure] { emit(.abs, .absMTPressure, Self.restingPressure(p)) }
                }
            case .moved:
                if multitouch {
                    emit(.abs, .absMTPositionX, x)
                    emit(.abs, .absMTPositionY, y)
                }
            case .ended, .cancelled:
                slots[change.sourceID] = nil
                if multitouch { emit(.abs, .absMTTrackingID, -1) }
            }
        }
        let down = slots.count
        for key in ContactCountKeys.changes(from: wasDown, to: down, on: d) { emit(.key, key.code, key.value) }
        // The kernel's pointer emulation: the lowest slot down.
        if let lowest = slots.min(by: { $0.value < $1.value }),
           let change = frame.changes.last(where: { $0.sourceID == lowest.key }) ?? frame.changes.first(where: { slots[$0.sourceID] != nil }) {
            let (x, y) = mapping.units(change.location)
            if d.has(.abs, .absX) { emit(.abs, .absX, x) }
            if d.has(.abs, .absY) { emit(.abs, .absY, y) }
            if wasDown == 0, let p = d.absInfo[.absPressure] { emit(.abs, .absPressure, Self.restingPressure(p)) }
        }
        if wasDown > 0 && down == 0, d.absInfo[.absPressure] != nil { emit(.abs, .absPressure, 0) }
        if !out.isEmpty { emit(.syn, .synReport, 0) }
        return out
    }

    /// Forgets which slot the device has selected (events were sent around the encoder): the
    /// next change selects its slot.
    package mutating func forgetSelectedSlot() { current = -1 }

    /// Whether fingers are still down (a step that ends with them down holds them).
    package var fingersDown: Int { slots.count }
}
