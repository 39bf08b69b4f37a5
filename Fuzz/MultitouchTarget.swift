// libFuzzer target: the evdev multitouch decoder fed arbitrary event streams, two devices
// at once, its frames going through the default scene's engine (device removal at the
// end). Build and run: `make fuzz`.
//
// Input: byte 0 describes device 0 and byte 1 device 1 (see `device(_:)`); then records of
// 8 bytes: [selector, value (4 bytes, little-endian), time step (2 bytes, milliseconds,
// signed; -32768 jumps 3 hours ahead), device (low bit)].
import GestureKit
import GestureReplay
import GestureTraces

/// The codes the decoder reads, and a raw escape (selector ≥ the table's size).
private let codes: [(EventType, EventCode)] = [
    (.syn, .synReport), (.syn, .synReport), (.syn, .synDropped), (.syn, .synMTReport),
    (.abs, .absX), (.abs, .absY), (.abs, .absMTSlot), (.abs, .absMTPositionX), (.abs, .absMTPositionY),
    (.abs, .absMTTrackingID), (.key, .btnTouch), (.key, .btnToolFinger), (.key, .btnToolDoubleTap),
    (.key, .btnToolTripleTap), (.key, .btnToolQuadTap), (.key, .btnToolQuintTap), (.abs, .absMTPressure),
]

private let slotCounts = [0, 1, 2, 3, 5, 10, 16, 256]

/// A device from one byte: bits 0–2 the slot count (0: single-touch), bit 3 BTN_TOUCH,
/// bit 4 INPUT_PROP_SEMI_MT, bit 5 INPUT_PROP_POINTER (a touchpad), bit 6 a degenerate
/// axis (min == max), bit 7 an inverted, huge axis range.
private func device(_ byte: UInt8, id: Int) -> TraceDevice {
    let slots = slotCounts[Int(byte & 7)]
    var abs: Set<EventCode> = [.absX, .absY]
    var info: [EventCode: AbsInfo] = [:]
    let axis: AbsInfo
    if byte & 0x40 != 0 {
        axis = AbsInfo(minimum: 100, maximum: 100)
    } else if byte & 0x80 != 0 {
        axis = AbsInfo(minimum: Int32.max, maximum: Int32.min, resolution: 1)
    } else {
        axis = AbsInfo(minimum: 0, maximum: 4095, resolution: 16)
    }
    info[.absX] = axis
    info[.absY] = axis
    if slots > 0 {
        abs.formUnion([.absMTSlot, .absMTPositionX, .absMTPositionY, .absMTTrackingID])
        info[.absMTSlot] = AbsInfo(minimum: 0, maximum: Int32(slots - 1))
        info[.absMTPositionX] = axis
        info[.absMTPositionY] = axis
        info[.absMTTrackingID] = AbsInfo(minimum: 0, maximum: 65535)
    }
    var keys: Set<EventCode> = [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap, .btnToolQuintTap]
    if byte & 0x08 != 0 { keys.insert(.btnTouch) }
    var properties: Set<InputProperty> = []
    if byte & 0x10 != 0 { properties.insert(.semiMT) }
    properties.insert(byte & 0x20 != 0 ? .pointer : .direct)
    let description = EvdevDeviceDescription(name: "fuzz \(id)", properties: properties,
                                             codes: [.abs: abs, .key: keys, .syn: [.synReport, .synDropped]],
                                             absInfo: info)
    return TraceDevice(id: InputDeviceID(id), description: description)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultitouch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size >= 2 else { return 0 }
    let screen = Size(width: 1000, height: 1000)
    let devices = [device(data[0], id: 0), device(data[1], id: 1)]
    var decoders = devices.map { MultitouchDecoder(device: $0, screen: screen) }
    guard let session = try? ReplaySession(scene: .defaultScene(), output: { record in
        _ = record.jsonLine
    }) else { fatalError("the default scene does not build") }
    var frame = TouchFrame(time: .zero)
    var time = Instant(nanoseconds: 0)
    var offset = 2
    while offset + 8 <= size {
        let r = data + offset
        offset += 8
        let selector = Int(r[0])
        let value = Int32(bitPattern: UInt32(r[1]) | UInt32(r[2]) << 8 | UInt32(r[3]) << 16 | UInt32(r[4]) << 24)
        let step = Int16(bitPattern: UInt16(r[5]) | UInt16(r[6]) << 8)
        time = step == .min ? time + Duration(seconds: 3 * 3600)
                            : Instant(nanoseconds: time.nanoseconds &+ Int64(step) * 1_000_000)
        let index = Int(r[7] & 1)
        let (type, code) = selector < codes.count
            ? codes[selector]
            : (EventType(rawValue: UInt16(selector & 0x1f)), EventCode(rawValue: UInt16(r[7] >> 1)))
        let event = EvdevEvent(time: time, type: type, code: code, value: value)
        switch decoders[index].feed(event, into: &frame) {
        case .none: break
        case .frame, .dropped:
            precondition(decoders[index].activeContacts >= 0)
            if !frame.changes.isEmpty { session.feed(.touchFrame(frame)) }
        }
        if selector == 255 && r[7] == 255 {
            // A device unplugged mid-stream.
            session.feed(.deviceRemoved(InputDeviceID(index), time: time))
        }
    }
    session.finish()
    checkSettled(session.live, "multitouch stream")
    return 0
}
