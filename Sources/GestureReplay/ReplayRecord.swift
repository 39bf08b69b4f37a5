import GestureKit

/// One line of replay output (REPLAY.md's events), in the order the engine decided them.
public enum ReplayRecord: Hashable, Sendable {
    /// A recognizer's transition.
    case state(State)
    /// A delivery of touches to a view, after delays and cancellations.
    case touches(time: Instant, view: String, phase: TouchPhase, ids: [Int])
    /// A layout invalidation driven by a gesture.
    case layout(time: Instant, itemSize: Size, contentSize: Size)
    /// A tap selected the item under it (the scene layout's `select`).
    case select(time: Instant, section: Int, item: Int, id: Int)
    /// A long press moved an item (the scene layout's `reorder`).
    case move(time: Instant, from: [Int], to: [Int], id: Int)
    /// A recognizer has decided, but waits for another to fail (an addition to the contract).
    case waiting(time: Instant, recognizer: String, reason: String)
    /// Input the engine set aside, and why (an addition to the contract).
    case ignored(time: Instant, reason: String)

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
    }

    public var time: Instant {
        switch self {
        case let .state(s): s.time
        case let .touches(time, _, _, _), let .layout(time, _, _), let .waiting(time, _, _), let .ignored(time, _),
             let .select(time, _, _, _), let .move(time, _, _, _): time
        }
    }

    /// The JSON line of REPLAY.md.
    public var jsonLine: String {
        switch self {
        case let .state(s):
            var line = "{\"time\":\(jsonTime(s.time)),\"type\":\"state\",\"recognizer\":\(jsonString(s.recognizer)),"
            line += "\"from\":\"\(s.from.rawValue)\",\"to\":\"\(s.to.rawValue)\","
            line += "\"location\":[\(jsonNumber(s.location.x)),\(jsonNumber(s.location.y))]"
            let v = s.values
            if let scale = v.scale { line += ",\"scale\":\(jsonNumber(scale))" }
            if let rotation = v.rotation { line += ",\"rotation\":\(jsonNumber(rotation))" }
            if let t = v.translation { line += ",\"translation\":[\(jsonNumber(t.x)),\(jsonNumber(t.y))]" }
            if let velocity = v.velocity { line += ",\"velocity\":\(jsonNumber(velocity))" }
            if let vv = v.velocityVector { line += ",\"velocity\":[\(jsonNumber(vv.x)),\(jsonNumber(vv.y))]" }
            line += ",\"reason\":\(jsonString(s.reason))}"
            return line
        case let .touches(time, view, phase, ids):
            return "{\"time\":\(jsonTime(time)),\"type\":\"touches\",\"view\":\(jsonString(view)),\"phase\":\"\(phase.rawValue)\",\"ids\":[\(ids.map(String.init).joined(separator: ","))]}"
        case let .layout(time, itemSize, contentSize):
            return "{\"time\":\(jsonTime(time)),\"type\":\"layout\",\"itemSize\":[\(jsonNumber(itemSize.width)),\(jsonNumber(itemSize.height))],\"contentSize\":[\(jsonNumber(contentSize.width)),\(jsonNumber(contentSize.height))]}"
        case let .select(time, section, item, id):
            return "{\"time\":\(jsonTime(time)),\"type\":\"select\",\"indexPath\":[\(section),\(item)],\"item\":\(id)}"
        case let .move(time, from, to, id):
            return "{\"time\":\(jsonTime(time)),\"type\":\"move\",\"from\":[\(from[0]),\(from[1])],\"to\":[\(to[0]),\(to[1])],\"item\":\(id)}"
        case let .waiting(time, recognizer, reason):
            return "{\"time\":\(jsonTime(time)),\"type\":\"waiting\",\"recognizer\":\(jsonString(recognizer)),\"reason\":\(jsonString(reason))}"
        case let .ignored(time, reason):
            return "{\"time\":\(jsonTime(time)),\"type\":\"ignored\",\"reason\":\(jsonString(reason))}"
        }
    }

    /// A line a person scans: time, who, transition, reason, values.
    public var humanLine: String {
        let t = pad(formatTime(time), 11)
        switch self {
        case let .state(s):
            var line = "\(t)  \(pad(s.recognizer, 12)) \(pad("\(s.from.rawValue) → \(s.to.rawValue)", 22)) \(s.reason)"
            line += "  @ (\(fmtValue(s.location.x)), \(fmtValue(s.location.y)))"
            let v = s.values
            if let scale = v.scale { line += "  scale \(fmtValue(scale))" }
            if let rotation = v.rotation { line += "  rotation \(fmtValue(rotation)) rad" }
            if let tr = v.translation { line += "  translation (\(fmtValue(tr.x)), \(fmtValue(tr.y)))" }
            if let velocity = v.velocity { line += "  velocity \(fmtValue(velocity))/s" }
            if let vv = v.velocityVector { line += "  velocity (\(fmtValue(vv.x)), \(fmtValue(vv.y))) pt/s" }
            return line
        case let .touches(_, view, phase, ids):
            return "\(t)  \(pad("view " + view, 12)) \(pad(phase.callbackName, 22)) touches \(ids.map(String.init).joined(separator: ", "))"
        case let .layout(_, itemSize, contentSize):
            return "\(t)  \(pad("layout", 12)) \(pad("invalidated", 22)) itemSize \(fmtValue(itemSize.width))×\(fmtValue(itemSize.height)), contentSize \(fmtValue(contentSize.width))×\(fmtValue(contentSize.height))"
        case let .select(_, section, item, id):
            return "\(t)  \(pad("layout", 12)) \(pad("selected", 22)) item \(id) at [\(section), \(item)]"
        case let .move(_, from, to, id):
            return "\(t)  \(pad("layout", 12)) \(pad("moved", 22)) item \(id) from [\(from[0]), \(from[1])] to [\(to[0]), \(to[1])]"
        case let .waiting(_, recognizer, reason):
            return "\(t)  \(pad(recognizer, 12)) \(pad("possible (waits)", 22)) \(reason)"
        case let .ignored(_, reason):
            return "\(t)  \(pad("input", 12)) \(pad("ignored", 22)) \(reason)"
        }
    }
}

/// Seconds for JSON, with microsecond precision ("0.350000").
func jsonTime(_ t: Instant) -> String { formatTime(t) }

func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
}

/// A value for people: at most two decimals.
func fmtValue(_ x: Double) -> String {
    guard x.isFinite else { return String(x) }
    // Beyond 1e15 there are no decimals to round, and Int64 would overflow.
    if abs(x) >= 1e15 { return String(x) }
    let r = (x * 100).rounded() / 100
    if r == r.rounded() { return String(Int64(r)) }
    return String(r)
}
