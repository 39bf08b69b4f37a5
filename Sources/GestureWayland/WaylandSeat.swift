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

    // Touch state: touches down (id → surface, location) and the changes of the current
    // frame, each with its own event's time.
    private var touches: [Int32: (surface: OpaquePointer?, location: Point)] = [:]
    private var frameChanges: [(time: Instant, change: TouchChange)] = []

    /// The serial of the latest button press or touch down, with which an app asks the
    /// compositor for what needs a recent input (`xdg_toplevel.move`, a popup's grab).
    public private(set) var lastInputSerial: UInt32?
    /// Devices found before the seat said its name (announced once it does, or before their
    /// first event).
    private var pendingAnnouncements: [InputDeviceInfo] = []
    private var nameKnown = false

    // Pointer state.
    /// Where the pointer is on the surface it is over, in surface coordinates.
    public private(set) var pointerLocation = Point.zero
    private var pointerSurface: OpaquePointer?
    private var axisDelta = Point.zero
    /// A frame's wheel detents: `axis_value120` (wl_seat 8 and later, 120 a detent) or
    /// `axis_discrete` (5 to 7, whole detents, as 120 each), per axis.
    private var axisValue120 = Point.zero
    private var axisHasValue120 = (x: false, y: false)
    /// `axis_relative_direction` (wl_seat 9): the compositor inverted the axis (natural
    /// scrolling).
    private var axisInverted = (x: false, y: false)
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
            announce(info(touchDevice, kind: .touchscreen, capability: .touch))
        } else if !hasTouch, touch != nil {
            cancelTouches()
            releaseTouch()
            remove(touchDevice)
        }
        if hasPointer, pointer == nil {
            pointer = wl_seat_get_pointer(proxy)
            wl_pointer_add_listener(pointer, &SeatListeners.pointer, data)
            updateGestures()
            announce(info(pointerDevice, kind: .pointer, capability: .pointer))
        } else if !hasPointer, pointer != nil {
            cancelGesture()
            releasePointer()
            remove(pointerDevice)
        }
    }

    /// A device found: announced now if the seat has said its name (or cannot: version 1),
    /// else when it does, or before the device's first event.
    private func announce(_ device: InputDeviceInfo) {
        if nameKnown || version < 2 {
            connection.emit(.deviceAdded(device))
        } else {
            pendingAnnouncements.append(device)
        }
    }

    private func remove(_ device: InputDeviceID) {
        if let i = pendingAnnouncements.firstIndex(where: { $0.id == device }) {
            pendingAnnouncements.remove(at: i)
            return
        }
        connection.emit(.deviceRemoved(device, time: nil))
    }

    /// Hands an input event on, after the announcements still waiting for the seat's name.
    private func send(_ event: InputEvent) {
        if !pendingAnnouncements.isEmpty {
            for device in pendingAnnouncements { connection.emit(.deviceAdded(device)) }
            pendingAnnouncements.removeAll()
        }
        connection.emit(event)
    }

    /// Cancels everything in progress and removes the seat's devices (the connection ends).
    func removeAll() {
        if touch != nil {
            cancelTouches()
            remove(touchDevice)
        }
        if pointer != nil {
            cancelGesture()
            remove(pointerDevice)
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

    fileprivate func touchDown(serial: UInt32, time: UInt32, surface: OpaquePointer?, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        let location = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        lastInputSerial = serial
        touches[id] = (surface, location)
        frameChanges.append((connection.instant(milliseconds: time), TouchChange(sourceID: Int(id), phase: .began, location: location)))
    }

    fileprivate func touchMotion(time: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard let surface = touches[id]?.surface else { return }
        let location = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        touches[id] = (surface, location)
        frameChanges.append((connection.instant(milliseconds: time), TouchChange(sourceID: Int(id), phase: .moved, location: location)))
    }

    /// A touch lifted. The last one lifting is delivered at once, without waiting for the
    /// frame, as GTK and SDL deliver a lift: weston 10 sends no `wl_touch.frame` after the last
    /// `up` (its touch focus is gone by then), and a tap would otherwise stay down.
    fileprivate func touchUp(time: UInt32, id: Int32) {
        guard let down = touches.removeValue(forKey: id) else { return }
        frameChanges.append((connection.instant(milliseconds: time), TouchChange(sourceID: Int(id), phase: .ended, location: down.location)))
        if touches.isEmpty { touchFrame() }
    }

    /// `wl_touch.frame`: the frame's changes become touch frames. A compositor that merges
    /// several hardware frames into one (a touch moving twice in it) gives one touch frame per
    /// hardware frame, each at the time of its own last event, so no velocity sample is lost.
    fileprivate func touchFrame() {
        guard !frameChanges.isEmpty else { return }
        var changes: [TouchChange] = []
        var time = frameChanges[0].time
        for (t, change) in frameChanges {
            if changes.contains(where: { $0.sourceID == change.sourceID }) {
                send(.touchFrame(TouchFrame(time: time, device: touchDevice, deviceKind: .touchscreen, changes: changes)))
                changes.removeAll(keepingCapacity: true)
            }
            changes.append(change)
            time = t
        }
        send(.touchFrame(TouchFrame(time: time, device: touchDevice, deviceKind: .touchscreen, changes: changes)))
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
        send(.touchFrame(TouchFrame(time: connection.cancellationTime, device: touchDevice,
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
        send(.pointer(.motion(to: pointerLocation, at: connection.cancellationTime, device: pointerDevice)))
    }

    /// The pointer left the window: a gesture under way is cancelled, hovering ends, and a
    /// button still held (a grab the compositor broke) is let go of: its touch is cancelled.
    fileprivate func pointerLeave(surface: OpaquePointer?) {
        cancelGesture()
        pointerSurface = nil
        send(.pointer(.leave(at: pointerLocation, time: connection.cancellationTime, device: pointerDevice)))
    }

    fileprivate func pointerMotion(time: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        pointerLocation = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        send(.pointer(.motion(to: pointerLocation, at: connection.instant(milliseconds: time),
                              device: pointerDevice)))
    }

    fileprivate func pointerButton(serial: UInt32, time: UInt32, button: UInt32, state: UInt32) {
        let pressed = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue
        if pressed { lastInputSerial = serial }
        send(.pointer(.button(pressed, at: pointerLocation, time: connection.instant(milliseconds: time),
                              device: pointerDevice, button: Int(button))))
    }

    fileprivate func pointerAxis(time: UInt32, axis: UInt32, value: wl_fixed_t) {
        let v = wl_fixed_to_double(value)
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { axisDelta.y += v } else { axisDelta.x += v }
        axisTime = connection.instant(milliseconds: time)
        axisSeen = true
        if version < 5 { pointerFrame() }   // no frames before version 5: each axis event is one
    }

    /// `axis_discrete` (versions 5 to 7): whole detents, counted as 120 each.
    fileprivate func pointerAxisDiscrete(axis: UInt32, discrete: Int32) {
        pointerAxisValue120(axis: axis, value120: discrete &* 120)
    }

    /// `axis_value120` (version 8 and later): a wheel's turn, 120 a detent.
    fileprivate func pointerAxisValue120(axis: UInt32, value120: Int32) {
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue {
            axisValue120.y += Double(value120)
            axisHasValue120.y = true
        } else {
            axisValue120.x += Double(value120)
            axisHasValue120.x = true
        }
    }

    /// `axis_relative_direction` (version 9): whether the compositor inverted the axis
    /// (natural scrolling), so that its values run against the fingers or the wheel.
    fileprivate func pointerAxisRelativeDirection(axis: UInt32, direction: UInt32) {
        let inverted = direction == 1   // WL_POINTER_AXIS_RELATIVE_DIRECTION_INVERTED
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { axisInverted.y = inverted } else { axisInverted.x = inverted }
    }

    fileprivate func pointerAxisSource(_ source: UInt32) { axisSource = source }

    fileprivate func pointerAxisStop(time: UInt32) {
        axisStopped = true
        axisTime = connection.instant(milliseconds: time)
        axisSeen = true
    }

    /// `wl_pointer.frame`: the axis events of the frame become one scroll, as libinput's
    /// would be, whatever the compositor:
    /// - a wheel's distance comes from its detents where the compositor says them
    ///   (`axis_value120`, or `axis_discrete` below version 8), `GestureDefaults.wheelPointsPerDetent`
    ///   a detent: mutter's axis values are 10 a detent, wlroots' 15; without detents (KWin
    ///   nested), from the axis value;
    /// - an axis the compositor inverted (`axis_relative_direction`: natural scrolling, GNOME's
    ///   touchpad default) is turned back first, so the direction is the hand's;
    /// - a wheel's values (positive turning it back) are then negated, so the translation has
    ///   the sign of dragging the content, as from libinput; a finger or continuous scroll
    ///   follows the fingers as it is, and its `axis_stop` ends the scroll.
    fileprivate func pointerFrame() {
        defer {
            axisDelta = .zero
            axisValue120 = .zero
            axisHasValue120 = (false, false)
            axisInverted = (false, false)
            axisSource = nil
            axisStopped = false
            axisTime = nil
            axisSeen = false
        }
        guard axisSeen, let time = axisTime else { return }
        let continuous = axisSource == WL_POINTER_AXIS_SOURCE_FINGER.rawValue
            || axisSource == WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue
        var raw = axisDelta
        if !continuous {
            let perUnit = GestureDefaults.wheelPointsPerDetent / 120
            if axisHasValue120.x { raw.x = axisValue120.x * perUnit }
            if axisHasValue120.y { raw.y = axisValue120.y * perUnit }
        }
        if axisInverted.x { raw.x = -raw.x }
        if axisInverted.y { raw.y = -raw.y }
        let sign = continuous ? 1.0 : -1.0
        let delta = Point(x: sign * raw.x, y: sign * raw.y)
        if !continuous && delta == .zero { return }
        send(.pointer(.scroll(delta, continuous ? .continuous : .discrete, at: pointerLocation,
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
        send(.touchpadGesture(event))
    }

    fileprivate func cancelGesture() {
        guard var g = gesture else { return }
        gesture = nil
        g.phase = .cancel
        g.time = connection.cancellationTime
        g.location = pointerLocation
        g.angleDelta = 0
        g.delta = .zero
        send(.touchpadGesture(g))
    }

    /// The seat's name: devices found before it are announced under it now.
    fileprivate func setName(_ name: String) {
        self.name = name
        nameKnown = true
        for i in pendingAnnouncements.indices {
            let device = pendingAnnouncements[i]
            let kind = device.kind ?? .pointer
            pendingAnnouncements[i] = info(device.id, kind: kind, capability: device.capabilities.first ?? .pointer)
        }
        if !pendingAnnouncements.isEmpty {
            for device in pendingAnnouncements { connection.emit(.deviceAdded(device)) }
            pendingAnnouncements.removeAll()
        }
    }
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
/// handler. `axis_value120` (8) and `axis_relative_direction` (9) are set through C helpers
/// that set them where the header has them, and the seat is bound no higher than the header
/// allows (`WaylandConnection.seatVersion`); `warp` (11) stays zero (ListenerTableTests checks
/// it against the header the package was built with).
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
        listener.down = { data, _, serial, time, surface, id, x, y in
            GestureWayland.seat(data).touchDown(serial: serial, time: time, surface: surface, id: id, x: x, y: y)
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
        listener.button = { data, _, serial, time, button, state in
            GestureWayland.seat(data).pointerButton(serial: serial, time: time, button: button, state: state)
        }
        listener.axis = { data, _, time, axis, value in GestureWayland.seat(data).pointerAxis(time: time, axis: axis, value: value) }
        listener.frame = { data, _ in GestureWayland.seat(data).pointerFrame() }
        listener.axis_source = { data, _, source in GestureWayland.seat(data).pointerAxisSource(source) }
        listener.axis_stop = { data, _, time, _ in GestureWayland.seat(data).pointerAxisStop(time: time) }
        listener.axis_discrete = { data, _, axis, discrete in
            GestureWayland.seat(data).pointerAxisDiscrete(axis: axis, discrete: discrete)
        }
        gk_pointer_listener_set_value120(&listener) { data, _, axis, value120 in
            GestureWayland.seat(data).pointerAxisValue120(axis: axis, value120: value120)
        }
        gk_pointer_listener_set_relative_direction(&listener) { data, _, axis, direction in
            GestureWayland.seat(data).pointerAxisRelativeDirection(axis: axis, direction: direction)
        }
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
