import CLibinput
import CUdev
import GestureInput
import GestureKit
import GestureTraces
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// State the C callbacks (open_restricted, close_restricted, the log handler) reach through
/// libinput's user data. Owned by the context; libinput holds it unretained.
final class LibinputCallbackState {
    /// Failed opens, in order (path, errno); consulted when libinput rejects a device.
    var openFailures: [(path: String, errno: Int32)] = []
    /// The seat devices are opened through (libseat), or nil for plain open().
    var seat: SeatSession?
    /// Grab every device opened (EVIOCGRAB), so nothing else acts on its events.
    var grab = false
    /// Devices that could not be grabbed (path, errno).
    var grabFailures: [(path: String, errno: Int32)] = []
    /// Devices grabbed (paths).
    var grabbed: [String] = []
    var log: ((LibinputLogPriority, String) -> Void)?

    func lastOpenFailure(path: String) -> Int32? {
        openFailures.last(where: { $0.path == path })?.errno
    }
}

/// A libinput context (udev seat or explicit device paths), with conversion of its events
/// into the engine's input types.
///
/// Not thread-safe: use it from one thread (the one running its `InputEventLoop`).
public final class LibinputContext {
    public enum Backend: Hashable, Sendable {
        case udev(seat: String)
        case path
    }

    public let backend: Backend
    /// Touch coordinates are mapped onto this size, in points (min → 0, max → width/height);
    /// the pointer is clamped to it.
    public var screenSize: Size {
        didSet { pointerLocation = clamp(pointerLocation) }
    }
    /// How touchscreens land on the screen: the rotation and calibration become the matrix
    /// libinput applies (`libinput_device_config_calibration_set_matrix`: rotation × calibration,
    /// the calibration defaulting to the device's own `LIBINPUT_CALIBRATION_MATRIX`); the region
    /// is where libinput's normalized coordinates land. Set before devices are added (`init`).
    public let mapping: TouchMapping
    /// The matrix given to each device libinput accepted it for, by id (for `listen`'s log).
    package private(set) var appliedMatrices: [InputDeviceID: [Double]] = [:]
    /// Where the pointer is, in points: starts at the screen's centre, moved by
    /// POINTER_MOTION (and POINTER_MOTION_ABSOLUTE), clamped to the screen. Touchpad
    /// gestures are delivered here.
    public private(set) var pointerLocation: Point

    let li: OpaquePointer
    private let interface: UnsafeMutablePointer<libinput_interface>
    private let callbackState: LibinputCallbackState

    private var nextDeviceID = 0
    private var devicesByID: [InputDeviceID: InputDeviceInfo] = [:]
    private var devicePointers: [InputDeviceID: OpaquePointer] = [:]
    /// Touch changes since the device's last TOUCH_FRAME.
    private var pendingChanges: [InputDeviceID: [TouchChange]] = [:]
    /// Touches down, by seat slot, with their last location.
    private var activeTouches: [InputDeviceID: [Int: Point]] = [:]
    /// The time of the events libinput gives none (cancellations): the last event's, or now if
    /// later.
    private var time = SourceTime()
    /// Each keyboard's modifier keys (from libinput's key events, evdev codes).
    private var modifierKeys: [InputDeviceID: ModifierKeyTracker] = [:]

    /// Creates a context on a udev seat (`libinput_udev_create_context` +
    /// `libinput_udev_assign_seat`): every input device of the seat, and hot-plugged ones.
    ///
    /// Throws `permissionDenied` when no device could be opened and at least one open failed
    /// for lack of permission; otherwise unopenable devices are listed in `openFailures`.
    public init(seat: String = "seat0", screenSize: Size, mapping: TouchMapping = .identity,
                access: DeviceAccess = .automatic, grab: Bool = false,
                logPriority: LibinputLogPriority = .error,
                log: ((LibinputLogPriority, String) -> Void)? = nil) throws {
        let state = LibinputCallbackState()
        state.log = log
        state.seat = try LibinputContext.seatSession(for: access)
        state.grab = grab
        let interface = LibinputContext.makeInterface()
        guard let udev = udev_new() else {
            interface.deallocate()
            throw LibinputError.contextCreationFailed(backend: "udev")
        }
        defer { udev_unref(udev) }
        guard let li = libinput_udev_create_context(interface,
                                                    Unmanaged.passUnretained(state).toOpaque(),
                                                    udev) else {
            interface.deallocate()
            throw LibinputError.contextCreationFailed(backend: "udev")
        }
        self.li = li
        self.interface = interface
        self.callbackState = state
        self.backend = .udev(seat: seat)
        self.mapping = mapping
        self.screenSize = screenSize
        self.pointerLocation = Point(x: screenSize.width / 2, y: screenSize.height / 2)
        installLogHandler(priority: logPriority)
        guard libinput_udev_assign_seat(li, seat) == 0 else {
            throw LibinputError.seatAssignmentFailed(seat: seat)
        }
        // Device-added events are queued now; name their devices.
        libinput_dispatch(li)
        if let denied = state.openFailures.first(where: { $0.errno == EACCES || $0.errno == EPERM }),
           !hasQueuedDevices() {
            throw LibinputError.openError(path: denied.path, errno: denied.errno)
        }
    }

    /// Creates a context for explicit device nodes (`libinput_path_create_context` +
    /// `libinput_path_add_device` for each path).
    public init(paths: [String], screenSize: Size, mapping: TouchMapping = .identity,
                access: DeviceAccess = .automatic, grab: Bool = false,
                logPriority: LibinputLogPriority = .error,
                log: ((LibinputLogPriority, String) -> Void)? = nil) throws {
        let state = LibinputCallbackState()
        state.log = log
        state.seat = try LibinputContext.seatSession(for: access)
        state.grab = grab
        let interface = LibinputContext.makeInterface()
        guard let li = libinput_path_create_context(interface,
                                                    Unmanaged.passUnretained(state).toOpaque()) else {
            interface.deallocate()
            throw LibinputError.contextCreationFailed(backend: "path")
        }
        self.li = li
        self.interface = interface
        self.callbackState = state
        self.backend = .path
        self.mapping = mapping
        self.screenSize = screenSize
        self.pointerLocation = Point(x: screenSize.width / 2, y: screenSize.height / 2)
        installLogHandler(priority: logPriority)
        for path in paths {
            try addDevice(path: path)
        }
    }

    deinit {
        // libinput closes its devices through close_restricted and holds `callbackState`
        // unretained: free the interface only after libinput is gone; the state is released
        // after this body.
        libinput_unref(li)
        interface.deallocate()
    }

    /// The seat for `access`: always for `.seat` (or an error), when one is there for
    /// `.automatic` (falling back to open() if libseat cannot have it), never for `.direct`.
    static func seatSession(for access: DeviceAccess) throws -> SeatSession? {
        switch access {
        case .direct:
            return nil
        case .seat:
            do { return try SeatSession() } catch { throw LibinputError.seatUnavailable(reason: "\(error)") }
        case .automatic:
            return SeatSession.seatAvailable() ? try? SeatSession() : nil
        }
    }

    /// The seat devices are opened through (libseat), or nil when they are opened directly.
    public var seatName: String? { callbackState.seat?.name }

    /// Devices grabbed with EVIOCGRAB (with `grab`), and those that could not be, as sentences.
    public var grabbedDevices: [String] { callbackState.grabbed }
    public var grabFailures: [String] {
        callbackState.grabFailures.map { "cannot grab \($0.path) (EVIOCGRAB): \(LibinputError.message($0.errno))" }
    }

    /// libinput's file descriptor: poll it for POLLIN, then call `dispatch`.
    public var fileDescriptor: Int32 { libinput_get_fd(li) }

    /// Devices currently known (added and not removed), by id.
    public var devices: [InputDeviceInfo] {
        devicesByID.values.sorted { $0.id < $1.id }
    }

    /// Opens that failed so far (path, error), e.g. devices of the seat the user may not read.
    public var openFailures: [LibinputError] {
        callbackState.openFailures.map { LibinputError.openError(path: $0.path, errno: $0.errno) }
    }

    /// Adds a device node to a path-backend context. Its `deviceAdded` event follows at the
    /// next `dispatch`.
    @discardableResult
    public func addDevice(path: String) throws -> InputDeviceID {
        guard backend == .path else { throw LibinputError.notPathBackend }
        guard let device = libinput_path_add_device(li, path) else {
            if let code = callbackState.lastOpenFailure(path: path) {
                throw LibinputError.openError(path: path, errno: code)
            }
            // libinput may refuse before opening (it stats the node and asks udev first):
            // still name a permission problem or a missing node as such.
            if access(path, R_OK) != 0 {
                let code = errno
                if code == EACCES || code == EPERM || code == ENOENT {
                    throw LibinputError.openError(path: path, errno: code)
                }
            }
            throw LibinputError.deviceRejected(path: path)
        }
        let id = deviceID(for: device)
        applyMapping(to: device, id: id)
        return id
    }

    /// Gives a touchscreen the mapping's matrix, once, before its first touch is processed
    /// (path devices as they are added, seat devices at their DEVICE_ADDED), and a touchpad
    /// the mapping's tapping, when it sets one (`libinput_device_config_tap_set_enabled`; a
    /// device that cannot tap, `libinput_device_config_tap_get_finger_count` 0, is left alone).
    private func applyMapping(to device: OpaquePointer, id: InputDeviceID) {
        if let tapping = mapping.touchpadTapping, libinput_device_config_tap_get_finger_count(device) > 0 {
            _ = libinput_device_config_tap_set_enabled(device, tapping ? LIBINPUT_CONFIG_TAP_ENABLED : LIBINPUT_CONFIG_TAP_DISABLED)
        }
        guard appliedMatrices[id] == nil, mapping.rotation != 0 || mapping.calibration != nil,
              libinput_device_config_calibration_has_matrix(device) != 0 else { return }
        var defaults = [Float](repeating: 0, count: 6)
        _ = libinput_device_config_calibration_get_default_matrix(device, &defaults)
        let matrix = mapping.matrix(deviceMatrix: defaults.map(Double.init))
        let floats = matrix.map(Float.init)
        if libinput_device_config_calibration_set_matrix(device, floats) == LIBINPUT_CONFIG_STATUS_SUCCESS {
            appliedMatrices[id] = matrix
        }
    }

    /// Removes a device from a path-backend context; its `deviceRemoved` event (preceded by
    /// cancellations of its touches and gesture) follows at the next `dispatch`.
    public func removeDevice(_ id: InputDeviceID) {
        guard backend == .path, let device = devicePointers[id] else { return }
        libinput_path_remove_device(device)
    }

    /// Suspends the context: every device is removed (`deviceRemoved` events, with
    /// cancellations of touches and gestures in progress, follow at the next `dispatch`).
    public func suspend() {
        libinput_suspend(li)
    }

    /// Resumes a suspended context (devices are added again).
    public func resume() {
        _ = libinput_resume(li)
    }

    /// Reads what libinput has (`libinput_dispatch`) and hands every converted event to
    /// `handler`, in order.
    public func dispatch(into handler: (InputEvent) -> Void) throws {
        let rc = libinput_dispatch(li)
        if rc < 0 {
            throw LibinputError.systemCallFailed(call: "libinput_dispatch", errno: -rc)
        }
        // One event of lookahead: a gesture END that libinput emits because its device is
        // going away (END immediately followed by that device's DEVICE_REMOVED) is reported
        // as a cancellation.
        var current = libinput_get_event(li)
        while let event = current {
            let next = libinput_get_event(li)
            convert(event, next: next, into: handler)
            libinput_event_destroy(event)
            current = next
        }
    }

    /// `dispatch(into:)`, collecting the events.
    public func dispatch() throws -> [InputEvent] {
        var events: [InputEvent] = []
        try dispatch { events.append($0) }
        return events
    }

    // MARK: - C interface

    private static func makeInterface() -> UnsafeMutablePointer<libinput_interface> {
        let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        interface.initialize(to: libinput_interface(
            open_restricted: { path, flags, userData in
                guard let path else { return -EINVAL }
                let state = userData.map { Unmanaged<LibinputCallbackState>.fromOpaque($0).takeUnretainedValue() }
                // Through the seat when there is one (no input group needed), else open().
                let fd: Int32
                if let seat = state?.seat {
                    fd = seat.openDevice(path)
                } else {
                    let opened = open(path, flags)
                    fd = opened < 0 ? -errno : opened
                }
                if fd < 0 {
                    state?.openFailures.append((String(cString: path), -fd))
                    return fd
                }
                if let state, state.grab {
                    if grabDevice(fd, true) {
                        state.grabbed.append(String(cString: path))
                    } else {
                        state.grabFailures.append((String(cString: path), errno))
                    }
                }
                return fd
            },
            close_restricted: { fd, userData in
                let state = userData.map { Unmanaged<LibinputCallbackState>.fromOpaque($0).takeUnretainedValue() }
                if state?.seat?.closeDevice(fd) != true { close(fd) }
            }))
        return interface
    }

    private func installLogHandler(priority: LibinputLogPriority) {
        libinput_log_set_priority(li, priority.c)
        libinput_log_set_handler(li) { li, priority, format, args in
            guard let li, let format, let args, let userData = libinput_get_user_data(li) else { return }
            let state = Unmanaged<LibinputCallbackState>.fromOpaque(userData).takeUnretainedValue()
            guard let log = state.log else { return }
            var buffer = [CChar](repeating: 0, count: 1024)
            _ = vsnprintf(&buffer, buffer.count, format, args)
            let length = buffer.firstIndex(of: 0) ?? buffer.count
            var message = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) },
                                 as: UTF8.self)
            while message.hasSuffix("\n") { message.removeLast() }
            log(LibinputLogPriority(priority), message)
        }
    }

    private func hasQueuedDevices() -> Bool {
        libinput_next_event_type(li) == LIBINPUT_EVENT_DEVICE_ADDED || !devicePointers.isEmpty
    }

    // MARK: - Devices

    private func deviceID(for device: OpaquePointer) -> InputDeviceID {
        if let raw = libinput_device_get_user_data(device) {
            return InputDeviceID(Int(bitPattern: raw) - 1)
        }
        let id = InputDeviceID(nextDeviceID)
        nextDeviceID += 1
        libinput_device_set_user_data(device, UnsafeMutableRawPointer(bitPattern: id.rawValue + 1))
        devicePointers[id] = device
        return id
    }

    private func info(for device: OpaquePointer, id: InputDeviceID) -> InputDeviceInfo {
        var capabilities: Set<InputDeviceCapability> = []
        for capability in LibinputDeviceCapability.allCases
        where libinput_device_has_capability(device, capability.c) != 0 {
            capabilities.insert(InputDeviceCapability(rawValue: capability.description))
        }
        // A touchscreen touches, a touchpad has gestures, a mouse (or pointing stick) only
        // points, a tablet's tool is a pen.
        let kind: InputDeviceKind? =
            capabilities.contains(.tabletTool) ? .pen
            : capabilities.contains(.touch) ? .touchscreen
            : capabilities.contains(.gesture) ? .touchpad
            : capabilities.contains(.pointer) ? .pointer
            : nil
        var width = 0.0, height = 0.0
        let size = libinput_device_get_size(device, &width, &height) == 0
            ? Size(width: width, height: height) : nil
        // A touchscreen is mapped onto the screen here, so this context knows how many points
        // a millimetre of it covers: the engine takes it from the announcement (a screen edge
        // pan's margin is then millimetres of glass), whoever runs the engine.
        let scale = kind == .touchscreen
            ? size.flatMap { mapping.pointsPerMillimetre(deviceSize: $0, screen: screenSize) } : nil
        return InputDeviceInfo(
            id: id,
            name: libinput_device_get_name(device).map { String(cString: $0) } ?? "",
            systemName: libinput_device_get_sysname(device).map { String(cString: $0) } ?? "",
            kind: kind, capabilities: capabilities, sizeMillimetres: size, pointsPerMillimetre: scale)
    }

    // MARK: - Conversion

    private func convert(_ event: OpaquePointer, next: OpaquePointer?,
                         into handler: (InputEvent) -> Void) {
        let type = LibinputEventType(libinput_event_get_type(event))
        guard let device = libinput_event_get_device(event) else { return }
        let id = deviceID(for: device)

        switch type {
        case .deviceAdded:
            applyMapping(to: device, id: id)
            let info = info(for: device, id: id)
            devicesByID[id] = info
            handler(.deviceAdded(info))

        case .deviceRemoved:
            cancelActiveInput(of: id, into: handler)
            devicesByID[id] = nil
            devicePointers[id] = nil
            appliedMatrices[id] = nil
            pendingChanges[id] = nil
            activeTouches[id] = nil
            modifierKeys[id] = nil
            libinput_device_set_user_data(device, nil)
            handler(.deviceRemoved(id, time: nil))

        case .touchDown, .touchMotion, .touchUp, .touchCancel:
            guard let touch = libinput_event_get_touch_event(event) else { return }
            self.time.note(Instant(nanoseconds: Int64(libinput_event_touch_get_time_usec(touch)) &* 1000))
            let slot = Int(libinput_event_touch_get_seat_slot(touch))
            let phase: TouchPhase
            let location: Point
            switch type {
            case .touchDown, .touchMotion:
                phase = type == .touchDown ? .began : .moved
                location = touchLocation(touch)
                activeTouches[id, default: [:]][slot] = location
            default:
                phase = type == .touchUp ? .ended : .cancelled
                location = activeTouches[id]?.removeValue(forKey: slot) ?? .zero
            }
            pendingChanges[id, default: []].append(
                TouchChange(sourceID: slot, phase: phase, location: location))

        case .touchFrame:
            guard let touch = libinput_event_get_touch_event(event) else { return }
            let time = Instant(nanoseconds: Int64(libinput_event_touch_get_time_usec(touch)) &* 1000)
            self.time.note(time)
            if let changes = pendingChanges.removeValue(forKey: id), !changes.isEmpty {
                handler(.touchFrame(TouchFrame(time: time, device: id,
                                               deviceKind: devicesByID[id]?.kind ?? .touchscreen,
                                               changes: changes)))
            }

        case .pointerMotion:
            guard let pointer = libinput_event_get_pointer_event(event) else { return }
            pointerLocation = clamp(Point(x: pointerLocation.x + libinput_event_pointer_get_dx(pointer),
                                          y: pointerLocation.y + libinput_event_pointer_get_dy(pointer)))
            let time = Instant(nanoseconds: Int64(libinput_event_pointer_get_time_usec(pointer)) &* 1000)
            self.time.note(time)
            handler(.pointer(.motion(to: pointerLocation, at: time, device: id)))

        case .pointerMotionAbsolute:
            guard let pointer = libinput_event_get_pointer_event(event) else { return }
            let scale = 1 << 20
            pointerLocation = clamp(Point(
                x: libinput_event_pointer_get_absolute_x_transformed(pointer, UInt32(scale))
                    / Double(scale) * screenSize.width,
                y: libinput_event_pointer_get_absolute_y_transformed(pointer, UInt32(scale))
                    / Double(scale) * screenSize.height))
            let time = Instant(nanoseconds: Int64(libinput_event_pointer_get_time_usec(pointer)) &* 1000)
            self.time.note(time)
            handler(.pointer(.motion(to: pointerLocation, at: time, device: id)))

        case .pointerButton:
            guard let pointer = libinput_event_get_pointer_event(event) else { return }
            let time = Instant(nanoseconds: Int64(libinput_event_pointer_get_time_usec(pointer)) &* 1000)
            self.time.note(time)
            let pressed = libinput_event_pointer_get_button_state(pointer) == LIBINPUT_BUTTON_STATE_PRESSED
            handler(.pointer(.button(pressed, at: pointerLocation, time: time, device: id,
                                     button: Int(libinput_event_pointer_get_button(pointer)))))

        case .pointerScrollWheel, .pointerScrollFinger, .pointerScrollContinuous:
            // (POINTER_AXIS, the older form of the same scrolls, is left alone.)
            guard let pointer = libinput_event_get_pointer_event(event) else { return }
            let time = Instant(nanoseconds: Int64(libinput_event_pointer_get_time_usec(pointer)) &* 1000)
            self.time.note(time)
            let vertical = LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL, horizontal = LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL
            let hasV = libinput_event_pointer_has_axis(pointer, vertical) != 0
            let hasH = libinput_event_pointer_has_axis(pointer, horizontal) != 0
            // The translation has the sign of dragging the content. A wheel's values are
            // positive turning it back (scrolling down, the content moving up): the negative
            // of them; a detent is 120 in v120, GestureDefaults.wheelPointsPerDetent points.
            // A finger or continuous scroll's values follow the fingers (libinput's natural
            // scrolling is off, as it is by default): the content follows them too, as on
            // iPadOS, so they are taken as they are.
            func value(_ axis: libinput_pointer_axis, _ has: Bool) -> Double {
                guard has else { return 0 }
                if type == .pointerScrollWheel {
                    return libinput_event_pointer_get_scroll_value_v120(pointer, axis) / 120
                        * GestureDefaults.wheelPointsPerDetent
                }
                return libinput_event_pointer_get_scroll_value(pointer, axis)
            }
            let continuous = type != .pointerScrollWheel
            let sign = continuous ? 1.0 : -1.0
            let delta = Point(x: sign * value(horizontal, hasH), y: sign * value(vertical, hasV))
            // A finger or continuous scroll ends with a zero value on its axes (the stop).
            let stop = continuous && delta == .zero && (hasV || hasH)
            handler(.pointer(.scroll(delta, continuous ? .continuous : .discrete, at: pointerLocation, time: time,
                                     device: id, stop: stop)))

        case .gesturePinchBegin, .gesturePinchUpdate, .gesturePinchEnd,
             .gestureSwipeBegin, .gestureSwipeUpdate, .gestureSwipeEnd,
             .gestureHoldBegin, .gestureHoldEnd:
            guard let gesture = libinput_event_get_gesture_event(event) else { return }
            let kind: TouchpadGestureEvent.Kind
            let phase: TouchpadGestureEvent.Phase
            switch type {
            case .gesturePinchBegin: (kind, phase) = (.pinch, .begin)
            case .gesturePinchUpdate: (kind, phase) = (.pinch, .update)
            case .gesturePinchEnd: (kind, phase) = (.pinch, .end)
            case .gestureSwipeBegin: (kind, phase) = (.swipe, .begin)
            case .gestureSwipeUpdate: (kind, phase) = (.swipe, .update)
            case .gestureSwipeEnd: (kind, phase) = (.swipe, .end)
            case .gestureHoldBegin: (kind, phase) = (.hold, .begin)
            default: (kind, phase) = (.hold, .end)
            }
            let deviceGoing = next.map {
                libinput_event_get_type($0) == LIBINPUT_EVENT_DEVICE_REMOVED
                    && libinput_event_get_device($0) == device
            } ?? false
            let cancelled = phase == .end
                && (libinput_event_gesture_get_cancelled(gesture) != 0 || deviceGoing)
            let time = Instant(nanoseconds: Int64(libinput_event_gesture_get_time_usec(gesture)) &* 1000)
            self.time.note(time)
            let converted = TouchpadGestureEvent(
                kind: kind, phase: cancelled ? .cancel : phase, time: time, device: id,
                fingers: Int(libinput_event_gesture_get_finger_count(gesture)),
                location: pointerLocation,
                scale: kind == .pinch ? libinput_event_gesture_get_scale(gesture) : 1,
                angleDelta: kind == .pinch ? libinput_event_gesture_get_angle_delta(gesture) : 0,
                delta: kind == .hold ? .zero
                    : Point(x: libinput_event_gesture_get_dx(gesture),
                            y: libinput_event_gesture_get_dy(gesture)))
            handler(.touchpadGesture(converted))

        case .keyboardKey:
            // A modifier key pressed or released changes the keyboard's flags (REPLAY.md's
            // "Keys"); every other key is no input to the engine.
            guard let keyboard = libinput_event_get_keyboard_event(event) else { return }
            let time = Instant(nanoseconds: Int64(libinput_event_keyboard_get_time_usec(keyboard)) &* 1000)
            self.time.note(time)
            let pressed = libinput_event_keyboard_get_key_state(keyboard) == LIBINPUT_KEY_STATE_PRESSED
            var tracker = modifierKeys[id] ?? ModifierKeyTracker()
            if tracker.key(Int(libinput_event_keyboard_get_key(keyboard)), value: pressed ? 1 : 0) {
                handler(.modifiers(time: time, device: id, tracker.flags))
            }
            modifierKeys[id] = tracker

        case .tabletToolProximity, .tabletToolTip, .tabletToolAxis:
            guard let tablet = libinput_event_get_tablet_tool_event(event) else { return }
            if let pen = penEvent(tablet, type: type, device: id) { handler(.pen(pen)) }

        default:
            break
        }
    }

    /// A tablet tool event as a pen's (REPLAY.md's "Pens"): proximity in is `hover`, out is
    /// `out`; tip down and up are `down` and `up`; an axis event is `moved` with the tip
    /// down, `hover` with it up. Force is libinput's normalized pressure while the tip is
    /// down (0 otherwise, as the contract says; 1 for a tool with no pressure axis); tilt
    /// and distance as libinput gives them. A mouse or lens tool (a puck) is no pen.
    private func penEvent(_ tablet: OpaquePointer, type: LibinputEventType, device: InputDeviceID) -> PenEvent? {
        let tool = libinput_event_tablet_tool_get_tool(tablet)
        let toolType = libinput_tablet_tool_get_type(tool)
        if toolType == LIBINPUT_TABLET_TOOL_TYPE_MOUSE || toolType == LIBINPUT_TABLET_TOOL_TYPE_LENS { return nil }
        let time = Instant(nanoseconds: Int64(libinput_event_tablet_tool_get_time_usec(tablet)) &* 1000)
        self.time.note(time)
        let phase: PenEvent.Phase
        switch type {
        case .tabletToolProximity:
            phase = libinput_event_tablet_tool_get_proximity_state(tablet) == LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_IN
                ? .hover : .out
        case .tabletToolTip:
            phase = libinput_event_tablet_tool_get_tip_state(tablet) == LIBINPUT_TABLET_TOOL_TIP_DOWN ? .down : .up
        default:
            phase = libinput_event_tablet_tool_get_tip_state(tablet) == LIBINPUT_TABLET_TOOL_TIP_DOWN ? .moved : .hover
        }
        let contact = phase == .down || phase == .moved
        let range: UInt32 = 1 << 20
        let location = Point(x: libinput_event_tablet_tool_get_x_transformed(tablet, range) / Double(range) * screenSize.width,
                             y: libinput_event_tablet_tool_get_y_transformed(tablet, range) / Double(range) * screenSize.height)
        let force = !contact ? 0
            : libinput_tablet_tool_has_pressure(tool) != 0 ? libinput_event_tablet_tool_get_pressure(tablet) : 1
        let tilted = libinput_tablet_tool_has_tilt(tool) != 0
        let angles = PenSample.angles(tiltX: tilted ? libinput_event_tablet_tool_get_tilt_x(tablet) : 0,
                                      tiltY: tilted ? libinput_event_tablet_tool_get_tilt_y(tablet) : 0)
        let zOffset: Double? = libinput_tablet_tool_has_distance(tool) == 0 ? nil
            : contact ? 0 : libinput_event_tablet_tool_get_distance(tablet)
        return PenEvent(phase: phase, time: time, device: device, location: location,
                        sample: PenSample(force: force, altitudeAngle: angles.altitude, azimuthAngle: angles.azimuth,
                                          zOffset: zOffset,
                                          tool: toolType == LIBINPUT_TABLET_TOOL_TYPE_ERASER ? .eraser : .pen))
    }

    /// Cancels what a vanishing device leaves behind: touches still down (one frame). Its
    /// gesture still in progress is the live loop's (`UnfinishedGestures`).
    private func cancelActiveInput(of id: InputDeviceID, into handler: (InputEvent) -> Void) {
        var changes = pendingChanges.removeValue(forKey: id) ?? []
        if let touches = activeTouches.removeValue(forKey: id) {
            for (slot, location) in touches.sorted(by: { $0.key < $1.key }) {
                changes.append(TouchChange(sourceID: slot, phase: .cancelled, location: location))
            }
        }
        let time = self.time.now
        if !changes.isEmpty {
            handler(.touchFrame(TouchFrame(time: time, device: id,
                                           deviceKind: devicesByID[id]?.kind ?? .touchscreen,
                                           changes: changes)))
        }
    }

    private func touchLocation(_ touch: OpaquePointer) -> Point {
        // libinput maps [min, max] onto [0, range); a large range keeps sub-point precision
        // for any screen size in points.
        // The region of `mapping` (the whole screen by default) is where they land.
        let range: UInt32 = 1 << 20
        let normalized = Point(x: libinput_event_touch_get_x_transformed(touch, range) / Double(range),
                               y: libinput_event_touch_get_y_transformed(touch, range) / Double(range))
        return mapping.screenPoint(normalized: normalized, screen: screenSize)
    }

    private func clamp(_ p: Point) -> Point {
        Rect(origin: .zero, size: screenSize).closestPoint(to: p)
    }
}

extension LibinputContext: InputEventSource {}
