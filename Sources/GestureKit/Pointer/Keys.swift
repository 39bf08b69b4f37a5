/// The modifier keys held (UIKit's `UIKeyModifierFlags`; REPLAY.md's "Keys").
public struct ModifierFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Caps Lock toggled on.
    public static let alphaShift = ModifierFlags(rawValue: 1 << 0)
    public static let shift = ModifierFlags(rawValue: 1 << 1)
    public static let control = ModifierFlags(rawValue: 1 << 2)
    /// Alt (Option on a Mac keyboard).
    public static let alternate = ModifierFlags(rawValue: 1 << 3)
    /// Super (the Windows or Command key).
    public static let command = ModifierFlags(rawValue: 1 << 4)

    /// The names in the replay contract's order: shift, control, alternate, command,
    /// alphaShift.
    public var names: [String] {
        var names: [String] = []
        if contains(.shift) { names.append("shift") }
        if contains(.control) { names.append("control") }
        if contains(.alternate) { names.append("alternate") }
        if contains(.command) { names.append("command") }
        if contains(.alphaShift) { names.append("alphaShift") }
        return names
    }

    public var description: String { names.isEmpty ? "none" : names.joined(separator: "+") }
}

/// The modifier flags of one keyboard from its evdev key codes (what the trace decoder and
/// the libinput source feed it; a Wayland compositor sends the flags themselves).
///
/// Rules: a modifier is held from its key's press (value 1) to its release (value 0), either
/// of its two keys (`KEY_LEFTSHIFT`/`KEY_RIGHTSHIFT`, `KEY_LEFTCTRL`/`KEY_RIGHTCTRL`,
/// `KEY_LEFTALT`/`KEY_RIGHTALT`, `KEY_LEFTMETA`/`KEY_RIGHTMETA`); Caps Lock toggles
/// `alphaShift` at each press; the kernel's autorepeat (value 2) changes nothing. This is
/// the US layout's reading, without a keymap: a layout that moves a modifier to another key
/// is read through the compositor's flags, not here.
public struct ModifierKeyTracker: Hashable, Sendable {
    /// The evdev codes held, of the eight modifier keys.
    private var held: Set<Int> = []
    private var capsLock = false

    public init() {}

    /// The flags now.
    public var flags: ModifierFlags {
        var f: ModifierFlags = capsLock ? .alphaShift : []
        for code in held {
            if let modifier = ModifierKeyTracker.modifier(of: code) { f.insert(modifier) }
        }
        return f
    }

    /// The modifier an evdev key code holds, if it is one of the eight.
    public static func modifier(of code: Int) -> ModifierFlags? {
        switch code {
        case 42, 54: .shift        // KEY_LEFTSHIFT, KEY_RIGHTSHIFT
        case 29, 97: .control      // KEY_LEFTCTRL, KEY_RIGHTCTRL
        case 56, 100: .alternate   // KEY_LEFTALT, KEY_RIGHTALT
        case 125, 126: .command    // KEY_LEFTMETA, KEY_RIGHTMETA
        default: nil
        }
    }

    /// KEY_CAPSLOCK.
    public static let capsLockCode = 58

    /// A key pressed (`value` 1), released (0) or repeated (2). Returns whether the flags
    /// changed.
    @discardableResult
    public mutating func key(_ code: Int, value: Int32) -> Bool {
        let before = flags
        if code == ModifierKeyTracker.capsLockCode {
            if value == 1 { capsLock.toggle() }
        } else if ModifierKeyTracker.modifier(of: code) != nil {
            if value == 1 { held.insert(code) } else if value == 0 { held.remove(code) }
        }
        return flags != before
    }
}

extension GestureEngine {
    /// The modifier keys held now, over every keyboard (what `GestureRecognizer.modifierFlags`
    /// reads).
    public var modifierFlags: ModifierFlags { storage.heldModifiers }

    /// A keyboard's modifier flags changed (`InputEvent.modifiers`); deadlines before it fire
    /// first. A keyboard removed holds nothing any more (`deviceRemoved`).
    public func send(modifiers flags: ModifierFlags, of device: InputDeviceID, at time: Instant) {
        if storage.inStep {
            storage.queued.append(.input(.modifiers(time: time, device: device, flags)))
            return
        }
        fireDeadlines(before: time, inclusive: false)
        if time > now { now = time }
        setModifiers(flags, of: device)
    }

    func setModifiers(_ flags: ModifierFlags, of device: InputDeviceID) {
        if flags.isEmpty { storage.keyboards[device] = nil } else { storage.keyboards[device] = flags }
        storage.heldModifiers = storage.keyboards.values.reduce(into: ModifierFlags()) { $0.formUnion($1) }
    }
}
