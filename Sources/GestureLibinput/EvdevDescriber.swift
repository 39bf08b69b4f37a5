import GestureFormat
import CLibevdev
import GestureKit
import GestureTraces
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads what an evdev node says about itself through libevdev (what `evemu-describe`
/// prints): name, ids, properties, codes and axis ranges.
public enum EvdevDescriber {
    public static func describe(path: String) throws -> EvdevDeviceDescription {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw LibinputError.openError(path: path, errno: errno) }
        defer { close(fd) }
        var device: OpaquePointer? = nil
        let rc = libevdev_new_from_fd(fd, &device)
        guard rc == 0, let device else {
            throw LibinputError.systemCallFailed(call: "libevdev_new_from_fd(\(path))", errno: -rc)
        }
        defer { libevdev_free(device) }

        var description = EvdevDeviceDescription(
            name: libevdev_get_name(device).map { String(cString: $0) } ?? "",
            bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(device)))
        for prop in 0...UInt32(InputProperty.max.rawValue) where libevdev_has_property(device, prop) != 0 {
            description.properties.insert(InputProperty(rawValue: UInt16(prop)))
        }
        for type in 0...UInt32(EventType.max.rawValue) where libevdev_has_event_type(device, type) != 0 {
            let maxCode = libevdev_event_type_get_max(type)
            guard maxCode >= 0 else { continue }
            var codes: Set<EventCode> = []
            for code in 0...UInt32(maxCode) where libevdev_has_event_code(device, type, code) != 0 {
                codes.insert(EventCode(rawValue: UInt16(code)))
                if type == UInt32(EventType.abs.rawValue), let info = libevdev_get_abs_info(device, code) {
                    description.absInfo[EventCode(rawValue: UInt16(code))] = AbsInfo(
                        value: info.pointee.value, minimum: info.pointee.minimum,
                        maximum: info.pointee.maximum, fuzz: info.pointee.fuzz,
                        flat: info.pointee.flat, resolution: info.pointee.resolution)
                }
            }
            description.codes[EventType(rawValue: UInt16(type))] = codes
        }
        return description
    }

    /// The description as one JSON object (codes by type, absinfo as
    /// [value, min, max, fuzz, flat, resolution]).
    public static func json(_ d: EvdevDeviceDescription) -> String {
        func list(_ values: [String]) -> String { "[" + values.joined(separator: ",") + "]" }
        var codes = JSONObjectText()
        for type in d.codes.keys.sorted() {
            codes.raw(named: "\(type.rawValue)", list(d.codes[type]!.sorted().map { "\($0.rawValue)" }))
        }
        var abs = JSONObjectText()
        for code in d.absInfo.keys.sorted() {
            let i = d.absInfo[code]!
            abs.raw(named: "\(code.rawValue)", list([i.value, i.minimum, i.maximum, i.fuzz, i.flat, i.resolution].map { "\($0)" }))
        }
        var o = JSONObjectText()
        o.string("type", "evdev-description")
        o.string("name", d.name)
        o.raw("id", list([d.bustype, d.vendor, d.product, d.version].map { "\($0)" }))
        o.raw("properties", list(d.properties.sorted().map { "\($0.rawValue)" }))
        o.raw("codes", codes.json)
        o.raw("absinfo", abs.json)
        return o.json
    }
}
