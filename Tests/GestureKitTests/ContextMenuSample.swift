import GestureKit

/// A photo that offers Copy, Favourite and Delete when it is held,
/// right-clicked or given the menu key: UIKit's context menu,
/// as its delegate describes it.
final class PhotoMenu: ContextMenuInteractionDelegate {
    var isFavourite = false
    var deleted = false

    init(on photo: View) {
        photo.addInteraction(ContextMenuInteraction(delegate: self))
    }

    func contextMenuInteraction(_ interaction: ContextMenuInteraction,
                                configurationForMenuAtLocation location: Point) -> ContextMenuConfiguration? {
        ContextMenuConfiguration(identifier: "photo") { [unowned self] _ in
            Menu(title: "Photo", children: [
                .action(MenuAction(title: "Copy", imageName: "edit-copy-symbolic") { _ in }),
                .action(MenuAction(title: "Favourite", state: isFavourite ? .on : .off) { [unowned self] _ in
                    isFavourite.toggle()
                }),
                .menu(Menu(options: .displayInline, children: [
                    .action(MenuAction(title: "Delete", attributes: .destructive) { [unowned self] _ in
                        deleted = true
                    }),
                ])),
            ])
        }
    }
}
