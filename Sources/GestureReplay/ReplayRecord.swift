import GestureFormat
import GestureKit
import GestureLayout

/// One line of replay output (REPLAY.md's events), in the order the engine decided them.
public enum ReplayRecord: Hashable, Sendable {
    /// A recognizer's transition.
    case state(State)
    /// A delivery of touches to a view, after delays and cancellations.
    /// `buttons`: a pointer touch's buttons (empty for other touches).
    case touches(time: Instant, view: String, phase: TouchPhase, ids: [Int], buttons: ButtonMask = [])
    /// A layout invalidation driven by a gesture.
    case layout(time: Instant, itemSize: Size, contentSize: Size)
    /// The layout's content offset changed, or the content came to rest (the scene layout's
    /// `scroll`): offset and velocity in points (per second), the scroll phase.
    case scroll(time: Instant, contentOffset: Point, velocity: Point, phase: ScrollPhase)
    /// The layout's zoom scale changed, or the zoom is over (a layout with a zoom range,
    /// `minimumZoomScale`…`maximumZoomScale`): the scale, the content offset it left, the phase.
    case zoom(time: Instant, zoomScale: Double, contentOffset: Point, phase: ZoomPhase)
    /// A tap selected the item under it (the scene layout's `select`).
    case select(time: Instant, section: Int, item: Int, id: Int)
    /// A long press moved an item (the scene layout's `reorder`).
    case move(time: Instant, from: [Int], to: [Int], id: Int)
    /// A recognizer has decided, but waits for another to fail (an addition to the contract).
    case waiting(time: Instant, recognizer: String, reason: String)
    /// Input the engine set aside, and why (an addition to the contract).
    case ignored(time: Instant, reason: String)
    /// A pen frame (REPLAY.md's "Pens"): where it is, how hard it presses, how it leans.
    case pen(PenEvent)
    /// What a touchpad's driver decided, before any recognizer sees it (`replay
    /// --touchpad-gestures`): a hold, pinch or swipe event, or a step of a scroll from fingers.
    case gesture(Gesture)
    /// A context menu interaction's transition (REPLAY.md's `contextMenu` line, an addition).
    case contextMenu(ContextMenu)

    /// REPLAY.md's `contextMenu` line: the preview lifted or dropped, the menu opened or closed.
    public struct ContextMenu: Hashable, Sendable {
        public var time: Instant
        /// The scene's id of the interaction's recognizer.
        public var interaction: String
        public var view: String
        /// `possible`, `lifting` or `presented`.
        public var from: String
        public var to: String
        /// In the interaction's view.
        public var location: Point
        /// On the transition to `presented`: the identifiers of the menu's actions, depth
        /// first (hidden ones left out), and those disabled.
        public var actions: [String]?
        public var disabled: [String]?
        /// On the transition back to `possible`: the action chosen, if one was.
        public var action: String?
        public var reason: String

        public init(time: Instant, interaction: String, view: String, from: String, to: String, location: Point,
                    actions: [String]? = nil, disabled: [String]? = nil, action: String? = nil, reason: String) {
            self.time = time
            self.interaction = interaction
            self.view = view
            self.from = from
            self.to = to
            self.location = location
            self.actions = actions
            self.disabled = disabled
            self.action = action
            self.reason = reason
        }
    }

    /// A step of a drag session (an addition to the contract: REPLAY.md's `drag` line).
    case drag(Drag)

    /// The data a scene's drop target read from a dropped item (an addition to the contract:
    /// REPLAY.md's `dropData` line).
    case dropData(DropData)

    /// REPLAY.md's `dropData` line (an addition to the contract).
    public struct DropData: Hashable, Sendable {
        public var time: Instant
        /// The drag session's number, as in its `drag` lines.
        public var session: Int
        /// The drop target's view.
        public var view: String
        /// The item's place in the session (0, 1, …).
        public var item: Int
        /// The MIME type read.
        public var contentType: String
        /// The data, as UTF-8 text (invalid bytes replaced), or nil when loading failed.
        public var data: String?
        /// Why loading failed.
        public var error: String?

        public init(time: Instant, session: Int, view: String, item: Int, contentType: String, data: String?, error: String?) {
            self.time = time
            self.session = session
            self.view = view
            self.item = item
            self.contentType = contentType
            self.data = data
            self.error = error
        }
    }

    /// REPLAY.md's `drag` line (an addition to the contract).
    public struct Drag: Hashable, Sendable {
        public var time: Instant
        /// The session's number (1, 2, … in the replay).
        public var session: Int
        /// `began`, `added`, `moved`, `entered`, `exited`, `dropped` or `ended`.
        public var phase: String
        /// The view concerned: the source's (`began`, `ended`), the one tapped (`added`),
        /// the target's (`moved`, `entered`, `exited`, `dropped`); nil over no target.
        public var view: String?
        /// Where the drag (its preview) is, in screen points.
        public var location: Point
        public var items: Int
        /// `cancel`, `forbidden`, `copy` or `move`: the target's proposal, or at `ended`
        /// what the session ended with.
        public var operation: String
        public var reason: String

        public init(time: Instant, session: Int, phase: String, view: String?, location: Point, items: Int,
                    operation: String, reason: String) {
            self.time = time
            self.session = session
            self.phase = phase
            self.view = view
            self.location = location
            self.items = items
            self.operation = operation
            self.reason = reason
        }
    }

    /// REPLAY.md's `gesture` line.
    public struct Gesture: Hashable, Sendable {
        /// `hold`, `pinch`, `swipe` or `scroll`.
        public var kind: String
        /// `began`, `changed`, `ended` or `cancelled`.
        public var phase: GestureRecognizer.State
        public var time: Instant
        public var fingers: Int
        /// The pointer, in points.
        public var location: Point
        /// A pinch's scale (from 1 at its start) and rotation (degrees since its start).
        public var scale: Double?
        public var rotation: Double?
        /// A swipe's or scroll's movement in this event, in points.
        public var delta: Point?

        public init(kind: String, phase: GestureRecognizer.State, time: Instant, fingers: Int, location: Point,
                    scale: Double? = nil, rotation: Double? = nil, delta: Point? = nil) {
            self.kind = kind
            self.phase = phase
            self.time = time
            self.fingers = fingers
            self.location = location
            self.scale = scale
            self.rotation = rotation
            self.delta = delta
        }
    }

    public struct State: Hashable, Sendable {
        public var time: Instant
        public var recognizer: String
        public var kind: Scene.Kind?
        public var from: GestureRecognizer.State
        public var to: GestureRecognizer.State
        public var reason: String
        /// In the recognizer's view's coordinates.
        public var location: Point
        public var values: GestureValues
        /// The modifier keys held (REPLAY.md's "Keys"); printed when not empty.
        public var modifierFlags: ModifierFlags = []
    }

    public var time: Instant {
        switch self {
        case let .state(s): s.time
        case let .touches(time, _, _, _, _), let .layout(time, _, _), let .waiting(time, _, _), let .ignored(time, _),
             let .scroll(time, _, _, _), let .zoom(time, _, _, _),
             let .select(time, _, _, _), let .move(time, _, _, _): time
        case let .pen(p): p.time
        case let .gesture(g): g.time
        case let .contextMenu(m): m.time
        case let .drag(d): d.time
        case let .dropData(d): d.time
        }
    }

    /// The JSON line of REPLAY.md.
    public var jsonLine: String {
        var o = JSONObjectText()
        write(into: &o)
        return o.json
    }

    /// Appends the JSON line of REPLAY.md and a newline to `out` (what `replay --json`
    /// writes, straight into its buffer: no `String` and no object's buffer in between).
    public func appendJSONLine(to out: inout [UInt8]) {
        var o = JSONObjectText(continuing: &out)
        write(into: &o)
        o.close(into: &out)
        out.append(0x0a)
    }

    private func write(into o: inout JSONObjectText) {
        o.seconds("time", nanoseconds: time.nanoseconds)
        switch self {
        case let .state(s):
            o.string("type", "state")
            o.string("recognizer", s.recognizer)
            o.string("from", s.from.rawValue)
            o.string("to", s.to.rawValue)
            o.pair("location", s.location.x, s.location.y)
            s.values.forEachField { field in
                switch field.value {
                case let .number(n): o.number(field.key, n)
                case let .pair(p): o.pair(field.key, p.x, p.y)
                }
            }
            if !s.modifierFlags.isEmpty { o.strings("modifierFlags", s.modifierFlags.names) }
            o.string("reason", s.reason)
        case let .touches(_, view, phase, ids, buttons):
            o.string("type", "touches")
            o.string("view", view)
            o.string("phase", phase.rawValue)
            o.integers("ids", ids)
            if !buttons.isEmpty && buttons != .primary { o.strings("buttons", buttons.names) }
        case let .layout(_, itemSize, contentSize):
            o.string("type", "layout")
            o.pair("itemSize", itemSize.width, itemSize.height)
            o.pair("contentSize", contentSize.width, contentSize.height)
        case let .scroll(_, offset, velocity, phase):
            o.string("type", "scroll")
            o.pair("contentOffset", offset.x, offset.y)
            o.pair("velocity", velocity.x, velocity.y)
            o.string("phase", phase.rawValue)
        case let .zoom(_, zoomScale, offset, phase):
            o.string("type", "zoom")
            o.number("zoomScale", zoomScale)
            o.pair("contentOffset", offset.x, offset.y)
            o.string("phase", phase.rawValue)
        case let .select(_, section, item, id):
            o.string("type", "select")
            o.integerPair("indexPath", section, item)
            o.integer("item", id)
        case let .move(_, from, to, id):
            o.string("type", "move")
            o.integerPair("from", from[0], from[1])
            o.integerPair("to", to[0], to[1])
            o.integer("item", id)
        case let .waiting(_, recognizer, reason):
            o.string("type", "waiting")
            o.string("recognizer", recognizer)
            o.string("reason", reason)
        case let .ignored(_, reason):
            o.string("type", "ignored")
            o.string("reason", reason)
        case let .pen(p):
            o.string("type", "pen")
            o.string("phase", p.phase.rawValue)
            o.pair("location", p.location.x, p.location.y)
            o.number("force", p.sample.force)
            o.number("altitude", p.sample.altitudeAngle)
            o.number("azimuth", p.sample.azimuthAngle)
            o.string("tool", p.sample.tool.rawValue)
            if p.phase == .hover, let z = p.sample.zOffset { o.number("zOffset", z) }
        case let .gesture(g):
            o.string("type", "gesture")
            o.string("kind", g.kind)
            o.string("phase", g.phase.rawValue)
            o.integer("fingers", g.fingers)
            o.pair("location", g.location.x, g.location.y)
            if let scale = g.scale { o.number("scale", scale) }
            if let rotation = g.rotation { o.number("rotation", rotation) }
            if let d = g.delta { o.pair("delta", d.x, d.y) }
        case let .contextMenu(m):
            o.string("type", "contextMenu")
            o.string("interaction", m.interaction)
            o.string("view", m.view)
            o.string("from", m.from)
            o.string("to", m.to)
            o.pair("location", m.location.x, m.location.y)
            if let actions = m.actions { o.strings("actions", actions) }
            if let disabled = m.disabled, !disabled.isEmpty { o.strings("disabled", disabled) }
            if let action = m.action { o.string("action", action) }
            o.string("reason", m.reason)
        case let .drag(d):
            o.string("type", "drag")
            o.integer("session", d.session)
            o.string("phase", d.phase)
            if let view = d.view { o.string("view", view) }
            o.pair("location", d.location.x, d.location.y)
            o.integer("items", d.items)
            o.string("operation", d.operation)
            o.string("reason", d.reason)
        case let .dropData(d):
            o.string("type", "dropData")
            o.integer("session", d.session)
            o.string("view", d.view)
            o.integer("item", d.item)
            o.string("contentType", d.contentType)
            if let data = d.data { o.string("data", data) }
            if let error = d.error { o.string("error", error) }
        }
    }

    /// A line a person scans: time, who, transition, reason, values.
    public var humanLine: String {
        let t = pad(formatTime(time), 11)
        switch self {
        case let .state(s):
            var line = "\(t)  \(pad(s.recognizer, 12)) \(pad("\(s.from.rawValue) → \(s.to.rawValue)", 22)) \(s.reason)"
            line += "  @ (\(fmtValue(s.location.x)), \(fmtValue(s.location.y)))"
            s.values.forEachField { field in
                switch field.value {
                case let .number(n): line += "  \(field.key) \(fmtValue(n))\(field.unit)"
                case let .pair(p): line += "  \(field.key) (\(fmtValue(p.x)), \(fmtValue(p.y)))\(field.unit)"
                }
            }
            if !s.modifierFlags.isEmpty { line += "  with \(s.modifierFlags.names.joined(separator: "+"))" }
            return line
        case let .touches(_, view, phase, ids, buttons):
            let pressed = !buttons.isEmpty && buttons != .primary ? "  buttons \(buttons.names.joined(separator: ", "))" : ""
            return "\(t)  \(pad("view " + view, 12)) \(pad(phase.callbackName, 22)) touches \(ids.map(String.init).joined(separator: ", "))\(pressed)"
        case let .layout(_, itemSize, contentSize):
            return "\(t)  \(pad("layout", 12)) \(pad("invalidated", 22)) itemSize \(fmtValue(itemSize.width))×\(fmtValue(itemSize.height)), contentSize \(fmtValue(contentSize.width))×\(fmtValue(contentSize.height))"
        case let .scroll(_, offset, velocity, phase):
            return "\(t)  \(pad("layout", 12)) \(pad("scroll " + phase.rawValue, 22)) offset (\(fmtValue(offset.x)), \(fmtValue(offset.y)))  velocity (\(fmtValue(velocity.x)), \(fmtValue(velocity.y))) pt/s"
        case let .zoom(_, zoomScale, offset, phase):
            return "\(t)  \(pad("layout", 12)) \(pad("zoom " + phase.rawValue, 22)) scale \(fmtValue(zoomScale))  offset (\(fmtValue(offset.x)), \(fmtValue(offset.y)))"
        case let .select(_, section, item, id):
            return "\(t)  \(pad("layout", 12)) \(pad("selected", 22)) item \(id) at [\(section), \(item)]"
        case let .move(_, from, to, id):
            return "\(t)  \(pad("layout", 12)) \(pad("moved", 22)) item \(id) from [\(from[0]), \(from[1])] to [\(to[0]), \(to[1])]"
        case let .waiting(_, recognizer, reason):
            return "\(t)  \(pad(recognizer, 12)) \(pad("possible (waits)", 22)) \(reason)"
        case let .ignored(_, reason):
            // The reason may carry a recording's text (a note): made safe for a terminal.
            return "\(t)  \(pad("input", 12)) \(pad("ignored", 22)) \(printable(reason))"
        case let .pen(p):
            let s = p.sample
            var line = "\(t)  \(pad(s.tool.rawValue, 12)) \(pad(p.phase.rawValue, 22)) at (\(fmtValue(p.location.x)), \(fmtValue(p.location.y)))  force \(fmtValue(s.force))  altitude \(fmtValue(s.altitudeAngle))  azimuth \(fmtValue(s.azimuthAngle))"
            if p.phase == .hover, let z = s.zOffset { line += "  zOffset \(fmtValue(z))" }
            return line
        case let .gesture(g):
            var line = "\(t)  \(pad("touchpad", 12)) \(pad("\(g.kind) \(g.phase.rawValue)", 22)) \(g.fingers) finger\(g.fingers == 1 ? "" : "s")"
            line += "  @ (\(fmtValue(g.location.x)), \(fmtValue(g.location.y)))"
            if let scale = g.scale { line += "  scale \(fmtValue(scale))" }
            if let rotation = g.rotation { line += "  rotation \(fmtValue(rotation))°" }
            if let d = g.delta { line += "  delta (\(fmtValue(d.x)), \(fmtValue(d.y)))" }
            return line
        case let .contextMenu(m):
            var line = "\(t)  \(pad(m.interaction, 12)) \(pad("menu \(m.from) → \(m.to)", 22)) \(m.reason)"
            line += "  @ (\(fmtValue(m.location.x)), \(fmtValue(m.location.y)))"
            if let actions = m.actions { line += "  actions \(actions.joined(separator: ", "))" }
            if let disabled = m.disabled, !disabled.isEmpty { line += "  disabled \(disabled.joined(separator: ", "))" }
            return line
        case let .drag(d):
            let who = d.view.map { "drag \(d.session) " + $0 } ?? "drag \(d.session)"
            return "\(t)  \(pad(who, 12)) \(pad("\(d.phase) \(d.operation)", 22)) \(d.reason)  @ (\(fmtValue(d.location.x)), \(fmtValue(d.location.y)))  items \(d.items)"
        case let .dropData(d):
            let what = d.data.map { "\(d.contentType): \($0.debugDescription)" } ?? "\(d.contentType) failed: \(d.error ?? "")"
            return "\(t)  \(pad("drag \(d.session) \(d.view)", 12)) \(pad("data of item \(d.item)", 22)) \(what)"
        }
    }
}

/// Where a zoom is: what the replay prints as a `zoom` line's `phase`.
public enum ZoomPhase: String, Hashable, Sendable {
    /// A pinch, or a wheel turned with control held, changes the scale.
    case zooming
    /// The pinch took the scale past its range, and it springs back.
    case bouncing
    /// The zoom is over (once, after any bounce).
    case rest
}


func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
}

/// A value for people: at most two decimals.
func fmtValue(_ x: Double) -> String { DecimalText.trimmed(x, digits: 2) }
