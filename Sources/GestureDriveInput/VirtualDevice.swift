import GestureKit
import GestureTraces

/// A device a driven app is touched with: what it says about itself to the kernel's input
/// layer (an evdev description: axes, ranges, resolution, buttons) and how often it reports.
/// A compositor's own libinput reads it, as it would the hardware, through a mock device
/// (GestureMockDevice).
///
/// Made either from a size and resolution (`touchscreen(...)`, `touchpad(...)`,
/// `penTablet(...)`, `mouse()`), or from a device in a recording (`recorded(in:kind:)`: the
/// project's own recorded touchscreens, touchpads and pens, or yours, in evemu or
/// `libinput record` form).
///
/// A touchscreen and a pen tablet cover the whole output (libinput maps a direct device's
/// range onto it); the mouse points absolutely, as a virtual machine's tablet does, so a point
/// of the output is one position of the device, whatever the pointer acceleration; a
/// touchpad is indirect, and its gestures go to the window under the pointer.
public struct VirtualDevice: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case touchscreen, touchpad, pen, mouse
    }

    public var kind: Kind
    /// What the device says of itself (as `evemu-describe` prints it).
    public var description: EvdevDeviceDescription
    /// Reports a second while something moves on it (a touchscreen's or touchpad's
    /// controller, a pen's digitizer, a mouse's polling rate).
    public var reportRate: Int

    public init(kind: Kind, description: EvdevDeviceDescription, reportRate: Int) {
        self.kind = kind
        self.description = description
        self.reportRate = reportRate
    }

    /// The physical size of a touchscreen, pen tablet or touchpad in millimetres, where its
    /// position axes say their resolution.
    public var sizeMillimetres: Size? {
        guard let x = description.absInfo[.absX] ?? description.absInfo[.absMTPositionX],
              let y = description.absInfo[.absY] ?? description.absInfo[.absMTPositionY],
              x.resolution > 0, y.resolution > 0 else { return nil }
        return Size(width: Double(x.maximum - x.minimum) / Double(x.resolution),
                    height: Double(y.maximum - y.minimum) / Double(y.resolution))
    }

    /// How many fingers it tracks at once (multitouch slots), 1 without slots.
    public var slots: Int {
        guard let slot = description.absInfo[.absMTSlot] else { return 1 }
        return Int(slot.maximum - slot.minimum) + 1
    }

    // MARK: Made from a size

    /// A vendor id for devices made up here: pid.codes' test id, so that no database of real
    /// devices (libwacom, libinput's quirks) takes them for one it knows.
    static let testVendor: UInt16 = 0x1209

    /// The report rate of a made-up touchscreen when none is given: GestureTesting's
    /// (`GestureTester.defaultSampleRate`, from the project's recordings).
    public static let defaultTouchscreenRate = 120
    /// A touchpad's: 80 reports a second, the Elantech recordings' rate while two fingers move
    /// (the project's touchpad model, `SoakRecording.Library.touchpadModel`).
    public static let defaultTouchpadRate = 80
    /// A pen's: 200 reports a second, a Wacom digitizer's.
    public static let defaultPenRate = 200
    /// A mouse's: 125 reports a second, USB's default polling.
    public static let defaultMouseRate = 125

    /// A touchscreen of `size` millimetres (landscape or portrait as the output is) at
    /// `unitsPerMillimetre`, tracking `slots` fingers, reporting `reportRate` times a second:
    /// multitouch protocol B with pressure, as a modern panel's controller reports.
    public static func touchscreen(size: Size, unitsPerMillimetre: Int = 20, slots: Int = 10,
                                   reportRate: Int = defaultTouchscreenRate) -> VirtualDevice {
        let w = Int32((size.width * Double(unitsPerMillimetre)).rounded()), h = Int32((size.height * Double(unitsPerMillimetre)).rounded())
        let res = Int32(unitsPerMillimetre)
        let description = EvdevDeviceDescription(
            name: "GestureKit Drive Touchscreen", bustype: 0x18, vendor: testVendor, product: 0x0d01, version: 1,
            properties: [.direct],
            codes: [.syn: [.synReport], .key: [.btnTouch],
                    .abs: [.absX, .absY, .absMTSlot, .absMTPositionX, .absMTPositionY, .absMTTrackingID, .absMTPressure, .absPressure]],
            absInfo: [.absX: AbsInfo(minimum: 0, maximum: w, resolution: res), .absY: AbsInfo(minimum: 0, maximum: h, resolution: res),
                      .absPressure: AbsInfo(minimum: 0, maximum: 255),
                      .absMTSlot: AbsInfo(minimum: 0, maximum: Int32(max(1, slots) - 1)),
                      .absMTPositionX: AbsInfo(minimum: 0, maximum: w, resolution: res),
                      .absMTPositionY: AbsInfo(minimum: 0, maximum: h, resolution: res),
                      .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                      .absMTPressure: AbsInfo(minimum: 0, maximum: 255)],
            udevProperties: ["ID_INPUT_TOUCHSCREEN": "1"])
        return VirtualDevice(kind: .touchscreen, description: description, reportRate: reportRate)
    }

    /// A clickpad touchpad of `size` millimetres (by default 102 × 71, the Elantech pad of
    /// the project's touchpad recordings) at `unitsPerMillimetre`, tracking five fingers,
    /// with one button under the pad, reporting `reportRate` times a second.
    public static func touchpad(size: Size = Size(width: 102, height: 71), unitsPerMillimetre: Int = 32,
                                reportRate: Int = defaultTouchpadRate) -> VirtualDevice {
        let w = Int32((size.width * Double(unitsPerMillimetre)).rounded()), h = Int32((size.height * Double(unitsPerMillimetre)).rounded())
        let res = Int32(unitsPerMillimetre)
        let description = EvdevDeviceDescription(
            name: "GestureKit Drive Touchpad", bustype: 0x11, vendor: testVendor, product: 0x0d02, version: 1,
            properties: [.pointer, .buttonpad],
            codes: [.syn: [.synReport], .key: [.btnLeft, .btnToolFinger, .btnTouch, .btnToolDoubleTap, .btnToolTripleTap,
                                               .btnToolQuadTap, .btnToolQuintTap],
                    .abs: [.absX, .absY, .absPressure, .absMTSlot, .absMTPositionX, .absMTPositionY, .absMTTrackingID, .absMTPressure]],
            absInfo: [.absX: AbsInfo(minimum: 0, maximum: w, resolution: res), .absY: AbsInfo(minimum: 0, maximum: h, resolution: res),
                      .absPressure: AbsInfo(minimum: 0, maximum: 255),
                      .absMTSlot: AbsInfo(minimum: 0, maximum: 4),
                      .absMTPositionX: AbsInfo(minimum: 0, maximum: w, resolution: res),
                      .absMTPositionY: AbsInfo(minimum: 0, maximum: h, resolution: res),
                      .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                      .absMTPressure: AbsInfo(minimum: 0, maximum: 255)],
            udevProperties: ["ID_INPUT_TOUCHPAD": "1"])
        return VirtualDevice(kind: .touchpad, description: description, reportRate: reportRate)
    }

    /// A pen display of `size` millimetres at `unitsPerMillimetre` (Wacom's 200), with
    /// pressure (2048 levels), hover distance, tilt (±64°), an eraser and two side buttons,
    /// reporting `reportRate` times a second.
    public static func penTablet(size: Size, unitsPerMillimetre: Int = 200, reportRate: Int = defaultPenRate) -> VirtualDevice {
        let w = Int32((size.width * Double(unitsPerMillimetre)).rounded()), h = Int32((size.height * Double(unitsPerMillimetre)).rounded())
        let res = Int32(unitsPerMillimetre)
        let description = EvdevDeviceDescription(
            name: "GestureKit Drive Pen", bustype: 0x03, vendor: testVendor, product: 0x0d03, version: 1,
            properties: [.direct],
            codes: [.syn: [.synReport], .key: [.btnToolPen, .btnToolRubber, .btnTouch, .btnStylus, .btnStylus2],
                    .abs: [.absX, .absY, .absPressure, .absDistance, .absTiltX, .absTiltY]],
            absInfo: [.absX: AbsInfo(minimum: 0, maximum: w, resolution: res), .absY: AbsInfo(minimum: 0, maximum: h, resolution: res),
                      .absPressure: AbsInfo(minimum: 0, maximum: 2047),
                      .absDistance: AbsInfo(minimum: 0, maximum: 63),
                      .absTiltX: AbsInfo(minimum: -64, maximum: 63, resolution: 57),
                      .absTiltY: AbsInfo(minimum: -64, maximum: 63, resolution: 57)],
            udevProperties: ["ID_INPUT_TABLET": "1"])
        return VirtualDevice(kind: .pen, description: description, reportRate: reportRate)
    }

    /// A mouse that points absolutely (0…32767 across the output, as QEMU's USB tablet), with
    /// three buttons and a wheel of detents (and its high-resolution axis).
    public static func mouse(reportRate: Int = defaultMouseRate) -> VirtualDevice {
        let description = EvdevDeviceDescription(
            name: "GestureKit Drive Mouse", bustype: 0x03, vendor: testVendor, product: 0x0d04, version: 1,
            properties: [],
            codes: [.syn: [.synReport], .key: [.btnLeft, .btnRight, .btnMiddle],
                    .rel: [.relWheel, .relHWheel, .relWheelHiRes, .relHWheelHiRes],
                    .abs: [.absX, .absY]],
            absInfo: [.absX: AbsInfo(minimum: 0, maximum: 32767), .absY: AbsInfo(minimum: 0, maximum: 32767)],
            udevProperties: ["ID_INPUT_MOUSE": "1"])
        return VirtualDevice(kind: .mouse, description: description, reportRate: reportRate)
    }

    // MARK: From a recording

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case noSuchDevice(path: String, kind: Kind, found: [String])
        case unusable(path: String, kind: Kind, why: String)

        public var description: String {
            switch self {
            case let .noSuchDevice(path, kind, found):
                return "\(path): no \(kind.rawValue) in this recording (it has \(found.isEmpty ? "no devices" : found.joined(separator: ", ")))"
            case let .unusable(path, kind, why):
                return "\(path): its \(kind.rawValue) cannot be driven: \(why)"
            }
        }
    }

    /// The first device of `kind` in the recording at `path` (evemu or `libinput record`),
    /// reporting `reportRate` times a second. A mouse from a recording moves relatively: the
    /// driver needs the absolute one (`mouse()`) to point; a recorded mouse serves replays.
    public static func recorded(in path: String, kind: Kind, reportRate: Int? = nil) throws -> VirtualDevice {
        let reader = try TraceReader(path: path, screen: Size(width: 1000, height: 1000))
        let wanted: InputDeviceKind? = switch kind {
        case .touchscreen: .touchscreen
        case .touchpad: .touchpad
        case .pen: .pen
        case .mouse: nil
        }
        let found = reader.devices.compactMap { d -> (TraceDevice, EvdevDeviceDescription)? in
            guard let description = d.description else { return nil }
            return (d, description)
        }
        let match = found.first { d, description in
            kind == .mouse ? (d.kind == nil && (description.isRelativePointer || description.hasWheel)) : d.kind == wanted
        }
        guard let (_, description) = match else {
            throw Failure.noSuchDevice(path: path, kind: kind,
                                       found: found.map { "\($0.0.kind?.rawValue ?? "pointer") \"\($0.1.name)\"" })
        }
        let device = VirtualDevice(kind: kind, description: description, reportRate: reportRate ?? {
            switch kind {
            case .touchscreen: defaultTouchscreenRate
            case .touchpad: defaultTouchpadRate
            case .pen: defaultPenRate
            case .mouse: defaultMouseRate
            }
        }())
        if kind != .mouse, device.description.absInfo[.absX] == nil && device.description.absInfo[.absMTPositionX] == nil {
            throw Failure.unusable(path: path, kind: kind, why: "it has no position axes")
        }
        return device
    }
}

extension EventCode {
    static let btnRight = EventCode(rawValue: 0x111)
    static let btnMiddle = EventCode(rawValue: 0x112)
    static let btnToolRubber = EventCode(rawValue: 0x141)
    static let btnStylus = EventCode(rawValue: 0x14b)
    static let btnStylus2 = EventCode(rawValue: 0x14c)
    static let absDistance = EventCode(rawValue: 0x19)
    static let absTiltX = EventCode(rawValue: 0x1a)
    static let absTiltY = EventCode(rawValue: 0x1b)
    static let relX = EventCode(rawValue: 0x00)
    static let relY = EventCode(rawValue: 0x01)
    static let relHWheel = EventCode(rawValue: 0x06)
    static let relWheel = EventCode(rawValue: 0x08)
    static let relWheelHiRes = EventCode(rawValue: 0x0b)
    static let relHWheelHiRes = EventCode(rawValue: 0x0c)
}
