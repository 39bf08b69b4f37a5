import GestureKit

/// A photo that drags out as a file (and as its name), and an album that takes files: the
/// album copies what is dropped on it and forbids a second copy of a photo it holds.
final class PhotoDragSample: DragInteractionDelegate, DropInteractionDelegate {
    let photo = View(id: "photo", frame: Rect(x: 40, y: 40, width: 200, height: 150))
    let album = View(id: "album", frame: Rect(x: 500, y: 40, width: 300, height: 400))
    private(set) var albumFiles: [String] = []
    private(set) var preview: Point?

    init(in root: View) {
        root.addSubview(photo)
        root.addSubview(album)
        photo.addInteraction(DragInteraction(delegate: self))   // held by the view,
        album.addInteraction(DropInteraction(delegate: self))   // the delegate weakly
    }

    // The photo: what it drags, and where to draw its preview.
    func dragInteraction(_ interaction: DragInteraction, itemsForBeginning session: DragSession) -> [DragItem] {
        [DragItem(itemProvider: ItemProvider(uris: ["file:///home/ana/Pictures/harbour.jpg"]))]
    }

    func dragInteraction(_ interaction: DragInteraction, sessionDidMove session: DragSession) {
        preview = session.location(in: nil)   // draw the lifted photo here
    }

    func dragInteraction(_ interaction: DragInteraction, session: DragSession, didEndWith operation: DropOperation) {
        preview = nil                         // .copy: it is in the album; .cancel: it flies back
    }

    // The album: files only; a copy, unless it holds the file already.
    func dropInteraction(_ interaction: DropInteraction, canHandle session: DropSession) -> Bool {
        session.hasItemsConforming(to: [.uriList])
    }

    func dropInteraction(_ interaction: DropInteraction, sessionDidUpdate session: DropSession) -> DropProposal {
        DropProposal(operation: albumFiles.isEmpty ? .copy : .forbidden)
    }

    func dropInteraction(_ interaction: DropInteraction, performDrop session: DropSession) {
        for item in session.items {
            item.itemProvider.loadData(for: .uriList) { [weak self] result in
                guard case let .success(bytes) = result else { return }
                let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n")
                self?.albumFiles += lines.filter { !$0.hasPrefix("#") }.map(String.init)
            }
        }
    }
}
