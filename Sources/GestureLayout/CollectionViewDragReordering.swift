import GestureKit

/// Reordering by drag and drop (UIKit's `UICollectionViewDragDelegate` and
/// `UICollectionViewDropDelegate` with a `.move` proposal and
/// `.insertAtDestinationIndexPath` intent): the same interactive movement as
/// `installInteractiveMovementGesture`, driven by a `DragInteraction` and a
/// `DropInteraction` on the collection view instead of a long press, so that the drag is a
/// drag session like any other (its items can be added to, other targets see it).
///
/// The two agree on every drag that stays inside the collection view: the lift (after
/// `GestureDefaults.dragLiftDelay`, the long press's 0.5 s) begins the movement of the item
/// under the touch, each move updates its target position, the lift of the touch commits the
/// move with the data source's `moveItemAt(_:to:)`. They differ where UIKit's do: a drag
/// dropped outside the collection view (over no target, or a target that does not take it)
/// ends with `.cancel` and puts the item back, where the long press commits the last place.
extension CollectionView {
    /// Installs the drag and drop interactions that reorder items, and returns them.
    @discardableResult
    public func installDragReordering() -> (drag: DragInteraction, drop: DropInteraction) {
        let reorder = DragReordering(collectionView: self)
        dragReordering = reorder
        let drag = DragInteraction(delegate: reorder)
        let drop = DropInteraction(delegate: reorder)
        reorder.drag = drag
        addInteraction(drag)
        addInteraction(drop)
        return (drag, drop)
    }
}

/// The collection view's drag and drop delegate for reordering.
private final class DragReordering: DragInteractionDelegate, DropInteractionDelegate {
    unowned let collectionView: CollectionView
    weak var drag: DragInteraction?
    /// The item the session lifted, asked for at the lift.
    private var lifted: LayoutIndexPath?
    private var moving = false

    init(collectionView: CollectionView) {
        self.collectionView = collectionView
    }

    func dragInteraction(_ interaction: DragInteraction, itemsForBeginning session: DragSession) -> [DragItem] {
        guard let item = collectionView.indexPathForItem(at: session.location(in: collectionView)),
              let dataSource = collectionView.dataSource,
              dataSource.collectionView(collectionView, canMoveItemAt: item) else { return [] }
        lifted = item
        return [DragItem(itemProvider: ItemProvider(text: "\(item.section) \(item.item)"), localObject: item)]
    }

    func dragInteraction(_ interaction: DragInteraction, sessionWillBegin session: DragSession) {
        guard let item = lifted else { return }
        moving = collectionView.beginInteractiveMovementForItem(at: item)
        if moving { collectionView.updateInteractiveMovementTargetPosition(session.location(in: collectionView)) }
    }

    func dragInteraction(_ interaction: DragInteraction, session: DragSession, didEndWith operation: DropOperation) {
        if moving && operation != .move { collectionView.cancelInteractiveMovement() }
        moving = false
        lifted = nil
    }

    func dropInteraction(_ interaction: DropInteraction, canHandle session: DropSession) -> Bool {
        session.sourceInteraction === drag && moving
    }

    func dropInteraction(_ interaction: DropInteraction, sessionDidUpdate session: DropSession) -> DropProposal {
        collectionView.updateInteractiveMovementTargetPosition(session.location(in: collectionView))
        return DropProposal(operation: .move)
    }

    func dropInteraction(_ interaction: DropInteraction, performDrop session: DropSession) {
        collectionView.endInteractiveMovement()
        moving = false
    }
}
