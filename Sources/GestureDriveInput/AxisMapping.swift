import GestureKit
import GestureTraces

/// Where a point of the output lands on a direct device's axes, as libinput maps them back:
/// libinput spreads an absolute axis's range plus one over the output's extent
/// (`(value − minimum) × extent / (maximum − minimum + 1)`, evdev.c), so a point `p` is the
/// value `minimum + p × (maximum − minimum + 1) / extent`, to the nearest unit, kept in the
/// range: libinput puts it back within half a unit of `p`.
/// A touchscreen, a pen display and the absolute mouse each cover the whole output.
package struct AxisMapping: Hashable, Sendable {
    package var x: AbsInfo
    package var y: AbsInfo
    /// The output, in logical points (the compositor's layout).
    package var output: Size

    package init(x: AbsInfo, y: AbsInfo, output: Size) {
        self.x = x
        self.y = y
        self.output = output
    }

    /// The mapping of `device`'s position axes (multitouch where it has them) onto `output`.
    package init?(device: VirtualDevice, output: Size, multitouch: Bool = false) {
        let d = device.description
        let ax = multitouch ? (d.absInfo[.absMTPositionX] ?? d.absInfo[.absX]) : (d.absInfo[.absX] ?? d.absInfo[.absMTPositionX])
        let ay = multitouch ? (d.absInfo[.absMTPositionY] ?? d.absInfo[.absY]) : (d.absInfo[.absY] ?? d.absInfo[.absMTPositionY])
        guard let ax, let ay, output.width > 0, output.height > 0 else { return nil }
        self.init(x: ax, y: ay, output: output)
    }

    /// The axis value at `p` along an axis of `extent` points.
    static func value(_ p: Double, extent: Double, _ axis: AbsInfo) -> Int32 {
        let span = Double(axis.maximum) - Double(axis.minimum) + 1
        let v = (Double(axis.minimum) + (p / extent) * span).rounded()
        return Int32(Swift.min(Double(axis.maximum), Swift.max(Double(axis.minimum), v)))
    }

    /// The device position of output point `p`.
    package func units(_ p: Point) -> (x: Int32, y: Int32) {
        (Self.value(p.x, extent: output.width, x), Self.value(p.y, extent: output.height, y))
    }

    /// Where libinput puts the device position back on the output (for checks).
    package func point(x vx: Int32, y vy: Int32) -> Point {
        func back(_ v: Int32, _ extent: Double, _ a: AbsInfo) -> Double {
            (Double(v) - Double(a.minimum)) * extent / (Double(a.maximum) - Double(a.minimum) + 1)
        }
        return Point(x: back(vx, output.width, x), y: back(vy, output.height, y))
    }
}
