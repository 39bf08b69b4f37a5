import GestureKit

/// Writes evdev recordings: evemu and `libinput record` (YAML v1) text from device
/// descriptions and events. Event times are written as they are (sec.usec of `Instant`;
/// negative times are written as 0).
package enum TraceWriter {
    /// An evemu recording (`# EVEMU 1.3`, `N:` `I:` `P:` `B:` `A:`, then `E:` lines).
    package static func evemu(description: EvdevDeviceDescription, events: some Sequence<EvdevEvent>) -> String {
        var out = "# EVEMU 1.3\n"
        out += "# Input device name: \"\(description.name)\"\n"
        out += "N: \(description.name)\n"
        out += "I: \(hex(description.bustype, 4)) \(hex(description.vendor, 4)) \(hex(description.product, 4)) \(hex(description.version, 4))\n"
        // Properties: INPUT_PROP_CNT = 32 bits = 4 bytes, written as one line of 8 bytes.
        var props = [UInt8](repeating: 0, count: 8)
        for p in description.properties where p.rawValue < 64 { props[Int(p.rawValue) / 8] |= 1 << (p.rawValue % 8) }
        out += "P: " + props.map { hex($0, 2) }.joined(separator: " ") + "\n"
        // B: 00 is the bitmask of types; then one bitmask per type, 8 bytes a line.
        var types = [UInt8](repeating: 0, count: 8)
        for t in description.codes.keys where t.rawValue < 64 { types[Int(t.rawValue) / 8] |= 1 << (t.rawValue % 8) }
        out += "B: 00 " + types.map { hex($0, 2) }.joined(separator: " ") + "\n"
        for (type, codes) in description.codes.sorted(by: { $0.key < $1.key }) where type != .syn {
            let maxCode = Int(codes.map(\.rawValue).max() ?? 0)
            let lines = maxCode / 64 + 1
            var bytes = [UInt8](repeating: 0, count: lines * 8)
            for c in codes { bytes[Int(c.rawValue) / 8] |= 1 << (c.rawValue % 8) }
            for line in 0..<lines {
                out += "B: \(hex(type.rawValue, 2)) " + bytes[(line * 8)..<(line * 8 + 8)].map { hex($0, 2) }.joined(separator: " ") + "\n"
            }
        }
        for (code, a) in description.absInfo.sorted(by: { $0.key < $1.key }) {
            out += "A: \(hex(code.rawValue, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        for e in events {
            let (sec, usec) = secondsAndMicroseconds(e.time)
            out += "E: \(sec).\(pad(usec, 6)) \(hex(e.type.rawValue, 4)) \(hex(e.code.rawValue, 4)) \(e.value)\n"
        }
        return out
    }

    /// A `libinput record` YAML (version 1) recording of one or more devices.
    package static func libinputRecord(devices: [(description: EvdevDeviceDescription, events: [EvdevEvent])]) -> String {
        var out = "# libinput record\nversion: 1\nndevices: \(devices.count)\n"
        out += "libinput:\n  version: \"1.25.0\"\n  git: \"unknown\"\n"
        out += "system:\n  kernel: \"unknown\"\n  dmi: \"unknown\"\n"
        out += "devices:\n"
        for (index, device) in devices.enumerated() {
            let d = device.description
            out += "- node: /dev/input/event\(index)\n"
            out += "  evdev:\n"
            out += "    # Name: \(d.name)\n"
            out += "    name: \"\(d.name.replacingQuotes())\"\n"
            out += "    id: [\(d.bustype), \(d.vendor), \(d.product), \(d.version)]\n"
            out += "    codes:\n"
            for (type, codes) in d.codes.sorted(by: { $0.key < $1.key }) {
                out += "      \(type.rawValue): [" + codes.sorted().map { String($0.rawValue) }.joined(separator: ", ") + "] # \(type)\n"
            }
            if !d.absInfo.isEmpty {
                out += "    absinfo:\n"
                for (code, a) in d.absInfo.sorted(by: { $0.key < $1.key }) {
                    out += "      \(code.rawValue): [\(a.minimum), \(a.maximum), \(a.fuzz), \(a.flat), \(a.resolution)]\n"
                }
            }
            out += "    properties: [" + d.properties.sorted().map { String($0.rawValue) }.joined(separator: ", ") + "]\n"
            if !d.udevProperties.isEmpty {
                out += "  udev:\n    properties:\n"
                for (k, v) in d.udevProperties.sorted(by: { $0.key < $1.key }) { out += "    - \(k)=\(v)\n" }
            }
            out += "  events:\n"
            var open = false
            for e in device.events {
                if !open { out += "  - evdev:\n"; open = true }
                let (sec, usec) = secondsAndMicroseconds(e.time)
                out += "    - [\(lpad(sec, 3)), \(lpad(usec, 6)), \(lpad(Int64(e.type.rawValue), 3)), \(lpad(Int64(e.code.rawValue), 3)), \(lpad(Int64(e.value), 7))]"
                if e.type == .syn && e.code == .synReport {
                    out += " # ------------ SYN_REPORT (0) ----------\n"
                    open = false
                } else {
                    out += "\n"
                }
            }
        }
        return out
    }

    static func secondsAndMicroseconds(_ t: Instant) -> (Int64, Int64) {
        let ns = max(t.nanoseconds, 0)
        return (ns / 1_000_000_000, (ns % 1_000_000_000) / 1_000)
    }

    static func hex<T: BinaryInteger>(_ v: T, _ width: Int) -> String {
        let s = String(v, radix: 16)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    static func lpad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}

extension String {
    func replacingQuotes() -> String {
        String(map { $0 == "\"" ? "'" : $0 })
    }
}
