import GestureKit

extension EvdevDeviceDescription {
    /// Whether the device is a keyboard (REPLAY.md's "Keys"): it has `KEY_LEFTSHIFT` and
    /// letter keys (`KEY_A`), as udev's input_id calls a device a keyboard.
    package var isKeyboard: Bool {
        has(.key, EventCode(rawValue: 42)) && has(.key, EventCode(rawValue: 30))
    }
}

/// A keyboard's modifier keys in a recording (`ModifierKeyTracker`'s rules): at the
/// `SYN_REPORT` of a frame that changed them, one `InputEvent.modifiers` with the flags the
/// keyboard holds now. Every other key is no input to the engine. `SYN_DROPPED`: the keys up
/// to the next `SYN_REPORT` are discarded (a modifier released meanwhile stays held until
/// its next press and release, as libinput's own key state would not know either).
package struct KeyboardDecoder: Sendable {
    let device: InputDeviceID
    var tracker = ModifierKeyTracker()
    var changed = false
    var dropping = false

    package init(device: InputDeviceID) {
        self.device = device
    }

    package mutating func feed(_ event: EvdevEvent, _ emit: (InputEvent) throws -> Void) rethrows {
        if dropping {
            if event.type == .syn && event.code == .synReport { dropping = false }
            return
        }
        switch event.type.rawValue {
        case 0x01:
            if tracker.key(Int(event.code.rawValue), value: event.value) { changed = true }
        case 0x00:
            if event.code == .synDropped {
                dropping = true
                return
            }
            guard event.code == .synReport, changed else { return }
            changed = false
            try emit(.modifiers(time: event.time, device: device, tracker.flags))
        default:
            break
        }
    }
}
