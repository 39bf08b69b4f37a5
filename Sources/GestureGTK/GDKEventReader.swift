import CGTK4
import GestureInput
import GestureKit

/// GDK's events as the engine's input, one `GdkEvent` at a time. Its rules, stated once:
/// - locations are the widget's own coordinates, in points (GDK's surface coordinates less
///   the surface transform, translated from the native widget to this one; a popover's
///   surface placed where GDK put the popup on its window's surface);
/// - times are GDK's 32-bit millisecond stamps on CLOCK_MONOTONIC (`MillisecondStamps`);
/// - each GDK device is announced once, before its first event, with the kind its source
///   says (touchscreen, touchpad, pen, or pointer for a mouse or trackpoint);
/// - a touch's `GdkEventSequence` is its identity while it is down: a small number of its own
///   (`TouchChange.sourceID`), freed at its end or cancellation;
/// - a GDK touch event is one change, so one touch frame (GDK coalesces no touch updates);
///   pointer motion GDK coalesced (`gdk_event_get_history`, motion events only: GTK 4.18
///   asserts so) comes first, one motion per coalesced position;
/// - events GDK made up for a pointer from a touch (`gdk_event_get_pointer_emulated`) are
///   dropped: the touch itself is the input;
/// - buttons are told by their evdev code (GDK's 1, 2, 3, 8, 9: left, middle, right, side,
///   extra), as every other source tells them;
/// - a scroll in wheel units (`GDK_SCROLL_UNIT_WHEEL`, or a discrete direction) moves
///   `GestureDefaults.wheelPointsPerDetent` a detent against the wheel's turn, as a wheel
///   through libinput does; a scroll in surface units (a touchpad's fingers) follows the
///   fingers as it is, and its stop (`gdk_scroll_event_is_stop`) ends it, so a scroll view
///   flings from it;
/// - a touchpad's pinch, swipe and hold are libinput's, passed on (the pinch's angle from
///   GDK's radians to degrees, clockwise positive); they happen at the pointer;
/// - a pen (an event with a tablet tool that is a pen, eraser, brush, pencil or airbrush: GDK
///   gives a tool's events the tablet's logical device) is read as `PenEvent`s, each tool a
///   pen device of its own: its motion hovers,
///   or moves the touch its tip made; the tip (GDK's button 1 of a pen) goes down and up;
///   leaving proximity is `out`. Force is GDK's pressure axis (0 to 1) while the tip is
///   down, 0 hovering; the angles come from GDK's tilt axes (-1 to 1, 90° each way); zOffset
///   is GDK's distance axis hovering, 0 pressing, none where the tool has no distance; an
///   eraser tool is the eraser. The barrel buttons are not read;
/// - the modifier keys held (GDK's modifier state on every event) are sent when they change.
struct GDKEventReader {
    private(set) var stamps = MillisecondStamps()
    private var devices: [UnsafeMutableRawPointer: (id: InputDeviceID, kind: InputDeviceKind)] = [:]
    private var nextDevice = 0
    /// Touches down: their sequence, the number standing for it, and where it last was.
    private(set) var touches: [(sequence: OpaquePointer, id: Int, device: InputDeviceID, location: Point)] = []
    private var pointer: (device: InputDeviceID, location: Point)?
    /// The scale of the touchpad pinch under way's latest event (GDK's end has scale 1).
    private var pinchScale: Double?
    private var modifiers: ModifierFlags = []
    /// The time of the events GDK gives none (cancellations): the last event's, or now if later.
    private(set) var time = SourceTime()

    /// Degrees in a radian: GDK's pinch angle is in radians, the engine's in degrees.
    static let degreesPerRadian = 180 / Double.pi

    /// The engine's input for `event`, which arrived at `widget`.
    mutating func read(_ event: OpaquePointer, widget: UnsafeMutableRawPointer) -> [InputEvent] {
        let type = gdk_event_get_event_type(event)
        // For a touch event GDK's flag says whether it is the touch that drives the emulated
        // pointer: the touch is kept; the pointer events made from it are dropped.
        if !Self.isTouch(type) && gdk_event_get_pointer_emulated(event) != 0 { return [] }
        let time = stamps.instant(gdk_event_get_time(event))
        var out: [InputEvent] = []
        guard let (device, kind) = device(of: event, announcing: &out) else { return [] }
        let flags = Self.modifierFlags(gdk_event_get_modifier_state(event))
        if flags != modifiers {
            modifiers = flags
            out.append(.modifiers(time: time, device: device, flags))
        }
        self.time.note(time)
        // A tablet tool's events come from the tablet's logical device, with the tool; its
        // leaving (a crossing, or proximity out) may come without the tool.
        let logical = UnsafeMutableRawPointer(gdk_event_get_device(event)!)
        if let tool = gdk_event_get_device_tool(event), Self.isPen(gdk_device_tool_get_tool_type(tool)) {
            let penDevice = penDevice(for: tool, announcing: &out)
            penOnDevice[logical] = penDevice
            if let pen = pen(event, type: type, time: time, device: penDevice, widget: widget) { out.append(.pen(pen)) }
            return out
        }
        if type == GDK_LEAVE_NOTIFY || type == GDK_PROXIMITY_OUT, let penDevice = penOnDevice.removeValue(forKey: logical) {
            pensDown.remove(penDevice)
            out.append(.pen(PenEvent(phase: .out, time: time, device: penDevice,
                                     location: position(event, in: widget) ?? penLocation[penDevice] ?? .zero,
                                     sample: .upright)))
            return out
        }
        switch type {
        case GDK_TOUCH_BEGIN, GDK_TOUCH_UPDATE, GDK_TOUCH_END, GDK_TOUCH_CANCEL:
            guard let sequence = gdk_event_get_event_sequence(event),
                  let location = position(event, in: widget) else { break }
            touch(type, sequence: sequence, at: location, time: time,
                  device: device, kind: kind == .pen ? .pen : .touchscreen, into: &out)
        case GDK_MOTION_NOTIFY, GDK_ENTER_NOTIFY:
            if type == GDK_MOTION_NOTIFY {
                for (t, location) in history(of: event, in: widget) {
                    out.append(.pointer(.motion(to: location, at: t, device: device)))
                }
            }
            guard let location = position(event, in: widget) else { break }
            pointer = (device, location)
            out.append(.pointer(.motion(to: location, at: time, device: device)))
        case GDK_LEAVE_NOTIFY:
            let location = position(event, in: widget) ?? pointer?.location ?? .zero
            out.append(.pointer(.leave(at: location, time: time, device: device)))
            pointer = nil
        case GDK_BUTTON_PRESS, GDK_BUTTON_RELEASE:
            guard let location = position(event, in: widget) else { break }
            pointer = (device, location)
            out.append(.pointer(.button(type == GDK_BUTTON_PRESS, at: location, time: time, device: device,
                                        button: Self.evdevButton(gdk_button_event_get_button(event)))))
        case GDK_SCROLL:
            let location = position(event, in: widget) ?? pointer?.location ?? .zero
            if let scroll = Self.scroll(event, at: location, time: time, device: device) { out.append(.pointer(scroll)) }
        case GDK_TOUCHPAD_PINCH, GDK_TOUCHPAD_SWIPE, GDK_TOUCHPAD_HOLD:
            let location = pointer?.location ?? position(event, in: widget) ?? .zero
            out.append(.touchpadGesture(touchpad(event, type: type, at: location, time: time, device: device)))
        default:
            break
        }
        return out
    }

    /// Every touch still down cancelled (the touchpad gesture under way is the host's:
    /// `UnfinishedGestures`), hovering ended, a pen's tip
    /// lifted out of proximity (the widget going away, the host detached): what the engine
    /// must hear so that nothing stays stuck.
    mutating func cancelAll(at time: Instant) -> [InputEvent] {
        var out: [InputEvent] = []
        for touch in touches {
            out.append(.touchFrame(TouchFrame(time: time, device: touch.device, deviceKind: .touchscreen,
                                              changes: [TouchChange(sourceID: touch.id, phase: .cancelled, location: touch.location)])))
        }
        touches.removeAll()
        if let pointer {
            out.append(.pointer(.leave(at: pointer.location, time: time, device: pointer.device)))
            self.pointer = nil
        }
        for device in pensDown.sorted() {
            out.append(.pen(PenEvent(phase: .out, time: time, device: device, location: penLocation[device] ?? .zero,
                                     sample: .upright)))
        }
        pensDown.removeAll()
        return out
    }

    /// The touch following `sequence` cancelled (GTK gave the sequence to another widget's
    /// gesture): its frame, or nothing when no such touch is down.
    mutating func cancel(sequence: OpaquePointer, at time: Instant) -> [InputEvent] {
        guard let index = touches.firstIndex(where: { $0.sequence == sequence }) else { return [] }
        let touch = touches.remove(at: index)
        return [.touchFrame(TouchFrame(time: time, device: touch.device, deviceKind: .touchscreen,
                                       changes: [TouchChange(sourceID: touch.id, phase: .cancelled, location: touch.location)]))]
    }

    /// The sequences of the touches down (to claim them).
    var sequences: [OpaquePointer] { touches.map(\.sequence) }

    // MARK: touches

    static func isTouch(_ type: GdkEventType) -> Bool {
        type == GDK_TOUCH_BEGIN || type == GDK_TOUCH_UPDATE || type == GDK_TOUCH_END || type == GDK_TOUCH_CANCEL
    }

    private mutating func touch(_ type: GdkEventType, sequence: OpaquePointer, at location: Point, time: Instant,
                                device: InputDeviceID, kind: InputDeviceKind, into out: inout [InputEvent]) {
        func frame(_ id: Int, _ phase: TouchPhase, _ location: Point, _ time: Instant) -> InputEvent {
            .touchFrame(TouchFrame(time: time, device: device, deviceKind: kind,
                                   changes: [TouchChange(sourceID: id, phase: phase, location: location)]))
        }
        let index = touches.firstIndex { $0.sequence == sequence }
        switch type {
        case GDK_TOUCH_BEGIN:
            guard index == nil else { return }   // a begin twice: GDK never sends one
            let id = (0...).first { n in !touches.contains { $0.id == n } }!
            touches.append((sequence, id, device, location))
            out.append(frame(id, .began, location, time))
        case GDK_TOUCH_UPDATE:
            guard let index else { return }      // a touch that began elsewhere
            touches[index].location = location
            out.append(frame(touches[index].id, .moved, location, time))
        default:
            guard let index else { return }
            let touch = touches.remove(at: index)
            out.append(frame(touch.id, type == GDK_TOUCH_END ? .ended : .cancelled, location, time))
        }
    }

    // MARK: pens

    static func isPen(_ type: GdkDeviceToolType) -> Bool {
        switch type {
        case GDK_DEVICE_TOOL_TYPE_PEN, GDK_DEVICE_TOOL_TYPE_ERASER, GDK_DEVICE_TOOL_TYPE_BRUSH,
             GDK_DEVICE_TOOL_TYPE_PENCIL, GDK_DEVICE_TOOL_TYPE_AIRBRUSH: true
        default: false   // a tablet's mouse or lens is a pointer
        }
    }

    private var penDevices: [UnsafeMutableRawPointer: InputDeviceID] = [:]
    /// The pen last in proximity over each GDK logical device (a tablet's).
    private var penOnDevice: [UnsafeMutableRawPointer: InputDeviceID] = [:]

    /// Each tablet tool is a pen device of its own, announced before its first event.
    private mutating func penDevice(for tool: OpaquePointer, announcing out: inout [InputEvent]) -> InputDeviceID {
        let key = UnsafeMutableRawPointer(tool)
        if let id = penDevices[key] { return id }
        let id = InputDeviceID(nextDevice)
        nextDevice += 1
        penDevices[key] = id
        out.append(.deviceAdded(InputDeviceInfo(id: id, name: "GDK tablet tool", systemName: "gtk", kind: .pen,
                                                capabilities: [.tabletTool], sizeMillimetres: nil)))
        return id
    }

    /// Pens whose tip is down, with where they last were.
    private var pensDown: Set<InputDeviceID> = []
    private var penLocation: [InputDeviceID: Point] = [:]

    /// Degrees of tilt a GDK tilt axis's 1 stands for.
    static let degreesPerTiltUnit = 90.0

    private mutating func pen(_ event: OpaquePointer, type: GdkEventType, time: Instant, device: InputDeviceID,
                              widget: UnsafeMutableRawPointer) -> PenEvent? {
        let phase: PenEvent.Phase
        switch type {
        case GDK_MOTION_NOTIFY: phase = pensDown.contains(device) ? .moved : .hover
        case GDK_BUTTON_PRESS where gdk_button_event_get_button(event) == 1: phase = .down
        case GDK_BUTTON_RELEASE where gdk_button_event_get_button(event) == 1: phase = .up
        case GDK_PROXIMITY_OUT: phase = .out
        default: return nil
        }
        let location = position(event, in: widget) ?? penLocation[device] ?? .zero
        penLocation[device] = location
        switch phase {
        case .down: pensDown.insert(device)
        case .up, .out: pensDown.remove(device)
        default: break
        }
        let contact = pensDown.contains(device)
        func axis(_ use: GdkAxisUse) -> Double? {
            var value = 0.0
            return gdk_event_get_axis(event, use, &value) != 0 ? value : nil
        }
        let tilt = (x: (axis(GDK_AXIS_XTILT) ?? 0) * Self.degreesPerTiltUnit, y: (axis(GDK_AXIS_YTILT) ?? 0) * Self.degreesPerTiltUnit)
        let angles = PenSample.angles(tiltX: tilt.x, tiltY: tilt.y)
        let distance = axis(GDK_AXIS_DISTANCE)
        let eraser = gdk_event_get_device_tool(event).map { gdk_device_tool_get_tool_type($0) == GDK_DEVICE_TOOL_TYPE_ERASER } ?? false
        let sample = PenSample(force: contact ? (axis(GDK_AXIS_PRESSURE) ?? 1) : 0,
                               altitudeAngle: angles.altitude, azimuthAngle: angles.azimuth,
                               zOffset: distance.map { contact ? 0 : $0 }, tool: eraser ? .eraser : .pen)
        return PenEvent(phase: phase, time: time, device: device, location: location, sample: sample)
    }

    // MARK: pointer

    /// GDK's button numbers as evdev codes (BTN_LEFT 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112,
    /// BTN_SIDE 0x113, BTN_EXTRA 0x114).
    static func evdevButton(_ button: UInt32) -> Int {
        switch button {
        case 1: 0x110
        case 2: 0x112
        case 3: 0x111
        case 8: 0x113
        case 9: 0x114
        default: 0x110 + Int(button) - 1
        }
    }

    static func scroll(_ event: OpaquePointer, at location: Point, time: Instant, device: InputDeviceID) -> PointerEvent? {
        let perDetent = GestureDefaults.wheelPointsPerDetent
        switch gdk_scroll_event_get_direction(event) {
        case GDK_SCROLL_UP: return .scroll(Point(x: 0, y: perDetent), .discrete, at: location, time: time, device: device)
        case GDK_SCROLL_DOWN: return .scroll(Point(x: 0, y: -perDetent), .discrete, at: location, time: time, device: device)
        case GDK_SCROLL_LEFT: return .scroll(Point(x: perDetent, y: 0), .discrete, at: location, time: time, device: device)
        case GDK_SCROLL_RIGHT: return .scroll(Point(x: -perDetent, y: 0), .discrete, at: location, time: time, device: device)
        default: break
        }
        var dx = 0.0, dy = 0.0
        gdk_scroll_event_get_deltas(event, &dx, &dy)
        if gdk_scroll_event_get_unit(event) == GDK_SCROLL_UNIT_WHEEL {
            let delta = Point(x: -dx * perDetent, y: -dy * perDetent)
            return delta == .zero ? nil : .scroll(delta, .discrete, at: location, time: time, device: device)
        }
        return .scroll(Point(x: dx, y: dy), .continuous, at: location, time: time, device: device,
                       stop: gdk_scroll_event_is_stop(event) != 0)
    }

    private mutating func touchpad(_ event: OpaquePointer, type: GdkEventType, at location: Point, time: Instant,
                                   device: InputDeviceID) -> TouchpadGestureEvent {
        let kind: TouchpadGestureEvent.Kind = type == GDK_TOUCHPAD_PINCH ? .pinch : type == GDK_TOUCHPAD_SWIPE ? .swipe : .hold
        let phase: TouchpadGestureEvent.Phase
        switch gdk_touchpad_event_get_gesture_phase(event) {
        case GDK_TOUCHPAD_GESTURE_PHASE_BEGIN: phase = .begin
        case GDK_TOUCHPAD_GESTURE_PHASE_UPDATE: phase = .update
        case GDK_TOUCHPAD_GESTURE_PHASE_END: phase = .end
        default: phase = .cancel
        }
        var dx = 0.0, dy = 0.0
        if kind != .hold { gdk_touchpad_event_get_deltas(event, &dx, &dy) }
        var g = TouchpadGestureEvent(kind: kind, phase: phase, time: time, device: device,
                                     fingers: Int(gdk_touchpad_event_get_n_fingers(event)), location: location,
                                     delta: Point(x: dx, y: dy))
        if kind == .pinch {
            g.scale = gdk_touchpad_event_get_pinch_scale(event)
            g.angleDelta = gdk_touchpad_event_get_pinch_angle_delta(event) * Self.degreesPerRadian
            if phase == .end || phase == .cancel {
                if let pinchScale { g.scale = pinchScale }
                pinchScale = nil
            } else {
                pinchScale = g.scale
            }
        }
        return g
    }

    // MARK: devices, positions, modifiers

    private mutating func device(of event: OpaquePointer, announcing out: inout [InputEvent]) -> (InputDeviceID, InputDeviceKind)? {
        guard let device = gdk_event_get_device(event) else { return nil }
        let key = UnsafeMutableRawPointer(device)
        if let known = devices[key] { return known }
        let source = gdk_device_get_source(device)
        let kind: InputDeviceKind
        let capability: InputDeviceCapability
        switch source {
        case GDK_SOURCE_TOUCHSCREEN: (kind, capability) = (.touchscreen, .touch)
        case GDK_SOURCE_TOUCHPAD: (kind, capability) = (.pointer, .gesture)
        case GDK_SOURCE_PEN: (kind, capability) = (.pen, .tabletTool)
        case GDK_SOURCE_KEYBOARD, GDK_SOURCE_TABLET_PAD: return nil
        default: (kind, capability) = (.pointer, .pointer)
        }
        let id = InputDeviceID(nextDevice)
        nextDevice += 1
        devices[key] = (id, kind)
        let name = gdk_device_get_name(device).map { String(cString: $0) } ?? "GDK device"
        out.append(.deviceAdded(InputDeviceInfo(id: id, name: name, systemName: "gtk", kind: kind,
                                                capabilities: [capability], sizeMillimetres: nil)))
        return (id, kind)
    }

    private func position(_ event: OpaquePointer, in widget: UnsafeMutableRawPointer) -> Point? {
        var x = 0.0, y = 0.0
        guard gdk_event_get_position(event, &x, &y) != 0 else { return nil }
        return Self.widgetPoint(x, y, on: gdk_event_get_surface(event), widget)
    }

    /// A point of `surface` in `widget`'s coordinates (a popover's surface is placed where
    /// the popover is on its window's).
    static func widgetPoint(_ x: Double, _ y: Double, on surface: OpaquePointer?, _ widget: UnsafeMutableRawPointer) -> Point? {
        var wx = 0.0, wy = 0.0
        guard gk_surface_point_to_widget(widget, surface, x, y, &wx, &wy) != 0 else { return nil }
        return Point(x: wx, y: wy)
    }

    /// The positions GDK coalesced into `event` (before its own), with their times.
    private mutating func history(of event: OpaquePointer, in widget: UnsafeMutableRawPointer) -> [(Instant, Point)] {
        var count: UInt32 = 0
        guard let coords = gdk_event_get_history(event, &count), count > 0 else { return [] }
        defer { g_free(coords) }
        var out: [(Instant, Point)] = []
        let surface = gdk_event_get_surface(event)
        for i in 0..<Int(count) {
            let c = coords + i
            guard gk_time_coord_has_xy(c) != 0,
                  let p = Self.widgetPoint(gk_time_coord_x(c), gk_time_coord_y(c), on: surface, widget) else { continue }
            out.append((stamps.instant(c.pointee.time), p))
        }
        return out
    }

    static func modifierFlags(_ state: GdkModifierType) -> ModifierFlags {
        var flags: ModifierFlags = []
        if state.rawValue & GDK_LOCK_MASK.rawValue != 0 { flags.insert(.alphaShift) }
        if state.rawValue & GDK_SHIFT_MASK.rawValue != 0 { flags.insert(.shift) }
        if state.rawValue & GDK_CONTROL_MASK.rawValue != 0 { flags.insert(.control) }
        if state.rawValue & GDK_ALT_MASK.rawValue != 0 { flags.insert(.alternate) }
        if state.rawValue & (GDK_SUPER_MASK.rawValue | GDK_META_MASK.rawValue) != 0 { flags.insert(.command) }
        return flags
    }
}
