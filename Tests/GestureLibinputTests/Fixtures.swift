import Foundation
import GestureKit
import GestureTestSupport
import GestureTraces
#if canImport(Glibc)
import Glibc
#endif

/// Test inputs: hand-built device descriptions and events, besides the package's recordings
/// (GestureTestSupport's `Fixtures`).
extension Fixtures {
    /// A recording's first device's description and raw events, read by GestureTraces.
    static func recording(_ name: String) -> (description: EvdevDeviceDescription, events: [EvdevEvent]) {
        guard let reader = try? TraceReader(path: path(name)), let device = reader.devices.first,
              let description = device.description else {
            fatalError("fixture \(name) is missing or unreadable")
        }
        var events: [EvdevEvent] = []
        try? reader.forEachEvdevEvent(device: device.id) { events.append($0) }
        return (description, events)
    }

    // MARK: Wacom ISDv4 E6 (ts-wacom-isdv4-e6-double-tap-1f.evemu)

    static var wacom: EvdevDeviceDescription { recording("ts-wacom-isdv4-e6-double-tap-1f.evemu").description }

    static var wacomDoubleTap: [EvdevEvent] { recording("ts-wacom-isdv4-e6-double-tap-1f.evemu").events }

    // MARK: Synthetic devices

    static let touchscreen = EvdevDeviceDescription(
        name: "GestureKit Test Touchscreen", bustype: 0x03, vendor: 0x1234, product: 0x5678,
        version: 0x100, properties: [.direct],
        codes: [.syn: [.synReport], .key: [.btnTouch],
                .abs: [.absX, .absY, .absMTSlot, .absMTPositionX, .absMTPositionY, .absMTTrackingID]],
        absInfo: [.absX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
                  .absY: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
                  .absMTSlot: AbsInfo(minimum: 0, maximum: 9),
                  .absMTPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
                  .absMTPositionY: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
                  .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535)])

    static let touchpad = EvdevDeviceDescription(
        name: "GestureKit Test Touchpad", bustype: 0x18, vendor: 0x6cb, product: 0x7e7e,
        version: 0x100, properties: [.pointer, .buttonpad],
        codes: [.syn: [.synReport],
                .key: [.btnLeft, .btnToolFinger, .btnToolQuintTap, .btnTouch, .btnToolDoubleTap,
                       .btnToolTripleTap, .btnToolQuadTap],
                .abs: [.absX, .absY, .absMTSlot, .absMTPositionX, .absMTPositionY, .absMTTrackingID]],
        absInfo: [.absX: AbsInfo(minimum: 0, maximum: 1200, resolution: 12),
                  .absY: AbsInfo(minimum: 0, maximum: 800, resolution: 12),
                  .absMTSlot: AbsInfo(minimum: 0, maximum: 4),
                  .absMTPositionX: AbsInfo(minimum: 0, maximum: 1200, resolution: 12),
                  .absMTPositionY: AbsInfo(minimum: 0, maximum: 800, resolution: 12),
                  .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535)])

    /// Builds protocol-B multitouch frames.
    struct FrameBuilder {
        var events: [EvdevEvent] = []
        var time: Instant
        var touchpad: Bool
        private var nextTrackingID: Int32 = 100
        private var down: [Int: (Int32, Int32)] = [:]   // slot → position
        private var currentSlot = 0

        init(start: Instant = Instant(seconds: 5000, microseconds: 0), touchpad: Bool) {
            self.time = start
            self.touchpad = touchpad
        }

        private mutating func emit(_ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(EvdevEvent(time: time, type: type, code: code, value: value))
        }

        private mutating func select(_ slot: Int) {
            if slot != currentSlot {
                emit(.abs, .absMTSlot, Int32(slot))
                currentSlot = slot
            }
        }

        /// One frame: `positions[slot]` = new position, or nil to lift that slot.
        mutating func frame(_ positions: [Int: (Int32, Int32)?]) {
            let before = down.count
            for slot in positions.keys.sorted() {
                let target = positions[slot]!
                if let (x, y) = target {
                    let old = down[slot]
                    select(slot)
                    if old == nil {
                        emit(.abs, .absMTTrackingID, nextTrackingID)
                        nextTrackingID += 1
                    }
                    if old?.0 != x { emit(.abs, .absMTPositionX, x) }
                    if old?.1 != y { emit(.abs, .absMTPositionY, y) }
                    down[slot] = (x, y)
                } else if down[slot] != nil {
                    select(slot)
                    emit(.abs, .absMTTrackingID, -1)
                    down[slot] = nil
                }
            }
            let after = down.count
            if before == 0 && after > 0 { emit(.key, .btnTouch, 1) }
            if before > 0 && after == 0 { emit(.key, .btnTouch, 0) }
            if touchpad && before != after {
                let tools: [EventCode] = [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap,
                                          .btnToolQuadTap, .btnToolQuintTap]
                if before > 0 { emit(.key, tools[min(before, 5) - 1], 0) }
                if after > 0 { emit(.key, tools[min(after, 5) - 1], 1) }
            }
            if let first = down.keys.min(), let (x, y) = down[first] {
                emit(.abs, .absX, x)
                emit(.abs, .absY, y)
            }
            emit(.syn, .synReport, 0)
        }

        mutating func wait(_ seconds: Double) {
            time = time + Duration(seconds: seconds)
        }
    }

    /// Two fingers moving apart horizontally around (cx, cy), `frames` frames 10 ms apart,
    /// `step` units per finger per frame; lifted at the end unless `lift` is false.
    static func pinch(touchpad: Bool, cx: Int32, cy: Int32, startGap: Int32, step: Int32,
                      frames: Int, lift: Bool = true, restFirst: Double = 0) -> [EvdevEvent] {
        var b = FrameBuilder(touchpad: touchpad)
        var left = cx - startGap / 2, right = cx + startGap / 2
        b.frame([0: (left, cy), 1: (right, cy)])
        b.wait(restFirst)
        for _ in 0..<frames {
            b.wait(0.010)
            left -= step
            right += step
            b.frame([0: (left, cy), 1: (right, cy)])
        }
        if lift {
            b.wait(0.010)
            b.frame([0: nil, 1: nil])
        }
        return b.events
    }

    /// How often resting fingers report: a touchpad's 80 Hz.
    static let heldFrameInterval = 0.0125

    /// Two fingers down, resting for `seconds` (a frame every `heldFrameInterval` seconds, the
    /// first finger trembling by one unit, as resting fingers report), then lifted. The frames
    /// matter under load: libinput's hold begins on a timer, and a timer due before a frame is
    /// handled at that frame's time (`libinput_timer_flush`), not at the real time a late reader
    /// gets to it; with no frame between the touch and the lift, the hold's start is stamped late.
    static func hold(seconds: Double) -> [EvdevEvent] {
        var b = FrameBuilder(touchpad: true)
        b.frame([0: (500, 400), 1: (700, 400)])
        let frames = Int((seconds / heldFrameInterval).rounded())
        for i in 1..<max(frames, 1) {
            b.wait(heldFrameInterval)
            b.frame([0: (i % 2 == 0 ? 500 : 501, 400)])
        }
        b.wait(heldFrameInterval)
        b.frame([0: nil, 1: nil])
        return b.events
    }
}
