import GestureKit
import GestureTraces
import RealModule

/// Pen events (output points) as a pen display's evdev frames, the reverse of the rules
/// libinput's tablet code reads them by (GestureTraces' `PenDecoder` states them):
/// - proximity is the tool's key (`BTN_TOOL_PEN`, or `BTN_TOOL_RUBBER` for the eraser): it
///   goes down with the first `hover` or `down` and up with `out`;
/// - contact is pressure: libinput takes the tip down at 5 % of the pressure axis and up at
///   1 %, so a touching sample's force f is the pressure 1 % + f × 99 % of the axis, at least 6 %
///   (a force of zero still touches), and a lifted one 0; `BTN_TOUCH` follows the tip too;
/// - a hovering pen's distance is its `zOffset` across the distance axis (the middle when it
///   has none), 0 in contact;
/// - tilt from altitude and azimuth: the pen leans 1/tan(altitude) along its azimuth, whose x
///   and y parts are the tangents of the two tilt angles, in the axes' units per radian
///   (`PenSample.angles(tiltX:tiltY:)` read backwards).
package struct PenEncoder: Sendable {
    package let device: VirtualDevice
    package let mapping: AxisMapping
    private var tool: PenTool?
    private var touching = false

    package init?(device: VirtualDevice, output: Size) {
        guard let mapping = AxisMapping(device: device, output: output) else { return nil }
        self.device = device
        self.mapping = mapping
    }

    /// The pressure value for `force` (0 to 1) on `axis`.
    static func pressure(_ force: Double, _ axis: AbsInfo) -> Int32 {
        let span = Double(axis.maximum - axis.minimum)
        let f = Swift.min(1, Swift.max(0, force))
        let value = Swift.max(0.06, 0.01 + f * 0.99) * span
        return axis.minimum + Int32(value.rounded())
    }

    /// The tilt angles (degrees, x then y) of a pen at `altitude` and `azimuth` radians.
    static func tilt(altitude: Double, azimuth: Double) -> (x: Double, y: Double) {
        let alt = Swift.min(Double.pi / 2, Swift.max(0.01, altitude))
        let lean = 1 / Double.tan(alt)
        return (Double.atan(lean * Double.cos(azimuth)) * 180 / .pi, Double.atan(lean * Double.sin(azimuth)) * 180 / .pi)
    }

    /// An angle in degrees on a tilt axis (its units per radian, or its range spread over ±64°).
    static func tiltValue(_ degrees: Double, _ axis: AbsInfo) -> Int32 {
        let v: Double
        if axis.resolution != 0 && axis.maximum > 0 && axis.minimum < 0 {
            v = degrees * .pi / 180 * Double(axis.resolution)
        } else {
            let span = Double(axis.maximum) - Double(axis.minimum)
            v = Double(axis.minimum) + (degrees / 64 + 1) / 2 * span
        }
        return Int32(Swift.min(Double(axis.maximum), Swift.max(Double(axis.minimum), v.rounded())))
    }

    package mutating func encode(_ event: PenEvent) -> [EvdevEvent] {
        let d = device.description
        var out: [EvdevEvent] = []
        func emit(_ type: EventType, _ code: EventCode, _ value: Int32) {
            out.append(EvdevEvent(time: event.time, type: type, code: code, value: value))
        }
        let key: EventCode = event.sample.tool == .eraser && d.has(.key, .btnToolRubber) ? .btnToolRubber : .btnToolPen
        if event.phase != .out, tool == nil {
            emit(.key, key, 1)
            tool = event.sample.tool
        }
        let (x, y) = mapping.units(event.location)
        emit(.abs, .absX, x)
        emit(.abs, .absY, y)
        if let tx = d.absInfo[.absTiltX], let ty = d.absInfo[.absTiltY] {
            let t = Self.tilt(altitude: event.sample.altitudeAngle, azimuth: event.sample.azimuthAngle)
            emit(.abs, .absTiltX, Self.tiltValue(t.x, tx))
            emit(.abs, .absTiltY, Self.tiltValue(t.y, ty))
        }
        switch event.phase {
        case .hover:
            if let axis = d.absInfo[.absDistance] {
                let z = Swift.min(1, Swift.max(0, event.sample.zOffset ?? 0.5))
                emit(.abs, .absDistance, axis.minimum + Int32((z * Double(axis.maximum - axis.minimum)).rounded()))
            }
        case .down, .moved:
            if event.phase == .down, !touching {
                touching = true
                if d.absInfo[.absDistance] != nil { emit(.abs, .absDistance, 0) }
                emit(.key, .btnTouch, 1)
            }
            if let axis = d.absInfo[.absPressure] { emit(.abs, .absPressure, Self.pressure(event.sample.force, axis)) }
        case .up:
            if let axis = d.absInfo[.absPressure] { emit(.abs, .absPressure, axis.minimum) }
            if touching { emit(.key, .btnTouch, 0) }
            touching = false
            if let axis = d.absInfo[.absDistance] { emit(.abs, .absDistance, axis.minimum + (axis.maximum - axis.minimum) / 2) }
        case .out:
            if touching {
                if let axis = d.absInfo[.absPressure] { emit(.abs, .absPressure, axis.minimum) }
                emit(.key, .btnTouch, 0)
                touching = false
            }
            if tool != nil { emit(.key, key, 0) }
            tool = nil
        }
        emit(.syn, .synReport, 0)
        return out
    }
}
