import GestureFormat
import GestureKit

/// The scene's `interactions` (an addition to REPLAY.md): drag and drop interactions attached
/// to views the way recognizers are, by `id`, `kind` and `view`.
extension Scene {
    public struct InteractionSpec: Hashable, Sendable {
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            case drag, drop
        }

        /// One representation of a dragged item: its MIME type and its data as text.
        public struct Representation: Hashable, Sendable {
            public var type: String
            public var text: String
        }

        public var id: String
        public var kind: Kind
        public var view: String
        public var enabled = true
        /// drag: the items lifted, each a list of representations. Default one item, the
        /// view's id as `text/plain;charset=utf-8`.
        public var items: [[Representation]] = []
        /// drag: the items a tap on the view adds to another drag (`addItems`). Default none.
        public var addItems: [[Representation]] = []
        /// drag: `allowsMove` (default true).
        public var allowsMove = true
        /// drag: `liftDelay` in seconds (default 0.5).
        public var liftDelay = 0.5
        /// drop: the MIME types it handles (`accepts`; default every type).
        public var accepts: [String] = []
        /// drop: its proposal (`proposal`: `copy`, `move`, `cancel` or `forbidden`; default `copy`).
        public var proposal = DropOperation.copy
    }

    static func parseInteractions(_ v: JSONValue, views: [ViewSpec]) throws -> [InteractionSpec] {
        guard case let .array(items) = v else {
            throw SceneError(path: "interactions", message: "expected an array, found \(v.typeDescription)")
        }
        var specs: [InteractionSpec] = []
        for (i, item) in items.enumerated() {
            let spec = try parseInteraction(item, path: "interactions[\(i)]")
            let named = "interactions[\(i)] (\"\(spec.id)\")"
            guard !specs.contains(where: { $0.id == spec.id }) else {
                throw SceneError(path: "\(named).id", message: "another interaction already has the id \"\(spec.id)\"")
            }
            guard views.contains(where: { $0.id == spec.view }) else {
                throw SceneError(path: "\(named).view", message: "unknown view \"\(spec.view)\"")
            }
            specs.append(spec)
        }
        return specs
    }

    static func parseInteraction(_ v: JSONValue, path: String) throws -> InteractionSpec {
        guard case let .object(members) = v else {
            throw SceneError(path: path, message: "expected an object, found \(v.typeDescription)")
        }
        let id = try string(v["id"], path: "\(path).id")
        let named = "\(path) (\"\(id)\")"
        let kindName = try string(v["kind"], path: "\(named).kind")
        guard let kind = InteractionSpec.Kind(rawValue: kindName) else {
            throw SceneError(path: "\(named).kind", message: "unknown kind \"\(kindName)\" (expected drag or drop)")
        }
        var spec = InteractionSpec(id: id, kind: kind, view: try string(v["view"], path: "\(named).view"))
        let keys: Set<String> = kind == .drag
            ? ["id", "kind", "view", "enabled", "items", "addItems", "allowsMove", "liftDelay"]
            : ["id", "kind", "view", "enabled", "accepts", "proposal"]
        for (key, value) in members {
            let keyPath = "\(named).\(key)"
            guard keys.contains(key) else {
                throw SceneError(path: keyPath, message: "unknown key for a \(kind.rawValue) interaction (expected one of \(keys.sorted().joined(separator: ", ")))")
            }
            switch key {
            case "enabled": spec.enabled = try bool(value, path: keyPath)
            case "allowsMove": spec.allowsMove = try bool(value, path: keyPath)
            case "items": spec.items = try parseItems(value, path: keyPath)
            case "addItems": spec.addItems = try parseItems(value, path: keyPath)
            case "liftDelay":
                guard case let .number(n) = value, n >= 0, n <= 1e6 else {
                    throw SceneError(path: keyPath, message: "expected a duration in seconds, at least 0")
                }
                spec.liftDelay = n
            case "accepts":
                guard case let .array(types) = value else {
                    throw SceneError(path: keyPath, message: "expected an array of MIME types, found \(value.typeDescription)")
                }
                spec.accepts = try types.enumerated().map { try mimeType($1, path: "\(keyPath)[\($0)]") }
            case "proposal":
                let name = try string(value, path: keyPath)
                guard let operation = DropOperation(rawValue: name) else {
                    throw SceneError(path: keyPath, message: "unknown proposal \"\(name)\" (expected one of \(DropOperation.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                spec.proposal = operation
            default: break
            }
        }
        return spec
    }

    /// `[{"text/uri-list": "file:///a.jpg", "text/plain": "a.jpg"}, …]`: one object an item,
    /// its representations in order.
    private static func parseItems(_ v: JSONValue, path: String) throws -> [[InteractionSpec.Representation]] {
        guard case let .array(items) = v else {
            throw SceneError(path: path, message: "expected an array of items ({\"MIME type\": \"data\"}), found \(v.typeDescription)")
        }
        return try items.enumerated().map { i, item in
            guard case let .object(members) = item, !members.isEmpty else {
                throw SceneError(path: "\(path)[\(i)]", message: "expected an object of MIME types and their data, found \(item.typeDescription)")
            }
            return try members.map { key, value in
                let type = try mimeType(.string(key), path: "\(path)[\(i)]")
                guard case let .string(text) = value else {
                    throw SceneError(path: "\(path)[\(i)].\(key)", message: "expected the data as a string, found \(value.typeDescription)")
                }
                return InteractionSpec.Representation(type: type, text: text)
            }
        }
    }

    private static func mimeType(_ v: JSONValue, path: String) throws -> String {
        let s = try string(v, path: path)
        let base = s.split(separator: ";").first.map(String.init) ?? ""
        let parts = base.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !s.contains(where: { $0 == " " || $0.isNewline }) else {
            throw SceneError(path: path, message: "expected a MIME type (type/subtype), found \"\(s)\"")
        }
        return s
    }
}

/// A scene's drag source: the items of its spec.
final class SceneDragSource: DragInteractionDelegate {
    let spec: Scene.InteractionSpec

    init(_ spec: Scene.InteractionSpec) { self.spec = spec }

    private static func items(_ items: [[Scene.InteractionSpec.Representation]]) -> [DragItem] {
        items.map { reps in
            let provider = ItemProvider()
            for r in reps { provider.registerData(Array(r.text.utf8), for: ContentType(r.type)) }
            return DragItem(itemProvider: provider)
        }
    }

    func dragInteraction(_ interaction: DragInteraction, itemsForBeginning session: DragSession) -> [DragItem] {
        spec.items.isEmpty ? [DragItem(itemProvider: ItemProvider(text: spec.view))] : Self.items(spec.items)
    }
    func dragInteraction(_ interaction: DragInteraction, itemsForAddingTo session: DragSession, withTouchAt point: Point) -> [DragItem] {
        Self.items(spec.addItems)
    }
    func dragInteraction(_ interaction: DragInteraction, sessionAllowsMoveOperation session: DragSession) -> Bool {
        spec.allowsMove
    }
}

/// A scene's drop target: handles sessions with items of its `accepts` (any, when empty) and
/// proposes its `proposal`; at a drop it reads each item's data, of the first type it accepts
/// (the item's first, when it accepts any), and reports it (REPLAY.md's `dropData` line).
final class SceneDropTarget: DropInteractionDelegate {
    let spec: Scene.InteractionSpec
    private let report: (ReplayRecord) -> Void
    private let now: () -> Instant

    init(_ spec: Scene.InteractionSpec, now: @escaping () -> Instant, report: @escaping (ReplayRecord) -> Void) {
        self.spec = spec
        self.now = now
        self.report = report
    }

    func dropInteraction(_ interaction: DropInteraction, performDrop session: DropSession) {
        let accepts = spec.accepts.map(ContentType.init(rawValue:))
        for (index, item) in session.items.enumerated() {
            let provider = item.itemProvider
            guard let type = accepts.isEmpty ? provider.registeredContentTypes.first
                    : accepts.first(where: { provider.hasRepresentation(conformingTo: $0) }) else { continue }
            provider.loadData(for: type) { [self] result in
                var line = ReplayRecord.DropData(time: now(), session: session.id, view: spec.view, item: index,
                                                 contentType: type.rawValue, data: nil, error: nil)
                switch result {
                case let .success(bytes): line.data = String(decoding: bytes, as: UTF8.self)
                case let .failure(error): line.error = error.description
                }
                report(.dropData(line))
            }
        }
    }

    func dropInteraction(_ interaction: DropInteraction, canHandle session: DropSession) -> Bool {
        spec.accepts.isEmpty || session.hasItemsConforming(to: spec.accepts.map(ContentType.init(rawValue:)))
    }
    func dropInteraction(_ interaction: DropInteraction, sessionDidUpdate session: DropSession) -> DropProposal {
        DropProposal(operation: spec.proposal)
    }
}
