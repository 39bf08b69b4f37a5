import GestureKit
import GestureTraces

/// A long run of gestures made from real recordings, for `gesturekit soak`: each recording's
/// gestures (a touchscreen's touch sequences, a touchpad's taps, scrolls, pinches, swipes,
/// holds and clicks, a mouse's moves, clicks and wheel turns; `SoakGesture`) are taken apart,
/// shuffled, moved, jittered, and played one after another on mock devices of their kind: a
/// touchscreen (`TargetPanel`), a touchpad and a mouse (each described as a real recording's
/// device, `Library.touchpadModel`, `Library.mouseModel`).
///
/// Rules:
/// - Each kind has its own schedule: a series of devices, each "plugged in" for one segment
///   (`segmentSeconds` times the kind's `segmentFactor`) and vanishing at its end (reads fail
///   with ENODEV, as on an unplug); every `unplugEvery`-th of a kind (counted from a different
///   device for each kind) vanishes in the middle of a gesture instead: fingers down, a button
///   held or a motion under way.
/// - The gestures of all kinds share one timeline and never overlap: each begins
///   `gap` after the previous one ended, on a device of a kind drawn at random among those
///   plugged in with room for it, so every gesture begins with the scene at rest.
/// - Moving keeps a gesture valid for its device: a touchscreen's or touchpad's positions are
///   shifted as a whole within the device's axes (a touchpad's `padMargin` from its sides),
///   then jittered and clamped; a mouse's relative motion is mirrored on either axis at random
///   and each step jittered by one unit without changing its sign.
///
/// The same seed gives the same run.
package struct SoakRecording {
    /// The touchscreen every touch sequence is played on: a 10-slot panel of 800 × 480 units
    /// (the Atmel maXTouch of the fixtures).
    package struct TargetPanel: Sendable {
        package static let width: Int32 = 800
        package static let height: Int32 = 480
        package static let slots: Int32 = 10

        package static var description: EvdevDeviceDescription {
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

    /// The gestures of a set of recordings by kind of device, and the devices they are played on.
    package struct Library: Sendable {
        /// The touchpad recording whose device the soak's touchpads are (a 5-slot clickpad of
        /// 102 × 71 mm), and the mouse recording whose device its mice are (five buttons and a wheel).
        package static let touchpadModel = "tp-elantech-samsung-move-1f.evemu"
        package static let mouseModel = "mouse-saitek-rat5-move-click.evemu"

        package private(set) var gestures: [SoakDeviceKind: [SoakGesture]] = [:]
        package private(set) var recordings: [SoakDeviceKind: Int] = [:]
        package private(set) var descriptions: [SoakDeviceKind: EvdevDeviceDescription] = [.touchscreen: TargetPanel.description]

        /// Reads `paths`; each recording's devices give gestures of their kind (pens and
        /// keyboards none).
        package init(paths: [String]) throws {
            let panel = Size(width: Double(TargetPanel.width), height: Double(TargetPanel.height))
            var readers: [(String, TraceReader)] = []
            for path in paths { readers.append((path, try TraceReader(path: path, screen: panel))) }
            func model(_ name: String, _ isKind: (TraceDevice) -> Bool) -> EvdevDeviceDescription? {
                let all = readers.flatMap { r in r.1.devices.filter(isKind).compactMap { d in d.description.map { (r.0, $0) } } }
                return (all.first { $0.0.hasSuffix("/" + name) || $0.0 == name } ?? all.first)?.1
            }
            let isPad = { (d: TraceDevice) in d.kind == .touchpad && d.description != nil }
            let isMouse = { (d: TraceDevice) in
                d.kind == nil && d.description.map { $0.isRelativePointer || $0.hasWheel } == true
            }
            let pad = model(Self.touchpadModel, isPad)
            let mouse = model(Self.mouseModel, isMouse)
            descriptions[.touchpad] = pad
            descriptions[.mouse] = mouse
            let padSize = pad?.physicalSize ?? Size(width: 100, height: 70)
            for (_, reader) in readers {
                var found: [SoakGesture] = []
                if reader.devices.contains(where: { $0.kind == .touchscreen }) {
                    found += try SoakGesture.touchSequences(from: reader)
                }
                for device in reader.devices {
                    if isPad(device), pad != nil {
                        found += try SoakGesture.touchpadGestures(from: reader, device: device, targetSize: padSize)
                    } else if isMouse(device), let mouse {
                        found += try SoakGesture.mouseGestures(from: reader, device: device, target: mouse)
                    }
                }
                for kind in Set(found.map(\.kind)) { recordings[kind, default: 0] += 1 }
                for g in found { gestures[g.kind, default: []].append(g) }
            }
        }
    }

    /// The mock devices with their scripts, in the order they are plugged in, and their kinds.
    package private(set) var devices: [MockDeviceReplay] = []
    package private(set) var deviceKinds: [SoakDeviceKind] = []
    /// Gestures played, by kind of device (the ones cut short included).
    package private(set) var played: [SoakDeviceKind: Int] = [:]
    /// Devices that vanish mid-gesture, by kind.
    package private(set) var unpluggedMidGesture: [SoakDeviceKind: Int] = [:]
    /// Seconds from the start of the run to the last device's vanishing.
    package private(set) var length: Double = 0

    /// Seconds of silence between two gestures: drawn between these, so that some taps follow
    /// each other within a double tap's interval and most do not.
    package static let gap = (minimum: 0.25, maximum: 1.2)
    /// Panel units of jitter added to every touchscreen position (either way, on each axis).
    package static let jitter: Int32 = 2
    /// Touchpad units of jitter (0.1 mm on the Elantech pad).
    package static let padJitter: Int32 = 3
    /// Millimetres a touchpad gesture is kept from the pad's sides when moved (libinput takes
    /// touches beginning at a side for palms).
    package static let padMargin = 6.0
    /// Each kind's segment, as a fraction of `segmentSeconds`: the kinds come and go at
    /// different times.
    package static let segmentFactor: [SoakDeviceKind: Double] = [.touchscreen: 1, .touchpad: 0.75, .mouse: 1.5]
    /// Seconds after a device is plugged in before its first gesture, and before its segment's
    /// end by which its last gesture has ended.
    package static let settle = 0.3
    /// A device to be unplugged mid-gesture is cut within this many seconds of its segment's
    /// end (room for two such devices ending together, each with half a long gesture).
    package static let cutLead = 8.0
    /// Seconds a device cut mid-gesture stays after its last event.
    package static let vanishMidGesture = 0.05

    private struct Plan {
        var kind: SoakDeviceKind
        var start: Double, end: Double
        var unplug: Bool
        var events: [EvdevEvent] = []
        var cut = false
        var touches = MultitouchEncoder()
        var pad: TouchpadEncoder?
    }

    /// A run of `seconds` from `library`'s gestures of `kinds` (each kind needs gestures and a
    /// device description), in segments of `segmentSeconds` times each kind's factor.
    /// `firstEventNumber`: the first mock node's number (/dev/input/eventN). `gate`: the run
    /// starts when these bytes are written to every node (`MockDeviceReplay`'s gate; a
    /// compositor's client says it is ready), not when the node is first read.
    package init(library: Library, kinds wanted: [SoakDeviceKind] = SoakDeviceKind.allCases, seconds: Double,
                segmentSeconds: Double, unplugEvery: Int = 3, seed: UInt64, firstEventNumber: Int = 20,
                gate: [UInt8]? = nil) {
        let kinds = wanted.filter { !(library.gestures[$0] ?? []).isEmpty && library.descriptions[$0] != nil }
        precondition(!kinds.isEmpty, "no gestures to play")
        var random = SplitMix64(seed: seed)
        var plans: [Plan] = []
        var firstPlan: [SoakDeviceKind: Int] = [:]
        var segment: [SoakDeviceKind: Double] = [:]
        for (index, kind) in kinds.enumerated() {
            let length = segmentSeconds * (Self.segmentFactor[kind] ?? 1)
            segment[kind] = length
            firstPlan[kind] = plans.count
            let count = max(1, Int((seconds / length).rounded(.up)))
            for j in 0..<count {
                let unplug = unplugEvery > 0 && (j + index) % unplugEvery == unplugEvery - 1
                var plan = Plan(kind: kind, start: Double(j) * length, end: min(seconds, Double(j + 1) * length), unplug: unplug)
                if kind == .touchpad, let d = library.descriptions[.touchpad] { plan.pad = TouchpadEncoder(target: d) }
                plans.append(plan)
            }
        }
        var order: [SoakDeviceKind: [Int]] = [:]
        var t = Self.settle
        while t < seconds - Self.settle {
            // The devices plugged in at t that can take a gesture.
            let open = kinds.compactMap { kind -> Int? in
                let i = firstPlan[kind]! + Int(t / segment[kind]!)
                guard i < plans.count, plans[i].kind == kind, !plans[i].cut,
                      t >= plans[i].start + Self.settle, t < plans[i].end - Self.settle else { return nil }
                return i
            }
            guard !open.isEmpty else { t += Self.gap.minimum; continue }
            func draw(_ kind: SoakDeviceKind) -> SoakGesture {
                if order[kind, default: []].isEmpty { order[kind] = Array(library.gestures[kind]!.indices).shuffled(using: &random) }
                return library.gestures[kind]![order[kind]!.removeLast()]
            }
            // A device to be unplugged mid-gesture takes its last gesture, cut, in the last
            // `cutLead` seconds of its segment, or sooner when the next gesture (on it or
            // another) might leave no room for one before its end.
            var i = open[Int.random(in: 0..<open.count, using: &random)]
            var gesture = draw(plans[i].kind)
            let reach = t + gesture.duration + Self.gap.maximum
            let due = open.filter { plans[$0].unplug && (reach >= plans[$0].end - Self.settle || t >= plans[$0].end - Self.cutLead) }
                .min { plans[$0].end < plans[$1].end }
            if let due, due != i {
                i = due
                gesture = draw(plans[i].kind)
            }
            let kind = plans[i].kind
            let cut = due != nil
            guard cut || t + gesture.duration < plans[i].end - Self.settle else {
                t += Self.gap.minimum
                continue
            }
            let played = Self.place(gesture, at: t, cut: cut, on: &plans[i], description: library.descriptions[kind]!, &random)
            plans[i].cut = cut
            self.played[kind, default: 0] += 1
            t += played + Double.random(in: Self.gap.minimum...Self.gap.maximum, using: &random)
        }
        for (k, plan) in plans.enumerated() {
            let device = MockDevice(library.descriptions[plan.kind]!, eventNumber: firstEventNumber + k)
            let first = plan.events.first?.time.seconds ?? plan.start
            let last = plan.events.last?.time.seconds ?? plan.start
            let vanish = plan.cut ? Self.vanishMidGesture : max(Self.vanishMidGesture, plan.end - last)
            devices.append(MockDeviceReplay(device: device, events: plan.events, leadIn: first, gate: gate, vanishAfter: vanish))
            deviceKinds.append(plan.kind)
            if plan.cut { unpluggedMidGesture[plan.kind, default: 0] += 1 }
            length = max(length, last + vanish)
        }
    }

    /// Plays `gesture` from `t` (seconds from the run's start) on `plan`'s device, moved and
    /// jittered; cut in the middle when `cut`. Returns the seconds it lasts.
    private static func place(_ gesture: SoakGesture, at t: Double, cut: Bool, on plan: inout Plan,
                              description: EvdevDeviceDescription, _ random: inout SplitMix64) -> Double {
        func at(_ seconds: Double) -> Instant { Instant(seconds: 0) + Duration(seconds: t + seconds) }
        func half<T>(_ frames: [T]) -> [T] { cut ? Array(frames.prefix(max(1, frames.count / 2))) : frames }
        func jitter(_ n: Int32) -> Double { Double(Int32.random(in: -n...n, using: &random)) }
        var lasts = 0.0
        switch gesture.content {
        case let .touches(all):
            var frames = half(all)
            if cut { frames[frames.count - 1].changes.removeAll { $0.phase == .ended || $0.phase == .cancelled } }
            let box = Self.bounds(frames.flatMap { $0.changes.map(\.location) })
            let dx = Self.offset(box.min.x, box.max.x, limit: Double(TargetPanel.width - 1), &random)
            let dy = Self.offset(box.min.y, box.max.y, limit: Double(TargetPanel.height - 1), &random)
            for frame in frames {
                var changes = frame.changes
                for i in changes.indices {
                    changes[i].location = Point(
                        x: min(max(changes[i].location.x + dx + jitter(Self.jitter), 0), Double(TargetPanel.width - 1)),
                        y: min(max(changes[i].location.y + dy + jitter(Self.jitter), 0), Double(TargetPanel.height - 1)))
                }
                plan.events += plan.touches.encode(changes, at: at(frame.time.seconds))
                lasts = frame.time.seconds
            }
        case let .pad(all):
            let frames = half(all)
            guard let ax = description.absInfo[.absMTPositionX] ?? description.absInfo[.absX],
                  let ay = description.absInfo[.absMTPositionY] ?? description.absInfo[.absY],
                  let size = description.physicalSize else { return 0 }
            let box = Self.bounds(frames.flatMap { $0.contacts.map { Point(x: $0.x, y: $0.y) } })
            let dx = Self.offset(box.min.x - padMargin, box.max.x, limit: size.width - padMargin, &random)
            let dy = Self.offset(box.min.y, box.max.y, limit: size.height, &random)
            func units(_ mm: Double, _ a: AbsInfo, _ j: Double) -> Int32 {
                let v = Double(a.minimum) + mm * Double(max(1, a.resolution)) + j
                return Int32(min(max(v.rounded(), Double(a.minimum)), Double(a.maximum)))
            }
            for frame in frames {
                let contacts = frame.contacts.map { c in
                    (id: c.id, x: units(c.x + dx, ax, jitter(Self.padJitter)), y: units(c.y + dy, ay, jitter(Self.padJitter)))
                }
                plan.events += plan.pad!.encode(contacts, button: frame.button, at: at(frame.time))
                lasts = frame.time
            }
        case let .mouse(all):
            let frames = half(all)
            let mirror = (x: Bool.random(using: &random), y: Bool.random(using: &random))
            for frame in frames {
                for var e in frame.events {
                    e.time = at(frame.time)
                    if e.type == .rel && (e.code.rawValue == 0 || e.code.rawValue == 1) && e.value != 0 {
                        let flip = e.code.rawValue == 0 ? mirror.x : mirror.y
                        var v = (flip ? -e.value : e.value) + Int32.random(in: -1...1, using: &random)
                        if v == 0 || (v > 0) != ((flip ? -e.value : e.value) > 0) { v = flip ? -e.value : e.value }
                        e.value = v
                    }
                    plan.events.append(e)
                }
                plan.events.append(EvdevEvent(time: at(frame.time), type: .syn, code: .synReport, value: 0))
                lasts = frame.time
            }
        }
        return lasts
    }

    static func bounds(_ points: [Point]) -> (min: Point, max: Point) {
        var lo = Point(x: .infinity, y: .infinity), hi = Point(x: -Double.infinity, y: -Double.infinity)
        for p in points {
            lo = Point(x: min(lo.x, p.x), y: min(lo.y, p.y))
            hi = Point(x: max(hi.x, p.x), y: max(hi.y, p.y))
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
package struct MultitouchEncoder {
    private var slots: [Int: Int32] = [:]     // touch → slot
    private var slot: Int32 = -1
    private var nextTrackingID: Int32 = 1

    package init() {}

    package mutating func encode(_ changes: [TouchChange], at time: Instant) -> [EvdevEvent] {
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
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
