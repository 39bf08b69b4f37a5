/// The one input type: what every source produces and the engine consumes.
///
/// Every source of input speaks it: the trace decoders (evemu, `libinput record`, libinput
/// debug-events), libinput (GestureLibinput), a Wayland compositor (GestureWayland), an SDL
/// window. An event is made once, where the source reads it, and reaches the engine as it
/// is (`GestureEngine.send(_:)`); sessions, loops and tools pass it on without wrapping it
/// in a type of their own.
///
/// Times are on the receiver's clock: a recording's are counted from its first event, a
/// live source's are CLOCK_MONOTONIC until the live loop rebases them (`rebased(by:)`).
public enum InputEvent: Hashable, Sendable {
    /// A device appeared (a recording's devices all appear first, at time zero).
    case deviceAdded(InputDeviceInfo)
    /// All touch changes of one instant from one device (libinput's TOUCH_FRAME, evdev's
    /// SYN_REPORT, `wl_touch.frame`).
    case touchFrame(TouchFrame)
    /// A touchpad gesture decided by the touchpad driver (pinch, swipe, hold, scroll), at
    /// the pointer.
    case touchpadGesture(TouchpadGestureEvent)
    /// What the pointer did: moved, a button, a scroll, at the pointer's location.
    case pointer(PointerEvent)
    /// What a pen (a tablet tool) did: hovered, touched down, moved, lifted, left.
    case pen(PenEvent)
    /// A keyboard's modifier keys changed: `flags` are the ones it holds now (from its key
    /// codes through `ModifierKeyTracker`, or as a compositor sends them).
    case modifiers(time: Instant, device: InputDeviceID, ModifierFlags)
    /// The device's kernel buffer overflowed (SYN_DROPPED); a `touchFrame` cancelling its
    /// contacts follows when any were down.
    case eventsDropped(time: Instant, device: InputDeviceID)
    /// Something the source set aside or repaired (a slot out of range, a contact lifted
    /// twice), at the time of the event that caused it: reported, never acted on.
    case note(time: Instant, device: InputDeviceID, String)
    /// The device is gone. Its touches and gestures still in progress are cancelled.
    /// `time` is nil when the source does not know it (libinput's DEVICE_REMOVED carries no
    /// time): the receiver's current time applies.
    case deviceRemoved(InputDeviceID, time: Instant?)

    /// When the event happened, where the source says.
    public var time: Instant? {
        switch self {
        case .deviceAdded: nil
        case let .touchFrame(frame): frame.time
        case let .touchpadGesture(gesture): gesture.time
        case let .pointer(event): event.time
        case let .pen(event): event.time
        case let .modifiers(time, _, _): time
        case let .eventsDropped(time, _): time
        case let .note(time, _, _): time
        case let .deviceRemoved(_, time): time
        }
    }

    /// The event with its time moved to another clock: `origin` becomes zero.
    public func rebased(by origin: Instant) -> InputEvent {
        func shift(_ t: Instant) -> Instant { Instant(nanoseconds: t.nanoseconds &- origin.nanoseconds) }
        switch self {
        case .deviceAdded: return self
        case var .touchFrame(frame):
            frame.time = shift(frame.time)
            return .touchFrame(frame)
        case var .touchpadGesture(gesture):
            gesture.time = shift(gesture.time)
            return .touchpadGesture(gesture)
        case var .pointer(event):
            event.time = shift(event.time)
            return .pointer(event)
        case var .pen(event):
            event.time = shift(event.time)
            return .pen(event)
        case let .modifiers(time, device, flags): return .modifiers(time: shift(time), device: device, flags)
        case let .eventsDropped(time, device): return .eventsDropped(time: shift(time), device: device)
        case let .note(time, device, text): return .note(time: shift(time), device: device, text)
        case let .deviceRemoved(device, time): return .deviceRemoved(device, time: time.map(shift))
        }
    }

    /// What an `eventsDropped` means, as replays and traces print it.
    package static func eventsDroppedReason(_ device: InputDeviceID) -> String {
        "\(device): SYN_DROPPED (the kernel's buffer overflowed): its touches are cancelled, events up to the next SYN_REPORT discarded"
    }
}

/// What a source knows about one of its devices when it appears.
public struct InputDeviceInfo: Hashable, Sendable {
    public var id: InputDeviceID
    /// The device's name (the kernel's, a recording's, the compositor's seat and capability).
    public var name: String
    /// The kernel name (`event5`), a recording's node, or the source's own word ("wayland").
    public var systemName: String
    /// What the engine makes of it: a touchscreen, a touchpad or a pointer; nil for anything
    /// else (keyboards, switches).
    public var kind: InputDeviceKind?
    public var capabilities: Set<InputDeviceCapability>
    /// Physical size in millimetres, when the device has one.
    public var sizeMillimetres: Size?
    @available(*, deprecated, renamed: "sizeMillimetres", message: "the API spells it millimetre (pointsPerMillimetre): use sizeMillimetres")
    public var sizeMillimeters: Size? {
        get { sizeMillimetres }
        set { sizeMillimetres = newValue }
    }
    /// How many points of the device's locations a millimetre of it is, where its source
    /// knows (a touchscreen read through a compositor: its output's points over its
    /// millimetres); the engine takes it (`GestureEngine.pointsPerMillimetre`). Nil where the
    /// source does not map the device itself (a recording, libinput: the replay maps it).
    public var pointsPerMillimetre: Double?

    public init(id: InputDeviceID, name: String, systemName: String, kind: InputDeviceKind?,
                capabilities: Set<InputDeviceCapability>, sizeMillimetres: Size?, pointsPerMillimetre: Double? = nil) {
        self.id = id
        self.name = name
        self.systemName = systemName
        self.kind = kind
        self.capabilities = capabilities
        self.sizeMillimetres = sizeMillimetres
        self.pointsPerMillimetre = pointsPerMillimetre
    }

    @available(*, deprecated, renamed: "init(id:name:systemName:kind:capabilities:sizeMillimetres:pointsPerMillimetre:)",
               message: "the API spells it millimetre (pointsPerMillimetre): use the sizeMillimetres: label")
    public init(id: InputDeviceID, name: String, systemName: String, kind: InputDeviceKind?,
                capabilities: Set<InputDeviceCapability>, sizeMillimeters: Size?, pointsPerMillimetre: Double? = nil) {
        self.init(id: id, name: name, systemName: systemName, kind: kind, capabilities: capabilities,
                  sizeMillimetres: sizeMillimeters, pointsPerMillimetre: pointsPerMillimetre)
    }
}

/// What a device can do, in libinput's words (`libinput_device_has_capability`), which every
/// source maps its own onto.
public struct InputDeviceCapability: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let keyboard = Self(rawValue: "keyboard")
    public static let pointer = Self(rawValue: "pointer")
    public static let touch = Self(rawValue: "touch")
    public static let tabletTool = Self(rawValue: "tablet-tool")
    public static let tabletPad = Self(rawValue: "tablet-pad")
    public static let gesture = Self(rawValue: "gesture")
    public static let `switch` = Self(rawValue: "switch")

    public var description: String { rawValue }
}
