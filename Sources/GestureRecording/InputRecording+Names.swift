import GestureKit

// The names the recording format writes for a touch frame's kind and its changes' phases, as
// static text: a recorder writes them with no string to make or escape on every frame. Each
// is its raw value (InputRecordingNamesTests checks every case).

extension InputDeviceKind {
    /// `rawValue`, as static text.
    package var formatName: StaticString {
        switch self {
        case .touchscreen: "touchscreen"
        case .touchpad: "touchpad"
        case .pointer: "pointer"
        case .pen: "pen"
        }
    }
}

extension TouchPhase {
    /// `rawValue`, as static text.
    package var formatName: StaticString {
        switch self {
        case .began: "began"
        case .moved: "moved"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }
}
