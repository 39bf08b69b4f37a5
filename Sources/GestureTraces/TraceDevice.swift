import GestureKit

extension EvdevDeviceDescription {
    /// Whether the device reports touches: multitouch positions, or ABS_X/ABS_Y with
    /// BTN_TOUCH or BTN_TOOL_FINGER.
    package var reportsTouches: Bool {
        let mt = has(.abs, .absMTPositionX) && has(.abs, .absMTPositionY)
        let st = has(.abs, .absX) && has(.abs, .absY)
            && (has(.key, .btnTouch) || has(.key, .btnToolFinger))
        return mt || st
    }

    /// Touchscreen, touchpad or pen, or nil for a device that reports no touches (keyboard,
    /// mouse).
    ///
    /// Rules, first match wins: a pen (`isPen`) → pen; udev `ID_INPUT_TOUCHSCREEN=1` → touchscreen,
    /// `ID_INPUT_TOUCHPAD=1` → touchpad; `INPUT_PROP_DIRECT` → touchscreen;
    /// `INPUT_PROP_POINTER` → touchpad; `BTN_TOOL_FINGER` (without DIRECT) → touchpad;
    /// otherwise touchscreen.
    package var touchKind: InputDeviceKind? {
        if isPen { return .pen }
        guard reportsTouches else { return nil }
        if udevProperties["ID_INPUT_TOUCHSCREEN"] == "1" { return .touchscreen }
        if udevProperties["ID_INPUT_TOUCHPAD"] == "1" { return .touchpad }
        if properties.contains(.direct) { return .touchscreen }
        if properties.contains(.pointer) { return .touchpad }
        if has(.key, .btnToolFinger) { return .touchpad }
        return .touchscreen
    }

    /// Number of multitouch slots (ABS_MT_SLOT max + 1, capped at 256), or 0 for a device
    /// without slots (single-touch, or multitouch protocol A which is decoded as single-touch).
    package var slotCount: Int {
        guard has(.abs, .absMTSlot), has(.abs, .absMTPositionX), let info = absInfo[.absMTSlot] else { return 0 }
        let n = Int(info.maximum) - Int(max(info.minimum, 0)) + 1
        return min(max(n, 1), 256)
    }

    /// The axes touch positions are read from: ABS_MT_POSITION_X/Y on a slotted device,
    /// ABS_X/ABS_Y otherwise (each falls back to the other when missing).
    package var positionAxes: (x: AbsInfo, y: AbsInfo)? {
        let mt = slotCount > 0
        let x = mt ? (absInfo[.absMTPositionX] ?? absInfo[.absX]) : (absInfo[.absX] ?? absInfo[.absMTPositionX])
        let y = mt ? (absInfo[.absMTPositionY] ?? absInfo[.absY]) : (absInfo[.absY] ?? absInfo[.absMTPositionY])
        guard let x, let y else { return nil }
        return (x, y)
    }

    /// Physical size in mm from the position axes' resolution (units/mm), when both have one.
    package var physicalSize: Size? {
        guard let axes = positionAxes, axes.x.resolution > 0, axes.y.resolution > 0 else { return nil }
        return Size(width: (Double(axes.x.maximum) - Double(axes.x.minimum)) / Double(axes.x.resolution),
                    height: (Double(axes.y.maximum) - Double(axes.y.minimum)) / Double(axes.y.resolution))
    }
}

/// One device of a trace.
public struct TraceDevice: Hashable, Sendable {
    /// Unique within the trace: 0, 1, ... in the order the trace lists the devices.
    public var id: InputDeviceID
    public var name: String
    /// Touchscreen or touchpad; nil for a device that reports no touches (its events are
    /// still counted and streamed, but it produces no frames).
    public var kind: InputDeviceKind?
    /// What the device says about itself; nil for a libinput debug-events trace.
    public var description: EvdevDeviceDescription?
    /// The ranges of the axes positions are read from (nil for debug-events).
    public var xAxis: AbsInfo?
    public var yAxis: AbsInfo?
    /// Multitouch slots (0: single-touch or debug-events).
    public var slotCount: Int
    /// INPUT_PROP_SEMI_MT: the slots carry a bounding box, not individual fingers.
    public var isSemiMT: Bool
    /// Physical size in mm: from the axes' resolution, or for debug-events from the
    /// `size WxHmm` of DEVICE_ADDED or the mm/percent pairs of the touches; nil when unknown.
    public var physicalSize: Size?
    /// The kernel device node name where the trace names it (`event4`, `/dev/input/event9`).
    public var node: String?

    public init(id: InputDeviceID, name: String, kind: InputDeviceKind?, description: EvdevDeviceDescription?,
                xAxis: AbsInfo? = nil, yAxis: AbsInfo? = nil, slotCount: Int = 0, isSemiMT: Bool = false,
                physicalSize: Size? = nil, node: String? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.description = description
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.slotCount = slotCount
        self.isSemiMT = isSemiMT
        self.physicalSize = physicalSize
        self.node = node
    }

    /// A device described by evdev (evemu, libinput record).
    public init(id: InputDeviceID, description: EvdevDeviceDescription, node: String? = nil) {
        let axes = description.positionAxes
        self.init(id: id, name: description.name, kind: description.touchKind, description: description,
                  xAxis: axes?.x, yAxis: axes?.y, slotCount: description.slotCount,
                  isSemiMT: description.properties.contains(.semiMT),
                  physicalSize: description.physicalSize, node: node)
    }
}

extension TraceDevice {
    /// The device as it appears in the trace's `deviceAdded` event: a touchscreen touches, a
    /// touchpad points and has gestures, a mouse (relative axes or a wheel) points.
    public var info: InputDeviceInfo {
        let isPointer = description?.isRelativePointer == true || description?.hasWheel == true
        var capabilities: Set<InputDeviceCapability> = switch kind {
        case .touchscreen: [.touch]
        case .touchpad: [.pointer, .gesture]
        case .pointer: [.pointer]
        case .pen: [.tabletTool]
        case nil: isPointer ? [.pointer] : []
        }
        if description?.isKeyboard == true { capabilities.insert(.keyboard) }
        return InputDeviceInfo(id: id, name: name, systemName: node ?? "", kind: kind ?? (isPointer ? .pointer : nil),
                               capabilities: capabilities, sizeMillimetres: physicalSize)
    }
}
