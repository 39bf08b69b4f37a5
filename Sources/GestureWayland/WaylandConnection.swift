import CWaylandClient
import CWaylandProtocols
import GestureKit
import GestureInput
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What went wrong talking to a Wayland compositor.
public enum WaylandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No compositor at `WAYLAND_DISPLAY` (or the name given).
    case cannotConnect(display: String, errno: Int32)
    /// The compositor lacks a global the caller needs.
    case missingGlobal(String)
    /// The connection broke: the compositor went away, or it reported a protocol error.
    case connectionLost(errno: Int32, protocolError: String?)
    case systemCallFailed(call: String, errno: Int32)

    public var description: String {
        switch self {
        case let .cannotConnect(display, code):
            return "cannot connect to the Wayland compositor \(display): \(String(cString: strerror(code))) (is WAYLAND_DISPLAY set, and is a compositor running?)"
        case let .missingGlobal(name):
            return "the Wayland compositor does not offer \(name)"
        case let .connectionLost(code, protocolError):
            if let protocolError { return "the Wayland connection ended with a protocol error: \(protocolError)" }
            return "the Wayland compositor went away (\(String(cString: strerror(code))))"
        case let .systemCallFailed(call, code):
            return "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}

/// A connection to a Wayland compositor, and the input its seats give this client's surfaces,
/// in the engine's vocabulary: `wl_touch` into touch frames (one per `wl_touch.frame`), `wl_pointer`
/// into pointer events (motion, buttons, and one scroll per `wl_pointer.frame`), and
/// `zwp_pointer_gestures_v1` (pinch, swipe, hold) into touchpad gestures at the pointer. Locations
/// are in surface coordinates (points); times are the compositor's, widened from its 32-bit
/// milliseconds onto CLOCK_MONOTONIC (wlroots, Mutter and KWin stamp events with it), so the
/// engine's deadlines and the event loop's timer share one clock.
///
/// Every seat is bound and its capabilities followed: a touchscreen or mouse that appears adds a
/// device (`.deviceAdded`), one that goes cancels its touches and gesture and removes the device.
/// A `wl_touch.down` for an id whose touch was never lifted first cancels that touch, in a
/// frame of its own: the compositor lost it. sway 1.7 (wlroots 0.15) sends neither `up` nor
/// `cancel` for the touches of a touchscreen unplugged mid-touch while the seat keeps another
/// (wlroots issue 1997; measured by the compositor soak), so such a touch stays down until its
/// id comes back, and is then cancelled, never taken for a lift, and the new touch is a new
/// sequence the recognizers see.
/// An `InputEventSource`: its fd waits in the live loop's poll beside the engine's timer.
///
/// A connection can also be shared with the library that owns the window (`init(sharing:)`:
/// SDL's, a toolkit's): it then binds the seats again on an event queue of its own, and gets
/// the same touches that library gets, with the compositor's times, which SDL2 drops.
public final class WaylandConnection: InputEventSource {
    public let display: OpaquePointer
    /// With a shared display: this connection's own event queue (nil: the display is ours, and
    /// its default queue).
    private var queue: OpaquePointer?
    private var registry: OpaquePointer?
    public private(set) var compositor: OpaquePointer?
    public private(set) var shm: OpaquePointer?
    public private(set) var wmBase: OpaquePointer?
    public private(set) var pointerGestures: OpaquePointer?
    /// `zwp_tablet_manager_v2`, where the compositor offers it: pens.
    public private(set) var tabletManager: OpaquePointer?
    /// `wl_subcompositor`: surfaces inside a window's (a toolkit's decorations are such).
    public private(set) var subcompositor: OpaquePointer?
    /// The monitors (`wl_output`), with their scale and physical size.
    public private(set) var outputs: [WaylandOutput] = []
    /// `wp_viewporter` and `wp_fractional_scale_manager_v1`, where offered: a window drawn at a
    /// fractional scale (sway 1.8 and later, mutter, KWin).
    private(set) var viewporter: OpaquePointer?
    /// `wl_data_device_manager` (version 3: drag-and-drop actions), for `WaylandDragAndDrop`.
    private(set) var dataDeviceManager: OpaquePointer?
    private(set) var dataDeviceManagerVersion: UInt32 = 0
    /// The drag-and-drop bridges made on this connection, whose proxies go before it does.
    var dragAndDrops: [WeakDragAndDrop] = []
    struct WeakDragAndDrop { weak var bridge: WaylandDragAndDrop? }
    private(set) var fractionalScaleManager: OpaquePointer?
    /// `zxdg_output_manager_v1`, where offered: each output's size in points.
    private var xdgOutputManager: OpaquePointer?
    /// Windows to tell when an output's scale changes (weakly held).
    private var windows: [WeakWindow] = []
    private struct WeakWindow { weak var window: WaylandWindow? }

    func register(_ window: WaylandWindow) {
        windows.removeAll { $0.window == nil }
        windows.append(WeakWindow(window: window))
    }

    /// The output a surface proxy is, if it is one of ours.
    func output(for proxy: OpaquePointer?) -> WaylandOutput? {
        outputs.first { $0.proxy == proxy }
    }

    /// How many points a millimetre of the screen is, from the first output that says its
    /// physical size (nil on a virtual output, which says 0 × 0 mm): a touchscreen read
    /// through the compositor is announced with it (`InputDeviceInfo.pointsPerMillimetre`).
    public var pointsPerMillimetre: Double? { outputs.lazy.compactMap(\.pointsPerMillimetre).first }
    private var pointerGesturesVersion: UInt32 = 0
    public private(set) var seats: [WaylandSeat] = []
    private var pending: [InputEvent] = []
    private var nextSeatIndex = 0
    /// The time of the events the compositor gives none (cancellations, enter and leave): the
    /// last event's handed out, or now if later.
    private(set) var time = SourceTime()
    private var stamps = MillisecondStamps()
    private var closed = false

    /// Connects to the compositor named `name` (nil: `WAYLAND_DISPLAY`, else `wayland-0`) and
    /// binds its globals (one roundtrip); a second roundtrip collects the seats' capabilities.
    public init(display name: String? = nil) throws {
        guard let display = wl_display_connect(name) else {
            let shown = name ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
            throw WaylandError.cannotConnect(display: shown, errno: errno)
        }
        self.display = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, &Listeners.registry, Unmanaged.passUnretained(self).toOpaque())
        try roundtrip()
        try roundtrip()
        becomeReady()
    }

    /// Whether the first roundtrips are done (the seats' capabilities and the outputs' sizes
    /// known): devices are announced from then on.
    private(set) var isReady = false

    private func becomeReady() {
        isReady = true
        for seat in seats { seat.connectionReady() }
    }

    /// Input from a display connection another library made and keeps reading (SDL's, from
    /// `SDL_GetWindowWMInfo`): the seats are bound again on an event queue of this connection's
    /// own, so the compositor sends this client each touch twice, once to the library's
    /// `wl_touch` and once to this one's, with the compositor's times. The library reads the
    /// socket; `dispatchPending(into:)` runs what it read for this queue. Only seats are bound
    /// (no windows are made here). The display stays open when this connection ends.
    public init(sharing display: OpaquePointer) throws {
        self.display = display
        guard let queue = wl_display_create_queue(display) else {
            throw WaylandError.systemCallFailed(call: "wl_display_create_queue", errno: errno)
        }
        self.queue = queue
        // A wrapper puts the registry (and so every object bound from it) on this queue.
        guard let wrapper = wl_proxy_create_wrapper(UnsafeMutableRawPointer(display)) else {
            wl_event_queue_destroy(queue)
            throw WaylandError.systemCallFailed(call: "wl_proxy_create_wrapper", errno: errno)
        }
        wl_proxy_set_queue(OpaquePointer(wrapper), queue)
        registry = wl_display_get_registry(OpaquePointer(wrapper))
        wl_proxy_wrapper_destroy(wrapper)
        wl_registry_add_listener(registry, &Listeners.registry, Unmanaged.passUnretained(self).toOpaque())
        try roundtrip()
        try roundtrip()
        becomeReady()
    }

    deinit {
        disconnect()
    }

    /// Releases every proxy and closes the connection (idempotent). A shared display is left
    /// open for the library that owns it; this connection's queue goes.
    public func disconnect() {
        guard !closed else { return }
        closed = true
        for entry in dragAndDrops { entry.bridge?.destroyProxies() }
        dragAndDrops.removeAll()
        for seat in seats { seat.destroyProxies() }
        seats.removeAll()
        if let dataDeviceManager { wl_data_device_manager_destroy(dataDeviceManager) }
        if let pointerGestures { zwp_pointer_gestures_v1_destroy(pointerGestures) }
        if let tabletManager { zwp_tablet_manager_v2_destroy(tabletManager) }
        for output in outputs { output.destroy() }
        outputs.removeAll()
        if let viewporter { wp_viewporter_destroy(viewporter) }
        if let subcompositor { wl_subcompositor_destroy(subcompositor) }
        if let fractionalScaleManager { wp_fractional_scale_manager_v1_destroy(fractionalScaleManager) }
        if let xdgOutputManager { zxdg_output_manager_v1_destroy(xdgOutputManager) }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        if let queue {
            wl_event_queue_destroy(queue)
        } else {
            wl_display_disconnect(display)
        }
    }

    /// True when the display belongs to another library (`init(sharing:)`).
    public var isShared: Bool { queue != nil }

    public var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// Sends what is queued and waits for the compositor to answer it all.
    public func roundtrip() throws {
        let result = queue.map { wl_display_roundtrip_queue(display, $0) } ?? wl_display_roundtrip(display)
        if result < 0 { throw lostError() }
    }

    /// With a shared display: runs what the owning library already read from the socket for this
    /// connection's queue, without reading it (the library does), and hands over the converted
    /// events. Throws `connectionLost` when the compositor has gone.
    public func dispatchPending(into handler: (InputEvent) -> Void) throws {
        let result = queue.map { wl_display_dispatch_queue_pending(display, $0) } ?? wl_display_dispatch_pending(display)
        deliverPending(into: handler)
        if result < 0 { throw lostError() }
    }

    /// Reads what the compositor sent (without blocking), runs the callbacks, flushes requests
    /// made by them, and hands over the converted events. Throws `connectionLost` when the
    /// compositor has gone.
    public func dispatch(into handler: (InputEvent) -> Void) throws {
        if isShared { return try dispatchPending(into: handler) }
        var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let readable = poll(&pfd, 1, 0) > 0
        let result = readable ? wl_display_dispatch(display) : wl_display_dispatch_pending(display)
        let failed = result < 0 || (wl_display_flush(display) < 0 && errno != EAGAIN)
        deliverPending(into: handler)
        if failed { throw lostError() }
    }

    /// Hands over the converted events, and those their handling made (a drag handed to the
    /// compositor cancels the touch it takes: `WaylandDragAndDrop`), until none is left.
    private func deliverPending(into handler: (InputEvent) -> Void) {
        while !pending.isEmpty {
            let events = pending
            pending.removeAll(keepingCapacity: true)
            for event in events { handler(event) }
        }
    }

    private func lostError() -> WaylandError {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.flatMap { $0.pointee.name.map { String(cString: $0) } } ?? "?"
            return .connectionLost(errno: code, protocolError: "\(name)@\(id): error \(protocolCode)")
        }
        return .connectionLost(errno: code == 0 ? EPIPE : code, protocolError: nil)
    }

    /// The end of input: every seat's touches still down are cancelled (one frame), its gestures
    /// in progress cancelled, and its devices removed. For a connection that broke, or before
    /// closing one.
    public func cancelAll(into handler: (InputEvent) -> Void) {
        for seat in seats { seat.removeAll() }
        let events = pending
        pending.removeAll()
        for event in events { handler(event) }
    }

    /// A surface of this client is being destroyed: the touches on it are cancelled, and a
    /// gesture at the pointer on it too.
    /// The surfaces whose input this connection reads: nil (the default) reads every surface of
    /// the client, right for a plain window (`WaylandWindow`). An app whose toolkit draws
    /// decorations in surfaces of their own (libdecor's or GTK's title bar, as subsurfaces) sets
    /// its content surface here, and touches, the pointer and pens over the decorations are left
    /// to the toolkit: a touch that lands on another surface is no touch here for its whole
    /// life, the pointer over one is gone from the window (as when it leaves), a pen over one
    /// is not read until it comes in over a surface here.
    public var inputSurfaces: Set<OpaquePointer>?

    /// Whether input on `surface` is read here.
    func reads(_ surface: OpaquePointer?) -> Bool {
        guard let inputSurfaces else { return true }
        return surface.map { inputSurfaces.contains($0) } ?? false
    }

    public func surfaceDestroyed(_ surface: OpaquePointer) {
        for seat in seats { seat.cancel(on: surface) }
    }

    func emit(_ event: InputEvent) {
        time.note(event)
        pending.append(event)
    }

    /// The compositor's 32-bit millisecond timestamp as an instant on CLOCK_MONOTONIC
    /// (`MillisecondStamps`' rules).
    func instant(milliseconds raw: UInt32) -> Instant { stamps.instant(raw) }

    func allocateDeviceIDs() -> (touch: InputDeviceID, pointer: InputDeviceID) {
        // Each seat's touch and pointer get ids of their own (1, 2 for the first seat).
        defer { nextSeatIndex += 1 }
        return (InputDeviceID(nextSeatIndex * 2 + 1), InputDeviceID(nextSeatIndex * 2 + 2))
    }

    /// The highest `wl_seat` version bound: 9 where the libwayland header has the handler of
    /// `wl_pointer.axis_relative_direction` (1.22 and later: natural scrolling said), 8 where
    /// it has `axis_value120` (1.21), else 7. A compositor offering less is bound at what it
    /// offers (sway 1.7 offers 7: `axis_discrete` then counts a wheel's detents). Version 10
    /// changes nothing here and 11 adds `warp`: not bound.
    static let seatVersion: UInt32 = gk_pointer_listener_has_relative_direction() != 0 ? 9
        : gk_pointer_listener_has_value120() != 0 ? 8 : 7

    fileprivate func global(name: UInt32, interface: String, version: UInt32) {
        // Sharing another library's display: its seats and their pointer gestures only (that
        // library makes the windows and answers the compositor's pings).
        if isShared && interface != "wl_seat" && interface != "zwp_pointer_gestures_v1"
            && interface != "zwp_tablet_manager_v2" && interface != "wl_output"
            && interface != "zxdg_output_manager_v1" { return }
        switch interface {
        case "wl_compositor":
            compositor = bind(name, wl_compositor_interface_ptr(), min(version, 4))
        case "wl_shm":
            shm = bind(name, wl_shm_interface_ptr(), 1)
        case "xdg_wm_base":
            wmBase = bind(name, xdg_wm_base_interface_ptr(), min(version, 2))
            if let wmBase {
                xdg_wm_base_add_listener(wmBase, &Listeners.wmBase, nil)
            }
        case "zwp_pointer_gestures_v1":
            pointerGesturesVersion = min(version, 3)
            pointerGestures = bind(name, zwp_pointer_gestures_v1_interface_ptr(), pointerGesturesVersion)
            for seat in seats { seat.updateGestures() }
        case "wl_output":
            guard let proxy = bind(name, wl_output_interface_ptr(), min(version, 3)) else { return }
            let output = WaylandOutput(proxy: proxy, globalName: name, version: min(version, 3))
            output.onChange = { [unowned self] in
                for entry in windows { entry.window?.outputsChanged() }
            }
            outputs.append(output)
            if let xdgOutputManager { output.readLogicalSize(xdgOutputManager) }
        case "zxdg_output_manager_v1":
            // Version 3: `wl_output.done` ends a change of the logical size too.
            xdgOutputManager = bind(name, zxdg_output_manager_v1_interface_ptr(), min(version, 3))
            if let xdgOutputManager { for output in outputs { output.readLogicalSize(xdgOutputManager) } }
        case "wl_data_device_manager":
            dataDeviceManagerVersion = min(version, 3)
            dataDeviceManager = bind(name, wl_data_device_manager_interface_ptr(), dataDeviceManagerVersion)
        case "wl_subcompositor":
            subcompositor = bind(name, wl_subcompositor_interface_ptr(), 1)
        case "wp_viewporter":
            viewporter = bind(name, wp_viewporter_interface_ptr(), 1)
        case "wp_fractional_scale_manager_v1":
            fractionalScaleManager = bind(name, wp_fractional_scale_manager_v1_interface_ptr(), 1)
        case "zwp_tablet_manager_v2":
            tabletManager = bind(name, zwp_tablet_manager_v2_interface_ptr(), 1)
            for seat in seats { seat.updateTablets() }
        case "wl_seat":
            let bound = min(version, Self.seatVersion)
            guard let proxy = bind(name, wl_seat_interface_ptr(), bound) else { return }
            let seat = WaylandSeat(connection: self, proxy: proxy, globalName: name, version: bound)
            seats.append(seat)
            seat.updateTablets()
        default:
            break
        }
    }

    fileprivate func globalRemoved(name: UInt32) {
        if let index = seats.firstIndex(where: { $0.globalName == name }) {
            let seat = seats.remove(at: index)
            seat.removeAll()
            seat.destroyProxies()
        }
        if let index = outputs.firstIndex(where: { $0.globalName == name }) {
            let output = outputs.remove(at: index)
            for entry in windows { entry.window?.left(output) }
            output.destroy()
        }
    }

    private func bind(_ name: UInt32, _ interface: UnsafePointer<wl_interface>, _ version: UInt32) -> OpaquePointer? {
        wl_registry_bind(registry, name, interface, version).map { OpaquePointer($0) }
    }

    /// The gesture objects for a pointer, if the compositor has pointer gestures.
    func gestureProxies(for pointer: OpaquePointer) -> (pinch: OpaquePointer?, swipe: OpaquePointer?, hold: OpaquePointer?) {
        guard let pointerGestures else { return (nil, nil, nil) }
        let hold = pointerGesturesVersion >= 3 ? zwp_pointer_gestures_v1_get_hold_gesture(pointerGestures, pointer) : nil
        return (zwp_pointer_gestures_v1_get_pinch_gesture(pointerGestures, pointer),
                zwp_pointer_gestures_v1_get_swipe_gesture(pointerGestures, pointer), hold)
    }
}

private func wl_compositor_interface_ptr() -> UnsafePointer<wl_interface> { gesturekit_wl_compositor_interface() }
private func wl_shm_interface_ptr() -> UnsafePointer<wl_interface> { gesturekit_wl_shm_interface() }
private func wl_seat_interface_ptr() -> UnsafePointer<wl_interface> { gesturekit_wl_seat_interface() }
private func xdg_wm_base_interface_ptr() -> UnsafePointer<wl_interface> { gesturekit_xdg_wm_base_interface() }
private func wl_output_interface_ptr() -> UnsafePointer<wl_interface> { gesturekit_wl_output_interface() }
private func wl_data_device_manager_interface_ptr() -> UnsafePointer<wl_interface> {
    gesturekit_wl_data_device_manager_interface()
}
private func wl_subcompositor_interface_ptr() -> UnsafePointer<wl_interface> { gesturekit_wl_subcompositor_interface() }
private func wp_viewporter_interface_ptr() -> UnsafePointer<wl_interface> { gesturekit_wp_viewporter_interface() }
private func wp_fractional_scale_manager_v1_interface_ptr() -> UnsafePointer<wl_interface> {
    gesturekit_wp_fractional_scale_manager_v1_interface()
}
private func zxdg_output_manager_v1_interface_ptr() -> UnsafePointer<wl_interface> {
    gesturekit_zxdg_output_manager_v1_interface()
}
private func zwp_tablet_manager_v2_interface_ptr() -> UnsafePointer<wl_interface> {
    gesturekit_zwp_tablet_manager_v2_interface()
}
private func zwp_pointer_gestures_v1_interface_ptr() -> UnsafePointer<wl_interface> {
    gesturekit_zwp_pointer_gestures_v1_interface()
}

/// The C listener tables (static storage: libwayland keeps their addresses), zeroed and filled
/// field by field as `SeatListeners` says why.
enum Listeners {
    nonisolated(unsafe) static var registry: wl_registry_listener = {
        var listener = wl_registry_listener()
        listener.global = { data, _, name, interface, version in
            guard let data, let interface else { return }
            Unmanaged<WaylandConnection>.fromOpaque(data).takeUnretainedValue()
                .global(name: name, interface: String(cString: interface), version: version)
        }
        listener.global_remove = { data, _, name in
            guard let data else { return }
            Unmanaged<WaylandConnection>.fromOpaque(data).takeUnretainedValue().globalRemoved(name: name)
        }
        return listener
    }()

    nonisolated(unsafe) static var wmBase: xdg_wm_base_listener = {
        var listener = xdg_wm_base_listener()
        listener.ping = { _, base, serial in xdg_wm_base_pong(base, serial) }
        return listener
    }()
}
