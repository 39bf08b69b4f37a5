import GestureKit

/// An output's sizes, as a value: its current mode in pixels, its physical size in millimetres,
/// and how many pixels a point is (its scale); from them its size in points and how many points
/// a millimetre of it is. No libwayland: `WaylandOutput` fills it from `wl_output` and
/// `zxdg_output_v1`.
/// - The scale is `wl_output.scale` (an integer), or a fractional one where the compositor
///   says the output's logical size (`zxdg_output_v1.logical_size`: sway, mutter, KWin, at
///   1.5 too, where `wl_output.scale` says 2), or a surface's `wp_fractional_scale_v1`
///   (120ths: `scale(preferred120:)`).
/// - Logical size = mode size / scale.
/// - Points per millimetre = logical width / physical width (a touchscreen is its monitor: its
///   touches come in the output's points); none where the output says no physical size (a
///   virtual or headless output says 0 × 0 mm), rather than an infinity.
public struct OutputGeometry: Hashable, Sendable {
    /// The current mode's size in pixels, before the output's transform.
    public var modeSize: Size?
    /// The physical size in millimetres, before the transform (0 × 0 or nil: unknown).
    public var physicalSize: Size?
    /// Pixels per point.
    public var scale: Double

    public init(modeSize: Size?, physicalSize: Size?, scale: Double) {
        self.modeSize = modeSize
        self.physicalSize = physicalSize
        self.scale = scale
    }

    /// The output's size in points: its pixels over its scale.
    public var logicalSize: Size? {
        guard let modeSize, scale > 0, scale.isFinite else { return nil }
        return Size(width: modeSize.width / scale, height: modeSize.height / scale)
    }

    /// How many points a millimetre of the output is: its logical width over its physical width.
    public var pointsPerMillimetre: Double? {
        guard let logical = logicalSize, let physical = physicalSize, physical.width > 0, logical.width > 0 else { return nil }
        return logical.width / physical.width
    }

    /// A `wp_fractional_scale_v1.preferred_scale`: the scale in 120ths.
    public static func scale(preferred120 value: UInt32) -> Double { Double(value) / 120 }

    /// The scale an `zxdg_output_v1.logical_size` says: the mode's width over the logical
    /// width, the mode's height where the transform turns the output by 90° or 270°
    /// (`turned`: the logical size is the turned one). Nil for a size of 0.
    public static func scale(modeSize: Size, logicalSize: Size, turned: Bool) -> Double? {
        let pixels = turned ? modeSize.height : modeSize.width
        guard logicalSize.width > 0, pixels > 0 else { return nil }
        return pixels / logicalSize.width
    }
}
