import GestureKit
import GestureTraces

/// Writes evdev events as an umockdev script (`umockdev-run -s DEVICE=FILE`): one line
/// `r <delay_ms> <bytes>` per SYN_REPORT frame, each line one write of 24-byte 64-bit
/// `struct input_event`s.
///
/// - Delays are integer milliseconds (umockdev sleeps that long before each write); they
///   are computed from the cumulative frame times, so rounding never accumulates.
/// - The first line waits `leadIn` so nothing is queued before libinput opens the device
///   (libinput drops what is queued at open).
/// - `gate`: the script begins with a write operation, `w 0 <gate>`: umockdev plays nothing of
///   it until a process in the testbed writes exactly those bytes to the device node (measured,
///   umockdev 0.17.16: a reader saw nothing for 1.5 s, wrote the bytes, then read the script's
///   data), so whoever knows the reader is ready (libinput has the device, a compositor's
///   client has its window) starts the recording. `leadIn` then counts from that write:
///   `gateSettleSeconds` is enough.
/// - Timestamps are the recording's, relative to its first event, on a base of 1 s. They
///   are not the times libinput sees: GestureKit's preload library moves them onto
///   CLOCK_MONOTONIC keeping their spacing.
/// - Bytes are escaped as umockdev's parser expects: b < 0x20 → `^` (b + 0x40), `^` → "^`".
/// - umockdev 0.17.16 loses a line's first data byte when it is 0x20 (its `scanf("%u ")`
///   skips it). The first byte is the low byte of the first event's tv_sec; when it would
///   be 0x20 that event is written as (tv_sec − 1, tv_usec + 1 000 000), the same instant.
/// - `vanishAfter`: a last line with the device-vanished marker (type 0xFFFF, code 0x4756):
///   the preload library then fails reads with ENODEV, as on an unplug.
package struct UmockdevScriptEncoder: Sendable {
    package static let vanishType: UInt16 = 0xFFFF
    package static let vanishCode: UInt16 = 0x4756
    /// Seconds added to every relative timestamp.
    package static let baseSeconds: Int64 = 1
    /// Seconds from a gate's opening to the recording's first event: the opener writes its
    /// token to one node after another, and a compositor applies the client's last commit
    /// (its window at its final size) in its next turn; 0.1 s covers both without being a
    /// wait for start-up, which the gate is.
    package static let gateSettleSeconds = 0.1

    package var leadIn: Double
    /// The bytes that open the script (see above); nil: it plays from the start.
    package var gate: [UInt8]?
    private var gateWritten = false
    private var pending: [EvdevEvent] = []
    private var firstTime: Instant?
    private var lastFrameTime: Instant?
    private var previousTargetMs: Int64 = 0

    /// `gate`'s length must not be a multiple of a `struct input_event`'s 24 bytes: GestureKit's
    /// umockdev fix library drops writes of whole events to a mock evdev node (a keyboard's
    /// LEDs, set by libinput), which would otherwise reach the gate first.
    package init(leadIn: Double = 0.2, gate: [UInt8]? = nil) {
        precondition(gate.map { !$0.isEmpty && $0.count % 24 != 0 } ?? true,
                     "a gate is not empty, and not whole input events long")
        self.leadIn = leadIn
        self.gate = gate
    }

    /// Adds one event; returns a complete script line when it completes a frame.
    package mutating func append(_ event: EvdevEvent) -> [UInt8]? {
        if firstTime == nil { firstTime = event.time }
        pending.append(event)
        if event.type == .syn && event.code == .synReport {
            return flushFrame()
        }
        return nil
    }

    /// Ends the script: a trailing frame without SYN_REPORT, then the vanish marker if asked.
    package mutating func finish(vanishAfter: Double? = nil) -> [UInt8] {
        var out = pending.isEmpty ? gateLine() : flushFrame()
        if let vanishAfter {
            let base = lastFrameTime ?? firstTime ?? .zero
            if firstTime == nil { firstTime = base }
            let time = base + Duration(seconds: vanishAfter)
            out += line(for: [EvdevEvent(time: time, type: EventType(rawValue: Self.vanishType),
                                         code: EventCode(rawValue: Self.vanishCode), value: 0)],
                        frameTime: time)
        }
        return out
    }

    /// A whole script for `events`.
    package static func script<S: Sequence>(for events: S, leadIn: Double = 0.2, gate: [UInt8]? = nil,
                                           vanishAfter: Double? = nil) -> [UInt8]
        where S.Element == EvdevEvent {
        var encoder = UmockdevScriptEncoder(leadIn: leadIn, gate: gate)
        var out: [UInt8] = []
        for event in events {
            if let line = encoder.append(event) { out += line }
        }
        out += encoder.finish(vanishAfter: vanishAfter)
        return out
    }

    private mutating func flushFrame() -> [UInt8] {
        let frame = pending
        pending.removeAll(keepingCapacity: true)
        let frameTime = frame.last!.time
        lastFrameTime = frameTime
        return line(for: frame, frameTime: frameTime)
    }

    private mutating func line(for events: [EvdevEvent], frameTime: Instant) -> [UInt8] {
        let first = firstTime ?? frameTime
        let leadInMs = Int64((leadIn * 1000).rounded())
        let relativeMs = (frameTime.nanoseconds - first.nanoseconds) / 1_000_000
            + ((frameTime.nanoseconds - first.nanoseconds) % 1_000_000 >= 500_000 ? 1 : 0)
        let target = leadInMs + max(0, relativeMs)
        let delay = max(0, target - previousTargetMs)
        previousTargetMs = max(previousTargetMs, target)

        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * 24)
        for (i, event) in events.enumerated() {
            bytes += Self.inputEventBytes(event, relativeTo: first, avoidSpaceFirst: i == 0)
        }
        return gateLine() + Array("r \(delay) ".utf8) + Self.escape(bytes) + [0x0a]
    }

    /// The gate's write operation, before the script's first line only.
    private mutating func gateLine() -> [UInt8] {
        guard let gate, !gateWritten else { return [] }
        gateWritten = true
        return Array("w 0 ".utf8) + Self.escape(gate) + [0x0a]
    }

    /// One 64-bit `struct input_event` (tv_sec, tv_usec as 8-byte little-endian; type,
    /// code u16; value s32).
    package static func inputEventBytes(_ event: EvdevEvent, relativeTo first: Instant,
                                       avoidSpaceFirst: Bool) -> [UInt8] {
        let relativeUs = (event.time.nanoseconds - first.nanoseconds) / 1000
        return inputEventBytes(microseconds: baseSeconds * 1_000_000 + relativeUs, type: event.type, code: event.code,
                               value: event.value, avoidSpaceFirst: avoidSpaceFirst)
    }

    /// One 64-bit `struct input_event` stamped `microseconds` (a time as the kernel writes it:
    /// whole seconds and the microseconds past them).
    package static func inputEventBytes(microseconds: Int64, type: EventType, code: EventCode, value: Int32,
                                       avoidSpaceFirst: Bool) -> [UInt8] {
        var sec = floorDiv(microseconds, 1_000_000)
        var usec = microseconds - sec * 1_000_000
        if avoidSpaceFirst && sec & 0xff == 0x20 {
            sec -= 1
            usec += 1_000_000
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        bytes += le64(UInt64(bitPattern: sec))
        bytes += le64(UInt64(bitPattern: usec))
        bytes += [UInt8(type.rawValue & 0xff), UInt8(type.rawValue >> 8)]
        bytes += [UInt8(code.rawValue & 0xff), UInt8(code.rawValue >> 8)]
        let v = UInt32(bitPattern: value)
        bytes += (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xff) }
        return bytes
    }

    /// umockdev's script escaping.
    package static func escape(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            if b < 0x20 {
                out += [0x5e, b + 0x40]
            } else if b == 0x5e {
                out += [0x5e, 0x60]
            } else {
                out.append(b)
            }
        }
        return out
    }

    private static func le64(_ v: UInt64) -> [UInt8] {
        (0..<8).map { UInt8((v >> (8 * UInt64($0))) & 0xff) }
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
