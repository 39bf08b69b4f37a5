import CWaylandClient
import CWaylandProtocols
import GestureKit
import GestureInput
#if canImport(Glibc)
import Glibc
#endif

/// One `wl_seat`: its touch and pointer (taken and released as its capabilities come and go)
/// and the pointer's gestures, converted for the engine.
public final class WaylandSeat {
    unowned let connection: WaylandConnection
    let proxy: OpaquePointer
    let globalName: UInt32
    let version: UInt32
    /// The seat's name (`wl_seat.name`), once the compositor says it.
    public private(set) var name = "seat"
    public let touchDevice: InputDeviceID
    public let pointerDevice: InputDeviceID
    private var touch: OpaquePointer?
    private var pointer: OpaquePointer?
    private var pinch: OpaquePointer?
    private var swipe: OpaquePointer?
    private var hold: OpaquePointer?

    // Touch state: touches down (id → surface, location) and the changes of the current frame.
    private var touches: [Int32: (surface: OpaquePointer?, location: Point)] = [:]
    private var frameChanges: [TouchChange] = []
    private var frameTime: Instant?

    // Pointer state.
    /// Where the pointer is on the surface it is over, in surface coordinates.
    public private(set) var pointerLocation = Point.zero
    private var pointerSurface: OpaquePointer?
    private var axisDelta = Point.zero
    private var axisSource: UInt32?
    private var axisStopped = false
    private var axisTime: Instant?
    private var axisSeen = false
    private var gesture: TouchpadGestureEvent?

    init(connection: WaylandConnection, proxy: OpaquePointer, globalName: UInt32, version: UInt32) {
        self.connection = connection
        self.proxy = proxy
        self.globalName = globalName
        self.version = version
        (touchDevice, pointerDevice) = connection.allocateDeviceIDs()
        wl_seat_add_listener(proxy, &SeatListeners.seat, Unmanaged.passUnretained(self).toOpaque())
    }

    func destroyProxies() {
        releaseTouch()
        releasePointer()
        if version >= 5 { wl_seat_release(proxy) } else { wl_seat_destroy(proxy) }
    }

    private var data: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    fileprivate func capabilities(_ caps: UInt32) {
        let hasTouch = caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
        let hasPointer = caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        if hasTouch, touch == nil {
            touch = wl_seat_get_touch(proxy)
            wl_touch_add_listener(touch, &SeatListeners.touch, data)
            connection.emit(.deviceAdded(info(touchDevice, kind: .touchscreen, capability: .touch)))
        } else if !hasTouch, touch != nil {
            cancelTouches()
            releaseTouch()
            connection.emit(.deviceRemoved(touchDevice, time: nil))
        }
        if hasPointer, pointer == nil {
            pointer = wl_seat_get_pointer(proxy)
            wl_pointer_add_listener(pointer, &SeatListeners.pointer, data)
            updateGestures()
            connection.emit(.deviceAdded(info(pointerDevice, kind: .pointer, capability: .pointer)))
        } else if !hasPointer, pointer != nil {
            cancelGesture()
            releasePointer()
            connection.emit(.deviceRemoved(pointerDevice, time: nil))
        }
    }

    /// Cancels everything in progress and removes the seat's devices (the connection ends).
    func removeAll() {
        if touch != nil {
            cancelTouches()
            connection.emit(.deviceRemoved(touchDevice, time: nil))
        }
        if pointer != nil {
            cancelGesture()
            connection.emit(.deviceRemoved(pointerDevice, time: nil))
        }
    }

    private func info(_ id: InputDeviceID, kind: InputDeviceKind, capability: InputDeviceCapability) -> InputDeviceInfo {
        InputDeviceInfo(id: id, name: "\(name) \(kind == .touchscreen ? "wl_touch" : "wl_pointer")",
                           systemName: "wayland", kind: kind, capabilities: [capability], sizeMillimeters: nil)
    }

    private func releaseTouch() {
        guard let touch else { return }
        if version >= 3 { wl_touch_release(touch) } else { wl_touch_destroy(touch) }
        self.touch = nil
        touches.removeAll()
        frameChanges.removeAll()
    }

    private func releasePointer() {
        if let pinch { zwp_pointer_gesture_pinch_v1_destroy(pinch) }
        if let swipe { zwp_pointer_gesture_swipe_v1_destroy(swipe) }
        if let hold { zwp_pointer_gesture_hold_v1_destroy(hold) }
        (pinch, swipe, hold) = (nil, nil, nil)
        guard let pointer else { return }
        if version >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) }
        self.pointer = nil
        pointerSurface = nil
    }

    func updateGestures() {
        guard let pointer, pinch == nil else { return }
        let proxies = connection.gestureProxies(for: pointer)
        (pinch, swipe, hold) = proxies
        if let pinch { zwp_pointer_gesture_pinch_v1_add_listener(pinch, &SeatListeners.pinch, data) }
        if let swipe { zwp_pointer_gesture_swipe_v1_add_listener(swipe, &SeatListeners.swipe, data) }
        if let hold { zwp_pointer_gesture_hold_v1_add_listener(hold, &SeatListeners.hold, data) }
    }

    // MARK: touch

    fileprivate func touchDown(time: UInt32, surface: OpaquePointer?, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        let location = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        touches[id] = (surface, location)
        frameTime = connection.instant(milliseconds: time)
        frameChanges.append(TouchChange(sourceID: Int(id), phase: .began, location: location))
    }

    fileprivate func touchMotion(time: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard let surface = touches[id]?.surface else { return }
        let location = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        touches[id] = (surface, location)
        frameTime = connection.instant(milliseconds: time)
        frameChanges.append(TouchChange(sourceID: Int(id), phase: .moved, location: location))
    }

    fileprivate func touchUp(time: UInt32, id: Int32) {
        guard let down = touches.removeValue(forKey: id) else { return }
        frameTime = connection.instant(milliseconds: time)
        frameChanges.append(TouchChange(sourceID: Int(id), phase: .ended, location: down.location))
    }

    fileprivate func touchFrame() {
        guard !frameChanges.isEmpty else { return }
        let time = frameTime ?? connection.cancellationTime
        connection.emit(.touchFrame(TouchFrame(time: time, device: touchDevice, deviceKind: .touchscreen,
                                               changes: frameChanges)))
        frameChanges.removeAll(keepingCapacity: true)
    }

    /// `wl_touch.cancel`, a lost touch capability, the end of the connection: every touch
    /// down (and the changes of an unfinished frame) is cancelled in one frame.
    fileprivate func cancelTouches(where keep: ((OpaquePointer?) -> Bool)? = nil) {
        frameChanges.removeAll()
        var changes: [TouchChange] = []
        for (id, touch) in touches.sorted(by: { $0.key < $1.key }) where keep?(touch.surface) ?? true {
            changes.append(TouchChange(sourceID: Int(id), phase: .cancelled, location: touch.location))
            touches[id] = nil
        }
        guard !changes.isEmpty else { return }
        connection.emit(.touchFrame(TouchFrame(time: connection.cancellationTime, device: touchDevice,
                                               deviceKind: .touchscreen, changes: changes)))
    }

    func cancel(on surface: OpaquePointer) {
        cancelTouches(where: { $0 == surface })
        if pointerSurface == surface {
            cancelGesture()
            pointerSurface = nil
        }
    }

    // MARK: pointer

    fileprivate func pointerEnter(surface: OpaquePointer?, x: wl_fixed_t, y: wl_fixed_t) {
        pointerSurface = surface
        pointerLocation = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        // enter carries no time: the motion happens at the last event's time.
        connection.emit(.pointer(.motion(to: pointerLocation, at: connection.cancellationTime, device: pointerDevice)))
    }

    fileprivate func pointerLeave(surface: OpaquePointer?) {
        cancelGesture()
        pointerSurface = nil
    }

    fileprivate func pointerMotion(time: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        pointerLocation = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        connection.emit(.pointer(.motion(to: pointerLocation, at: connection.instant(milliseconds: time),
                                         device: pointerDevice)))
    }

    fileprivate func pointerButton(time: UInt32, button: UInt32, state: UInt32) {
        let pressed = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue
        connection.emit(.pointer(.button(pressed, at: pointerLocation, time: connection.instant(milliseconds: time),
                                         device: pointerDevice, button: Int(button))))
    }

    fileprivate func pointerAxis(time: UInt32, axis: UInt32, value: wl_fixed_t) {
        let v = wl_fixed_to_double(value)
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { axisDelta.y += v } else { axisDelta.x += v }
        axisTime = connection.instant(milliseconds: time)
        axisSeen = true
        if version < 5 { pointerFrame() }   // no frames before version 5: each axis event is one
    }

    fileprivate func pointerAxisSource(_ source: UInt32) { axisSource = source }

    fileprivate func pointerAxisStop(time: UInt32) {
        axisStopped = true
        axisTime = connection.instant(milliseconds: time)
        axisSeen = true
    }

    /// `wl_pointer.frame`: the axis events of the frame become one scroll. A wheel's values
    /// (15 a detent, positive turning it back) are negated, so the translation has the sign of
    /// dragging the content, as from libinput; a finger or continuous scroll follows the fingers
    /// as it is, and its `axis_stop` ends the scroll.
    fileprivate func pointerFrame() {
        defer {
            axisDelta = .zero
            axisSource = nil
            axisStopped = false
            axisTime = nil
            axisSeen = false
        }
        guard axisSeen, let time = axisTime else { return }
        let continuous = axisSource == WL_POINTER_AXIS_SOURCE_FINGER.rawValue
            || axisSource == WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue
        let sign = continuous ? 1.0 : -1.0
        let delta = Point(x: sign * axisDelta.x, y: sign * axisDelta.y)
        if !continuous && delta == .zero { return }
        connection.emit(.pointer(.scroll(delta, continuous ? .continuous : .discrete, at: pointerLocation,
                                         time: time, device: pointerDevice, stop: continuous && axisStopped)))
    }

    // MARK: gestures

    fileprivate func gestureEvent(_ kind: TouchpadGestureEvent.Kind, _ phase: TouchpadGestureEvent.Phase,
                                  time: UInt32, fingers: UInt32? = nil, scale: Double = 1,
                                  rotation: Double = 0, delta: Point = .zero) {
        let t = connection.instant(milliseconds: time)
        var event = TouchpadGestureEvent(kind: kind, phase: phase, time: t, device: pointerDevice,
                                         fingers: fingers.map(Int.init) ?? gesture?.fingers ?? 0,
                                         location: pointerLocation, scale: scale, angleDelta: rotation,
                                         delta: delta)
        if phase == .end || phase == .cancel, let begun = gesture {
            // end carries no scale: the last update's stands.
            event.scale = begun.scale
        }
        switch phase {
        case .begin: gesture = event
        case .update: gesture = event
        case .end, .cancel: gesture = nil
        }
        connection.emit(.touchpadGesture(event))
    }

    fileprivate func cancelGesture() {
        guard var g = gesture else { return }
        gesture = nil
        g.phase = .cancel
        g.time = connection.cancellationTime
        g.location = pointerLocation
        g.angleDelta = 0
        g.delta = .zero
        connection.emit(.touchpadGesture(g))
    }

    fileprivate func setName(_ name: String) { self.name = name }
}

private func seat(_ data: UnsafeMutableRawPointer?) -> WaylandSeat {
    Unmanaged<WaylandSeat>.fromOpaque(data!).takeUnretainedValue()
}

/// The C listener tables of a seat's objects (static storage: libwayland keeps their addresses).
///
/// Every table starts zeroed and is filled field by field, by name: an imported C struct's
/// all-fields initializer ties the code to one libwayland version, since a newer header adds
/// fields (libwayland 1.22 added `wl_pointer_listener.axis_relative_direction`; 1.26 has `warp`
/// too) and an older one lacks some (1.20 has no `axis_value120`). A field left zero must belong
/// to an event the compositor never sends at the version bound: libwayland aborts on a NULL
/// handler. The seat is bound at version 7 at most (`WaylandConnection.seatVersion`), so
/// `wl_pointer`'s `axis_value120` (8), `axis_relative_direction` (9) and `warp` (11) stay zero
/// (ListenerTableTests checks it against the header the package was built with).
enum SeatListeners {
    nonisolated(unsafe) static var seat: wl_seat_listener = {
        var listener = wl_seat_listener()
        listener.capabilities = { data, _, caps in GestureWayland.seat(data).capabilities(caps) }
        listener.name = { data, _, name in
            if let name { GestureWayland.seat(data).setName(String(cString: name)) }
        }
        return listener
    }()

    nonisolated(unsafe) static var touch: wl_touch_listener = {
        var listener = wl_touch_listener()
        listener.down = { data, _, _, time, surface, id, x, y in
            GestureWayland.seat(data).touchDown(time: time, surface: surface, id: id, x: x, y: y)
        }
        listener.up = { data, _, _, time, id in GestureWayland.seat(data).touchUp(time: time, id: id) }
        listener.motion = { data, _, time, id, x, y in GestureWayland.seat(data).touchMotion(time: time, id: id, x: x, y: y) }
        listener.frame = { data, _ in GestureWayland.seat(data).touchFrame() }
        listener.cancel = { data, _ in GestureWayland.seat(data).cancelTouches() }
        listener.shape = { _, _, _, _, _ in }
        listener.orientation = { _, _, _, _ in }
        return listener
    }()

    nonisolated(unsafe) static var pointer: wl_pointer_listener = {
        var listener = wl_pointer_listener()
        listener.enter = { data, _, _, surface, x, y in GestureWayland.seat(data).pointerEnter(surface: surface, x: x, y: y) }
        listener.leave = { data, _, _, surface in GestureWayland.seat(data).pointerLeave(surface: surface) }
        listener.motion = { data, _, time, x, y in GestureWayland.seat(data).pointerMotion(time: time, x: x, y: y) }
        listener.button = { data, _, _, time, button, state in
            GestureWayland.seat(data).pointerButton(time: time, button: button, state: state)
        }
        listener.axis = { data, _, time, axis, value in GestureWayland.seat(data).pointerAxis(time: time, axis: axis, value: value) }
        listener.frame = { data, _ in GestureWayland.seat(data).pointerFrame() }
        listener.axis_source = { data, _, source in GestureWayland.seat(data).pointerAxisSource(source) }
        listener.axis_stop = { data, _, time, _ in GestureWayland.seat(data).pointerAxisStop(time: time) }
        listener.axis_discrete = { _, _, _, _ in }
        return listener
    }()

    nonisolated(unsafe) static var pinch: zwp_pointer_gesture_pinch_v1_listener = {
        var listener = zwp_pointer_gesture_pinch_v1_listener()
        listener.begin = { data, _, _, time, _, fingers in
            GestureWayland.seat(data).gestureEvent(.pinch, .begin, time: time, fingers: fingers)
        }
        listener.update = { data, _, time, dx, dy, scale, rotation in
            GestureWayland.seat(data).gestureEvent(.pinch, .update, time: time, scale: wl_fixed_to_double(scale),
                                                   rotation: wl_fixed_to_double(rotation),
                                                   delta: Point(x: wl_fixed_to_double(dx), y: wl_fixed_to_double(dy)))
        }
        listener.end = { data, _, _, time, cancelled in
            GestureWayland.seat(data).gestureEvent(.pinch, cancelled != 0 ? .cancel : .end, time: time)
        }
        return listener
    }()

    nonisolated(unsafe) static var swipe: zwp_pointer_gesture_swipe_v1_listener = {
        var listener = zwp_pointer_gesture_swipe_v1_listener()
        listener.begin = { data, _, _, time, _, fingers in
            GestureWayland.seat(data).gestureEvent(.swipe, .begin, time: time, fingers: fingers)
        }
        listener.update = { data, _, time, dx, dy in
            GestureWayland.seat(data).gestureEvent(.swipe, .update, time: time,
                                                   delta: Point(x: wl_fixed_to_double(dx), y: wl_fixed_to_double(dy)))
        }
        listener.end = { data, _, _, time, cancelled in
            GestureWayland.seat(data).gestureEvent(.swipe, cancelled != 0 ? .cancel : .end, time: time)
        }
        return listener
    }()

    nonisolated(unsafe) static var hold: zwp_pointer_gesture_hold_v1_listener = {
        var listener = zwp_pointer_gesture_hold_v1_listener()
        listener.begin = { data, _, _, time, _, fingers in
            GestureWayland.seat(data).gestureEvent(.hold, .begin, time: time, fingers: fingers)
        }
        listener.end = { data, _, _, time, cancelled in
            GestureWayland.seat(data).gestureEvent(.hold, cancelled != 0 ? .cancel : .end, time: time)
        }
        return listener
    }()
}
