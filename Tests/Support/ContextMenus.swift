import GestureKit

/// A context menu delegate for tests: the same menu everywhere (Copy; Share, disabled; a
/// submenu "More" with Rename; an inline section with Delete, destructive), or none; it notes
/// where it was asked, each display and end, and each action that ran.
package final class TestMenuDelegate: ContextMenuInteractionDelegate {
    /// Whether it gives a menu at all (nil: `configurationForMenuAtLocation` says no).
    package var givesMenu: Bool
    package private(set) var askedAt: [Point] = []
    package private(set) var displayed = 0
    package private(set) var ended = 0
    /// The identifiers of the actions whose handlers ran, in order.
    package private(set) var ran: [String] = []

    package init(givesMenu: Bool = true) {
        self.givesMenu = givesMenu
    }

    /// The menu: copy, share (disabled), more › rename, and a section with delete.
    package var menu: Menu {
        let note: (MenuAction) -> Void = { [weak self] action in self?.ran.append(action.identifier) }
        return Menu(title: "Photo", children: [
            .action(MenuAction(title: "Copy", imageName: "edit-copy-symbolic", identifier: "copy", handler: note)),
            .action(MenuAction(title: "Share", identifier: "share", attributes: .disabled, handler: note)),
            .menu(Menu(title: "More", children: [
                .action(MenuAction(title: "Rename", identifier: "rename", state: .on, handler: note)),
            ])),
            .menu(Menu(title: "", options: .displayInline, children: [
                .action(MenuAction(title: "Delete", imageName: "edit-delete-symbolic", identifier: "delete",
                                   attributes: .destructive, handler: note)),
            ])),
        ])
    }

    package func contextMenuInteraction(_ interaction: ContextMenuInteraction,
                                        configurationForMenuAtLocation location: Point) -> ContextMenuConfiguration? {
        askedAt.append(location)
        return givesMenu ? ContextMenuConfiguration(identifier: "photo", menu: menu) : nil
    }

    package func contextMenuInteraction(_ interaction: ContextMenuInteraction, willDisplayMenuFor configuration: ContextMenuConfiguration) {
        displayed += 1
    }

    package func contextMenuInteraction(_ interaction: ContextMenuInteraction, willEndFor configuration: ContextMenuConfiguration) {
        ended += 1
    }
}
