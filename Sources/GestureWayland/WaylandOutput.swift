import CWaylandClient
import CWaylandProtocols
import GestureKit

/// One `wl_output` (a monitor): its scale, its size in pixels and in millimetres, as the
/// compositor describes it, and its size in points where the compositor says it
/// (`zxdg_output_v1`, a fractional scale included). A window on it draws at its scale; a
/// touchscreen on it measures millimetres by its physical size (`geometry`).
public final class WaylandOutput {
    let proxy: OpaquePointer
    let globalName: UInt32
    let version: UInt32
    private var xdgOutput: OpaquePointer?
    /// The integer scale the compositor asks buffers on this output to have (`wl_output.scale`).
    public private(set) var scale = 1
    /// The current mode's size, in pixels.
    public private(set) var pixelSize: Size?
    /// The physical size, in millimetres (nil where the compositor says 0: a virtual output).
    public private(set) var physicalSize: Size?
    /// The size in points the compositor gives the output (`zxdg_output_v1.logical_size`,
    /// turned by the output's transform), where it says it.
    public private(set) var compositorLogicalSize: Size?
    /// Whether the output's transform turns it by 90° or 270° (`wl_output.geometry`).
    private var turned = false
    /// Called when the compositor has said everything of a change (`wl_output.done`).
    var onChange: (() -> Void)?

    init(proxy: OpaquePointer, globalName: UInt32, version: UInt32) {
        self.proxy = proxy
        self.globalName = globalName
        self.version = version
        wl_output_add_listener(proxy, &OutputListeners.output, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Asks the compositor for the output's logical size (`zxdg_output_manager_v1`).
    func readLogicalSize(_ manager: OpaquePointer) {
        guard xdgOutput == nil, let object = zxdg_output_manager_v1_get_xdg_output(manager, proxy) else { return }
        xdgOutput = object
        zxdg_output_v1_add_listener(object, &OutputListeners.xdgOutput, Unmanaged.passUnretained(self).toOpaque())
    }

    func destroy() {
        if let xdgOutput { zxdg_output_v1_destroy(xdgOutput) }
        xdgOutput = nil
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    /// The output's sizes: its scale the fractional one its logical size says, where the
    /// compositor says it, else `wl_output.scale`.
    public var geometry: OutputGeometry {
        let fractional = pixelSize.flatMap { mode in
            compositorLogicalSize.flatMap { OutputGeometry.scale(modeSize: mode, logicalSize: $0, turned: turned) }
        }
        return OutputGeometry(modeSize: pixelSize, physicalSize: physicalSize, scale: fractional ?? Double(scale))
    }

    /// The output's size in points: its pixels over its scale (a fractional one included).
    public var logicalSize: Size? { geometry.logicalSize }

    /// How many points a millimetre of the output is (its logical width over its physical
    /// width), where it says its physical size: what an edge pan's margin needs of a
    /// touchscreen read through the compositor.
    public var pointsPerMillimetre: Double? { geometry.pointsPerMillimetre }

    fileprivate func geometry(physicalWidth: Int32, physicalHeight: Int32, transform: Int32) {
        physicalSize = physicalWidth > 0 && physicalHeight > 0
            ? Size(width: Double(physicalWidth), height: Double(physicalHeight)) : nil
        // WL_OUTPUT_TRANSFORM_90, _270 and their flipped forms are the odd ones.
        turned = transform & 1 != 0
    }

    fileprivate func mode(flags: UInt32, width: Int32, height: Int32) {
        if flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 { pixelSize = Size(width: Double(width), height: Double(height)) }
    }

    fileprivate func setScale(_ factor: Int32) { scale = max(1, Int(factor)) }
    fileprivate func setLogicalSize(width: Int32, height: Int32) {
        compositorLogicalSize = width > 0 && height > 0 ? Size(width: Double(width), height: Double(height)) : nil
    }
    fileprivate func done() { onChange?() }
}

private func outputObject(_ data: UnsafeMutableRawPointer?) -> WaylandOutput {
    Unmanaged<WaylandOutput>.fromOpaque(data!).takeUnretainedValue()
}

/// `wl_output`'s listener, bound at version 3 at most: libwayland 1.21's header has no fields
/// for version 4's `name` and `description`, and nothing here needs them. `zxdg_output_v1`'s:
/// its logical size only (its `done`, before version 3, adds nothing `wl_output.done` does not).
enum OutputListeners {
    nonisolated(unsafe) static var output: wl_output_listener = {
        var listener = wl_output_listener()
        listener.geometry = { data, _, _, _, width, height, _, _, _, transform in
            outputObject(data).geometry(physicalWidth: width, physicalHeight: height, transform: transform)
        }
        listener.mode = { data, _, flags, width, height, _ in outputObject(data).mode(flags: flags, width: width, height: height) }
        listener.done = { data, _ in outputObject(data).done() }
        listener.scale = { data, _, factor in outputObject(data).setScale(factor) }
        return listener
    }()

    nonisolated(unsafe) static var xdgOutput: zxdg_output_v1_listener = {
        var listener = zxdg_output_v1_listener()
        listener.logical_position = { _, _, _, _ in }
        listener.logical_size = { data, _, width, height in outputObject(data).setLogicalSize(width: width, height: height) }
        listener.done = { _, _ in }
        listener.name = { _, _, _ in }
        listener.description = { _, _, _ in }
        return listener
    }()
}
