import CWaylandClient
import CWaylandProtocols
import GestureKit

/// One `wl_output` (a monitor): its scale, its size in pixels and in millimetres, as the
/// compositor describes it. A window on it draws at its scale; a touchscreen on it measures
/// millimetres by its physical size.
public final class WaylandOutput {
    let proxy: OpaquePointer
    let globalName: UInt32
    let version: UInt32
    /// The integer scale the compositor asks buffers on this output to have (`wl_output.scale`).
    public private(set) var scale = 1
    /// The current mode's size, in pixels.
    public private(set) var pixelSize: Size?
    /// The physical size, in millimetres (nil where the compositor says 0: a virtual output).
    public private(set) var physicalSize: Size?
    /// Called when the compositor has said everything of a change (`wl_output.done`).
    var onChange: (() -> Void)?

    init(proxy: OpaquePointer, globalName: UInt32, version: UInt32) {
        self.proxy = proxy
        self.globalName = globalName
        self.version = version
        wl_output_add_listener(proxy, &OutputListeners.output, Unmanaged.passUnretained(self).toOpaque())
    }

    func destroy() {
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    /// The output's size in points: its pixels over its scale.
    public var logicalSize: Size? {
        pixelSize.map { Size(width: $0.width / Double(scale), height: $0.height / Double(scale)) }
    }

    /// How many points a millimetre of the output is (its logical width over its physical
    /// width, the geometric mean of both axes), where it says its physical size: what an edge
    /// pan's margin and a touchpad-less touchscreen's millimetres need.
    public var pointsPerMillimetre: Double? {
        guard let logical = logicalSize, let physical = physicalSize, physical.width > 0, physical.height > 0 else { return nil }
        return ((logical.width / physical.width) * (logical.height / physical.height)).squareRoot()
    }

    fileprivate func geometry(physicalWidth: Int32, physicalHeight: Int32) {
        physicalSize = physicalWidth > 0 && physicalHeight > 0
            ? Size(width: Double(physicalWidth), height: Double(physicalHeight)) : nil
    }

    fileprivate func mode(flags: UInt32, width: Int32, height: Int32) {
        if flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 { pixelSize = Size(width: Double(width), height: Double(height)) }
    }

    fileprivate func setScale(_ factor: Int32) { scale = max(1, Int(factor)) }
    fileprivate func done() { onChange?() }
}

private func outputObject(_ data: UnsafeMutableRawPointer?) -> WaylandOutput {
    Unmanaged<WaylandOutput>.fromOpaque(data!).takeUnretainedValue()
}

/// `wl_output`'s listener, bound at version 3 at most: libwayland 1.21's header has no fields
/// for version 4's `name` and `description`, and nothing here needs them.
enum OutputListeners {
    nonisolated(unsafe) static var output: wl_output_listener = {
        var listener = wl_output_listener()
        listener.geometry = { data, _, _, _, width, height, _, _, _, _ in
            outputObject(data).geometry(physicalWidth: width, physicalHeight: height)
        }
        listener.mode = { data, _, flags, width, height, _ in outputObject(data).mode(flags: flags, width: width, height: height) }
        listener.done = { data, _ in outputObject(data).done() }
        listener.scale = { data, _, factor in outputObject(data).setScale(factor) }
        return listener
    }()
}
