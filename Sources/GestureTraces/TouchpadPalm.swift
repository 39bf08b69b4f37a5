import GestureKit

extension GestureDefaults {
    /// libinput's palm pressure threshold (`tp_read_palm_pressure_prop`, evdev-mt-touchpad.c,
    /// 1.22): a touch whose ABS_MT_PRESSURE passes this, in the pad's raw pressure units, is a
    /// palm for as long as it stays down, on a pad that reports ABS_MT_PRESSURE. A device quirk
    /// (`AttrPalmPressureThreshold`) replaces it; see `TouchpadPalm.pressureThreshold`.
    public static let touchpadPalmPressureThreshold: Int32 = 130
    /// libinput's palm edge zones (`tp_init_palmdetect_edge`), on a pad at least
    /// `touchpadPalmEdgeMinimumWidthMillimetres` wide: the left and right edges are 8 % of its
    /// width, at most this many millimetres.
    public static let touchpadPalmEdgeMillimetres = 8.0
    /// See `touchpadPalmEdgeMillimetres` (libinput: 70 mm; a narrower pad has no edge zones).
    public static let touchpadPalmEdgeMinimumWidthMillimetres = 70.0
    /// The top edge zone is 5 % of the height, on a pad taller than this (libinput: 55 mm).
    public static let touchpadPalmTopEdgeMinimumHeightMillimetres = 55.0
    /// A palm that landed in an edge zone and leaves it within this long, away from the edge,
    /// is a finger after all (`tp_palm_detect_move_out_of_edge`, `PALM_TIMEOUT`, 200 ms).
    public static let touchpadPalmEdgeTimeout = Duration.milliseconds(200)
}

/// libinput 1.22's palm detection (evdev-mt-touchpad.c, `tp_palm_detect`), as far as the
/// decoder models it: a palm counts for no gesture and moves no pointer
/// (`tp_touch_active_for_gesture` leaves out a touch whose `palm.state` is not `PALM_NONE`),
/// though it still counts as a contact down (`nfingers_down`: its landing and lifting reset the
/// other touches' motion, as any contact's).
///
/// Modelled: palm by pressure (`tp_palm_detect_pressure_triggered`): a touch pressing harder
/// than the pad's threshold is a palm until it lifts, whatever it does after; the threshold is
/// libinput's default, 130 raw units, or a quirk's (`pressureThreshold(for:)`), on a pad with
/// ABS_MT_PRESSURE; not on an external touchpad (`tp_init_palmdetect`: a USB or Bluetooth pad
/// that is not a tablet's has none of it).
///
/// Palm by the edge zones (`tp_palm_detect_edge`): a touch that lands, with no other finger
/// counting, in the left or right edge zone (8 % of the width, at most 8 mm, on a pad 70 mm wide
/// or more) or the top one (5 % of a pad taller than 55 mm) is a palm; it becomes a finger again
/// when another touch that counts is down (`tp_palm_detect_multifinger`: two-finger scrolling
/// starts in the edges too), or when it leaves the zones within 200 ms of landing, moving
/// sideways from a side edge or down from the top one (`tp_palm_detect_move_out_of_edge`). A touch that lands elsewhere and
/// moves into a zone is no palm.
///
/// Not modelled (libinput does them; the decoder does not yet): by touch size (`tp_palm_detect_touch_size_triggered`, only where a quirk gives
/// `AttrPalmSizeThreshold`: none of the project's recorded devices), by tool type
/// (ABS_MT_TOOL_TYPE MT_TOOL_PALM), typing and the trackpoint (no keyboard or trackpoint in
/// a touchpad recording), and thumbs (evdev-mt-touchpad-thumb.c).
struct TouchpadPalm: Sendable {
    /// The pressure past which a touch is a palm; nil when the pad has no palm detection by
    /// pressure.
    let pressureThreshold: Int32?
    /// The slot the events now go to, and each slot's tracking id and pressure (evdev's state).
    private var slot = 0
    private var trackingIDs: [Int: Int] = [:]
    private var pressures: [Int: Int32] = [:]
    /// The contacts (by tracking id, the decoder's source id) labelled palms.
    private(set) var palms: Set<Int> = []
    /// Palms by the edge zones (`PALM_EDGE`): where and when each landed.
    private var edgePalms: [Int: (first: Point, time: Instant)] = [:]
    /// The edge zones in mm of the pad (left, right, top); nil without them.
    let edges: (left: Double, right: Double, top: Double)?

    /// `padSize`: the pad's size from its axes' resolution, nil without one (libinput's
    /// `evdev_device_get_size` fails on a resolution it made up, and the pad has no edge zones).
    init(device: TraceDevice, padSize: Size?) {
        pressureThreshold = Self.pressureThreshold(for: device.description)
        edges = Self.edgeZones(for: device.description, padSize: padSize)
    }

    /// libinput's `tp_init_palmdetect` and `tp_init_palmdetect_edge`: no edge zones on an
    /// external touchpad, an Apple one, one narrower than 70 mm or one without a resolution.
    static func edgeZones(for description: EvdevDeviceDescription?, padSize: Size?) -> (left: Double, right: Double, top: Double)? {
        guard let description, let padSize, !isExternal(description), description.vendor != 0x05ac,
              padSize.width >= GestureDefaults.touchpadPalmEdgeMinimumWidthMillimetres else { return nil }
        let side = min(GestureDefaults.touchpadPalmEdgeMillimetres, padSize.width * 0.08)
        let top = padSize.height > GestureDefaults.touchpadPalmTopEdgeMinimumHeightMillimetres ? padSize.height * 0.05 : -Double.infinity
        return (side, padSize.width - side, top)
    }

    /// EVDEV_TAG_EXTERNAL_TOUCHPAD: udev's ID_INPUT_TOUCHPAD_INTEGRATION, or by the bus
    /// (`evdev_tag_touchpad`: USB and Bluetooth pads are external).
    static func isExternal(_ description: EvdevDeviceDescription) -> Bool {
        let integration = description.udevProperties["ID_INPUT_TOUCHPAD_INTEGRATION"]
        return integration.map { $0 == "external" } ?? (description.bustype == 0x03 || description.bustype == 0x05)
    }

    /// libinput's `tp_init_palmdetect` and `tp_init_palmdetect_pressure`, with the quirks of
    /// /usr/share/libinput (libinput 1.22) that match a device the project has recordings of:
    /// `[Cypress Touchpads]` (30-vendor-cypress.quirks: MatchName=*CyPS/2 Cypress Trackpad,
    /// AttrPalmPressureThreshold=254). No quirk of the Elantech, Synaptics or ALPS PS/2 pads
    /// gives one (they keep the default 130, or have no ABS_MT_PRESSURE); the Wacom Intuos5 is an
    /// external (USB) touchpad.
    static func pressureThreshold(for description: EvdevDeviceDescription?) -> Int32? {
        guard let description, description.has(.abs, .absMTPressure), !isExternal(description) else { return nil }
        if description.name.hasSuffix("CyPS/2 Cypress Trackpad") { return 254 }
        return GestureDefaults.touchpadPalmPressureThreshold
    }

    /// Takes one raw event of the pad (its slots, tracking ids and pressures).
    mutating func feed(_ event: EvdevEvent) {
        guard pressureThreshold != nil, event.type == .abs else { return }
        switch event.code {
        case .absMTSlot: slot = Int(event.value)
        case .absMTTrackingID: trackingIDs[slot] = Int(event.value)
        case .absMTPressure: pressures[slot] = event.value
        default: break
        }
    }

    /// libinput's `tp_palm_detect`, for the contacts down after a frame (`began`: those that
    /// landed in it; `counts`: whether a contact counts but for being a palm, neither pinned nor
    /// resting in the button area): pressure first, then the edges. Lifted contacts are
    /// forgotten.
    mutating func detect(contacts: [(id: Int, point: Point)], began: [Int], time: Instant, counts: (Int) -> Bool) {
        guard pressureThreshold != nil || edges != nil else { return }
        if !palms.isEmpty {
            palms = palms.filter { id in contacts.contains { $0.id == id } }
            edgePalms = edgePalms.filter { palms.contains($0.key) }
        }
        for c in contacts {
            if pressureTriggered(c.id) {
                // tp_palm_detect_pressure_triggered: for good, over any other palm state.
                palms.insert(c.id)
                edgePalms[c.id] = nil
            } else if let edges {
                detectEdge(c, edges: edges, began: began.contains(c.id), time: time, others: contacts, counts: counts)
            }
        }
    }

    /// `tp_palm_detect_pressure_triggered`: the contact presses past the threshold now.
    private func pressureTriggered(_ id: Int) -> Bool {
        guard let threshold = pressureThreshold else { return false }
        if palms.contains(id) && edgePalms[id] == nil { return true }
        guard let slot = trackingIDs.first(where: { $0.value == id })?.key, let pressure = pressures[slot] else { return false }
        return pressure > threshold
    }

    /// `tp_palm_detect_edge`.
    private mutating func detectEdge(_ c: (id: Int, point: Point), edges: (left: Double, right: Double, top: Double), began: Bool,
                                     time: Instant, others: [(id: Int, point: Point)], counts: (Int) -> Bool) {
        // tp_palm_detect_multifinger: another touch down that counts and is no palm.
        let otherFinger = others.count >= 2 && others.contains { $0.id != c.id && counts($0.id) && !palms.contains($0.id) }
        if let palm = edgePalms[c.id] {
            if otherFinger || movedOutOfEdge(c.point, palm: palm, edges: edges, time: time) {
                edgePalms[c.id] = nil
                palms.remove(c.id)
            }
            return
        }
        guard began, !otherFinger, Self.inEdge(c.point, edges) else { return }
        edgePalms[c.id] = (c.point, time)
        palms.insert(c.id)
    }

    static func inEdge(_ p: Point, _ edges: (left: Double, right: Double, top: Double)) -> Bool {
        p.x < edges.left || p.x > edges.right || p.y < edges.top
    }

    /// `tp_palm_detect_move_out_of_edge`: within 200 ms of landing, out of the zones, and moved
    /// away from the side it landed on (or down from the top).
    private func movedOutOfEdge(_ p: Point, palm: (first: Point, time: Instant), edges: (left: Double, right: Double, top: Double),
                                time: Instant) -> Bool {
        guard time.nanoseconds < palm.time.nanoseconds + GestureDefaults.touchpadPalmEdgeTimeout.nanosecondCount,
              !Self.inEdge(p, edges) else { return false }
        let d = p - palm.first
        // libinput's compass octants (bit 0 north, clockwise), as `TouchpadInterpreter.direction`.
        let ne: UInt32 = 1 << 1, e: UInt32 = 1 << 2, se: UInt32 = 1 << 3
        let s: UInt32 = 1 << 4, sw: UInt32 = 1 << 5, w: UInt32 = 1 << 6, nw: UInt32 = 1 << 7
        // Within 45° of the horizontal from a side edge, of straight down from the top one.
        let allowed: UInt32
        if palm.first.x < edges.left || palm.first.x > edges.right { allowed = ne | e | se | sw | w | nw }
        else if palm.first.y < edges.top { allowed = s | se | sw } else { return false }
        let dirs = TouchpadInterpreter.direction(d)
        return dirs & allowed != 0 && dirs & ~allowed == 0
    }
}
