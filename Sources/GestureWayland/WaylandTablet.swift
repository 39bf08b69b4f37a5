import CWaylandClient
import CWaylandProtocols
import GestureKit

/// One frame of a tablet tool's events (`zwp_tablet_tool_v2`, from its first event to its
/// `frame`), as a value: what the tool did in it, and the pen events it makes, in libinput's
/// order (REPLAY.md's "Pens"): proximity in gives `hover` (then `down` if it touched in the
/// same frame); a touch `down`; a lift `up`; proximity out `up` (if still down) then `out`;
/// otherwise a motion or an axis change `moved` with the tip down, `hover` with it up.
///
/// The compositor sends libinput's values: the pressure and the distance as 0…65535 (its
/// normalized 0…1), the tilt in degrees. Force is the pressure while the tip is down (0
/// otherwise, as the contract says); `zOffset` the distance while hovering, where the tool has
/// one. What the protocol does not carry stays as last sent: sway 1.7 sends no tilt when the
/// pen comes in (only when it changes, one axis at a time), and no location with
/// `proximity_out` (the pen leaves where it last moved).
struct PenToolFrame {
    var proximityIn = false
    var proximityOut = false
    var down = false
    var up = false
    var moved = false
    var axisChanged = false

    /// What the tool is, and what stays from frame to frame.
    struct Tool {
        var kind: PenTool = .pen
        var hasPressure = false
        var hasTilt = false
        var hasDistance = false
        var inProximity = false
        var tipDown = false
        var location = Point.zero
        var pressure = 0.0
        var distance = 0.0
        var tilt = (x: 0.0, y: 0.0)
        /// In proximity over a surface not read here (a decoration): its frames are passed over.
        var overOtherSurface = false
    }

    /// The frame's pen events; `tool` keeps what stays.
    func finish(tool: inout Tool, at time: Instant, device: InputDeviceID) -> [PenEvent] {
        var events: [PenEvent] = []
        func event(_ phase: PenEvent.Phase) {
            let contact = phase == .down || phase == .moved
            let angles = PenSample.angles(tiltX: tool.hasTilt ? tool.tilt.x : 0, tiltY: tool.hasTilt ? tool.tilt.y : 0)
            let force = !contact ? 0 : tool.hasPressure ? tool.pressure : 1
            let zOffset: Double? = tool.hasDistance ? (contact ? 0 : tool.distance) : nil
            events.append(PenEvent(phase: phase, time: time, device: device, location: tool.location,
                                   sample: PenSample(force: force, altitudeAngle: angles.altitude, azimuthAngle: angles.azimuth,
                                                     zOffset: zOffset, tool: tool.kind)))
        }
        if proximityIn && !tool.inProximity {
            tool.inProximity = true
            event(.hover)
        }
        guard tool.inProximity else { return events }
        if down && !tool.tipDown {
            tool.tipDown = true
            // libinput's distance is 0 while the pen presses, and stays 0 until it next
            // changes (the compositor sends no distance for it).
            tool.distance = 0
            event(.down)
        } else if up && tool.tipDown {
            tool.tipDown = false
            event(.up)
        } else if (moved || axisChanged) && !proximityIn && !proximityOut {
            event(tool.tipDown ? .moved : .hover)
        }
        if proximityOut {
            if tool.tipDown {
                tool.tipDown = false
                event(.up)
            }
            tool.inProximity = false
            event(.out)
        }
        return events
    }
}

/// A seat's tablets and their tools (`zwp_tablet_seat_v2`): each tool's frames become pen
/// events of the seat's pen device, which is added with the first tool and removed with the
/// last tablet. Pads (a tablet's buttons, rings and strips) are not read.
final class WaylandTabletSeat {
    unowned let seat: WaylandSeat
    let proxy: OpaquePointer
    private var tablets: [OpaquePointer] = []
    private var pads: [OpaquePointer] = []
    private var tools: [OpaquePointer: (tool: PenToolFrame.Tool, frame: PenToolFrame)] = [:]
    private var announced = false

    init(seat: WaylandSeat, manager: OpaquePointer) {
        self.seat = seat
        proxy = zwp_tablet_manager_v2_get_tablet_seat(manager, seat.proxy)
        zwp_tablet_seat_v2_add_listener(proxy, &TabletListeners.seat, Unmanaged.passUnretained(self).toOpaque())
    }

    private var data: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    func destroy() {
        cancelAll()
        for tool in tools.keys { zwp_tablet_tool_v2_destroy(tool) }
        tools.removeAll()
        for tablet in tablets { zwp_tablet_v2_destroy(tablet) }
        tablets.removeAll()
        for pad in pads { zwp_tablet_pad_v2_destroy(pad) }
        pads.removeAll()
        zwp_tablet_seat_v2_destroy(proxy)
    }

    /// Whether a tool of the seat is in proximity (the compositor's cursor then follows it,
    /// and its pointer events are not the mouse's).
    var toolInProximity: Bool { tools.values.contains { $0.tool.inProximity } }

    /// A pen still down or hovering when its tablet or the connection goes: it leaves.
    func cancelAll() {
        for key in tools.keys {
            guard var entry = tools[key] else { continue }
            leave(&entry.tool)
            entry.frame = PenToolFrame()
            tools[key] = entry
        }
    }

    /// A tool in proximity leaves it now (its tip lifting first): its tablet, the tool itself
    /// or the connection went away.
    private func leave(_ tool: inout PenToolFrame.Tool) {
        guard tool.inProximity else { return }
        var frame = PenToolFrame()
        frame.proximityOut = true
        for e in frame.finish(tool: &tool, at: seat.connection.time.now, device: seat.penDevice) {
            seat.sendPen(e)
        }
    }

    fileprivate func tabletAdded(_ tablet: OpaquePointer?) {
        guard let tablet else { return }
        tablets.append(tablet)
        zwp_tablet_v2_add_listener(tablet, &TabletListeners.tablet, data)
        if !announced {
            announced = true
            seat.announcePen()
        }
    }

    fileprivate func tabletRemoved(_ tablet: OpaquePointer?) {
        guard let tablet, let i = tablets.firstIndex(of: tablet) else { return }
        tablets.remove(at: i)
        zwp_tablet_v2_destroy(tablet)
        if tablets.isEmpty && announced {
            cancelAll()
            announced = false
            seat.removePen()
        }
    }

    fileprivate func toolAdded(_ tool: OpaquePointer?) {
        guard let tool else { return }
        tools[tool] = (PenToolFrame.Tool(), PenToolFrame())
        zwp_tablet_tool_v2_add_listener(tool, &TabletListeners.tool, data)
    }

    fileprivate func padAdded(_ pad: OpaquePointer?) {
        if let pad { pads.append(pad) }
    }

    fileprivate func update(_ tool: OpaquePointer?, _ change: (inout PenToolFrame, inout PenToolFrame.Tool) -> Void) {
        guard let tool, var entry = tools[tool] else { return }
        change(&entry.frame, &entry.tool)
        tools[tool] = entry
    }

    fileprivate func toolRemoved(_ tool: OpaquePointer?) {
        guard let tool, var entry = tools.removeValue(forKey: tool) else { return }
        leave(&entry.tool)
        zwp_tablet_tool_v2_destroy(tool)
    }

    fileprivate func frame(_ tool: OpaquePointer?, time: UInt32) {
        guard let tool, var entry = tools[tool] else { return }
        if entry.tool.overOtherSurface {
            if entry.frame.proximityOut { entry.tool.overOtherSurface = false }
            entry.frame = PenToolFrame()
            tools[tool] = entry
            return
        }
        let events = entry.frame.finish(tool: &entry.tool, at: seat.connection.instant(milliseconds: time), device: seat.penDevice)
        entry.frame = PenToolFrame()
        tools[tool] = entry
        for e in events { seat.sendPen(e) }
    }
}

private func tabletSeat(_ data: UnsafeMutableRawPointer?) -> WaylandTabletSeat {
    Unmanaged<WaylandTabletSeat>.fromOpaque(data!).takeUnretainedValue()
}

/// The listener tables of the tablet protocol (tablet-unstable-v2, generated into
/// CWaylandProtocols from wayland-protocols 1.31: its fields are fixed by that header, bound
/// at version 1).
enum TabletListeners {
    nonisolated(unsafe) static var seat: zwp_tablet_seat_v2_listener = {
        var listener = zwp_tablet_seat_v2_listener()
        listener.tablet_added = { data, _, tablet in tabletSeat(data).tabletAdded(tablet) }
        listener.tool_added = { data, _, tool in tabletSeat(data).toolAdded(tool) }
        listener.pad_added = { data, _, pad in tabletSeat(data).padAdded(pad) }
        return listener
    }()

    nonisolated(unsafe) static var tablet: zwp_tablet_v2_listener = {
        var listener = zwp_tablet_v2_listener()
        listener.name = { _, _, _ in }
        listener.id = { _, _, _, _ in }
        listener.path = { _, _, _ in }
        listener.done = { _, _ in }
        listener.removed = { data, tablet in tabletSeat(data).tabletRemoved(tablet) }
        return listener
    }()

    nonisolated(unsafe) static var tool: zwp_tablet_tool_v2_listener = {
        var listener = zwp_tablet_tool_v2_listener()
        listener.type = { data, tool, type in
            tabletSeat(data).update(tool) { _, t in t.kind = type == ZWP_TABLET_TOOL_V2_TYPE_ERASER.rawValue ? .eraser : .pen }
        }
        listener.hardware_serial = { _, _, _, _ in }
        listener.hardware_id_wacom = { _, _, _, _ in }
        listener.capability = { data, tool, capability in
            tabletSeat(data).update(tool) { _, t in
                switch capability {
                case ZWP_TABLET_TOOL_V2_CAPABILITY_PRESSURE.rawValue: t.hasPressure = true
                case ZWP_TABLET_TOOL_V2_CAPABILITY_TILT.rawValue: t.hasTilt = true
                case ZWP_TABLET_TOOL_V2_CAPABILITY_DISTANCE.rawValue: t.hasDistance = true
                default: break
                }
            }
        }
        listener.done = { _, _ in }
        listener.removed = { data, tool in tabletSeat(data).toolRemoved(tool) }
        listener.proximity_in = { data, tool, _, _, surface in
            let reads = tabletSeat(data).seat.connection.reads(surface)
            tabletSeat(data).update(tool) { f, t in
                t.overOtherSurface = !reads
                if reads { f.proximityIn = true }
            }
        }
        listener.proximity_out = { data, tool in tabletSeat(data).update(tool) { f, _ in f.proximityOut = true } }
        listener.down = { data, tool, serial in
            tabletSeat(data).seat.noteInputSerial(serial)
            tabletSeat(data).update(tool) { f, _ in f.down = true }
        }
        listener.up = { data, tool in tabletSeat(data).update(tool) { f, _ in f.up = true } }
        listener.motion = { data, tool, x, y in
            tabletSeat(data).update(tool) { f, t in
                f.moved = true
                t.location = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
            }
        }
        listener.pressure = { data, tool, pressure in
            tabletSeat(data).update(tool) { f, t in
                f.axisChanged = true
                t.pressure = Double(pressure) / 65535
            }
        }
        listener.distance = { data, tool, distance in
            tabletSeat(data).update(tool) { f, t in
                f.axisChanged = true
                t.distance = Double(distance) / 65535
            }
        }
        listener.tilt = { data, tool, x, y in
            tabletSeat(data).update(tool) { f, t in
                f.axisChanged = true
                t.tilt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
            }
        }
        listener.rotation = { _, _, _ in }
        listener.slider = { _, _, _ in }
        listener.wheel = { _, _, _, _ in }
        listener.button = { _, _, _, _, _ in }
        listener.frame = { data, tool, time in tabletSeat(data).frame(tool, time: time) }
        return listener
    }()
}
