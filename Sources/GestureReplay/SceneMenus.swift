import GestureFormat
import GestureKit

/// A scene's context menus (REPLAY.md's `contextMenu` kind, an addition): the `menu` key read,
/// and the interaction made from it.
extension Scene {
    static let menuAttributeNames: [String: MenuAction.Attributes] = ["disabled": .disabled, "destructive": .destructive, "hidden": .hidden]
    static let menuItemKeys = ["title", "id", "image", "attributes", "state", "children", "inline"]

    /// `[{"title": "Copy", "id": "copy", "image": "edit-copy", "attributes": ["disabled"], "state": "on"},
    /// {"title": "Share", "children": [...], "inline": false}]`: at least one entry, at most 16
    /// levels deep; an action needs a title, a submenu or section may leave it out.
    static func parseMenu(_ value: JSONValue, path: String, depth: Int = 0) throws -> [MenuItemSpec] {
        guard case let .array(items) = value, !items.isEmpty else {
            throw SceneError(path: path, message: "expected a non-empty array of menu entries, found \(value.typeDescription)")
        }
        guard depth < 16 else { throw SceneError(path: path, message: "menus nested more than 16 deep") }
        return try items.enumerated().map { i, item in
            let itemPath = "\(path)[\(i)]"
            guard case let .object(members) = item else {
                throw SceneError(path: itemPath, message: "expected an object (title, id, image, attributes, state, children, inline), found \(item.typeDescription)")
            }
            // A submenu or a section may go without a title (an inline section often does).
            let hasChildren = item["children"] != nil
            let title = hasChildren && (item["title"] == nil || item["title"] == .string(""))
                ? "" : try string(item["title"], path: "\(itemPath).title")
            var spec = MenuItemSpec(title: title)
            for (key, v) in members {
                let keyPath = "\(itemPath).\(key)"
                switch key {
                case "title": continue
                case "id": spec.id = try string(v, path: keyPath)
                case "image": spec.image = try string(v, path: keyPath)
                case "attributes":
                    guard case let .array(names) = v else {
                        throw SceneError(path: keyPath, message: "expected an array of names (disabled, destructive, hidden), found \(v.typeDescription)")
                    }
                    spec.attributes = try names.enumerated().map { j, n in
                        let name = try string(n, path: "\(keyPath)[\(j)]")
                        guard menuAttributeNames[name] != nil else {
                            throw SceneError(path: "\(keyPath)[\(j)]", message: "unknown name \"\(name)\" (expected one of destructive, disabled, hidden)")
                        }
                        return name
                    }
                case "state":
                    let state = try string(v, path: keyPath)
                    guard MenuAction.State(rawValue: state) != nil else {
                        throw SceneError(path: keyPath, message: "unknown state \"\(state)\" (expected off, on or mixed)")
                    }
                    spec.state = state
                case "children": spec.children = try parseMenu(v, path: keyPath, depth: depth + 1)
                case "inline": spec.inline = try bool(v, path: keyPath)
                default:
                    throw SceneError(path: keyPath, message: "unknown key for a menu entry (expected one of \(menuItemKeys.joined(separator: ", ")))")
                }
            }
            return spec
        }
    }

    /// The menu a scene's entries describe; its actions do nothing when chosen but are traced.
    static func menu(_ items: [MenuItemSpec], title: String = "") -> Menu {
        Menu(title: title, children: items.map { item in
            if let children = item.children {
                var sub = menu(children, title: item.title)
                sub.imageName = item.image
                if let id = item.id { sub.identifier = id }
                if item.inline { sub.options.insert(.displayInline) }
                return .menu(sub)
            }
            var attributes = MenuAction.Attributes()
            for name in item.attributes { attributes.formUnion(menuAttributeNames[name] ?? []) }
            return .action(MenuAction(title: item.title, imageName: item.image, identifier: item.id, attributes: attributes,
                                      state: item.state.flatMap(MenuAction.State.init(rawValue:)) ?? .off))
        })
    }
}

/// The delegate of a scene's context menu: the same menu at every location.
final class SceneMenuDelegate: ContextMenuInteractionDelegate {
    let menu: Menu
    let interaction: ContextMenuInteraction

    init(_ spec: Scene.RecognizerSpec) {
        menu = Scene.menu(spec.menu)
        interaction = ContextMenuInteraction(delegate: nil, name: spec.id)
        interaction.delegate = self
        let p = spec.parameters
        if let v = p["minimumPressDuration"] { interaction.gestureRecognizer.minimumPressDuration = Duration(seconds: v) }
        if let v = p["liftDelay"] { interaction.gestureRecognizer.liftDelay = Duration(seconds: v) }
        if let v = p["allowableMovement"] { interaction.gestureRecognizer.allowableMovement = v }
    }

    func contextMenuInteraction(_ interaction: ContextMenuInteraction,
                                configurationForMenuAtLocation location: Point) -> ContextMenuConfiguration? {
        ContextMenuConfiguration(identifier: interaction.name, menu: menu)
    }
}
