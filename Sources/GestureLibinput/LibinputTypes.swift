import CLibinput
import GestureKit

/// A libinput event type (`enum libinput_event_type`), wrapped the way swift-system wraps
/// C values.
public struct LibinputEventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    init(_ c: libinput_event_type) { self.rawValue = c.rawValue }

    public static let none = Self(LIBINPUT_EVENT_NONE)
    public static let deviceAdded = Self(LIBINPUT_EVENT_DEVICE_ADDED)
    public static let deviceRemoved = Self(LIBINPUT_EVENT_DEVICE_REMOVED)
    public static let pointerMotion = Self(LIBINPUT_EVENT_POINTER_MOTION)
    public static let pointerMotionAbsolute = Self(LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE)
    public static let pointerButton = Self(LIBINPUT_EVENT_POINTER_BUTTON)
    public static let pointerScrollWheel = Self(LIBINPUT_EVENT_POINTER_SCROLL_WHEEL)
    public static let pointerScrollFinger = Self(LIBINPUT_EVENT_POINTER_SCROLL_FINGER)
    public static let pointerScrollContinuous = Self(LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS)
    public static let touchDown = Self(LIBINPUT_EVENT_TOUCH_DOWN)
    public static let touchUp = Self(LIBINPUT_EVENT_TOUCH_UP)
    public static let touchMotion = Self(LIBINPUT_EVENT_TOUCH_MOTION)
    public static let touchCancel = Self(LIBINPUT_EVENT_TOUCH_CANCEL)
    public static let touchFrame = Self(LIBINPUT_EVENT_TOUCH_FRAME)
    public static let gestureSwipeBegin = Self(LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN)
    public static let gestureSwipeUpdate = Self(LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE)
    public static let gestureSwipeEnd = Self(LIBINPUT_EVENT_GESTURE_SWIPE_END)
    public static let gesturePinchBegin = Self(LIBINPUT_EVENT_GESTURE_PINCH_BEGIN)
    public static let gesturePinchUpdate = Self(LIBINPUT_EVENT_GESTURE_PINCH_UPDATE)
    public static let gesturePinchEnd = Self(LIBINPUT_EVENT_GESTURE_PINCH_END)
    public static let gestureHoldBegin = Self(LIBINPUT_EVENT_GESTURE_HOLD_BEGIN)
    public static let gestureHoldEnd = Self(LIBINPUT_EVENT_GESTURE_HOLD_END)
    public static let keyboardKey = Self(LIBINPUT_EVENT_KEYBOARD_KEY)
    public static let tabletToolAxis = Self(LIBINPUT_EVENT_TABLET_TOOL_AXIS)
    public static let tabletToolProximity = Self(LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY)
    public static let tabletToolTip = Self(LIBINPUT_EVENT_TABLET_TOOL_TIP)
    public static let tabletToolButton = Self(LIBINPUT_EVENT_TABLET_TOOL_BUTTON)

    public var description: String {
        switch self {
        case .none: "NONE"
        case .deviceAdded: "DEVICE_ADDED"
        case .deviceRemoved: "DEVICE_REMOVED"
        case .pointerMotion: "POINTER_MOTION"
        case .pointerMotionAbsolute: "POINTER_MOTION_ABSOLUTE"
        case .pointerButton: "POINTER_BUTTON"
        case .pointerScrollWheel: "POINTER_SCROLL_WHEEL"
        case .pointerScrollFinger: "POINTER_SCROLL_FINGER"
        case .pointerScrollContinuous: "POINTER_SCROLL_CONTINUOUS"
        case .touchDown: "TOUCH_DOWN"
        case .touchUp: "TOUCH_UP"
        case .touchMotion: "TOUCH_MOTION"
        case .touchCancel: "TOUCH_CANCEL"
        case .touchFrame: "TOUCH_FRAME"
        case .gestureSwipeBegin: "GESTURE_SWIPE_BEGIN"
        case .gestureSwipeUpdate: "GESTURE_SWIPE_UPDATE"
        case .gestureSwipeEnd: "GESTURE_SWIPE_END"
        case .gesturePinchBegin: "GESTURE_PINCH_BEGIN"
        case .gesturePinchUpdate: "GESTURE_PINCH_UPDATE"
        case .gesturePinchEnd: "GESTURE_PINCH_END"
        case .gestureHoldBegin: "GESTURE_HOLD_BEGIN"
        case .gestureHoldEnd: "GESTURE_HOLD_END"
        case .keyboardKey: "KEYBOARD_KEY"
        case .tabletToolAxis: "TABLET_TOOL_AXIS"
        case .tabletToolProximity: "TABLET_TOOL_PROXIMITY"
        case .tabletToolTip: "TABLET_TOOL_TIP"
        case .tabletToolButton: "TABLET_TOOL_BUTTON"
        default: "LIBINPUT_EVENT_\(rawValue)"
        }
    }
}

/// A device capability (`enum libinput_device_capability`).
public struct LibinputDeviceCapability: RawRepresentable, Hashable, Sendable, CaseIterable,
    CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    init(_ c: libinput_device_capability) { self.rawValue = c.rawValue }
    var c: libinput_device_capability { libinput_device_capability(rawValue) }

    public static let keyboard = Self(LIBINPUT_DEVICE_CAP_KEYBOARD)
    public static let pointer = Self(LIBINPUT_DEVICE_CAP_POINTER)
    public static let touch = Self(LIBINPUT_DEVICE_CAP_TOUCH)
    public static let tabletTool = Self(LIBINPUT_DEVICE_CAP_TABLET_TOOL)
    public static let tabletPad = Self(LIBINPUT_DEVICE_CAP_TABLET_PAD)
    public static let gesture = Self(LIBINPUT_DEVICE_CAP_GESTURE)
    public static let `switch` = Self(LIBINPUT_DEVICE_CAP_SWITCH)

    public static let allCases: [Self] = [.keyboard, .pointer, .touch, .tabletTool, .tabletPad,
                                          .gesture, .switch]

    public var description: String {
        switch self {
        case .keyboard: "keyboard"
        case .pointer: "pointer"
        case .touch: "touch"
        case .tabletTool: "tablet-tool"
        case .tabletPad: "tablet-pad"
        case .gesture: "gesture"
        case .switch: "switch"
        default: "capability-\(rawValue)"
        }
    }
}

/// A libinput log priority (`enum libinput_log_priority`).
public struct LibinputLogPriority: RawRepresentable, Hashable, Comparable, Sendable,
    CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    init(_ c: libinput_log_priority) { self.rawValue = c.rawValue }
    var c: libinput_log_priority { libinput_log_priority(rawValue) }

    public static let debug = Self(LIBINPUT_LOG_PRIORITY_DEBUG)
    public static let info = Self(LIBINPUT_LOG_PRIORITY_INFO)
    public static let error = Self(LIBINPUT_LOG_PRIORITY_ERROR)

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .error: "error"
        default: "priority-\(rawValue)"
        }
    }
}
