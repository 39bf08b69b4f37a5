import GestureKit

/// A drag source for tests: the items it gives (by default one `text/uri-list` item naming
/// its view), and every delegate call it hears, in order: "willBegin a", "move 120 80",
/// "willEnd copy", "didEnd copy".
package final class RecordingDragSource: DragInteractionDelegate {
    package var items: (DragSession) -> [DragItem]
    package var itemsToAdd: [DragItem] = []
    package var allowsMove = true
    package private(set) var calls: [String] = []
    /// The session's locations at each `sessionDidMove` (where its preview is drawn).
    package private(set) var previewLocations: [Point] = []
    /// What each session ended with.
    package private(set) var outcomes: [DropOperation] = []

    package init(uris: [String] = ["file:///photos/one.jpg"]) {
        items = { _ in [DragItem(itemProvider: ItemProvider(uris: uris))] }
    }

    package func dragInteraction(_ interaction: DragInteraction, itemsForBeginning session: DragSession) -> [DragItem] {
        items(session)
    }
    package func dragInteraction(_ interaction: DragInteraction, itemsForAddingTo session: DragSession,
                                 withTouchAt point: Point) -> [DragItem] { itemsToAdd }
    package func dragInteraction(_ interaction: DragInteraction, sessionAllowsMoveOperation session: DragSession) -> Bool { allowsMove }
    package func dragInteraction(_ interaction: DragInteraction, sessionWillBegin session: DragSession) {
        calls.append("willBegin \(interaction.view?.debugName ?? "-")")
    }
    package func dragInteraction(_ interaction: DragInteraction, sessionDidMove session: DragSession) {
        previewLocations.append(session.location(in: nil))
    }
    package func dragInteraction(_ interaction: DragInteraction, session: DragSession, willAdd items: [DragItem]) {
        calls.append("willAdd \(items.count)")
    }
    package func dragInteraction(_ interaction: DragInteraction, session: DragSession, willEndWith operation: DropOperation) {
        calls.append("willEnd \(operation.rawValue)")
    }
    package func dragInteraction(_ interaction: DragInteraction, session: DragSession, didEndWith operation: DropOperation) {
        calls.append("didEnd \(operation.rawValue)")
        outcomes.append(operation)
    }
}

/// A drop target for tests: proposes `proposal` for sessions it can handle (those with items
/// of `accepts`), records every call, and loads the dropped items' data of `accepts`.
package final class RecordingDropTarget: DropInteractionDelegate {
    package var proposal: DropOperation
    package var accepts: ContentType
    package private(set) var calls: [String] = []
    /// The data of every item dropped, as text.
    package private(set) var dropped: [String] = []

    package init(proposal: DropOperation = .copy, accepts: ContentType = .uriList) {
        self.proposal = proposal
        self.accepts = accepts
    }

    package func dropInteraction(_ interaction: DropInteraction, canHandle session: DropSession) -> Bool {
        session.hasItemsConforming(to: [accepts])
    }
    package func dropInteraction(_ interaction: DropInteraction, sessionDidEnter session: DropSession) {
        calls.append("enter")
    }
    package func dropInteraction(_ interaction: DropInteraction, sessionDidUpdate session: DropSession) -> DropProposal {
        if calls.last != "update \(proposal.rawValue)" { calls.append("update \(proposal.rawValue)") }
        return DropProposal(operation: proposal)
    }
    package func dropInteraction(_ interaction: DropInteraction, sessionDidExit session: DropSession) {
        calls.append("exit")
    }
    package func dropInteraction(_ interaction: DropInteraction, performDrop session: DropSession) {
        calls.append("performDrop \(session.items.count)")
        for item in session.items {
            item.itemProvider.loadData(for: accepts) { [weak self] result in
                if case let .success(bytes) = result { self?.dropped.append(String(decoding: bytes, as: UTF8.self)) }
            }
        }
    }
    package func dropInteraction(_ interaction: DropInteraction, concludeDrop session: DropSession) {
        calls.append("conclude")
    }
    package func dropInteraction(_ interaction: DropInteraction, sessionDidEnd session: DropSession) {
        calls.append("end")
    }
}
