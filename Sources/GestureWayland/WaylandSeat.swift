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
    /// The seat's name (`wl_seat.name`), once the compositor says it; until then, or when it
    /// says an empty one (KWin 5.27 does, measured), "wl_seat" and the seat's global number.
    public private(set) var name: String
    public let touchDevice: InputDeviceID
    public let pointerDevice: InputDeviceID
    /// The seat's keyboard (its modifier keys: `InputEvent.modifiers`).
    public let keyboardDevice: InputDeviceID
    /// The seat's pens (its tablets' tools, `zwp_tablet_v2`).
    public let penDevice: InputDeviceID
    private var tabletSeat: WaylandTabletSeat?
    private var touch: OpaquePointer?
    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    private var keymap: WaylandKeymap?
    private var keyboardFlags: ModifierFlags = []
    private var pinch: OpaquePointer?
    private var swipe: OpaquePointer?
    private var hold: OpaquePointer?

    // Touch state: touches down (id → surface, location) and the changes of the current
    // `wl_touch.frame`, each with its own event's time.
    private var touches: [Int32: (surface: OpaquePointer?, location: Point)] = [:]
    private var touchFrameSplit = TouchFrameSplit()

    /// The serial of the latest button press or touch down, with which an app asks the
    /// compositor for what needs a recent input (`xdg_toplevel.move`, a popup's grab).
    public private(set) var lastInputSerial: UInt32?
    /// Whether `lastInputSerial` is a touch down's (a compositor then gives a drag started
    /// with it the touch, not the pointer).
    private(set) var lastInputWasTouch = false
    /// Devices found before the seat said its name (announced once it does, or before their
    /// first event).
    private var pendingAnnouncements: [InputDeviceInfo] = []
    private var nameKnown = false

    // Pointer state.
    /// Where the pointer is on the surface it is over, in surface coordinates.
    public private(set) var pointerLocation = Point.zero
    private var pointerSurface: OpaquePointer?
    /// The axis events of the current `wl_pointer.frame`.
    private var axisFrame = PointerAxisFrame()
    /// The touchpad gesture in progress (its begin or latest update), for what the protocol's
    /// end leaves out (fingers, the scale). A gesture the compositor will not end (the
    /// pointer left, the pointer went away) is ended by the live loop: `UnfinishedGestures`.
    private var gesture: TouchpadGestureEvent?

    init(connection: WaylandConnection, proxy: OpaquePointer, globalName: UInt32, version: UInt32) {
        self.connection = connection
        self.proxy = proxy
        self.globalName = globalName
        self.version = version
        name = Self.unnamed(globalName)
        (touchDevice, pointerDevice) = connection.allocateDeviceIDs()
        keyboardDevice = InputDeviceID(touchDevice.rawValue + WaylandSeat.keyboardDeviceOffset)
        penDevice = InputDeviceID(touchDevice.rawValue + WaylandSeat.penDeviceOffset)
        wl_seat_add_listener(proxy, &SeatListeners.seat, Unmanaged.passUnretained(self).toOpaque())
    }

    /// A seat's keyboard's id: its touch's id plus this (ids of touches and pointers stay as
    /// they were before keyboards were read).
    static let keyboardDeviceOffset = 1000
    /// A seat's pen device's id: its touch's id plus this.
    static let penDeviceOffset = 2000

    func destroyProxies() {
        tabletSeat?.destroy()
        tabletSeat = nil
        releaseTouch()
        releasePointer()
        releaseKeyboard()
        if version >= 5 { wl_seat_release(proxy) } else { wl_seat_destroy(proxy) }
    }

    private var data: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    fileprivate func capabilities(_ caps: UInt32) {
        let hasTouch = caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
        let hasPointer = caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        let hasKeyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        if hasKeyboard, keyboard == nil {
            keyboard = wl_seat_get_keyboard(proxy)
            wl_keyboard_add_listener(keyboard, &SeatListeners.keyboard, data)
            announce(InputDeviceInfo(id: keyboardDevice, name: "\(name) wl_keyboard", systemName: "wayland", kind: nil,
                                     capabilities: [.keyboard], sizeMillimetres: nil))
        } else if !hasKeyboard, keyboard != nil {
            releaseKeyboard()
            remove(keyboardDevice)
        }
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
            releasePointer()
            remove(pointerDevice)
        }
    }

    /// A device found: announced now if the connection is ready and the seat has said its name
    /// (or cannot: version 1), else when both are, or before the device's first event. A
    /// touchscreen is announced with the physical size of the output (a touchscreen is its
    /// monitor) and how many of its points a millimetre is (`OutputGeometry`), which the
    /// engine takes; neither where no output says its physical size (a headless one).
    private func announce(_ device: InputDeviceInfo) {
        pendingAnnouncements.append(device)
        if connection.isReady && (nameKnown || version < 2) { flushAnnouncements() }
    }

    /// The connection's first roundtrips are done: the outputs' sizes are known.
    func connectionReady() {
        if nameKnown || version < 2 { flushAnnouncements() }
    }

    private func flushAnnouncements() {
        for var device in pendingAnnouncements {
            if device.kind == .touchscreen, device.sizeMillimetres == nil,
               let output = connection.outputs.first(where: { $0.pointsPerMillimetre != nil }) {
                device.sizeMillimetres = output.physicalSize
                device.pointsPerMillimetre = output.pointsPerMillimetre
            }
            connection.emit(.deviceAdded(device))
        }
        pendingAnnouncements.removeAll()
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
        if !pendingAnnouncements.isEmpty { flushAnnouncements() }
        connection.emit(event)
    }

    /// Cancels everything in progress and removes the seat's devices (the connection ends).
    func removeAll() {
        if touch != nil {
            cancelTouches()
            remove(touchDevice)
        }
        if pointer != nil {
            remove(pointerDevice)
        }
        if keyboard != nil { remove(keyboardDevice) }
        if let tabletSeat {
            tabletSeat.cancelAll()
            if penAnnounced { remove(penDevice) }
        }
    }

    // MARK: pens

    private var penAnnounced = false

    /// Binds the seat's tablets (the compositor offers `zwp_tablet_manager_v2`).
    func updateTablets() {
        guard tabletSeat == nil, let manager = connection.tabletManager else { return }
        tabletSeat = WaylandTabletSeat(seat: self, manager: manager)
    }

    func announcePen() {
        penAnnounced = true
        announce(InputDeviceInfo(id: penDevice, name: "\(name) zwp_tablet_tool_v2", systemName: "wayland", kind: .pen,
                                 capabilities: [.tabletTool], sizeMillimetres: nil))
    }

    func removePen() {
        penAnnounced = false
        remove(penDevice)
    }

    func sendPen(_ event: PenEvent) {
        send(.pen(event))
    }

    func noteInputSerial(_ serial: UInt32) {
        lastInputSerial = serial
        lastInputWasTouch = false
        inputBegan?()
    }

    /// Called at each touch down, button press and pen down, before the event is handed on
    /// (`WaylandDragAndDrop`: a drag the compositor carried is over once new input begins).
    var inputBegan: (() -> Void)?

    /// A drag the compositor now carries took the touches on `surface` (it sends them no
    /// more, not even their lift): they are cancelled.
    func touchesTakenByDrag(on surface: OpaquePointer) {
        cancelTouches(where: { $0 == surface })
    }

    private func releaseKeyboard() {
        guard let keyboard else { return }
        if version >= 3 { wl_keyboard_release(keyboard) } else { wl_keyboard_destroy(keyboard) }
        self.keyboard = nil
        keymap = nil
        keyboardFlags = []
    }

    // MARK: keyboard

    /// `wl_keyboard.keymap`: an XKB keymap in `fd` (read with xkbcommon for the modifiers' bits);
    /// another format leaves the modifiers unread.
    fileprivate func keyboardKeymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        keymap = format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue ? WaylandKeymap(fd: fd, size: Int(size)) : nil
    }

    /// `wl_keyboard.modifiers`: the flags the keys make now (it carries no time: the last
    /// event's stands).
    fileprivate func keyboardModifiers(depressed: UInt32, latched: UInt32, locked: UInt32) {
        guard let keymap else { return }
        setKeyboardFlags(keymap.flags(depressed: depressed, latched: latched, locked: locked))
    }

    /// The window lost the keyboard: its keys are another window's now, none held here.
    fileprivate func keyboardLeave() { setKeyboardFlags([]) }

    private func setKeyboardFlags(_ flags: ModifierFlags) {
        guard flags != keyboardFlags else { return }
        keyboardFlags = flags
        send(.modifiers(time: connection.time.now, device: keyboardDevice, flags))
    }

    private func info(_ id: InputDeviceID, kind: InputDeviceKind, capability: InputDeviceCapability) -> InputDeviceInfo {
        InputDeviceInfo(id: id, name: "\(name) \(kind == .touchscreen ? "wl_touch" : "wl_pointer")",
                           systemName: "wayland", kind: kind, capabilities: [capability], sizeMillimetres: nil)
    }

    private func releaseTouch() {
        guard let touch else { return }
        if version >= 3 { wl_touch_release(touch) } else { wl_touch_destroy(touch) }
        self.touch = nil
        touches.removeAll()
        touchFrameSplit.removeAll()
    }

    private func releasePointer() {
        if let pinch { zwp_pointer_gesture_pinch_v1_destroy(pinch) }
        if let swipe { zwp_pointer_gesture_swipe_v1_destroy(swipe) }
        if let hold { zwp_pointer_gesture_hold_v1_destroy(hold) }
        (pinch, swipe, hold) = (nil, nil, nil)
        gesture = nil
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
        lastInputWasTouch = true
        inputBegan?()
        // An id still down: the compositor lost that touch without a word (the rule at the top
        // of WaylandConnection.swift). The frame's changes so far go first, then the lost
        // touch is cancelled in a frame of its own, before the new touch's: left to the
        // engine's rule, the cancellation and the new touch share one frame, and recognizers
        // the cancellation ends (as UIKit's, reset after the event) do not see the new touch.
        if let lost = touches.removeValue(forKey: id) {
            touchFrame()
            send(.touchFrame(TouchFrame(time: connection.instant(milliseconds: time), device: touchDevice, deviceKind: .touchscreen,
                                        changes: [TouchChange(sourceID: Int(id), phase: .cancelled, location: lost.location)])))
        }
        // A touch on a surface not read here (a toolkit's decoration) is none of ours: with no
        // entry in `touches`, its motion and lift are passed over too.
        guard connection.reads(surface) else { return }
        touches[id] = (surface, location)
        touchFrameSplit.append(TouchChange(sourceID: Int(id), phase: .began, location: location),
                               at: connection.instant(milliseconds: time))
    }

    fileprivate func touchMotion(time: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard let surface = touches[id]?.surface else { return }
        let location = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        touches[id] = (surface, location)
        touchFrameSplit.append(TouchChange(sourceID: Int(id), phase: .moved, location: location),
                               at: connection.instant(milliseconds: time))
    }

    /// A touch lifted. The last one lifting is delivered at once, without waiting for the
    /// frame, as GTK and SDL deliver a lift: weston 10 sends no `wl_touch.frame` after the last
    /// `up` (its touch focus is gone by then), and a tap would otherwise stay down.
    fileprivate func touchUp(time: UInt32, id: Int32) {
        guard let down = touches.removeValue(forKey: id) else { return }
        touchFrameSplit.append(TouchChange(sourceID: Int(id), phase: .ended, location: down.location),
                               at: connection.instant(milliseconds: time))
        if touches.isEmpty { touchFrame() }
    }

    /// `wl_touch.frame`: the frame's changes become touch frames, one per hardware frame the
    /// compositor merged into it (`TouchFrameSplit`).
    fileprivate func touchFrame() {
        for frame in touchFrameSplit.finish(device: touchDevice) { send(.touchFrame(frame)) }
    }

    /// `wl_touch.cancel`, a lost touch capability, the end of the connection: every touch
    /// down (and the changes of an unfinished frame) is cancelled in one frame.
    fileprivate func cancelTouches(where keep: ((OpaquePointer?) -> Bool)? = nil) {
        touchFrameSplit.removeAll()
        var changes: [TouchChange] = []
        for (id, touch) in touches.sorted(by: { $0.key < $1.key }) where keep?(touch.surface) ?? true {
            changes.append(TouchChange(sourceID: Int(id), phase: .cancelled, location: touch.location))
            touches[id] = nil
        }
        guard !changes.isEmpty else { return }
        send(.touchFrame(TouchFrame(time: connection.time.now, device: touchDevice,
                                    deviceKind: .touchscreen, changes: changes)))
    }

    func cancel(on surface: OpaquePointer) {
        cancelTouches(where: { $0 == surface })
        // The pointer is no longer over the window: it left it (and its gesture ends).
        if pointerSurface == surface { pointerLeave(surface: surface) }
    }

    // MARK: pointer

    /// Whether the pointer's motion is a pen's: a compositor moves its cursor with a tablet
    /// tool in proximity and tells the window (sway does), and that is no mouse hovering.
    private var pointerFollowsPen: Bool { tabletSeat?.toolInProximity ?? false }

    /// The pointer is over a surface not read here (a decoration): its events are not ours.
    private var pointerOverOtherSurface = false

    fileprivate func pointerEnter(surface: OpaquePointer?, x: wl_fixed_t, y: wl_fixed_t) {
        pointerSurface = surface
        pointerLocation = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        pointerOverOtherSurface = !connection.reads(surface)
        if pointerFollowsPen || pointerOverOtherSurface { return }
        // enter carries no time: the motion happens at the last event's time.
        send(.pointer(.motion(to: pointerLocation, at: connection.time.now, device: pointerDevice)))
    }

    /// The pointer left the window: a gesture under way is cancelled, hovering ends, and a
    /// button still held (a grab the compositor broke) is let go of: its touch is cancelled.
    fileprivate func pointerLeave(surface: OpaquePointer?) {
        pointerSurface = nil
        if pointerOverOtherSurface {
            pointerOverOtherSurface = false
            return
        }
        gesture = nil
        send(.pointer(.leave(at: pointerLocation, time: connection.time.now, device: pointerDevice)))
    }

    fileprivate func pointerMotion(time: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        pointerLocation = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        if pointerFollowsPen || pointerOverOtherSurface { return }
        send(.pointer(.motion(to: pointerLocation, at: connection.instant(milliseconds: time),
                              device: pointerDevice)))
    }

    fileprivate func pointerButton(serial: UInt32, time: UInt32, button: UInt32, state: UInt32) {
        let pressed = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue
        if pressed {
            lastInputSerial = serial
            lastInputWasTouch = false
            inputBegan?()
        }
        if pointerOverOtherSurface { return }
        send(.pointer(.button(pressed, at: pointerLocation, time: connection.instant(milliseconds: time),
                              device: pointerDevice, button: Int(button))))
    }

    private static func axis(_ axis: UInt32) -> PointerAxisFrame.Axis {
        axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue ? .vertical : .horizontal
    }

    fileprivate func pointerAxis(time: UInt32, axis: UInt32, value: wl_fixed_t) {
        axisFrame.axis(Self.axis(axis), value: wl_fixed_to_double(value), at: connection.instant(milliseconds: time))
        if version < 5 { pointerFrame() }   // no frames before version 5: each axis event is one
    }

    /// `axis_discrete` (versions 5 to 7): whole detents, counted as 120 each.
    fileprivate func pointerAxisDiscrete(axis: UInt32, discrete: Int32) {
        axisFrame.value120(Self.axis(axis), discrete &* 120)
    }

    /// `axis_value120` (version 8 and later): a wheel's turn, 120 a detent.
    fileprivate func pointerAxisValue120(axis: UInt32, value120: Int32) {
        axisFrame.value120(Self.axis(axis), value120)
    }

    /// `axis_relative_direction` (version 9): whether the compositor inverted the axis
    /// (natural scrolling), so that its values run against the fingers or the wheel.
    fileprivate func pointerAxisRelativeDirection(axis: UInt32, direction: UInt32) {
        axisFrame.relativeDirection(Self.axis(axis), inverted: direction == 1)   // ..._INVERTED
    }

    fileprivate func pointerAxisSource(_ source: UInt32) {
        switch source {
        case WL_POINTER_AXIS_SOURCE_FINGER.rawValue: axisFrame.source(.finger)
        case WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue: axisFrame.source(.continuous)
        case WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue: axisFrame.source(.wheelTilt)
        default: axisFrame.source(.wheel)
        }
    }

    fileprivate func pointerAxisStop(time: UInt32, axis: UInt32) {
        axisFrame.stop(Self.axis(axis), at: connection.instant(milliseconds: time))
    }

    /// `wl_pointer.frame`: the frame's axis events become one scroll (`PointerAxisFrame`'s
    /// rules).
    fileprivate func pointerFrame() {
        let frame = axisFrame
        axisFrame = PointerAxisFrame()
        if pointerOverOtherSurface { return }
        if let scroll = frame.finish(at: pointerLocation, device: pointerDevice) { send(.pointer(scroll)) }
    }

    // MARK: gestures

    fileprivate func gestureEvent(_ kind: TouchpadGestureEvent.Kind, _ phase: TouchpadGestureEvent.Phase,
                                  time: UInt32, fingers: UInt32? = nil, scale: Double = 1,
                                  rotation: Double = 0, delta: Point = .zero) {
        if pointerOverOtherSurface && gesture == nil { return }
        let t = connection.instant(milliseconds: time)
        var event = TouchpadGestureEvent(kind: kind, phase: phase, time: t, device: pointerDevice,
                                         fingers: fingers.map(Int.init) ?? gesture?.fingers ?? 0,
                                         location: pointerLocation, scale: scale, angleDelta: rotation,
                                         delta: delta)
        if phase == .end || phase == .cancel, let begun = gesture {
            // end carries no scale: the last update's stands.
            event.scale = begun.scale
        }
        gesture = phase == .end || phase == .cancel ? nil : event
        send(.touchpadGesture(event))
    }

    /// The name of a seat the compositor has not named: never empty, so its devices' names
    /// say which seat they are on.
    static func unnamed(_ globalName: UInt32) -> String { "wl_seat \(globalName)" }

    /// The seat's name: devices found before it are announced under it now.
    fileprivate func setName(_ name: String) {
        self.name = name.isEmpty ? Self.unnamed(globalName) : name
        nameKnown = true
        for i in pendingAnnouncements.indices {
            let device = pendingAnnouncements[i]
            if device.id == keyboardDevice || device.id == penDevice {
                pendingAnnouncements[i].name = "\(self.name) \(device.id == penDevice ? "zwp_tablet_tool_v2" : "wl_keyboard")"
                continue
            }
            let kind = device.kind ?? .pointer
            pendingAnnouncements[i] = info(device.id, kind: kind, capability: device.capabilities.first ?? .pointer)
        }
        if connection.isReady && !pendingAnnouncements.isEmpty { flushAnnouncements() }
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

    nonisolated(unsafe) static var keyboard: wl_keyboard_listener = {
        var listener = wl_keyboard_listener()
        listener.keymap = { data, _, format, fd, size in GestureWayland.seat(data).keyboardKeymap(format: format, fd: fd, size: size) }
        listener.enter = { _, _, _, _, _ in }
        listener.leave = { data, _, _, _ in GestureWayland.seat(data).keyboardLeave() }
        listener.key = { _, _, _, _, _, _ in }
        listener.modifiers = { data, _, _, depressed, latched, locked, _ in
            GestureWayland.seat(data).keyboardModifiers(depressed: depressed, latched: latched, locked: locked)
        }
        listener.repeat_info = { _, _, _, _ in }
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
        listener.axis_stop = { data, _, time, axis in GestureWayland.seat(data).pointerAxisStop(time: time, axis: axis) }
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
