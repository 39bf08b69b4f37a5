import GestureFormat
import GestureKit
import GestureLayout
import GestureTraces

/// A scene of REPLAY.md: the screen, the views, the recognizers attached to them, their
/// relationships, and optionally a flow layout driven by a pinch.
public struct Scene: Hashable, Sendable {
    public struct ViewSpec: Hashable, Sendable {
        public var id: String
        public var frame: Rect
        public var parent: String?
    }

    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case tap, longPress, pinch, pan, rotation, swipe, hover, screenEdgePan
        /// A context menu interaction's recognizer, with the interaction and its `menu` (an
        /// addition to REPLAY.md).
        case contextMenu
    }

    public struct RecognizerSpec: Hashable, Sendable {
        public var id: String
        public var kind: Kind
        public var view: String
        public var cancelsTouchesInView = true
        public var delaysTouchesBegan = false
        public var delaysTouchesEnded = true
        public var enabled = true
        public var requireToFail: [String] = []
        /// Kind parameters, validated (numbers, or a swipe direction).
        public var parameters: [String: Double] = [:]
        public var direction: SwipeDirection = .right
        /// `allowedTouchTypes`: default all four.
        public var allowedTouchTypes: TouchTypes = .all
        /// A pan's `allowedScrollTypes`: default none.
        public var allowedScrollTypes: ScrollTypes = []
        /// A pan's `direction` (`allowedDirections`): `horizontal`, `vertical` or `all`
        /// (the default). An addition to REPLAY.md.
        public var panDirections: PanDirections = .all
        /// A screen edge pan's `edges` (required for that kind).
        public var edges: ScreenEdges = []
        /// A tap's or long press's `buttonMaskRequired`: default `["primary"]` (UIKit's).
        public var buttonMaskRequired: ButtonMask = .primary
        /// A context menu's `menu` (required for that kind).
        public var menu: [MenuItemSpec] = []
    }

    /// One entry of a scene's context menu: an action (`title`, `id`, `image`, `attributes`,
    /// `state`), or, with `children`, a submenu (an inline section with `inline`).
    public struct MenuItemSpec: Hashable, Sendable {
        public var title: String
        public var id: String?
        public var image: String?
        public var attributes: [String] = []
        public var state: String?
        public var children: [MenuItemSpec]?
        public var inline = false
    }

    public struct LayoutSpec: Hashable, Sendable {
        public var sections: [Int]
        public var itemSize: Size
        public var minimumLineSpacing = 10.0
        public var minimumInteritemSpacing = 10.0
        public var sectionInset = EdgeInsets.zero
        public var headerReferenceSize = Size.zero
        public var footerReferenceSize = Size.zero
        /// The id of the pinch recognizer that drives `itemSize`.
        public var pinch: String?
        /// The id of a tap recognizer whose recognition selects the item under it (an
        /// addition to REPLAY.md's layout key).
        public var select: String?
        /// The id of a long-press recognizer that picks up the item under it and drops it
        /// where it is released (an addition to REPLAY.md's layout key).
        public var reorder: String?
        /// The id of the pan that scrolls the layout as UIScrollView's does (REPLAY.md,
        /// "Scrolling layouts"); nil: the layout does not scroll.
        public var scroll: String?
        /// Whether the content rubber-bands past the edges and bounces back. Default true.
        public var bounces = true
        /// Velocity kept per millisecond of deceleration. Default 0.998 (UIKit's normal).
        public var decelerationRate = ScrollPhysics.normalRate
        /// Frames a second of the layout's animation, on the replay's virtual clock. Default 60.
        public var frameRate = 60
        /// Whether a release comes to rest on a multiple of the view's height (an addition).
        public var pagingEnabled = false
        /// Whether touches reach the views 150 ms late unless a drag began (UIKit's
        /// `delaysContentTouches`; an addition, default false so `touches` lines keep their time).
        public var delaysContentTouches = false
        /// Whether a vertical drag moves content shorter than the view (an addition). Default false.
        public var alwaysBounceVertical = false
        /// Where the content starts, kept within its range (an addition). Default [0, 0].
        public var contentOffset = Point.zero
        /// The smallest zoom scale (UIScrollView's; an addition): above 0, at most 1. Default 1.
        public var minimumZoomScale = 1.0
        /// The largest zoom scale (UIScrollView's; an addition): at least 1. Default 1. The
        /// layout zooms (a pinch, a touchpad's pinch, a wheel with control held) when it is
        /// larger than `minimumZoomScale`.
        public var maximumZoomScale = 1.0
        /// Whether the layout zooms: its zoom range is more than one scale.
        public var zooms: Bool { maximumZoomScale > minimumZoomScale }
    }

    public var screen = Size(width: 1000, height: 1000)
    /// How touchscreens land on the screen and whether touchpads tap (the `input` key: `rotate`,
    /// `calibration`, `region`, `touchpadTapping`).
    public var input = TouchMapping.identity
    public var views: [ViewSpec] = []
    public var recognizers: [RecognizerSpec] = []
    public var simultaneous: [[String]] = []
    public var layout: LayoutSpec?
    /// Drag and drop interactions on the views (the `interactions` key, an addition).
    public var interactions: [InteractionSpec] = []

    public init() {}

    /// The scene replay uses without `--scene`: one root view with a single tap (requiring
    /// the double tap to fail), a double tap, a long press and a pinch, all on the root.
    public static func defaultScene(screen: Size = Size(width: 1000, height: 1000)) -> Scene {
        var s = Scene()
        s.screen = screen
        s.views = [ViewSpec(id: "root", frame: Rect(origin: .zero, size: screen), parent: nil)]
        s.recognizers = [
            RecognizerSpec(id: "single", kind: .tap, view: "root", requireToFail: ["double"]),
            RecognizerSpec(id: "double", kind: .tap, view: "root", parameters: ["taps": 2]),
            RecognizerSpec(id: "longPress", kind: .longPress, view: "root"),
            RecognizerSpec(id: "pinch", kind: .pinch, view: "root"),
        ]
        return s
    }
}

/// A scene that cannot be used, naming the offending key.
public struct SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where, as a path of keys: `recognizers[2] ("double").taps`.
    public var path: String
    public var message: String
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

extension Scene {
    enum ParameterRule {
        case count, countOrZero, distance, duration, angle, millimetres

        func check(_ v: Double) -> String? {
            switch self {
            case .count: return v >= 1 && v == v.rounded() && v <= 1000 ? nil : "expected a whole number from 1 to 1000"
            case .countOrZero: return v >= 0 && v == v.rounded() && v <= 1000 ? nil : "expected a whole number from 0 to 1000"
            case .distance: return v >= 0 && v <= 1e9 ? nil : "expected a distance in points, at least 0"
            case .duration: return v >= 0 && v <= 1e6 ? nil : "expected a duration in seconds, at least 0"
            case .angle: return v >= 0 && v <= 100 ? nil : "expected an angle in radians, at least 0"
            case .millimetres: return v >= 0 && v <= 1e6 ? nil : "expected a distance in millimetres, at least 0"
            }
        }
    }

    /// The keys every kind takes (each kind's own are in SceneKinds.swift).
    static let commonKeys: Set<String> = ["id", "kind", "view", "cancelsTouchesInView", "delaysTouchesBegan",
                                          "delaysTouchesEnded", "enabled", "requireToFail", "allowedTouchTypes"]

    /// Parses and validates a scene document.
    package static func parse(_ json: JSONValue) throws -> Scene {
        guard case let .object(top) = json else {
            throw SceneError(path: "", message: "expected a JSON object at the top of the scene, found \(json.typeDescription)")
        }
        let known: Set<String> = ["screen", "input", "views", "recognizers", "interactions", "simultaneous", "layout", "comment", "description"]
        for (key, _) in top where !known.contains(key) {
            throw SceneError(path: key, message: "unknown key (expected one of \(known.sorted().joined(separator: ", ")))")
        }
        var scene = Scene()
        if let screen = json["screen"] {
            let s = try numbers(screen, count: 2, path: "screen", what: "[width, height]")
            guard s[0] > 0, s[1] > 0 else { throw SceneError(path: "screen", message: "expected a positive width and height") }
            scene.screen = Size(width: s[0], height: s[1])
        }
        if let input = json["input"] {
            scene.input = try parseInput(input)
        }
        if let views = json["views"] {
            guard case let .array(items) = views else {
                throw SceneError(path: "views", message: "expected an array, found \(views.typeDescription)")
            }
            for (i, item) in items.enumerated() {
                scene.views.append(try parseView(item, path: "views[\(i)]"))
            }
        } else {
            scene.views = [ViewSpec(id: "root", frame: Rect(origin: .zero, size: scene.screen), parent: nil)]
        }
        try validateViews(scene.views)
        if let recognizers = json["recognizers"] {
            guard case let .array(items) = recognizers else {
                throw SceneError(path: "recognizers", message: "expected an array, found \(recognizers.typeDescription)")
            }
            var ids: Set<String> = []
            for (i, item) in items.enumerated() {
                let r = try parseRecognizer(item, path: "recognizers[\(i)]")
                let path = "recognizers[\(i)] (\"\(r.id)\")"
                guard ids.insert(r.id).inserted else {
                    throw SceneError(path: "\(path).id", message: "another recognizer already has the id \"\(r.id)\"")
                }
                guard scene.views.contains(where: { $0.id == r.view }) else {
                    throw SceneError(path: "\(path).view", message: "unknown view \"\(r.view)\"")
                }
                scene.recognizers.append(r)
            }
        }
        let recognizerIDs = Set(scene.recognizers.map(\.id))
        for (i, r) in scene.recognizers.enumerated() {
            for (j, other) in r.requireToFail.enumerated() where !recognizerIDs.contains(other) {
                throw SceneError(path: "recognizers[\(i)] (\"\(r.id)\").requireToFail[\(j)]", message: "unknown recognizer \"\(other)\"")
            }
        }
        if let cycle = requireToFailCycle(scene.recognizers) {
            throw SceneError(path: "requireToFail", message: "cycle: \(cycle.joined(separator: " → "))")
        }
        if let simultaneous = json["simultaneous"] {
            guard case let .array(pairs) = simultaneous else {
                throw SceneError(path: "simultaneous", message: "expected an array of pairs, found \(simultaneous.typeDescription)")
            }
            for (i, pair) in pairs.enumerated() {
                let path = "simultaneous[\(i)]"
                guard case let .array(ids) = pair, ids.count == 2 else {
                    throw SceneError(path: path, message: "expected a pair of recognizer ids [\"a\", \"b\"]")
                }
                var names: [String] = []
                for (j, id) in ids.enumerated() {
                    guard case let .string(name) = id else {
                        throw SceneError(path: "\(path)[\(j)]", message: "expected a recognizer id, found \(id.typeDescription)")
                    }
                    guard recognizerIDs.contains(name) else {
                        throw SceneError(path: "\(path)[\(j)]", message: "unknown recognizer \"\(name)\"")
                    }
                    names.append(name)
                }
                scene.simultaneous.append(names)
            }
        }
        if let layout = json["layout"] {
            scene.layout = try parseLayout(layout, recognizers: scene.recognizers)
        }
        if let interactions = json["interactions"] {
            scene.interactions = try parseInteractions(interactions, views: scene.views)
        }
        return scene
    }

    static func numbers(_ v: JSONValue, count: Int, path: String, what: String) throws -> [Double] {
        guard case let .array(items) = v, items.count == count else {
            throw SceneError(path: path, message: "expected \(what), found \(v.typeDescription)\(arrayCount(v))")
        }
        return try items.enumerated().map { i, item in
            guard case let .number(n) = item else {
                throw SceneError(path: "\(path)[\(i)]", message: "expected a number, found \(item.typeDescription)")
            }
            return n
        }
    }

    private static func arrayCount(_ v: JSONValue) -> String {
        if case let .array(a) = v { return " of \(a.count)" }
        return ""
    }

    static func string(_ v: JSONValue?, path: String) throws -> String {
        guard let v else { throw SceneError(path: path, message: "missing (expected a string)") }
        guard case let .string(s) = v, !s.isEmpty else {
            throw SceneError(path: path, message: "expected a non-empty string, found \(v.typeDescription)")
        }
        return s
    }

    static func bool(_ v: JSONValue, path: String) throws -> Bool {
        guard case let .bool(b) = v else { throw SceneError(path: path, message: "expected true or false, found \(v.typeDescription)") }
        return b
    }

    static func parseView(_ v: JSONValue, path: String) throws -> ViewSpec {
        guard case let .object(members) = v else {
            throw SceneError(path: path, message: "expected an object, found \(v.typeDescription)")
        }
        for (key, _) in members where !["id", "frame", "parent"].contains(key) {
            throw SceneError(path: "\(path).\(key)", message: "unknown key (expected id, frame, parent)")
        }
        let id = try string(v["id"], path: "\(path).id")
        guard let frameValue = v["frame"] else { throw SceneError(path: "\(path).frame", message: "missing (expected [x, y, width, height])") }
        let f = try numbers(frameValue, count: 4, path: "\(path).frame", what: "[x, y, width, height]")
        guard f[2] >= 0, f[3] >= 0 else { throw SceneError(path: "\(path).frame", message: "expected a width and height of at least 0") }
        let parent = try v["parent"].map { try string($0, path: "\(path).parent") }
        return ViewSpec(id: id, frame: Rect(x: f[0], y: f[1], width: f[2], height: f[3]), parent: parent)
    }

    static func validateViews(_ views: [ViewSpec]) throws {
        for (i, view) in views.enumerated() {
            if views[..<i].contains(where: { $0.id == view.id }) {
                throw SceneError(path: "views[\(i)].id", message: "another view already has the id \"\(view.id)\"")
            }
        }
        for (i, view) in views.enumerated() {
            guard let parent = view.parent else { continue }
            guard views.contains(where: { $0.id == parent }) else {
                throw SceneError(path: "views[\(i)] (\"\(view.id)\").parent", message: "unknown view \"\(parent)\"")
            }
            // Walk up: a view may not be its own ancestor.
            var seen: [String] = [view.id]
            var current = parent
            while true {
                if seen.contains(current) {
                    throw SceneError(path: "views[\(i)] (\"\(view.id)\").parent", message: "cycle: \((seen + [current]).joined(separator: " → "))")
                }
                seen.append(current)
                guard let next = views.first(where: { $0.id == current })?.parent else { break }
                current = next
            }
        }
        if !views.contains(where: { $0.parent == nil }) && !views.isEmpty {
            throw SceneError(path: "views", message: "no root view (a view without \"parent\")")
        }
    }

    /// An array of names, each one of `names`' keys, as the set they stand for.
    static func parseNames<S: OptionSet>(_ value: JSONValue, path: String, names: [String: S]) throws -> S where S.Element == S {
        guard case let .array(items) = value else {
            throw SceneError(path: path, message: "expected an array of names (\(names.keys.sorted().joined(separator: ", "))), found \(value.typeDescription)")
        }
        var set = S()
        for (i, item) in items.enumerated() {
            let name = try string(item, path: "\(path)[\(i)]")
            guard let member = names[name] else {
                throw SceneError(path: "\(path)[\(i)]", message: "unknown name \"\(name)\" (expected one of \(names.keys.sorted().joined(separator: ", ")))")
            }
            set.formUnion(member)
        }
        return set
    }

    static func parseRecognizer(_ v: JSONValue, path: String) throws -> RecognizerSpec {
        guard case let .object(members) = v else {
            throw SceneError(path: path, message: "expected an object, found \(v.typeDescription)")
        }
        let id = try string(v["id"], path: "\(path).id")
        let named = "\(path) (\"\(id)\")"
        let kindName = try string(v["kind"], path: "\(named).kind")
        guard let kind = Kind(rawValue: kindName) else {
            throw SceneError(path: "\(named).kind", message: "unknown kind \"\(kindName)\" (expected one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let view = try string(v["view"], path: "\(named).view")
        var spec = RecognizerSpec(id: id, kind: kind, view: view)
        let format = kind.format
        spec.allowedTouchTypes = format.touchTypes
        for (key, value) in members {
            let keyPath = "\(named).\(key)"
            switch key {
            case "id", "kind", "view": continue
            case "cancelsTouchesInView": spec.cancelsTouchesInView = try bool(value, path: keyPath)
            case "delaysTouchesBegan": spec.delaysTouchesBegan = try bool(value, path: keyPath)
            case "delaysTouchesEnded": spec.delaysTouchesEnded = try bool(value, path: keyPath)
            case "enabled": spec.enabled = try bool(value, path: keyPath)
            case "requireToFail":
                guard case let .array(ids) = value else {
                    throw SceneError(path: keyPath, message: "expected an array of recognizer ids, found \(value.typeDescription)")
                }
                spec.requireToFail = try ids.enumerated().map { try string($1, path: "\(keyPath)[\($0)]") }
            case "allowedTouchTypes":
                spec.allowedTouchTypes = try parseNames(value, path: keyPath, names: [
                    "direct": TouchTypes.direct, "indirect": .indirect, "indirectPointer": .indirectPointer,
                    "pencil": .pencil])
            default:
                if let read = format.keys[key] {
                    try read(&spec, value, keyPath)
                    continue
                }
                guard let rule = format.parameters[key] else {
                    let allowed = (Array(commonKeys) + format.keys.keys + format.parameters.keys).sorted()
                    throw SceneError(path: keyPath, message: "unknown key for a \(kind.rawValue) (expected one of \(allowed.joined(separator: ", ")))")
                }
                guard case let .number(n) = value else {
                    throw SceneError(path: keyPath, message: "expected a number, found \(value.typeDescription)")
                }
                if let problem = rule.check(n) { throw SceneError(path: keyPath, message: "\(problem), found \(jsonNumber(n))") }
                spec.parameters[key] = n
            }
        }
        try format.check(spec, named)
        return spec
    }

    /// `{"rotate": 0|90|180|270, "calibration": [a, b, c, d, e, f], "region": [x, y, width, height],
    /// "touchpadTapping": true|false}`.
    static func parseInput(_ v: JSONValue) throws -> TouchMapping {
        guard case let .object(members) = v else {
            throw SceneError(path: "input", message: "expected an object with rotate, calibration, region, touchpadTapping, found \(v.typeDescription)")
        }
        var mapping = TouchMapping()
        for (key, value) in members {
            let path = "input.\(key)"
            switch key {
            case "rotate":
                guard case let .number(n) = value, [0.0, 90, 180, 270].contains(n) else {
                    throw SceneError(path: path, message: "expected 0, 90, 180 or 270 (degrees clockwise)")
                }
                mapping.rotation = Int(n)
            case "calibration":
                mapping.calibration = try numbers(value, count: 6, path: path,
                                                  what: "[a, b, c, d, e, f] (libinput's calibration matrix, normalized coordinates)")
            case "region":
                let r = try numbers(value, count: 4, path: path, what: "[x, y, width, height] in points")
                guard r[2] > 0, r[3] > 0 else { throw SceneError(path: path, message: "expected a positive width and height") }
                mapping.region = Rect(x: r[0], y: r[1], width: r[2], height: r[3])
            case "touchpadTapping":
                guard case let .bool(on) = value else {
                    throw SceneError(path: path, message: "expected true or false (touchpads' tap-to-click; leave it out for libinput's default)")
                }
                mapping.touchpadTapping = on
            default:
                throw SceneError(path: path, message: "unknown key (expected rotate, calibration, region, touchpadTapping)")
            }
        }
        return mapping
    }

    static let edgeNames: [String: ScreenEdges] = ["top": .top, "left": .left, "bottom": .bottom, "right": .right, "all": .all]

    static func parseDirection(_ v: JSONValue, path: String) throws -> SwipeDirection {
        func one(_ item: JSONValue, _ p: String) throws -> SwipeDirection {
            guard case let .string(s) = item else { throw SceneError(path: p, message: "expected a direction, found \(item.typeDescription)") }
            switch s {
            case "right": return .right
            case "left": return .left
            case "up": return .up
            case "down": return .down
            default: throw SceneError(path: p, message: "unknown direction \"\(s)\" (expected right, left, up or down)")
            }
        }
        if case let .array(items) = v {
            guard !items.isEmpty else { throw SceneError(path: path, message: "expected at least one direction") }
            var d: SwipeDirection = []
            for (i, item) in items.enumerated() { d.formUnion(try one(item, "\(path)[\(i)]")) }
            return d
        }
        return try one(v, path)
    }

    /// A cycle in the scene's requireToFail graph, as ids going round it.
    static func requireToFailCycle(_ recognizers: [RecognizerSpec]) -> [String]? {
        // Iterative depth-first search (a chain of 10,000 requirements must not overflow the
        // stack): `path` is the chain being walked, each with the index of its next edge.
        var requirements: [String: [String]] = [:]
        for r in recognizers where requirements[r.id] == nil { requirements[r.id] = r.requireToFail }
        var done: Set<String> = []
        var onPath: [String: Int] = [:] // id → position in path
        for r in recognizers where !done.contains(r.id) {
            var path: [(id: String, next: Int)] = [(r.id, 0)]
            onPath[r.id] = 0
            while let top = path.last {
                let edges = requirements[top.id] ?? []
                if top.next < edges.count {
                    path[path.count - 1].next += 1
                    let next = edges[top.next]
                    if let start = onPath[next] { return path[start...].map(\.id) + [next] }
                    if !done.contains(next) {
                        onPath[next] = path.count
                        path.append((next, 0))
                    }
                } else {
                    path.removeLast()
                    onPath[top.id] = nil
                    done.insert(top.id)
                }
            }
        }
        return nil
    }

    static func parseLayout(_ v: JSONValue, recognizers: [RecognizerSpec]) throws -> LayoutSpec {
        guard case let .object(members) = v else {
            throw SceneError(path: "layout", message: "expected an object, found \(v.typeDescription)")
        }
        let kind = try string(v["kind"], path: "layout.kind")
        guard kind == "flow" else { throw SceneError(path: "layout.kind", message: "unknown layout kind \"\(kind)\" (expected flow)") }
        guard let sectionsValue = v["sections"], case let .array(sectionItems) = sectionsValue else {
            throw SceneError(path: "layout.sections", message: "expected an array of item counts")
        }
        let sections = try sectionItems.enumerated().map { i, item -> Int in
            guard case let .number(n) = item, n >= 0, n == n.rounded(), n <= 10_000_000 else {
                throw SceneError(path: "layout.sections[\(i)]", message: "expected a whole number of items from 0 to 10000000")
            }
            return Int(n)
        }
        guard let itemSizeValue = v["itemSize"] else { throw SceneError(path: "layout.itemSize", message: "missing (expected [width, height])") }
        let item = try numbers(itemSizeValue, count: 2, path: "layout.itemSize", what: "[width, height]")
        guard item[0] > 0, item[1] > 0 else { throw SceneError(path: "layout.itemSize", message: "expected a positive width and height") }
        var spec = LayoutSpec(sections: sections, itemSize: Size(width: item[0], height: item[1]))
        for (key, value) in members {
            let path = "layout.\(key)"
            switch key {
            case "kind", "sections", "itemSize": continue
            case "minimumLineSpacing", "minimumInteritemSpacing":
                guard case let .number(n) = value, n >= 0 else { throw SceneError(path: path, message: "expected a number of points, at least 0") }
                if key == "minimumLineSpacing" { spec.minimumLineSpacing = n } else { spec.minimumInteritemSpacing = n }
            case "sectionInset":
                let i = try numbers(value, count: 4, path: path, what: "[top, left, bottom, right]")
                spec.sectionInset = EdgeInsets(top: i[0], left: i[1], bottom: i[2], right: i[3])
            case "headerReferenceSize", "footerReferenceSize":
                let s = try numbers(value, count: 2, path: path, what: "[width, height]")
                if key == "headerReferenceSize" { spec.headerReferenceSize = Size(width: s[0], height: s[1]) } else { spec.footerReferenceSize = Size(width: s[0], height: s[1]) }
            case "bounces", "pagingEnabled", "delaysContentTouches", "alwaysBounceVertical":
                let b = try bool(value, path: path)
                switch key {
                case "bounces": spec.bounces = b
                case "pagingEnabled": spec.pagingEnabled = b
                case "delaysContentTouches": spec.delaysContentTouches = b
                default: spec.alwaysBounceVertical = b
                }
            case "contentOffset":
                let o = try numbers(value, count: 2, path: path, what: "[x, y]")
                spec.contentOffset = Point(x: o[0], y: o[1])
            case "minimumZoomScale":
                guard case let .number(n) = value, n > 0, n <= 1 else {
                    throw SceneError(path: path, message: "expected a scale above 0 and at most 1 (the layout starts unscaled), found \(describe(value))")
                }
                spec.minimumZoomScale = n
            case "maximumZoomScale":
                guard case let .number(n) = value, n >= 1, n <= Self.largestZoomScale else {
                    throw SceneError(path: path, message: "expected a scale from 1 (the layout starts unscaled) to \(jsonNumber(Self.largestZoomScale)), found \(describe(value))")
                }
                spec.maximumZoomScale = n
            case "decelerationRate":
                guard case let .number(n) = value, n > 0.5, n < 1 else {
                    throw SceneError(path: path, message: "expected a number between 0.5 and 1 (velocity kept per millisecond)")
                }
                spec.decelerationRate = n
            case "frameRate":
                guard case let .number(n) = value, n >= 1, n <= 1000, n == n.rounded() else {
                    throw SceneError(path: path, message: "expected a whole number of frames a second from 1 to 1000")
                }
                spec.frameRate = Int(n)
            case "pinch", "select", "reorder", "scroll":
                let id = try string(value, path: path)
                guard let r = recognizers.first(where: { $0.id == id }) else {
                    throw SceneError(path: path, message: "unknown recognizer \"\(id)\"")
                }
                let wanted: Kind = key == "pinch" ? .pinch : key == "select" ? .tap : key == "scroll" ? .pan : .longPress
                guard r.kind == wanted else {
                    throw SceneError(path: path, message: "\"\(id)\" is a \(r.kind.rawValue), expected a \(wanted.rawValue)")
                }
                switch key {
                case "pinch": spec.pinch = id
                case "select": spec.select = id
                case "scroll": spec.scroll = id
                default: spec.reorder = id
                }
            default:
                throw SceneError(path: path, message: "unknown key for a flow layout")
            }
        }
        // Zooming moves the content through the scrolling pan (a wheel with control) and
        // the scroll view's offset: a layout that does not scroll does not zoom.
        if spec.zooms && spec.scroll == nil {
            let key = spec.maximumZoomScale > 1 ? "maximumZoomScale" : "minimumZoomScale"
            throw SceneError(path: "layout.\(key)", message: "zooming needs a scrolling layout (\"scroll\": a pan's id)")
        }
        return spec
    }

    /// The largest `maximumZoomScale` a scene may ask for (unitless).
    static let largestZoomScale = 1000.0

    /// A number as a scene error quotes it.
    private static func describe(_ v: JSONValue) -> String {
        if case let .number(n) = v { return jsonNumber(n) }
        return v.typeDescription
    }
}
