import Foundation

/// Which end of a pen touches (libinput's tool type; REPLAY.md's `tool`).
public enum PenTool: String, Hashable, Sendable, CaseIterable {
    /// The tip (`BTN_TOOL_PEN`; also libinput's brush, pencil and airbrush tools).
    case pen
    /// The eraser end (`BTN_TOOL_RUBBER`).
    case eraser
}

/// A pen's force and angles at one moment: what a `pencil` touch and a hovering pen carry.
public struct PenSample: Hashable, Sendable {
    /// 0 to 1 (the pressure axis, normalized as libinput normalizes it); 0 while hovering.
    public var force: Double
    /// Radians: π/2 with the pen perpendicular to the surface, less as it tilts (UIKit's
    /// `altitudeAngle`).
    public var altitudeAngle: Double
    /// Radians, on the screen: the direction the pen's top (the end away from the tip) leans
    /// towards, 0 along +x, π/2 along +y (UIKit's `azimuthAngle(in: nil)`); 0 upright.
    public var azimuthAngle: Double
    /// 0 at the surface to 1 at the edge of proximity; nil where the device reports no
    /// distance (UIKit's `zOffset`).
    public var zOffset: Double?
    public var tool: PenTool

    public init(force: Double, altitudeAngle: Double, azimuthAngle: Double, zOffset: Double? = nil, tool: PenTool = .pen) {
        self.force = force
        self.altitudeAngle = altitudeAngle
        self.azimuthAngle = azimuthAngle
        self.zOffset = zOffset
        self.tool = tool
    }

    /// A pen upright, at rest (what a touch of another type reports).
    public static let upright = PenSample(force: 0, altitudeAngle: .pi / 2, azimuthAngle: 0)

    /// The angles of a pen tilted `tiltX` and `tiltY` degrees off the surface's normal, in
    /// libinput's convention (`libinput_event_tablet_tool_get_tilt_x`: positive when the top
    /// leans towards +x, the right; `tilt_y` positive towards +y, the bottom): the pen's top
    /// points along (tan tiltX, tan tiltY, 1), so its altitude is atan(1 / |(tan tiltX,
    /// tan tiltY)|) and its azimuth the direction of that vector on the screen.
    public static func angles(tiltX: Double, tiltY: Double) -> (altitude: Double, azimuth: Double) {
        // A tilt of 90° or more is no pen standing on a surface: held just short of flat.
        let limit = 89.9
        let tx = tan(min(max(tiltX, -limit), limit) * .pi / 180)
        let ty = tan(min(max(tiltY, -limit), limit) * .pi / 180)
        let lean = (tx * tx + ty * ty).squareRoot()
        guard lean > 0 else { return (.pi / 2, 0) }
        var azimuth = atan2(ty, tx)
        if azimuth < 0 { azimuth += 2 * .pi }
        return (atan2(1, lean), azimuth)
    }
}

/// What a pen did in one frame (libinput's tablet tool events; REPLAY.md's "Pens"): a
/// source sends one event per change, in libinput's order within a frame (proximity in,
/// then tip or motion, then tip up, then proximity out).
///
/// Rules the engine applies (`GestureEngine.send(_:)`; each ignored event reported as
/// `inputIgnored`, nothing stuck):
/// - `hover`: the pen is in proximity with its tip up; it drives the hover recognizers as
///   the mouse pointer does (entering, moving in and leaving views), with its `zOffset` and
///   angles. A hover while the tip is down is ignored.
/// - `down`: the tip touched: hovering ends (as at a button's press) and a touch of type
///   `pencil` begins at `location`, hit-tested and delivered like any touch, with the
///   sample's force and angles. A `down` while down is ignored.
/// - `moved`: the touch moves (force and angles too); ignored when the tip is not down.
/// - `up`: the touch ends there, and the pen hovers where it lifted.
/// - `out`: the pen left proximity: a touch still down ends (a source that skipped `up`),
///   and hovering ends.
/// - The pen's device removed: its touch is cancelled and its hovering too; its later
///   events are ignored until it is added again.
public struct PenEvent: Hashable, Sendable {
    /// The contract's phases (REPLAY.md's `pen` lines).
    public enum Phase: String, Hashable, Sendable, CaseIterable {
        case hover, down, moved, up, out
    }

    public var phase: Phase
    public var time: Instant
    public var device: InputDeviceID
    /// Screen points.
    public var location: Point
    public var sample: PenSample

    public init(phase: Phase, time: Instant, device: InputDeviceID = InputDeviceID(0), location: Point, sample: PenSample) {
        self.phase = phase
        self.time = time
        self.device = device
        self.location = location
        self.sample = sample
    }
}

extension GestureEngine {
    /// What the engine knows of the pens: the one whose tip is down, per device.
    struct PenState {
        var down: Set<InputDeviceID> = []
        /// The frame that carries a pen's touch, reused.
        var frame = TouchFrame(time: .zero, deviceKind: .pen, changes: [])
    }

    /// The source id of the touch a pen's tip makes.
    static let penTipSourceID = -3

    /// Handles one pen event (the rules are `PenEvent`'s). Deadlines earlier than the event
    /// fire first.
    public func send(_ event: PenEvent) {
        inputStep(.pen(event), at: event.time) { dispatch(event) }
    }

    private func dispatch(_ event: PenEvent) {
        let what = "pen \(event.phase.rawValue) of \(event.device)"
        if storage.pointer.removed.contains(event.device) {
            ignored("\(what), which was removed: ignored")
            return
        }
        guard event.location.isFinite else {
            ignored("\(what) at a non-finite location: ignored")
            return
        }
        if storage.isTracing { emit(.pen(event)) }
        let isDown = storage.pens.down.contains(event.device)
        switch event.phase {
        case .hover:
            guard !isDown else {
                ignored("\(what) while its tip is down: ignored")
                return
            }
            updateHover(at: event.location, device: event.device, pen: event.sample)
        case .down:
            guard !isDown else {
                ignored("\(what) while its tip is down: ignored")
                return
            }
            endHover(reason: .penTouchedDown)
            storage.pens.down.insert(event.device)
            sendPenFrame(.began, event)
        case .moved:
            guard isDown else {
                ignored("\(what) while its tip is up: ignored")
                return
            }
            sendPenFrame(.moved, event)
        case .up:
            guard isDown else {
                ignored("\(what) while its tip is up: ignored")
                return
            }
            storage.pens.down.remove(event.device)
            sendPenFrame(.ended, event)
            updateHover(at: event.location, device: event.device, pen: event.sample)
        case .out:
            if isDown {
                storage.pens.down.remove(event.device)
                sendPenFrame(.ended, event)
            }
            endHover(of: event.device, reason: .penLeftProximity)
        }
    }

    private func sendPenFrame(_ phase: TouchPhase, _ event: PenEvent) {
        var frame = storage.pens.frame
        storage.pens.frame.changes = []
        frame.time = event.time
        frame.device = event.device
        frame.pen = event.sample
        frame.changes.clearKeepingCapacity()
        frame.changes.append(TouchChange(sourceID: GestureEngine.penTipSourceID, phase: phase, location: event.location))
        dispatch(frame)
        storage.pens.frame = frame
    }

    /// `device` was removed: a pen of it is no longer down.
    func penDeviceRemoved(_ device: InputDeviceID) {
        storage.pens.down.remove(device)
    }
}
