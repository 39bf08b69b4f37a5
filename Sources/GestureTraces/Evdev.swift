import GestureKit

/// An evdev event type (`EV_*` in linux/input-event-codes.h), wrapped the way swift-system
/// wraps C values: a `RawRepresentable` with named constants.
public struct EventType: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let syn = EventType(rawValue: 0x00)
    public static let key = EventType(rawValue: 0x01)
    public static let rel = EventType(rawValue: 0x02)
    public static let abs = EventType(rawValue: 0x03)
    public static let msc = EventType(rawValue: 0x04)
    public static let sw = EventType(rawValue: 0x05)
    public static let led = EventType(rawValue: 0x11)
    public static let snd = EventType(rawValue: 0x12)
    public static let rep = EventType(rawValue: 0x14)
    public static let ff = EventType(rawValue: 0x15)
    public static let pwr = EventType(rawValue: 0x16)
    public static let ffStatus = EventType(rawValue: 0x17)
    /// EV_MAX: the highest event type the kernel defines.
    package static let max = EventType(rawValue: 0x1f)

    public static func < (a: EventType, b: EventType) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .syn: "EV_SYN"
        case .key: "EV_KEY"
        case .rel: "EV_REL"
        case .abs: "EV_ABS"
        case .msc: "EV_MSC"
        case .sw: "EV_SW"
        case .led: "EV_LED"
        case .snd: "EV_SND"
        case .rep: "EV_REP"
        case .ff: "EV_FF"
        default: "EV_0x\(String(rawValue, radix: 16))"
        }
    }
}

/// An evdev event code within its type (`SYN_*`, `ABS_*`, `BTN_*`, ...).
public struct EventCode: RawRepresentable, Hashable, Comparable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (a: EventCode, b: EventCode) -> Bool { a.rawValue < b.rawValue }

    // EV_SYN
    public static let synReport = EventCode(rawValue: 0)
    public static let synConfig = EventCode(rawValue: 1)
    public static let synMTReport = EventCode(rawValue: 2)
    public static let synDropped = EventCode(rawValue: 3)

    // EV_ABS
    public static let absX = EventCode(rawValue: 0x00)
    public static let absY = EventCode(rawValue: 0x01)
    public static let absPressure = EventCode(rawValue: 0x18)
    public static let absMTSlot = EventCode(rawValue: 0x2f)
    public static let absMTTouchMajor = EventCode(rawValue: 0x30)
    public static let absMTTouchMinor = EventCode(rawValue: 0x31)
    public static let absMTWidthMajor = EventCode(rawValue: 0x32)
    public static let absMTWidthMinor = EventCode(rawValue: 0x33)
    public static let absMTOrientation = EventCode(rawValue: 0x34)
    public static let absMTPositionX = EventCode(rawValue: 0x35)
    public static let absMTPositionY = EventCode(rawValue: 0x36)
    public static let absMTToolType = EventCode(rawValue: 0x37)
    public static let absMTBlobID = EventCode(rawValue: 0x38)
    public static let absMTTrackingID = EventCode(rawValue: 0x39)
    public static let absMTPressure = EventCode(rawValue: 0x3a)
    public static let absMTDistance = EventCode(rawValue: 0x3b)
    /// ABS_MAX
    package static let absMax = EventCode(rawValue: 0x3f)

    // EV_KEY
    public static let btnLeft = EventCode(rawValue: 0x110)
    public static let btnToolPen = EventCode(rawValue: 0x140)
    public static let btnToolFinger = EventCode(rawValue: 0x145)
    public static let btnToolQuintTap = EventCode(rawValue: 0x148)
    public static let btnTouch = EventCode(rawValue: 0x14a)
    public static let btnToolDoubleTap = EventCode(rawValue: 0x14d)
    public static let btnToolTripleTap = EventCode(rawValue: 0x14e)
    public static let btnToolQuadTap = EventCode(rawValue: 0x14f)
    /// KEY_MAX
    package static let keyMax = EventCode(rawValue: 0x2ff)
}

extension EventCode {
    /// The name of an EV_ABS code ("ABS_MT_POSITION_X"), or its number in hex.
    package var absName: String {
        switch self {
        case .absX: "ABS_X"
        case .absY: "ABS_Y"
        case .absPressure: "ABS_PRESSURE"
        case .absMTSlot: "ABS_MT_SLOT"
        case .absMTTouchMajor: "ABS_MT_TOUCH_MAJOR"
        case .absMTTouchMinor: "ABS_MT_TOUCH_MINOR"
        case .absMTWidthMajor: "ABS_MT_WIDTH_MAJOR"
        case .absMTWidthMinor: "ABS_MT_WIDTH_MINOR"
        case .absMTOrientation: "ABS_MT_ORIENTATION"
        case .absMTPositionX: "ABS_MT_POSITION_X"
        case .absMTPositionY: "ABS_MT_POSITION_Y"
        case .absMTToolType: "ABS_MT_TOOL_TYPE"
        case .absMTBlobID: "ABS_MT_BLOB_ID"
        case .absMTTrackingID: "ABS_MT_TRACKING_ID"
        case .absMTPressure: "ABS_MT_PRESSURE"
        case .absMTDistance: "ABS_MT_DISTANCE"
        default: "ABS_0x\(String(rawValue, radix: 16))"
        }
    }
}

/// An input property (`INPUT_PROP_*`).
public struct InputProperty: RawRepresentable, Hashable, Comparable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (a: InputProperty, b: InputProperty) -> Bool { a.rawValue < b.rawValue }

    public static let pointer = InputProperty(rawValue: 0x00)
    public static let direct = InputProperty(rawValue: 0x01)
    public static let buttonpad = InputProperty(rawValue: 0x02)
    public static let semiMT = InputProperty(rawValue: 0x03)
    public static let topButtonpad = InputProperty(rawValue: 0x04)
    public static let pointingStick = InputProperty(rawValue: 0x05)
    public static let accelerometer = InputProperty(rawValue: 0x06)
    /// INPUT_PROP_MAX
    package static let max = InputProperty(rawValue: 0x1f)
}

/// One raw evdev event (`struct input_event`), with its timestamp.
public struct EvdevEvent: Hashable, Sendable {
    public var time: Instant
    public var type: EventType
    public var code: EventCode
    public var value: Int32

    public init(time: Instant, type: EventType, code: EventCode, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}

/// An absolute axis's range (`struct input_absinfo`). `resolution` is in units per mm for
/// position axes (0 when the device does not say).
public struct AbsInfo: Hashable, Sendable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0,
                resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// What an evdev device says about itself: what `evemu-describe` prints (`N:` `I:` `P:`
/// `B:` `A:`) and what `libinput record` writes under `evdev:`. Enough to classify the
/// device, map its coordinates, and rebuild it as a mock device for libinput.
public struct EvdevDeviceDescription: Hashable, Sendable {
    public var name: String
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public var properties: Set<InputProperty>
    /// The codes the device can send, per event type.
    public var codes: [EventType: Set<EventCode>]
    /// The absolute axes' ranges.
    public var absInfo: [EventCode: AbsInfo]
    /// udev properties where the recording carries them (`ID_INPUT_TOUCHSCREEN=1`, ...).
    public var udevProperties: [String: String]

    public init(name: String, bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0,
                version: UInt16 = 0, properties: Set<InputProperty> = [],
                codes: [EventType: Set<EventCode>] = [:], absInfo: [EventCode: AbsInfo] = [:],
                udevProperties: [String: String] = [:]) {
        self.name = name
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
        self.udevProperties = udevProperties
    }

    public func has(_ type: EventType, _ code: EventCode) -> Bool {
        codes[type]?.contains(code) ?? false
    }
}
