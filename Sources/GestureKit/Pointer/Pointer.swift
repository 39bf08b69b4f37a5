/// The type of a touch, as UIKit's `UITouch.TouchType`: where it comes from decides which
/// recognizers see it (`GestureRecognizer.allowedTouchTypes`).
public enum TouchType: String, Hashable, Sendable, CaseIterable {
    /// A finger on a touchscreen.
    case direct
    /// A contact on a touchpad, and a touchpad gesture (pinch, rotation, swipe, hold).
    case indirect
    /// A pointer's pressed button: a mouse's, or a touchpad's click.
    case indirectPointer
    /// A pen's tip on a screen or a tablet (UIKit's `.pencil`).
    case pencil
}

/// A set of touch types (UIKit's `allowedTouchTypes`, as a mask).
public struct TouchTypes: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ type: TouchType) {
        switch type {
        case .direct: self = .direct
        case .indirect: self = .indirect
        case .indirectPointer: self = .indirectPointer
        case .pencil: self = .pencil
        }
    }

    public static let direct = TouchTypes(rawValue: 1)
    public static let indirect = TouchTypes(rawValue: 2)
    public static let indirectPointer = TouchTypes(rawValue: 4)
    public static let pencil = TouchTypes(rawValue: 8)
    public static let all: TouchTypes = [.direct, .indirect, .indirectPointer, .pencil]
}

/// The pointer buttons of a touch (UIKit's `UIEvent.ButtonMask`): the primary (`BTN_LEFT`),
/// secondary (`BTN_RIGHT`) and tertiary (`BTN_MIDDLE`).
public struct ButtonMask: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let primary = ButtonMask(rawValue: 1 << 0)
    public static let secondary = ButtonMask(rawValue: 1 << 1)
    public static let tertiary = ButtonMask(rawValue: 1 << 2)

    /// The button of an evdev code (`BTN_LEFT` 0x110, `BTN_RIGHT` 0x111, `BTN_MIDDLE`
    /// 0x112); nil for the others (side and extra buttons).
    public init?(evdevCode code: Int) {
        switch code {
        case 0x110: self = .primary
        case 0x111: self = .secondary
        case 0x112: self = .tertiary
        default: return nil
        }
    }

    /// The names, in the replay contract's order: "primary", "secondary", "tertiary".
    public var names: [String] {
        var names: [String] = []
        if contains(.primary) { names.append("primary") }
        if contains(.secondary) { names.append("secondary") }
        if contains(.tertiary) { names.append("tertiary") }
        return names
    }

    public var description: String { names.joined(separator: "|") }
}

/// The kinds of scrolling a pan lets drive it (UIKit's `allowedScrollTypesMask`).
public struct ScrollTypes: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A touchpad's two-finger scroll (libinput's finger and continuous scroll).
    public static let continuous = ScrollTypes(rawValue: 1)
    /// A mouse wheel's detents.
    public static let discrete = ScrollTypes(rawValue: 2)
    public static let all: ScrollTypes = [.continuous, .discrete]
}

extension InputDeviceKind {
    /// The type of the touches of this kind of source.
    public var touchType: TouchType {
        switch self {
        case .touchscreen: .direct
        case .touchpad: .indirect
        case .pointer: .indirectPointer
        case .pen: .pencil
        }
    }
}

extension Touch {
    /// The touch's type: a touchscreen's finger is `direct`, a touchpad's contact or gesture
    /// `indirect`, a pointer's pressed button `indirectPointer`, a pen's tip `pencil`.
    public var type: TouchType { deviceKind.touchType }
}

/// What a pointer did (a mouse, a pointing stick, a touchpad moving the pointer): the
/// sources (the trace decoder, libinput) keep the pointer's location on the screen and send
/// it with every event.
///
/// Rules the engine applies (each reported as `inputIgnored`, nothing stuck):
/// - an event of a device after `deviceRemoved` for it is ignored, until a `deviceAdded`
///   under the same id (a source that gives a device plugged in again its old id: the mouse
///   works again, rather than staying dead);
/// - a button released that was never pressed is ignored; one pressed while pressed is
///   ignored;
/// - the primary, secondary and tertiary buttons make the pointer's one touch (the buttons'
///   rule in GestureEngine+Pointer.swift); side and extra buttons are no touch, silently;
/// - a non-finite location is ignored (the pointer stays where it was);
/// - a scroll of zero in both axes carries nothing and is ignored;
/// - a wheel turned with shift held scrolls sideways (its y detents drive x);
/// - `leave` (the pointer left the window) ends the hovering that follows the device and
///   cancels the touch of a button still held (its grab was broken): nothing stays pressed.
public struct PointerEvent: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The pointer moved to `location`.
        case motion
        /// `button` was pressed (`pressed`) or released, at `location`.
        case button
        /// A scroll at `location` by `delta`, of `scrollType`; `scrollStop` for a touchpad's
        /// scroll stop (its fingers lifted).
        case scroll
        /// The pointer left the window (a compositor's `wl_pointer.leave`): hovering ends,
        /// and a button still held (its grab broken) no longer is: its touch is cancelled.
        case leave
    }

    public var kind: Kind
    public var time: Instant
    public var device: InputDeviceID
    /// The pointer's location after the event, in screen points.
    public var location: Point
    /// Button: the evdev code (`BTN_LEFT` is 0x110).
    public var button: Int
    public var pressed: Bool
    /// Scroll: the content's movement, in points, with the sign of dragging it (a wheel
    /// turned forward, away from the user, gives a positive y).
    public var delta: Point
    public var scrollType: ScrollTypes
    public var scrollStop: Bool

    /// The evdev code of the primary button.
    public static let primaryButton = 0x110

    public init(kind: Kind, time: Instant, device: InputDeviceID = InputDeviceID(0), location: Point,
                button: Int = PointerEvent.primaryButton, pressed: Bool = false,
                delta: Point = .zero, scrollType: ScrollTypes = .discrete, scrollStop: Bool = false) {
        self.kind = kind
        self.time = time
        self.device = device
        self.location = location
        self.button = button
        self.pressed = pressed
        self.delta = delta
        self.scrollType = scrollType
        self.scrollStop = scrollStop
    }

    public static func motion(to location: Point, at time: Instant, device: InputDeviceID = InputDeviceID(0)) -> PointerEvent {
        PointerEvent(kind: .motion, time: time, device: device, location: location)
    }

    public static func button(_ pressed: Bool, at location: Point, time: Instant, device: InputDeviceID = InputDeviceID(0),
                              button: Int = PointerEvent.primaryButton) -> PointerEvent {
        PointerEvent(kind: .button, time: time, device: device, location: location, button: button, pressed: pressed)
    }

    public static func leave(at location: Point, time: Instant, device: InputDeviceID = InputDeviceID(0)) -> PointerEvent {
        PointerEvent(kind: .leave, time: time, device: device, location: location)
    }

    public static func scroll(_ delta: Point, _ type: ScrollTypes, at location: Point, time: Instant,
                              device: InputDeviceID = InputDeviceID(0), stop: Bool = false) -> PointerEvent {
        PointerEvent(kind: .scroll, time: time, device: device, location: location, delta: delta,
                     scrollType: type, scrollStop: stop)
    }
}

extension GestureDefaults {
    /// A wheel's scroll sequence ends this long after its last detent (UIKit ends a wheel's
    /// scroll after a short pause too). 0.2 s: a person turning a wheel steadily makes a
    /// detent every 30–100 ms; a pause of 0.2 s is a new scroll.
    public static let wheelScrollEndPause: Duration = .milliseconds(200)
    /// How far one wheel detent scrolls, in points: 15, libinput's own figure for a detent
    /// (`libinput_event_pointer_get_scroll_value` gives 15 per click), so a wheel scrolls the
    /// same through the built-in decoder and through libinput.
    public static let wheelPointsPerDetent = 15.0
}
