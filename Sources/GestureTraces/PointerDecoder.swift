import GestureKit

extension EvdevDeviceDescription {
    /// Whether the device moves the pointer with relative axes (a mouse, a pointing stick):
    /// it has `REL_X` and `REL_Y`.
    package var isRelativePointer: Bool {
        has(.rel, EventCode(rawValue: 0x00)) && has(.rel, EventCode(rawValue: 0x01))
    }

    /// Whether the device has a scroll wheel (`REL_WHEEL`, `REL_HWHEEL` or their hi-res forms).
    package var hasWheel: Bool {
        [0x06, 0x08, 0x0b, 0x0c].contains { has(.rel, EventCode(rawValue: $0)) }
    }
}

/// The one pointer of a replay, moved by the trace's mice (and touchpads): relative motion
/// one point per device unit (no acceleration), clamped to the screen; it starts at the
/// screen's centre. Buttons and wheels become `PointerEvent`s at the pointer.
///
/// ## Rules
/// - `REL_X`/`REL_Y` within one frame (up to `SYN_REPORT`) add up to one motion.
/// - A button's press or release is one event at the pointer, after the frame's motion
///   (a value of 2, the kernel's autorepeat of a held button, is no new press).
///   Every button is passed on; the engine makes a touch of the primary one (`BTN_LEFT`).
/// - A wheel: `REL_WHEEL` (vertical) and `REL_HWHEEL` (horizontal), or, on a device that
///   has them, only their `_HI_RES` forms (120 units a detent; the low-resolution events then
///   repeat the same turn and are not counted twice). One detent scrolls
///   `GestureDefaults.wheelPointsPerDetent` points; the delta has the sign of dragging the
///   content: a wheel turned forward (positive `REL_WHEEL`) gives a positive y, one tilted
///   right (positive `REL_HWHEEL`) a negative x.
/// - A wheel on a device that has no pointer (no `REL_X`/`REL_Y` and no buttons: a
///   keyboard's volume wheel, a knob) is not a scroll: its turns are ignored, each reported
///   (`notes`), as libinput does not make pointer scrolls of them either.
/// - `SYN_DROPPED`: the frame's pending motion and wheel are discarded; a button pressed
///   stays pressed until its release arrives (the engine ignores a release never pressed).
public struct PointerDecoder: Sendable {
    /// The pointer's location, in screen points.
    public private(set) var location: Point
    let screen: Size

    struct DeviceState: Sendable {
        var dx: Int64 = 0
        var dy: Int64 = 0
        var wheel: Int64 = 0
        var hwheel: Int64 = 0
        var hiResWheel = false
        var hiResHWheel = false
        /// Button changes of the current frame: (code, pressed).
        var buttons: [(Int, Bool)] = []
        var dropping = false
        /// A wheel with no pointer: its turns are ignored.
        var wheelOnly = false
    }

    /// What the decoder set aside since the last `takeNotes()`, in words.
    public private(set) var notes: [String] = []

    public mutating func takeNotes() -> [String] {
        defer { notes.removeAll() }
        return notes
    }

    var states: [InputDeviceID: DeviceState] = [:]

    public init(screen: Size) {
        self.screen = screen
        location = Point(x: screen.width / 2, y: screen.height / 2)
    }

    /// Makes `device` known (its hi-res wheels decide which wheel events count).
    public mutating func add(_ device: TraceDevice) {
        var s = DeviceState()
        if let d = device.description {
            s.hiResWheel = d.has(.rel, EventCode(rawValue: 0x0b))
            s.hiResHWheel = d.has(.rel, EventCode(rawValue: 0x0c))
            s.wheelOnly = !d.isRelativePointer && !(d.codes[.key] ?? []).contains { (0x110..<0x118).contains($0.rawValue) }
        }
        s.buttons.reserveCapacity(4)
        states[device.id] = s
    }

    /// Moves the pointer by `delta` points, kept on the screen (`Rect.closestPoint(to:)`: at
    /// the right or bottom edge it stays over the views there).
    public mutating func move(by delta: Point) {
        location = Rect(origin: .zero, size: screen).closestPoint(to: Point(x: location.x + delta.x, y: location.y + delta.y))
    }

    /// Feeds one event of a pointer device; at `SYN_REPORT`, hands the frame's pointer events
    /// to `emit`, in order: motion, buttons, wheel.
    public mutating func feed(_ event: EvdevEvent, device: InputDeviceID, _ emit: (PointerEvent) throws -> Void) rethrows {
        guard var s = states[device] else { return }
        defer { states[device] = s }
        if s.dropping {
            if event.type == .syn && event.code == .synReport { s.dropping = false }
            return
        }
        switch event.type.rawValue {
        case 0x02:
            let v = Int64(event.value)
            switch event.code.rawValue {
            case 0x00: s.dx += v
            case 0x01: s.dy += v
            case 0x08: if !s.hiResWheel { s.wheel += v * 120 }
            case 0x0b: s.wheel += v
            case 0x06: if !s.hiResHWheel { s.hwheel += v * 120 }
            case 0x0c: s.hwheel += v
            default: break
            }
        case 0x01:
            let code = Int(event.code.rawValue)
            // 1 press, 0 release; 2 is the kernel's autorepeat of a held key: no new press.
            if code >= 0x110 && code < 0x120 && (event.value == 0 || event.value == 1) {
                s.buttons.append((code, event.value == 1))
            }
        case 0x00:
            if event.code == .synDropped {
                s = DeviceState(hiResWheel: s.hiResWheel, hiResHWheel: s.hiResHWheel, buttons: [], dropping: true)
                return
            }
            guard event.code == .synReport else { return }
            let t = event.time
            if s.dx != 0 || s.dy != 0 {
                let before = location
                move(by: Point(x: Double(s.dx), y: Double(s.dy)))
                if location != before { try emit(.motion(to: location, at: t, device: device)) }
            }
            for (code, pressed) in s.buttons {
                try emit(.button(pressed, at: location, time: t, device: device, button: code))
            }
            if (s.wheel != 0 || s.hwheel != 0) && s.wheelOnly {
                notes.append("a wheel turned on \(device), which has no pointer (no REL_X/REL_Y, no buttons): not a scroll, ignored")
            } else if s.wheel != 0 || s.hwheel != 0 {
                let perUnit = GestureDefaults.wheelPointsPerDetent / 120
                try emit(.scroll(Point(x: -Double(s.hwheel) * perUnit, y: Double(s.wheel) * perUnit), .discrete,
                                 at: location, time: t, device: device))
            }
            s.dx = 0; s.dy = 0; s.wheel = 0; s.hwheel = 0
            s.buttons.removeAll(keepingCapacity: true)
        default:
            break
        }
    }
}
