import GestureKit

extension EvdevDeviceDescription {
    /// Whether the device is a pen (a tablet tool, REPLAY.md's "Pens"): `BTN_TOOL_PEN` or
    /// `BTN_TOOL_RUBBER` with `ABS_X`/`ABS_Y` and `ABS_PRESSURE`, and no multitouch positions
    /// (a tablet's finger surface is a separate device). A tool without a pressure axis is no
    /// pen: it is read as what its other codes make it (with `BTN_TOUCH`, a single-touch
    /// touchscreen). Every pen recorded here (Fixtures/pen-*) has one.
    package var isPen: Bool { hasPenTool && has(.abs, .absPressure) }

    /// A tablet tool's keys and axes, with or without pressure: what `PenDecoder` can decode
    /// (a pressure-less tool by `BTN_TOUCH`); a recording's devices are read as pens by `isPen`.
    var hasPenTool: Bool {
        let tool = has(.key, .btnToolPen) || has(.key, EventCode(rawValue: 0x141))
        let axes = has(.abs, .absX) && has(.abs, .absY)
        return tool && axes && !has(.abs, .absMTPositionX)
    }
}

/// Decodes a pen's evdev events into `PenEvent`s as libinput's tablet code does
/// (evdev-tablet.c, 1.22 to 1.28), so a recording gives the same pen events through the
/// built-in decoder and through libinput.
///
/// ## Rules (libinput's, with its figures)
/// - **Proximity**: the pen is in proximity while a tool key is down (`BTN_TOOL_PEN`,
///   `BTN_TOOL_RUBBER` (an eraser), `BTN_TOOL_BRUSH`, `BTN_TOOL_PENCIL`,
///   `BTN_TOOL_AIRBRUSH`). A frame it comes in gives `hover` (then `down` if it also
///   touches); a frame it leaves gives `up` (when down) and `out`, at the last location.
/// - **Contact**: on a pen with a pressure axis, the pressure decides, never `BTN_TOUCH`:
///   down at 5 % of the axis's range or more, up at 1 % or less (hysteresis against a tip
///   that flickers). Without pressure, `BTN_TOUCH`.
/// - **Force**: the pressure scaled so the 1 % threshold is 0 and the axis's maximum 1,
///   clamped to [0, 1]; 0 while not in contact. (libinput also learns a pressure offset
///   for worn pens, on the deciding proximity-in; the decoder does not: a pen whose
///   lightest touch reads above 1 % gives a force a little higher here.)
/// - **Tilt**: none on the pens libinput's quirks strip of it (`tiltDisabled`); otherwise degrees, `value / resolution` radians where the axis has a resolution and
///   spans zero, otherwise the axis's range mapped onto ±64° (Wacom's physical range);
///   angles from `PenSample.angles(tiltX:tiltY:)`.
/// - **Distance**: (value − minimum) / range, as `zOffset`, while hovering (0 in contact).
/// - **Fuzz**: an axis event within the axis's fuzz of the last value taken changes
///   nothing (the distance's fuzz is at least 2); an axis is read when it changed, so a
///   filtered value shows once another change makes libinput read it.
/// - **Smoothing**: position and tilt are the mean of the last 4 frames in proximity
///   (libinput's history, on by default); the history starts over when the tip touches
///   or lifts and when the pen comes in.
/// - **Leaving proximity**: `up` (when down) and `out` at the last position read, not
///   smoothed (libinput keeps the raw axes for it).
/// - **Events**: `hover` or `moved` for a frame that changed an axis, `down` or `up` for
///   one that changed contact (that frame's axes ride on it); a frame with only a button
///   (`BTN_STYLUS`) gives nothing.
/// - `SYN_DROPPED`: the events up to the next `SYN_REPORT` are discarded.
package struct PenDecoder: Sendable {
    let device: InputDeviceID
    let xAxis: AbsInfo
    let yAxis: AbsInfo
    let pressure: AbsInfo?
    let distance: AbsInfo?
    let tiltX: AbsInfo?
    let tiltY: AbsInfo?
    let screen: Size
    /// libinput's thresholds, in device units.
    let lower: Double
    let upper: Double

    static let historySize = 4

    /// The pens whose tilt libinput's device quirks turn off, as its quirks files list them
    /// (30-vendor-aiptek.quirks: every Aiptek tablet; 30-vendor-wacom.quirks: the ISDv4 4200
    /// pen of the Dell Canvas and the 2D1F:524C pen), both on USB: their tilt axes report
    /// nonsense, and the decoder ignores them as libinput does.
    static func tiltDisabled(_ d: EvdevDeviceDescription) -> Bool {
        guard d.bustype == 0x03 else { return false }
        return d.vendor == 0x08ca || (d.vendor == 0x056a && d.product == 0x4200) || (d.vendor == 0x2d1f && d.product == 0x524c)
    }

    /// The axes libinput reads, by index: x, y, pressure, distance, tilt x, tilt y,
    /// rotation (ABS_Z), slider (ABS_WHEEL).
    enum Axis: Int { case x, y, pressure, distance, tiltX, tiltY, rotation, slider }
    /// The evdev state (libevdev's values; they persist from frame to frame).
    var raw = [Int32](repeating: 0, count: 8)
    /// libinput's `current_value`: the last value that passed the fuzz filter.
    var accepted = [Int32](repeating: 0, count: 8)
    /// Each axis's fuzz: the device's (at least 2 for the distance, as libinput's).
    let fuzz: [Int32]
    /// The axes the device has, and those changed in this frame (bits by `Axis`).
    let present: UInt8
    var changed: UInt8 = 0
    /// libinput's axes: the values read at the last frame that changed them.
    var point = (x: 0.0, y: 0.0)
    var pressureRead: Int32 = 0
    /// libinput's normalized distance (0 while the pen presses, see `frame`).
    var distanceNorm = 0.0
    var tilt = (x: 0.0, y: 0.0)
    var tool: PenTool?
    /// The tool in proximity.
    var proximityTool: PenTool?
    var btnTouch = false
    // libinput's status.
    var inProximity = false
    var inContact = false
    var dropping = false
    var history: [(x: Double, y: Double, tx: Double, ty: Double)] = []
    var last = (x: 0.0, y: 0.0, tx: 0.0, ty: 0.0)
    /// The newest raw sample: where libinput says a pen that leaves proximity was.
    var lastRaw = (x: 0.0, y: 0.0, tx: 0.0, ty: 0.0)

    package init?(device: TraceDevice, screen: Size) {
        guard let d = device.description, d.hasPenTool, let x = d.absInfo[.absX], let y = d.absInfo[.absY] else { return nil }
        self.device = device.id
        xAxis = x
        yAxis = y
        pressure = d.absInfo[.absPressure]
        distance = d.absInfo[EventCode(rawValue: 0x19)]
        let tiltWorks = !PenDecoder.tiltDisabled(d)
        tiltX = tiltWorks ? d.absInfo[EventCode(rawValue: 0x1a)] : nil
        tiltY = tiltWorks ? d.absInfo[EventCode(rawValue: 0x1b)] : nil
        self.screen = screen
        let codes: [EventCode] = [.absX, .absY, .absPressure, EventCode(rawValue: 0x19), EventCode(rawValue: 0x1a),
                                  EventCode(rawValue: 0x1b), EventCode(rawValue: 0x02), EventCode(rawValue: 0x08)]
        var fuzz: [Int32] = codes.map { d.absInfo[$0]?.fuzz ?? 0 }
        fuzz[Axis.distance.rawValue] = max(fuzz[Axis.distance.rawValue], 2)
        self.fuzz = fuzz
        var present: UInt8 = 0
        for (i, code) in codes.enumerated() where d.absInfo[code] != nil { present |= 1 << UInt8(i) }
        self.present = present
        if let p = pressure {
            // libinput's axis_range_percentage, truncated to whole device units.
            let span = Double(p.maximum) - Double(p.minimum)
            lower = Double(Int(span * 0.01 + Double(p.minimum)))
            upper = Double(Int(span * 0.05 + Double(p.minimum)))
        } else {
            lower = 0
            upper = 1
        }
        history.reserveCapacity(PenDecoder.historySize)
    }

    /// Feeds one event; at `SYN_REPORT` hands the frame's pen events to `emit`.
    package mutating func feed(_ event: EvdevEvent, _ emit: (PenEvent) throws -> Void) rethrows {
        if dropping {
            if event.type == .syn && event.code == .synReport { dropping = false }
            return
        }
        let v = event.value
        switch event.type.rawValue {
        case 0x03:
            let axis: Axis
            switch event.code.rawValue {
            case 0x00: axis = .x
            case 0x01: axis = .y
            case 0x18: axis = .pressure
            case 0x19: axis = .distance
            case 0x1a: axis = .tiltX
            case 0x1b: axis = .tiltY
            case 0x02: axis = .rotation
            case 0x08: axis = .slider
            default: return
            }
            let i = axis.rawValue
            raw[i] = v
            // libinput's tablet_filter_axis_fuzz: a change within the fuzz of the last value
            // taken is no change (libevdev still holds the new value).
            guard abs(Int64(accepted[i]) - Int64(v)) > Int64(fuzz[i]) else { return }
            accepted[i] = v
            changed |= 1 << UInt8(i)
        case 0x01:
            guard v == 0 || v == 1 else { return }
            switch event.code.rawValue {
            case 0x140, 0x142, 0x143, 0x144: tool = v == 1 ? .pen : (tool == .pen ? nil : tool)
            case 0x141: tool = v == 1 ? .eraser : (tool == .eraser ? nil : tool)
            case 0x14a: btnTouch = v == 1
            default: break
            }
        case 0x00:
            if event.code == .synDropped {
                dropping = true
                return
            }
            guard event.code == .synReport else { return }
            try frame(at: event.time, emit)
        default:
            break
        }
    }

    private mutating func frame(at time: Instant, _ emit: (PenEvent) throws -> Void) rethrows {
        var changedAxes = self.changed
        self.changed = 0
        // One tool key released and another pressed in the same frame is a change of tool:
        // the old one leaves, the new one comes in (as libinput processes such a frame twice).
        if inProximity, tool == nil || tool != proximityTool {
            try leave(at: time, emit)
        }
        let entering = tool != nil && !inProximity
        guard let tool else { return }
        proximityTool = tool
        inProximity = true
        let updated = changedAxes != 0
        // Coming in, every axis is read.
        if entering { changedAxes = present }
        func has(_ axis: Axis) -> Bool { changedAxes & (1 << UInt8(axis.rawValue)) != 0 }
        if has(.x) || has(.y) { point = (Double(raw[Axis.x.rawValue]), Double(raw[Axis.y.rawValue])) }
        if has(.pressure) { pressureRead = raw[Axis.pressure.rawValue] }
        if has(.distance), let d = distance { distanceNorm = normalized(raw[Axis.distance.rawValue], d) }
        // libinput's sanitize_pressure_distance: a pen that reports both a distance and a
        // pressure above their minimums is either pressing (its distance is 0) or not (its
        // pressure is): the distance stays 0 until it next changes past its fuzz.
        if let p = pressure, let d = distance, has(.pressure) || has(.distance) {
            let rawP = raw[Axis.pressure.rawValue], rawD = raw[Axis.distance.rawValue]
            if rawD > d.minimum && rawP > p.minimum && Double(rawP) > lower { distanceNorm = 0 }
        }
        if has(.tiltX) || has(.tiltY) {
            tilt = (degrees(raw[Axis.tiltX.rawValue], tiltX), degrees(raw[Axis.tiltY.rawValue], tiltY))
        }
        // Contact: the pressure's thresholds, or BTN_TOUCH without pressure.
        var contactChange: Bool?
        if pressure != nil {
            if updated || entering {
                let p = Double(raw[Axis.pressure.rawValue])
                if inContact && p <= lower { contactChange = false }
                if !inContact && p >= upper { contactChange = true }
            }
        } else if btnTouch != inContact {
            contactChange = btnTouch
        }
        if contactChange != nil { history.removeAll(keepingCapacity: true) }
        push(x: point.x, y: point.y, tx: tilt.x, ty: tilt.y)
        let location = screenPoint(last.x, last.y)
        let contact = contactChange ?? inContact
        let force = contact ? normalizedPressure() : 0
        let zOffset: Double? = distance.map { _ in contact ? 0 : distanceNorm }
        let tilt = (last.tx, last.ty)
        if entering {
            try emit(event(.hover, time, location, force: 0, tilt: tilt, zOffset: zOffset))
        }
        if let down = contactChange {
            inContact = down
            try emit(event(down ? .down : .up, time, location, force: down ? force : 0, tilt: tilt,
                           zOffset: down ? nil : zOffset))
        } else if updated && !entering {
            try emit(event(inContact ? .moved : .hover, time, location, force: force, tilt: tilt,
                           zOffset: inContact ? nil : zOffset))
        }
    }

    private mutating func leave(at time: Instant, _ emit: (PenEvent) throws -> Void) rethrows {
        inProximity = false
        let location = screenPoint(lastRaw.x, lastRaw.y)
        let tilt = (lastRaw.tx, lastRaw.ty)
        let leaving = proximityTool
        if inContact {
            inContact = false
            try emit(event(.up, time, location, force: 0, tilt: tilt, zOffset: nil, tool: leaving))
        }
        try emit(event(.out, time, location, force: 0, tilt: tilt, zOffset: nil, tool: leaving))
        history.removeAll(keepingCapacity: true)
    }

    private func event(_ phase: PenEvent.Phase, _ time: Instant, _ location: Point, force: Double,
                       tilt: (Double, Double), zOffset: Double?, tool: PenTool? = nil) -> PenEvent {
        let angles = PenSample.angles(tiltX: tilt.0, tiltY: tilt.1)
        return PenEvent(phase: phase, time: time, device: device, location: location,
                        sample: PenSample(force: force, altitudeAngle: angles.altitude, azimuthAngle: angles.azimuth,
                                          zOffset: zOffset, tool: tool ?? proximityTool ?? .pen))
    }

    /// libinput's history: the newest sample, averaged with the three before it (a history
    /// started over is filled with the newest).
    private mutating func push(x: Double, y: Double, tx: Double, ty: Double) {
        let sample = (x: x, y: y, tx: tx, ty: ty)
        lastRaw = sample
        if history.isEmpty {
            for _ in 0..<PenDecoder.historySize { history.append(sample) }
        } else {
            history.removeFirst()
            history.append(sample)
        }
        var sum = (x: 0.0, y: 0.0, tx: 0.0, ty: 0.0)
        for s in history {
            sum.x += s.x; sum.y += s.y; sum.tx += s.tx; sum.ty += s.ty
        }
        let n = Double(history.count)
        last = (sum.x / n, sum.y / n, sum.tx / n, sum.ty / n)
    }

    private func screenPoint(_ x: Double, _ y: Double) -> Point {
        Point(x: normalized(x, xAxis) * screen.width, y: normalized(y, yAxis) * screen.height)
    }

    private func normalized(_ value: Double, _ info: AbsInfo) -> Double {
        let span = Double(info.maximum) - Double(info.minimum)
        return span > 0 ? (value - Double(info.minimum)) / span : 0
    }

    private func normalized(_ value: Int32, _ info: AbsInfo) -> Double {
        min(max(normalized(Double(value), info), 0), 1)
    }

    private func normalizedPressure() -> Double {
        guard let p = pressure else { return 1 }
        let span = Double(p.maximum) - lower
        guard span > 0 else { return 0 }
        return min(max((Double(pressureRead) - lower) / span, 0), 1)
    }

    /// libinput's `adjust_tilt`.
    private func degrees(_ value: Int32, _ info: AbsInfo?) -> Double {
        guard let info else { return 0 }
        if info.resolution != 0 && info.maximum > 0 && info.minimum < 0 {
            return Double(value) / Double(info.resolution) * 180 / .pi
        }
        let span = Double(info.maximum) - Double(info.minimum)
        guard span > 0 else { return 0 }
        return ((Double(value) - Double(info.minimum)) / span * 2 - 1) * 64
    }
}
