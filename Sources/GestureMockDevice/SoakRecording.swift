import GestureKit
import GestureTraces

/// A long run of touch gestures made from real recordings, for `gesturekit soak`: each
/// recording's touch sequences (a tap, a drag, a pinch…) are taken apart, shuffled, moved to a
/// random place on the screen, their positions jittered, and played one after another on a
/// series of mock touchscreens (each a multitouch panel of `TargetPanel`'s size). The
/// touchscreens take turns: each is "plugged in" for one segment of the run and vanishes at
/// its end (reads fail with ENODEV, as on an unplug); every `unplugEvery`-th vanishes in the
/// middle of a touch sequence, fingers still down.
///
/// The same seed gives the same run.
public struct SoakRecording {
    /// The touchscreen every gesture is played on: a 10-slot panel of 800 × 480 units (the
    /// Atmel maXTouch of the fixtures).
    public struct TargetPanel: Sendable {
        public static let width: Int32 = 800
        public static let height: Int32 = 480
        public static let slots: Int32 = 10

        public static var description: EvdevDeviceDescription {
            EvdevDeviceDescription(
                name: "GestureKit Soak Touchscreen", bustype: 0x18, vendor: 0x1234, product: 0x5678, version: 1,
                properties: [InputProperty(rawValue: 1)],   // INPUT_PROP_DIRECT
                codes: [.syn: [.synReport], .key: [.btnTouch],
                        .abs: [.absX, .absY, .absMTSlot, .absMTPositionX, .absMTPositionY, .absMTTrackingID]],
                absInfo: [.absX: AbsInfo(minimum: 0, maximum: width - 1), .absY: AbsInfo(minimum: 0, maximum: height - 1),
                          .absMTSlot: AbsInfo(minimum: 0, maximum: slots - 1),
                          .absMTPositionX: AbsInfo(minimum: 0, maximum: width - 1),
                          .absMTPositionY: AbsInfo(minimum: 0, maximum: height - 1),
                          .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535)])
        }
    }

    /// One touch sequence of a recording: its frames, times from its first frame, locations
    /// in panel units.
    public struct Gesture: Sendable {
        public var frames: [TouchFrame]
        public var duration: Double { frames.last.map { $0.time.seconds } ?? 0 }
    }

    /// The mock touchscreens with their scripts, in the order they are plugged in.
    public private(set) var devices: [MockDeviceReplay] = []
    /// Seconds from the start of the run to the last device's vanishing.
    public private(set) var length: Double = 0

    /// Seconds of silence between two gestures: drawn between these, so that some taps follow
    /// each other within a double tap's interval and most do not.
    public static let gap = (minimum: 0.25, maximum: 1.2)
    /// Panel units of jitter added to every position (either way, on each axis).
    public static let jitter: Int32 = 2

    /// The touch sequences of the touchscreen recordings at `paths`, on the target panel.
    public static func gestures(from paths: [String]) throws -> [Gesture] {
        let panel = Size(width: Double(TargetPanel.width), height: Double(TargetPanel.height))
        var result: [Gesture] = []
        for path in paths {
            let reader = try TraceReader(path: path, screen: panel)
            guard reader.devices.contains(where: { $0.kind == .touchscreen }) else { continue }
            var current: [TouchFrame] = []
            var down = Set<Int>()
            for frame in try reader.frames() where frame.deviceKind == .touchscreen {
                if down.isEmpty && !frame.changes.contains(where: { $0.phase == .began }) { continue }
                current.append(frame)
                for change in frame.changes {
                    switch change.phase {
                    case .began: down.insert(change.sourceID)
                    case .ended, .cancelled: down.remove(change.sourceID)
                    default: break
                    }
                }
                if down.isEmpty {
                    let t0 = current[0].time
                    let frames = current.map { f -> TouchFrame in
                        var f = f
                        f.time = Instant(nanoseconds: f.time.nanoseconds - t0.nanoseconds)
                        return f
                    }
                    result.append(Gesture(frames: frames))
                    current.removeAll()
                }
            }
        }
        return result
    }

    /// A run of `seconds`, in segments of `segmentSeconds` (one touchscreen each), from
    /// `gestures`; every `unplugEvery`-th touchscreen vanishes mid-gesture. `firstEventNumber`:
    /// the first mock node's number (/dev/input/eventN).
    public init(gestures: [Gesture], seconds: Double, segmentSeconds: Double, unplugEvery: Int = 3,
                seed: UInt64, firstEventNumber: Int = 20) {
        precondition(!gestures.isEmpty, "no touch sequences to play")
        var random = SplitMix64(seed: seed)
        let count = max(1, Int((seconds / segmentSeconds).rounded(.up)))
        var order: [Int] = []
        for k in 0..<count {
            let start = Double(k) * segmentSeconds
            let unplug = unplugEvery > 0 && k % unplugEvery == unplugEvery - 1
            var events: [EvdevEvent] = []
            var encoder = MultitouchEncoder()
            var t = 0.3
            var played = 0
            let end = min(segmentSeconds, seconds - start) - 0.3
            while true {
                if order.isEmpty { order = Array(gestures.indices).shuffled(using: &random) }
                let gesture = gestures[order.removeLast()]
                guard t + gesture.duration < end || played == 0 else { break }
                let box = Self.bounds(gesture)
                let dx = Self.offset(box.min.x, box.max.x, limit: Double(TargetPanel.width - 1), &random)
                let dy = Self.offset(box.min.y, box.max.y, limit: Double(TargetPanel.height - 1), &random)
                var frames = gesture.frames
                let isLast = t + gesture.duration + Self.gap.maximum >= end
                if unplug && isLast {
                    // Cut in the middle, fingers down.
                    frames = Array(frames.prefix(max(1, frames.count / 2)))
                    frames[frames.count - 1].changes.removeAll { $0.phase == .ended || $0.phase == .cancelled }
                }
                for frame in frames {
                    let time = Instant(seconds: 0).advanced(bySeconds: t + frame.time.seconds)
                    var changes = frame.changes
                    for i in changes.indices {
                        let jx = Double(Int32.random(in: -Self.jitter...Self.jitter, using: &random))
                        let jy = Double(Int32.random(in: -Self.jitter...Self.jitter, using: &random))
                        changes[i].location = Point(
                            x: min(max(changes[i].location.x + dx + jx, 0), Double(TargetPanel.width - 1)),
                            y: min(max(changes[i].location.y + dy + jy, 0), Double(TargetPanel.height - 1)))
                    }
                    events += encoder.encode(changes, at: time)
                }
                played += 1
                t += gesture.duration + Double.random(in: Self.gap.minimum...Self.gap.maximum, using: &random)
                if isLast { break }
            }
            let last = events.last?.time.seconds ?? 0
            let device = MockDevice(TargetPanel.description, eventNumber: firstEventNumber + k)
            devices.append(MockDeviceReplay(device: device, events: events, leadIn: start + 0.3,
                                            vanishAfter: unplug ? 0.05 : 0.3))
            length = max(length, start + 0.3 + last + (unplug ? 0.05 : 0.3))
        }
    }

    static func bounds(_ g: Gesture) -> (min: Point, max: Point) {
        var lo = Point(x: .infinity, y: .infinity), hi = Point(x: -Double.infinity, y: -Double.infinity)
        for f in g.frames {
            for c in f.changes {
                lo = Point(x: min(lo.x, c.location.x), y: min(lo.y, c.location.y))
                hi = Point(x: max(hi.x, c.location.x), y: max(hi.y, c.location.y))
            }
        }
        return (lo, hi)
    }

    /// A random shift that keeps [lo, hi] within [0, limit] (none when it does not fit).
    static func offset(_ lo: Double, _ hi: Double, limit: Double, _ random: inout SplitMix64) -> Double {
        let room = (lo: -lo, hi: limit - hi)
        guard room.lo < room.hi else { return 0 }
        return Double.random(in: room.lo...room.hi, using: &random)
    }
}

/// Touch frames as the evdev multitouch protocol B: a slot per finger (the lowest free),
/// a new tracking id per touch, BTN_TOUCH while any finger is down, ABS_X/ABS_Y following the
/// first finger (as a kernel's pointer emulation does), SYN_REPORT after each frame.
public struct MultitouchEncoder {
    private var slots: [Int: Int32] = [:]     // touch → slot
    private var slot: Int32 = -1
    private var nextTrackingID: Int32 = 1

    public init() {}

    public mutating func encode(_ changes: [TouchChange], at time: Instant) -> [EvdevEvent] {
        var out: [EvdevEvent] = []
        func emit(_ type: EventType, _ code: EventCode, _ value: Int32) {
            out.append(EvdevEvent(time: time, type: type, code: code, value: value))
        }
        let wasDown = !slots.isEmpty
        var emulated: Point?
        for change in changes {
            let s: Int32
            if let existing = slots[change.sourceID] {
                s = existing
            } else if change.phase == .began {
                guard let free = (0..<SoakRecording.TargetPanel.slots).first(where: { !slots.values.contains($0) }) else { continue }
                s = free
            } else {
                continue
            }
            if s != slot { emit(.abs, .absMTSlot, s); slot = s }
            switch change.phase {
            case .began:
                slots[change.sourceID] = s
                emit(.abs, .absMTTrackingID, nextTrackingID)
                nextTrackingID = nextTrackingID % 65535 + 1
                fallthrough
            case .moved:
                emit(.abs, .absMTPositionX, Int32(change.location.x.rounded()))
                emit(.abs, .absMTPositionY, Int32(change.location.y.rounded()))
                if emulated == nil, s == slots.values.min() { emulated = change.location }
            case .ended, .cancelled:
                slots[change.sourceID] = nil
                emit(.abs, .absMTTrackingID, -1)
            }
        }
        if !wasDown && !slots.isEmpty { emit(.key, .btnTouch, 1) }
        if wasDown && slots.isEmpty { emit(.key, .btnTouch, 0) }
        if let p = emulated {
            emit(.abs, .absX, Int32(p.x.rounded()))
            emit(.abs, .absY, Int32(p.y.rounded()))
        }
        if !out.isEmpty { emit(.syn, .synReport, 0) }
        return out
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same soak.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
