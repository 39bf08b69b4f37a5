import GestureKit
import GestureTraces

/// An evdev device rebuilt for umockdev (0.17.16) from its description: the sysfs/udev
/// record (`umockdev-run -d`) and the recorded ioctl answers (`umockdev-run -i`) that
/// libevdev 1.13 asks for when libinput opens `/dev/input/eventN`.
public struct MockDevice: Hashable, Sendable {
    public var description: EvdevDeviceDescription
    /// N in `/dev/input/eventN`; the device number is 13:(64 + N).
    public var eventNumber: Int

    public init(_ description: EvdevDeviceDescription, eventNumber: Int = 10) {
        self.description = description
        self.eventNumber = eventNumber
    }

    public var devicePath: String { "/dev/input/event\(eventNumber)" }
    package var minor: Int { 64 + eventNumber }

    /// Whether the device is a touchpad (indirect: `INPUT_PROP_POINTER`, or udev says so)
    /// rather than a touchscreen.
    package var isTouchpad: Bool {
        if description.udevProperties["ID_INPUT_TOUCHPAD"] == "1" { return true }
        if description.udevProperties["ID_INPUT_TOUCHSCREEN"] == "1" { return false }
        return description.properties.contains(.pointer)
            || (!description.properties.contains(.direct)
                && description.has(.key, .btnToolFinger) && !description.has(.key, .btnToolPen))
    }

    /// udev properties of the event node: the recording's own, plus ID_INPUT and the
    /// touchscreen/touchpad classification where the recording has none.
    package var udevProperties: [(key: String, value: String)] {
        var props = description.udevProperties
        props["ID_INPUT"] = props["ID_INPUT"] ?? "1"
        if description.isKeyboard {
            // A keyboard (maybe with a pointer, as a keyboard with a trackpoint or a wheel):
            // what udev's input_id builtin says of one.
            props["ID_INPUT_KEY"] = props["ID_INPUT_KEY"] ?? "1"
            props["ID_INPUT_KEYBOARD"] = props["ID_INPUT_KEYBOARD"] ?? "1"
            if description.isRelativePointer && props["ID_INPUT_MOUSE"] == nil { props["ID_INPUT_MOUSE"] = "1" }
        } else if description.isPen {
            // A pen (a tablet tool): what udev's input_id builtin says of a tablet.
            if props["ID_INPUT_TABLET"] == nil { props["ID_INPUT_TABLET"] = "1" }
        } else if !description.reportsTouches && (description.isRelativePointer || description.hasWheel) {
            // A mouse, a pointing stick or a wheel: what udev's input_id builtin says of it.
            if props["ID_INPUT_MOUSE"] == nil && props["ID_INPUT_POINTINGSTICK"] == nil {
                props[description.properties.contains(.pointingStick) ? "ID_INPUT_POINTINGSTICK" : "ID_INPUT_MOUSE"] = "1"
            }
        } else if props["ID_INPUT_TOUCHSCREEN"] == nil && props["ID_INPUT_TOUCHPAD"] == nil {
            props[isTouchpad ? "ID_INPUT_TOUCHPAD" : "ID_INPUT_TOUCHSCREEN"] = "1"
        }
        // What udev's libinput fuzz rule does for touchpads and touchscreens (not tablets):
        // move the kernel fuzz of the position axes into LIBINPUT_FUZZ_xx (the kernel's is
        // then reported as 0, see `kernelFuzz`).
        for code in fuzzOverrideAxes {
            if let fuzz = description.absInfo[code]?.fuzz, fuzz != 0 {
                let hex = String(code.rawValue, radix: 16)
                props["LIBINPUT_FUZZ_" + (hex.count < 2 ? "0" + hex : hex)] = String(fuzz)
            }
        }
        // Device identity is ours, whatever the recording said.
        for key in ["DEVNAME", "MAJOR", "MINOR", "SUBSYSTEM", "DEVPATH"] { props[key] = nil }
        props["DEVNAME"] = devicePath
        props["MAJOR"] = "13"
        props["MINOR"] = String(minor)
        props["SUBSYSTEM"] = "input"
        return props.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    /// The umockdev device record (`-d`): the event node and its parent input device.
    package func umockdevText() -> String {
        let n = eventNumber
        let name = MockDevice.singleLine(description.name)
        var lines: [String] = []
        lines.append("P: /devices/virtual/input/input\(n)/event\(n)")
        lines.append("N: input/event\(n)")
        for (key, value) in udevProperties {
            lines.append("E: \(key)=\(MockDevice.singleLine(value))")
        }
        lines.append("A: dev=13:\(minor)")
        lines.append("")
        lines.append("P: /devices/virtual/input/input\(n)")
        lines.append("E: NAME=\"\(name)\"")
        lines.append("E: PRODUCT=\(hex(description.bustype))/\(hex(description.vendor))/"
                     + "\(hex(description.product))/\(hex(description.version))")
        lines.append("E: PROP=\(bitmaskHex(description.properties.map { Int($0.rawValue) }))")
        lines.append("E: EV=\(bitmaskHex(eventTypes.map { Int($0.rawValue) }))")
        if let keys = description.codes[.key], !keys.isEmpty {
            lines.append("E: KEY=\(bitmaskHex(keys.map { Int($0.rawValue) }))")
        }
        if !absCodes.isEmpty {
            lines.append("E: ABS=\(bitmaskHex(absCodes.map { Int($0.rawValue) }))")
        }
        lines.append("E: SUBSYSTEM=input")
        lines.append("A: name=\(name)")
        lines.append("A: properties=\(bitmaskHex(description.properties.map { Int($0.rawValue) }))")
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// The ioctl record (`-i /dev/input/eventN=FILE`), one line per ioctl libevdev 1.13
    /// issues, each payload exactly as large as libevdev asks (umockdev matches the whole
    /// request number, size included): EVIOCGNAME 255 bytes; EVIOCGBIT(EV_KEY) and EVIOCGKEY
    /// 96; EVIOCGBIT(EV_FF) 16; other EVIOCGBIT types, EVIOCGPROP, EVIOCGLED and EVIOCGSW 8;
    /// EVIOCGABS 24 per axis; EVIOCGMTSLOTS 1028 once per multitouch axis, ascending.
    /// EVIOCGPHYS, EVIOCGUNIQ and EVIOCSCLOCKID stay unanswered.
    package func ioctlText() -> String {
        var lines: [String] = ["@DEV \(devicePath) (evdev)"]
        func line(_ name: String, _ ret: Int, _ bytes: [UInt8]) {
            lines.append("\(name) \(ret) \(MockDevice.hexBytes(bytes))")
        }
        line("EVIOCGBIT(0)", 8, bitmask(eventTypes.map { Int($0.rawValue) }, bytes: 8))
        var nameBytes = Array(description.name.utf8.prefix(254))
        let nameReturn = nameBytes.count + 1
        nameBytes += [UInt8](repeating: 0, count: 255 - nameBytes.count)
        line("EVIOCGNAME(0)", nameReturn, nameBytes)
        var id: [UInt8] = []
        for v in [description.bustype, description.vendor, description.product, description.version] {
            id += le(v)
        }
        line("EVIOCGID", 0, id)
        line("EVIOCGVERSION", 0, le(UInt32(0x010001)))
        if description.codes.keys.contains(.rep) {
            // A device with autorepeat (EV_REP): libevdev asks its delay and period (ms).
            line("EVIOCGREP", 0, le(UInt32(250)) + le(UInt32(33)))
        }
        line("EVIOCGPROP(0)", 8, bitmask(description.properties.map { Int($0.rawValue) }, bytes: 8))
        for type in [EventType.rel, .abs, .led, .key, .sw, .msc, .ff, .snd] {
            let size = MockDevice.bitmaskSize(type)
            let codes: [Int] = type == .abs ? absCodes.map { Int($0.rawValue) }
                : (description.codes[type] ?? []).map { Int($0.rawValue) }
            line("EVIOCGBIT(\(type.rawValue))", size, bitmask(codes, bytes: size))
        }
        line("EVIOCGKEY(0)", 96, [UInt8](repeating: 0, count: 96))
        line("EVIOCGLED(0)", 8, [UInt8](repeating: 0, count: 8))
        line("EVIOCGSW(0)", 8, [UInt8](repeating: 0, count: 8))
        for code in absCodes {
            let info = description.absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
            var bytes: [UInt8] = []
            let fuzz = fuzzOverrideAxes.contains(code) ? 0 : info.fuzz
            for v in [info.value, info.minimum, info.maximum, fuzz, info.flat, info.resolution] {
                bytes += le(UInt32(bitPattern: v))
            }
            line("EVIOCGABS(\(code.rawValue))", 0, bytes)
        }
        if let slotInfo = description.absInfo[.absMTSlot], absCodes.contains(.absMTSlot) {
            let slots = max(0, min(256, Int(slotInfo.maximum) + 1))
            for code in absCodes where code > .absMTSlot && code <= .absMax {
                var bytes = le(UInt32(code.rawValue))
                let value: Int32 = code == .absMTTrackingID ? -1 : 0
                for slot in 0..<256 {
                    bytes += le(UInt32(bitPattern: slot < slots ? value : 0))
                }
                line("EVIOCGMTSLOTS(0)", 0, bytes)
            }
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    // MARK: - Helpers

    /// Axes whose fuzz udev moves into LIBINPUT_FUZZ_xx (libinput's 90-libinput-fuzz-override
    /// rule).
    static let fuzzOverrideAxes: [EventCode] = [.absX, .absY, .absMTPositionX, .absMTPositionY]

    /// The axes whose fuzz udev moves: none on a pen (udev's rule matches touchpads and
    /// touchscreens; a tablet keeps its kernel fuzz, which libinput's tablet code filters by).
    var fuzzOverrideAxes: [EventCode] { description.isPen ? [] : MockDevice.fuzzOverrideAxes }

    var absCodes: [EventCode] {
        Set(description.codes[.abs] ?? []).union(description.absInfo.keys).sorted()
    }

    var eventTypes: [EventType] {
        var types: Set<EventType> = [.syn]
        for (type, codes) in description.codes where !codes.isEmpty { types.insert(type) }
        if !absCodes.isEmpty { types.insert(.abs) }
        return types.sorted()
    }

    /// The size libevdev 1.13 passes to EVIOCGBIT for `type`.
    static func bitmaskSize(_ type: EventType) -> Int {
        switch type {
        case .key: 96       // KEY_MAX 0x2ff
        case .ff: 16        // FF_MAX 0x7f
        default: 8
        }
    }

    func bitmask(_ bits: [Int], bytes: Int) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: bytes)
        for bit in bits where bit >= 0 && bit < bytes * 8 {
            mask[bit / 8] |= UInt8(1) << UInt8(bit % 8)
        }
        return mask
    }

    /// A bitmask as sysfs prints it: 64-bit words in hex, most significant first.
    func bitmaskHex(_ bits: [Int]) -> String {
        guard let highest = bits.max() else { return "0" }
        var words = [UInt64](repeating: 0, count: highest / 64 + 1)
        for bit in bits where bit >= 0 { words[bit / 64] |= UInt64(1) << UInt64(bit % 64) }
        return words.reversed().map { String($0, radix: 16) }.joined(separator: " ")
    }

    func hex(_ v: UInt16) -> String { String(v, radix: 16) }

    func le(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
    func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xff) } }

    static func hexBytes(_ bytes: [UInt8]) -> String {
        let digits: [Character] = Array("0123456789ABCDEF")
        var s = ""
        s.reserveCapacity(bytes.count * 2)
        for b in bytes {
            s.append(digits[Int(b >> 4)])
            s.append(digits[Int(b & 0xf)])
        }
        return s
    }

    static func singleLine(_ s: String) -> String {
        String(s.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
