import CWaylandClient
import CWaylandProtocols
import GestureKit
#if canImport(Glibc)
import Glibc
#endif

/// A plain xdg-shell toplevel window: one surface filled with a colour from a shared-memory
/// buffer, resized as the compositor configures it (a tiling compositor, fullscreen). Enough
/// for a surface to receive touches and the pointer; an app drawing with a toolkit has its own.
///
/// **HiDPI.** Sizes and input stay in points (surface coordinates); the buffer is drawn at the
/// output's scale: where the compositor offers a fractional scale (`wp_fractional_scale_v1`
/// with `wp_viewporter`: sway 1.8+, mutter, KWin), at that scale, with the viewport giving the
/// buffer its size in points; otherwise at the integer scale of the outputs the window is on
/// (the largest, `wl_output.scale`), through `wl_surface.set_buffer_scale`. `scale` says which.
public final class WaylandWindow {
    public unowned let connection: WaylandConnection
    public let surface: OpaquePointer
    private let xdgSurface: OpaquePointer
    private let toplevel: OpaquePointer
    /// The surface's size in surface coordinates (points): what the compositor configured,
    /// or the size asked for.
    public private(set) var size: Size
    /// The compositor asked the window to close (`xdg_toplevel.close`).
    public private(set) var closeRequested = false
    /// The first configure was acknowledged and a buffer attached: the window is on screen.
    public private(set) var isMapped = false
    /// How many configures the compositor has sent (each acknowledged with a buffer of its size).
    public private(set) var configureCount = 0
    /// 0xAARRGGBB.
    public var color: UInt32
    /// Called when the compositor gives the window another size (made full screen, tiled,
    /// resized by the user): where an app lays its views out again.
    public var onResize: ((Size) -> Void)?
    /// How many buffer pixels a point is: 1, an output's integer scale, or a fractional one.
    public private(set) var scale: Double = 1
    /// Called when the window's scale changes (moved to another output, the scale changed).
    public var onScaleChange: ((Double) -> Void)?
    /// Draws a grid of hairlines, one pixel of the buffer wide, every `gridSpacing` points over
    /// the colour (0: none), in `gridColor`: on screen they are one pixel wide when the buffer
    /// has the output's pixels, wider (or blurred) when the compositor had to scale it.
    public var gridSpacing = 0
    public var gridColor: UInt32 = 0xFFE0_E0E0
    private var enteredOutputs: [ObjectIdentifier] = []
    private var fractional: OpaquePointer?
    private var viewport: OpaquePointer?
    private var fractionalScale: Double?
    private var pendingSize: Size?
    private var buffers: [OpaquePointer] = []
    private var destroyed = false

    /// Opens a window of `size` (the compositor may choose another) titled `title`, with
    /// `appID` for the compositor's rules (`for_window [app_id=...]` in sway). Waits until it is
    /// mapped.
    public init(connection: WaylandConnection, title: String, appID: String, size: Size,
                color: UInt32 = 0xFF20_2830) throws {
        guard let compositor = connection.compositor else { throw WaylandError.missingGlobal("wl_compositor") }
        guard let wmBase = connection.wmBase else { throw WaylandError.missingGlobal("xdg_wm_base (xdg-shell)") }
        guard connection.shm != nil else { throw WaylandError.missingGlobal("wl_shm") }
        self.connection = connection
        self.size = size
        self.color = color
        surface = wl_compositor_create_surface(compositor)
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        let data = Unmanaged.passUnretained(self).toOpaque()
        xdg_surface_add_listener(xdgSurface, &WindowListeners.surface, data)
        xdg_toplevel_add_listener(toplevel, &WindowListeners.toplevel, data)
        wl_surface_add_listener(surface, &WindowListeners.wlSurface, data)
        if let manager = connection.fractionalScaleManager, let viewporter = connection.viewporter {
            fractional = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            wp_fractional_scale_v1_add_listener(fractional, &WindowListeners.fractional, data)
            viewport = wp_viewporter_get_viewport(viewporter, surface)
        }
        connection.register(self)
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, appID)
        wl_surface_commit(surface)
        while !isMapped {
            try connection.roundtrip()
        }
    }

    deinit { destroy() }

    /// Most roundtrips `settle` makes (a compositor that keeps configuring is left to it).
    public static let settleRoundtripLimit = 50

    /// Waits until the compositor has stopped configuring the window: roundtrips until two in
    /// a row bring no configure. One is not enough: a compositor may configure from its idle
    /// callback, after answering the roundtrip that carried the commit which caused it
    /// (wlroots' `wlr_xdg_surface_schedule_configure`; sway makes a window full screen by its
    /// rules once it maps, then configures it). Afterwards the window has its final size and
    /// its buffer of that size is committed, so input lands where the window's views are.
    public func settle() throws {
        var quiet = 0
        for _ in 0..<Self.settleRoundtripLimit where quiet < 2 {
            let before = configureCount
            try connection.roundtrip()
            quiet = configureCount == before ? quiet + 1 : 0
        }
    }

    /// Asks the compositor to let the user move the window (`xdg_toplevel.move`), from the
    /// latest button press or touch down on `seat` (its `lastInputSerial`), as a title bar
    /// dragged: call it from a gesture's began while the press is still held. False when the
    /// seat has had no press yet. The compositor decides: it may ignore a serial that is not
    /// its latest press's, or a window it does not float (sway).
    @discardableResult
    public func beginInteractiveMove(seat: WaylandSeat) -> Bool {
        guard !destroyed, let serial = seat.lastInputSerial else { return false }
        xdg_toplevel_move(toplevel, seat.proxy, serial)
        return true
    }

    /// Destroys the window; touches on it are cancelled first (the next `dispatch` hands the
    /// cancellations over).
    public func destroy() {
        guard !destroyed else { return }
        destroyed = true
        connection.surfaceDestroyed(surface)
        if let fractional { wp_fractional_scale_v1_destroy(fractional) }
        if let viewport { wp_viewport_destroy(viewport) }
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        wl_surface_destroy(surface)
        for buffer in buffers { wl_buffer_destroy(buffer) }
        buffers.removeAll()
    }

    fileprivate func toplevelConfigure(width: Int32, height: Int32) {
        if width > 0, height > 0 { pendingSize = Size(width: Double(width), height: Double(height)) }
    }

    fileprivate func surfaceConfigure(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        let resized = pendingSize.map { $0 != size } ?? false
        if let pendingSize { size = pendingSize }
        pendingSize = nil
        if resized { onResize?(size) }
        if let buffer = makeBuffer() { attach(buffer) }
        wl_surface_commit(surface)
        isMapped = true
        configureCount += 1
    }

    fileprivate func close() { closeRequested = true }

    // MARK: scale

    fileprivate func entered(_ outputProxy: OpaquePointer?) {
        guard let output = connection.output(for: outputProxy) else { return }
        let id = ObjectIdentifier(output)
        if !enteredOutputs.contains(id) { enteredOutputs.append(id) }
        outputsChanged()
    }

    fileprivate func left(_ outputProxy: OpaquePointer?) {
        guard let output = connection.output(for: outputProxy) else { return }
        left(output)
    }

    /// The window is no longer on `output` (it left it, or the output went away).
    func left(_ output: WaylandOutput) {
        enteredOutputs.removeAll { $0 == ObjectIdentifier(output) }
        outputsChanged()
    }

    fileprivate func preferredScale(_ scale120: UInt32) {
        fractionalScale = Double(scale120) / 120
        outputsChanged()
    }

    /// The scale to draw at now: the compositor's fractional one where it gave one, else the
    /// largest integer scale of the outputs the window is on.
    func outputsChanged() {
        let integer = connection.outputs.filter { enteredOutputs.contains(ObjectIdentifier($0)) }.map(\.scale).max() ?? 1
        let newScale = fractionalScale ?? Double(integer)
        guard newScale != scale, newScale > 0 else { return }
        scale = newScale
        redraw()
        onScaleChange?(scale)
    }

    /// Draws the window again at its size and scale.
    private func redraw() {
        guard isMapped, let buffer = makeBuffer() else { return }
        attach(buffer)
        wl_surface_commit(surface)
    }

    private func attach(_ buffer: OpaquePointer) {
        if let viewport, fractionalScale != nil {
            wl_surface_set_buffer_scale(surface, 1)
            wp_viewport_set_destination(viewport, Int32(size.width.rounded()), Int32(size.height.rounded()))
        } else {
            wl_surface_set_buffer_scale(surface, Int32(scale))
        }
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, Int32(size.width), Int32(size.height))
    }

    /// A buffer of the window's size at its scale, filled with its colour (and its grid).
    private func makeBuffer() -> OpaquePointer? {
        guard let shm = connection.shm else { return nil }
        let width = max(1, Int((size.width * scale).rounded())), height = max(1, Int((size.height * scale).rounded()))
        let stride = width * 4, bytes = stride * height
        let fd = gesturekit_memfd("gesturekit-window")
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        guard ftruncate(fd, off_t(bytes)) == 0,
              let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              memory != MAP_FAILED else { return nil }
        let pixels = memory.bindMemory(to: UInt32.self, capacity: width * height)
        pixels.update(repeating: color, count: width * height)
        if gridSpacing > 0 {
            // A hairline (one buffer pixel) every gridSpacing points.
            let line = 1
            let step = Double(gridSpacing) * scale
            var x = 0.0
            while Int(x) < width {
                for column in Int(x)..<min(width, Int(x) + line) {
                    for row in 0..<height { pixels[row * width + column] = gridColor }
                }
                x += step
            }
            var y = 0.0
            while Int(y) < height {
                for row in Int(y)..<min(height, Int(y) + line) {
                    (pixels + row * width).update(repeating: gridColor, count: width)
                }
                y += step
            }
        }
        munmap(memory, bytes)
        guard let pool = wl_shm_create_pool(shm, fd, Int32(bytes)) else { return nil }
        let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride),
                                               WL_SHM_FORMAT_XRGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        if let buffer { buffers.append(buffer) }
        return buffer
    }
}

private func window(_ data: UnsafeMutableRawPointer?) -> WaylandWindow {
    Unmanaged<WaylandWindow>.fromOpaque(data!).takeUnretainedValue()
}

/// The window's listener tables, zeroed and filled field by field as `SeatListeners` says why.
enum WindowListeners {
    nonisolated(unsafe) static var surface: xdg_surface_listener = {
        var listener = xdg_surface_listener()
        listener.configure = { data, _, serial in window(data).surfaceConfigure(serial: serial) }
        return listener
    }()

    nonisolated(unsafe) static var toplevel: xdg_toplevel_listener = {
        var listener = xdg_toplevel_listener()
        listener.configure = { data, _, width, height, _ in window(data).toplevelConfigure(width: width, height: height) }
        listener.close = { data, _ in window(data).close() }
        listener.configure_bounds = { _, _, _, _ in }
        listener.wm_capabilities = { _, _, _ in }
        return listener
    }()

    /// `wl_surface`'s events at the version bound (4): the outputs the window is on.
    nonisolated(unsafe) static var wlSurface: wl_surface_listener = {
        var listener = wl_surface_listener()
        listener.enter = { data, _, output in window(data).entered(output) }
        listener.leave = { data, _, output in window(data).left(output) }
        return listener
    }()

    nonisolated(unsafe) static var fractional: wp_fractional_scale_v1_listener = {
        var listener = wp_fractional_scale_v1_listener()
        listener.preferred_scale = { data, _, scale in window(data).preferredScale(scale) }
        return listener
    }()
}
