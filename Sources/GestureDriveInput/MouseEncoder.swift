import GestureKit
import GestureTraces

/// Pointer events (output points) as the absolute mouse's evdev frames:
/// - a motion is the position (`ABS_X`, `ABS_Y`, `AxisMapping`);
/// - a button is its key (`BTN_LEFT`, `BTN_RIGHT`, `BTN_MIDDLE`: the event's evdev code) at the
///   event's position;
/// - a discrete scroll of n detents (the engine's delta over `GestureDefaults.wheelPointsPerDetent`)
///   is `REL_WHEEL` (content moving down, a wheel turned away from you: positive) or
///   `REL_HWHEEL` (content moving left: positive), with the high-resolution axes at 120 a detent
///   where the device has them;
/// - the pointer leaving a window, and continuous scrolling (a touchpad's, which
///   `TouchpadGestures` makes from fingers), are nothing a mouse sends.
package struct MouseEncoder: Sendable {
    package let device: VirtualDevice
    package let mapping: AxisMapping?
    /// Where the pointer is, once it has been put somewhere.
    package private(set) var position: Point?

    package init(device: VirtualDevice, output: Size) {
        self.device = device
        self.mapping = AxisMapping(device: device, output: output)
    }

    package mutating func encode(_ event: PointerEvent) -> [EvdevEvent] {
        let d = device.description
        var out: [EvdevEvent] = []
        func emit(_ type: EventType, _ code: EventCode, _ value: Int32) {
            out.append(EvdevEvent(time: event.time, type: type, code: code, value: value))
        }
        func moveTo(_ p: Point) {
            guard let mapping, p != position else { return }
            let (x, y) = mapping.units(p)
            emit(.abs, .absX, x)
            emit(.abs, .absY, y)
            position = p
        }
        switch event.kind {
        case .motion:
            moveTo(event.location)
        case .button:
            moveTo(event.location)
            let code = EventCode(rawValue: UInt16(clamping: event.button))
            if d.has(.key, code) { emit(.key, code, event.pressed ? 1 : 0) }
        case .scroll:
            guard event.scrollType == .discrete else { break }
            moveTo(event.location)
            let vertical = (event.delta.y / GestureDefaults.wheelPointsPerDetent).rounded()
            let horizontal = (-event.delta.x / GestureDefaults.wheelPointsPerDetent).rounded()
            if vertical != 0 {
                emit(.rel, .relWheel, Int32(vertical))
                if d.has(.rel, .relWheelHiRes) { emit(.rel, .relWheelHiRes, Int32(vertical) * 120) }
            }
            if horizontal != 0 {
                emit(.rel, .relHWheel, Int32(horizontal))
                if d.has(.rel, .relHWheelHiRes) { emit(.rel, .relHWheelHiRes, Int32(horizontal) * 120) }
            }
        case .leave:
            break
        }
        if !out.isEmpty { emit(.syn, .synReport, 0) }
        return out
    }
}
