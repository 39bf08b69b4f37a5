import GestureFormat
import GestureKit

/// An app's window as sway's IPC tree (`swaymsg -t get_tree`) describes it.
public struct MappedWindow: Hashable, Sendable, CustomStringConvertible {
    /// The client's process id (sway's `pid`).
    public var pid: Int
    /// The Wayland app id (`app_id`), or the X11 class under Xwayland.
    public var appID: String?
    /// Its title (`name`).
    public var title: String?
    /// Where its content is on the output, in output points: the container's `rect` moved by
    /// its `window_rect` (borders and title bar left out).
    public var frame: Rect
    public var visible: Bool
    public var fullscreen: Bool

    public var description: String {
        "\(appID ?? title ?? "a window") (pid \(pid)) at \(Int(frame.minX)),\(Int(frame.minY)) \(Int(frame.width))×\(Int(frame.height))"
    }

    /// Whether it is shown, with a size. (sway's tree does not say whether the app has drawn
    /// at that size yet: its `geometry` is the window's natural size, not the committed one;
    /// `DriveSession.waitForSettledScreen` waits for that.)
    public var isShown: Bool { visible && frame.width > 0 && frame.height > 0 }
}

/// Reading sway's IPC answers.
enum SwayTree {
    /// Every view (a node with a client: a `pid`) in `get_tree`'s answer.
    static func windows(in json: String) throws -> [MappedWindow] {
        var found: [MappedWindow] = []
        func visit(_ node: JSONValue) {
            guard case let .object(fields) = node else { return }
            func field(_ name: String) -> JSONValue? { fields.first { $0.key == name }?.value }
            func rect(_ name: String) -> Rect? {
                guard case let .object(r)? = field(name) else { return nil }
                func n(_ k: String) -> Double? { if case let .number(v)? = r.first(where: { $0.key == k })?.value { return v }; return nil }
                guard let x = n("x"), let y = n("y"), let w = n("width"), let h = n("height") else { return nil }
                return Rect(x: x, y: y, width: w, height: h)
            }
            if case let .number(pid)? = field("pid"), let outer = rect("rect") {
                let inner = rect("window_rect") ?? Rect(x: 0, y: 0, width: outer.width, height: outer.height)
                var appID: String?
                if case let .string(s)? = field("app_id") { appID = s }
                if appID == nil, case let .object(props)? = field("window_properties"),
                   case let .string(s)? = props.first(where: { $0.key == "class" })?.value { appID = s }
                var title: String?
                if case let .string(s)? = field("name") { title = s }
                var visible = false
                if case let .bool(v)? = field("visible") { visible = v }
                var fullscreen = false
                if case let .number(m)? = field("fullscreen_mode") { fullscreen = m > 0 }
                found.append(MappedWindow(pid: Int(pid), appID: appID, title: title,
                                          frame: Rect(x: outer.minX + inner.minX, y: outer.minY + inner.minY,
                                                      width: inner.width, height: inner.height),
                                          visible: visible, fullscreen: fullscreen))
            }
            for key in ["nodes", "floating_nodes"] {
                if case let .array(children)? = field(key) { children.forEach(visit) }
            }
        }
        visit(try JSONParser.parse(json))
        return found
    }

    /// The input types (`touch`, `tablet_tool`, `pointer`, `touchpad`) and names of `get_inputs`.
    static func inputs(in json: String) throws -> [(type: String, name: String)] {
        guard case let .array(list) = try JSONParser.parse(json) else { return [] }
        return list.compactMap { item in
            guard case let .object(fields) = item,
                  case let .string(type)? = fields.first(where: { $0.key == "type" })?.value,
                  case let .string(name)? = fields.first(where: { $0.key == "name" })?.value else { return nil }
            return (type, name)
        }
    }
}
