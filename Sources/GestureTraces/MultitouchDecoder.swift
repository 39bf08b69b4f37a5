import GestureKit

/// Turns one device's raw evdev events into `TouchFrame`s: a value-type state machine fed
/// one event at a time (`feed`), allocation-free after `init` (the frame's change array is
/// reused; it only grows to the largest frame once).
///
/// ## Rules
/// - **Protocol B** (ABS_MT_SLOT): ABS_MT_SLOT selects a slot, ABS_MT_TRACKING_ID ≥ 0 starts a
///   contact in it, -1 ends it, ABS_MT_POSITION_X/Y move it. SYN_REPORT ends a frame: the
///   frame lists `ended`/`cancelled` changes first, then `began` and `moved` in slot order.
///   `moved` is emitted only for a contact whose position changed in that frame.
/// - **sourceID**: a slotted contact's sourceID is its tracking id. Single-touch contacts and
///   synthesized contacts get decoder-made ids from `syntheticIDBase` upwards (2³², beyond
///   any 32-bit tracking id), never reused within one decoder.
/// - **Tracking-id reuse**: a slot that gets a new tracking id without -1 in between ends the
///   old contact (at its last position) and begins a new one in the same frame. A slot that
///   goes -1 and back to the same id within one frame also ends and begins.
/// - **Unknown position**: a contact whose slot never reported a position (e.g. the second
///   slot of a Cypress semi-MT pad) is placed at the centroid of the contacts whose position is
///   known, else at the single-touch ABS_X/ABS_Y position, else at the surface's centre.
/// - **Single-touch devices** (no slots; multitouch protocol A is decoded this way too):
///   one contact while BTN_TOUCH is down (or, without BTN_TOUCH, while any BTN_TOOL_* is down),
///   at ABS_X/ABS_Y.
/// - **Extra fingers** (BTN_TOOL_DOUBLETAP/TRIPLETAP/QUADTAP/QUINTTAP = 2…5 fingers): when the
///   tool count exceeds the number of slots the device has (1 for single-touch), the decoder
///   adds `toolCount - trackedContacts` synthesized contacts at the centroid of the tracked
///   ones (they follow it). When the count drops, the most recent synthesized contacts end.
/// - **Semi-MT** (INPUT_PROP_SEMI_MT): the two slots carry the corners of the fingers' bounding
///   box, not the fingers. They are passed through as two contacts at those corners: the span
///   and centroid are right, the diagonal may be wrong, and a contact jumps when the box
///   changes (slot 0 moves when the second finger lands). More fingers are synthesized at the
///   centroid as above.
/// - **SYN_DROPPED**: the kernel's buffer overflowed. A recording cannot re-query the device
///   (EVIOCGMTSLOTS), so every contact's state is unknown: the decoder returns `.dropped` with
///   a frame (at the SYN_DROPPED's time) that cancels every contact down, including events of
///   the incomplete frame, then discards events up to and including the next SYN_REPORT. After
///   that, slots start empty with unknown positions; a finger still down reappears only when its
///   slot reports a new tracking id. The current slot index is kept (the most likely value).
/// - **Coordinates**: axis min → 0, max → screen width/height, linearly (values outside the
///   range map outside the screen; a degenerate axis maps to 0). A touchscreen with a
///   `TouchMapping` (or a `LIBINPUT_CALIBRATION_MATRIX` udev property) goes through it:
///   normalized, the matrix, then the region.
/// - **More fingers than slots**: an ABS_MT_SLOT beyond the device's slots (or negative)
///   selects no slot: the events that follow are ignored until a slot in range is selected.
/// - **Notes**: what the decoder set aside or repaired (a slot out of range, a tracking id
///   replaced without -1) is also described in `notes`, for the replay's `ignored` lines;
///   the reader takes them after each event (`takeNotes`).
package struct MultitouchDecoder: Sendable {
    /// What `feed` produced.
    package enum Output: Hashable, Sendable {
        /// Nothing to deliver (mid-frame, or a frame without touch changes).
        case none
        /// `frame` holds a frame with at least one change.
        case frame
        /// A SYN_DROPPED: `frame` holds the cancellations (possibly none).
        case dropped
    }

    /// The first decoder-made sourceID (single-touch and synthesized contacts).
    package static let syntheticIDBase = 1 << 32

    struct Slot: Sendable {
        var committedID: Int32 = -1
        var pendingID: Int32 = -1
        /// The committed contact ends this frame (a -1 or a different tracking id arrived).
        var restarted = false
        var x: Int32 = 0
        var y: Int32 = 0
        var hasX = false
        var hasY = false
        /// The location last emitted for the committed contact.
        var point = Point.zero
    }

    struct Synthetic: Sendable {
        var sourceID: Int
        var point: Point
    }

    package let device: InputDeviceID
    package let kind: InputDeviceKind
    /// A touchpad's screen points per millimetre of the pad, given to its frames so that
    /// recognizers measure its contacts in millimetres (nil for a touchscreen).
    package let pointsPerMillimetre: Double?
    let slotted: Bool
    let slotCapacity: Int
    let usesBtnTouch: Bool
    var slots: [Slot]
    var usedSlots = 0
    var currentSlot = 0
    var stX: Int32 = 0
    var stY: Int32 = 0
    var stHasX = false
    var stHasY = false
    var stTouch = false
    var stDown = false
    var stSourceID = 0
    var stPoint = Point.zero
    var toolBits: UInt8 = 0
    var synthetic: [Synthetic] = []
    var nextSyntheticID = MultitouchDecoder.syntheticIDBase
    var dropping = false
    let xMin: Double
    let xScale: Double
    let yMin: Double
    let yScale: Double
    let centre: Point
    /// A rotation, calibration or region applies (`TouchMapping`); otherwise min → 0, max →
    /// the screen's size, as before.
    let mapped: Bool
    /// The matrix on normalized coordinates (a b c d e f), and the region it lands in.
    let m0: Double, m1: Double, m2: Double, m3: Double, m4: Double, m5: Double
    let xNorm: Double, yNorm: Double
    let regionOrigin: Point
    let regionSize: Size

    /// Contacts down after the last frame (tracked + synthesized).
    package private(set) var activeContacts = 0

    /// What the decoder set aside or repaired since the last `takeNotes()`, in words.
    /// Empty in a well-formed stream (nothing is allocated then).
    package private(set) var notes: [String] = []

    /// The notes so far; clears them.
    package mutating func takeNotes() -> [String] {
        defer { notes.removeAll() }
        return notes
    }

    /// A decoder for `device`, mapping its position axes onto `screen` (in points).
    package init(device: TraceDevice, screen: Size, mapping: TouchMapping = .identity) {
        let description = device.description ?? EvdevDeviceDescription(name: device.name)
        self.init(description: description, device: device.id, kind: device.kind ?? .touchscreen, screen: screen,
                  mapping: mapping)
    }

    /// A decoder for a device described by `description`.
    /// `mapping` applies to touchscreens (as libinput's calibration does); a device's own
    /// `LIBINPUT_CALIBRATION_MATRIX` udev property is its calibration unless `mapping` gives one.
    package init(description: EvdevDeviceDescription, device: InputDeviceID = InputDeviceID(0),
                kind: InputDeviceKind? = nil, screen: Size, mapping: TouchMapping = .identity) {
        self.device = device
        self.kind = kind ?? description.touchKind ?? .touchscreen
        pointsPerMillimetre = self.kind == .touchpad
            ? GestureDefaults.pointsPerMillimetre(pad: description.physicalSize, screen: screen) : nil
        let slotCount = description.slotCount
        slotted = slotCount > 0
        slotCapacity = max(slotCount, 1)
        usesBtnTouch = description.has(.key, .btnTouch) || !description.codes.keys.contains(.key)
        slots = Array(repeating: Slot(), count: slotCount)
        synthetic.reserveCapacity(5)
        let axes = description.positionAxes
        func scale(_ info: AbsInfo?, _ extent: Double) -> (Double, Double) {
            guard let info else { return (0, 0) }
            let span = Double(info.maximum) - Double(info.minimum)
            guard span > 0, extent.isFinite else { return (Double(info.minimum), 0) }
            return (Double(info.minimum), extent / span)
        }
        (xMin, xScale) = scale(axes?.x, screen.width)
        (yMin, yScale) = scale(axes?.y, screen.height)
        let deviceMatrix = description.udevProperties["LIBINPUT_CALIBRATION_MATRIX"].flatMap { try? TouchMapping.parseMatrix($0) }
        let touchscreen = self.kind == .touchscreen
        mapped = touchscreen && (!mapping.isIdentity || deviceMatrix != nil)
        let m = mapping.matrix(deviceMatrix: deviceMatrix ?? TouchMapping.identityMatrix)
        (m0, m1, m2, m3, m4, m5) = (m[0], m[1], m[2], m[3], m[4], m[5])
        func norm(_ info: AbsInfo?) -> Double {
            guard let info else { return 0 }
            let span = Double(info.maximum) - Double(info.minimum)
            return span > 0 ? 1 / span : 0
        }
        xNorm = norm(axes?.x)
        yNorm = norm(axes?.y)
        let region = mapping.region ?? Rect(origin: .zero, size: screen)
        regionOrigin = region.origin
        regionSize = region.size
        centre = Point(x: screen.width.isFinite ? screen.width / 2 : 0,
                       y: screen.height.isFinite ? screen.height / 2 : 0)
    }

    @inline(__always)
    package func map(_ x: Int32, _ y: Int32) -> Point {
        if !mapped { return Point(x: (Double(x) - xMin) * xScale, y: (Double(y) - yMin) * yScale) }
        let nx = (Double(x) - xMin) * xNorm, ny = (Double(y) - yMin) * yNorm
        return Point(x: regionOrigin.x + (m0 * nx + m1 * ny + m2) * regionSize.width,
                     y: regionOrigin.y + (m3 * nx + m4 * ny + m5) * regionSize.height)
    }

    /// Feeds one event. When the result is `.frame` or `.dropped`, `frame` holds the changes
    /// (its storage is reused: its previous changes are removed first).
    @inline(__always)
    package mutating func feed(_ event: EvdevEvent, into frame: inout TouchFrame) -> Output {
        if dropping {
            if event.type == .syn && event.code == .synReport { dropping = false }
            return .none
        }
        let value = event.value
        switch event.type.rawValue {
        case 0x03:
            switch event.code.rawValue {
            case 0x00: stX = value; stHasX = true
            case 0x01: stY = value; stHasY = true
            case 0x2F:
                if slotted {
                    currentSlot = value >= 0 && Int(value) < slots.count ? Int(value) : -1
                    if currentSlot < 0 {
                        notes.append("ABS_MT_SLOT \(value) is outside the device's \(slots.count) slots: its events are ignored")
                    }
                }
            case 0x35:
                if slotted, currentSlot >= 0 { slots[currentSlot].x = value; slots[currentSlot].hasX = true }
            case 0x36:
                if slotted, currentSlot >= 0 { slots[currentSlot].y = value; slots[currentSlot].hasY = true }
            case 0x39:
                if slotted, currentSlot >= 0 { trackingID(value, slot: currentSlot) }
            default: break
            }
        case 0x01:
            switch event.code.rawValue {
            case 0x14A: stTouch = value != 0
            case 0x145: setTool(0, value)
            case 0x14D: setTool(1, value)
            case 0x14E: setTool(2, value)
            case 0x14F: setTool(3, value)
            case 0x148: setTool(4, value)
            default: break
            }
        case 0x00:
            if event.code == .synReport { return commit(event.time, into: &frame) }
            if event.code == .synDropped { return drop(event.time, into: &frame) }
        default:
            break
        }
        return .none
    }

    @inline(__always)
    mutating func setTool(_ bit: UInt8, _ value: Int32) {
        if value != 0 { toolBits |= 1 << bit } else { toolBits &= ~(1 << bit) }
    }

    mutating func trackingID(_ value: Int32, slot i: Int) {
        if i >= usedSlots { usedSlots = i + 1 }
        if value < 0 {
            if slots[i].committedID >= 0 { slots[i].restarted = true }
            slots[i].pendingID = -1
        } else {
            if slots[i].committedID >= 0 && value != slots[i].committedID {
                if !slots[i].restarted && slots[i].pendingID >= 0 {
                    notes.append("slot \(i) changed tracking id \(slots[i].committedID) → \(value) without lifting: touch \(slots[i].committedID) ends, \(value) begins")
                }
                slots[i].restarted = true
            }
            slots[i].pendingID = value
        }
    }

    /// Finger count from BTN_TOOL_* (the highest one down).
    var toolCount: Int {
        if toolBits == 0 { return 0 }
        return 8 - toolBits.leadingZeroBitCount
    }

    mutating func commit(_ time: Instant, into frame: inout TouchFrame) -> Output {
        frame.changes.removeAll(keepingCapacity: true)
        frame.time = time
        frame.device = device
        frame.deviceKind = kind
        frame.pointsPerMillimetre = pointsPerMillimetre

        // Pre-pass: how many tracked contacts, and the centroid of the known positions.
        var tracked = 0
        var sumX = 0.0, sumY = 0.0
        var known = 0
        let stDownNow = usesBtnTouch ? stTouch : toolBits != 0
        if slotted {
            for i in 0..<usedSlots where slots[i].pendingID >= 0 {
                tracked += 1
                if slots[i].hasX && slots[i].hasY {
                    let p = map(slots[i].x, slots[i].y)
                    sumX += p.x; sumY += p.y; known += 1
                }
            }
        } else if stDownNow {
            tracked = 1
        }
        let stKnownPoint = stHasX && stHasY ? map(stX, stY) : centre
        let fallback = known > 0 ? Point(x: sumX / Double(known), y: sumY / Double(known)) : stKnownPoint
        let tools = toolCount
        let wanted = tools > slotCapacity ? min(max(tools - tracked, 0), 5) : 0

        // Pass 1: endings.
        if slotted {
            for i in 0..<usedSlots where slots[i].committedID >= 0 && (slots[i].pendingID < 0 || slots[i].restarted) {
                let s = slots[i]
                let p = s.pendingID < 0 && s.hasX && s.hasY ? map(s.x, s.y) : s.point
                frame.changes.append(TouchChange(sourceID: Int(s.committedID), phase: .ended, location: p))
            }
        } else if stDown && !stDownNow {
            frame.changes.append(TouchChange(sourceID: stSourceID, phase: .ended, location: stKnownPoint))
        }
        while synthetic.count > wanted {
            let s = synthetic.removeLast()
            frame.changes.append(TouchChange(sourceID: s.sourceID, phase: .ended, location: s.point))
        }

        // Pass 2: beginnings and moves.
        if slotted {
            for i in 0..<usedSlots {
                let s = slots[i]
                if s.pendingID >= 0 {
                    let p = s.hasX && s.hasY ? map(s.x, s.y) : fallback
                    if s.committedID < 0 || s.restarted {
                        frame.changes.append(TouchChange(sourceID: Int(s.pendingID), phase: .began, location: p))
                        slots[i].point = p
                    } else if p != s.point {
                        frame.changes.append(TouchChange(sourceID: Int(s.pendingID), phase: .moved, location: p))
                        slots[i].point = p
                    }
                }
                slots[i].committedID = s.pendingID
                slots[i].restarted = false
            }
        } else {
            if stDownNow && !stDown {
                stSourceID = nextSyntheticID
                nextSyntheticID &+= 1
                stPoint = stKnownPoint
                frame.changes.append(TouchChange(sourceID: stSourceID, phase: .began, location: stPoint))
            } else if stDownNow && stKnownPoint != stPoint {
                stPoint = stKnownPoint
                frame.changes.append(TouchChange(sourceID: stSourceID, phase: .moved, location: stPoint))
            }
            stDown = stDownNow
        }
        let synthPoint = slotted ? fallback : stKnownPoint
        for k in 0..<synthetic.count where synthetic[k].point != synthPoint {
            synthetic[k].point = synthPoint
            frame.changes.append(TouchChange(sourceID: synthetic[k].sourceID, phase: .moved, location: synthPoint))
        }
        while synthetic.count < wanted {
            let s = Synthetic(sourceID: nextSyntheticID, point: synthPoint)
            nextSyntheticID &+= 1
            synthetic.append(s)
            frame.changes.append(TouchChange(sourceID: s.sourceID, phase: .began, location: synthPoint))
        }
        activeContacts = tracked + synthetic.count
        return frame.changes.isEmpty ? .none : .frame
    }

    mutating func drop(_ time: Instant, into frame: inout TouchFrame) -> Output {
        frame.changes.removeAll(keepingCapacity: true)
        frame.time = time
        frame.device = device
        frame.deviceKind = kind
        frame.pointsPerMillimetre = pointsPerMillimetre
        for i in 0..<usedSlots {
            if slots[i].committedID >= 0 {
                frame.changes.append(TouchChange(sourceID: Int(slots[i].committedID), phase: .cancelled,
                                                 location: slots[i].point))
            }
            slots[i].committedID = -1
            slots[i].pendingID = -1
            slots[i].restarted = false
            slots[i].hasX = false
            slots[i].hasY = false
        }
        if stDown {
            frame.changes.append(TouchChange(sourceID: stSourceID, phase: .cancelled, location: stPoint))
        }
        stDown = false
        stTouch = false
        stHasX = false
        stHasY = false
        for s in synthetic {
            frame.changes.append(TouchChange(sourceID: s.sourceID, phase: .cancelled, location: s.point))
        }
        synthetic.removeAll(keepingCapacity: true)
        toolBits = 0
        activeContacts = 0
        dropping = true
        return .dropped
    }
}
