import CLibinput
import GestureKit

/// A libinput event type (`enum libinput_event_type`), wrapped the way swift-system wraps
/// C values.
package struct LibinputEventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }
    init(_ c: libinput_event_type) { self.rawValue = c.rawValue }

    package static let none = Self(LIBINPUT_EVENT_NONE)
    package static let deviceAdded = Self(LIBINPUT_EVENT_DEVICE_ADDED)
    package static let deviceRemoved = Self(LIBINPUT_EVENT_DEVICE_REMOVED)
    package static let pointerMotion = Self(LIBINPUT_EVENT_POINTER_MOTION)
    package static let pointerMotionAbsolute = Self(LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE)
    package static let pointerButton = Self(LIBINPUT_EVENT_POINTER_BUTTON)
    package static let pointerScrollWheel = Self(LIBINPUT_EVENT_POINTER_SCROLL_WHEEL)
    package static let pointerScrollFinger = Self(LIBINPUT_EVENT_POINTER_SCROLL_FINGER)
    package static let pointerScrollContinuous = Self(LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS)
    package static let touchDown = Self(LIBINPUT_EVENT_TOUCH_DOWN)
    package static let touchUp = Self(LIBINPUT_EVENT_TOUCH_UP)
    package static let touchMotion = Self(LIBINPUT_EVENT_TOUCH_MOTION)
    package static let touchCancel = Self(LIBINPUT_EVENT_TOUCH_CANCEL)
    package static let touchFrame = Self(LIBINPUT_EVENT_TOUCH_FRAME)
    package static let gestureSwipeBegin = Self(LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN)
    package static let gestureSwipeUpdate = Self(LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE)
    package static let gestureSwipeEnd = Self(LIBINPUT_EVENT_GESTURE_SWIPE_END)
    package static let gesturePinchBegin = Self(LIBINPUT_EVENT_GESTURE_PINCH_BEGIN)
    package static let gesturePinchUpdate = Self(LIBINPUT_EVENT_GESTURE_PINCH_UPDATE)
    package static let gesturePinchEnd = Self(LIBINPUT_EVENT_GESTURE_PINCH_END)
    package static let gestureHoldBegin = Self(LIBINPUT_EVENT_GESTURE_HOLD_BEGIN)
    package static let gestureHoldEnd = Self(LIBINPUT_EVENT_GESTURE_HOLD_END)
    package static let keyboardKey = Self(LIBINPUT_EVENT_KEYBOARD_KEY)
    package static let tabletToolAxis = Self(LIBINPUT_EVENT_TABLET_TOOL_AXIS)
    package static let tabletToolProximity = Self(LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY)
    package static let tabletToolTip = Self(LIBINPUT_EVENT_TABLET_TOOL_TIP)
    package static let tabletToolButton = Self(LIBINPUT_EVENT_TABLET_TOOL_BUTTON)

    package var description: String {
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
