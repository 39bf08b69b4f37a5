import GestureKit

/// Interactive movement (UIKit's reordering API). While an item moves, its cell's centre
/// follows the position given to `updateInteractiveMovementTargetPosition(_:)`; the layout
/// shows the item at the target index path it gives for that position
/// (`targetIndexPathForInteractivelyMovingItem`, then the delegate's
/// `targetIndexPathForMoveOfItemFromOriginalIndexPath`) and the other items shifted. The data
/// source is not touched until `endInteractiveMovement()`.
extension CollectionView {
    /// Whether an interactive movement is under way.
    public var isMovingItemInteractively: Bool { movement != nil }

    /// The item being moved (model index path) and where it is displayed now.
    public var interactiveMovement: (original: LayoutIndexPath, target: LayoutIndexPath)? {
        movement.map { ($0.original, $0.current) }
    }

    /// Starts moving the item. False when a movement is already under way, the item does not
    /// exist, or the data source's `canMoveItemAt` says no.
    @discardableResult
    public func beginInteractiveMovementForItem(at indexPath: LayoutIndexPath) -> Bool {
        guard movement == nil, let dataSource,
              let attributes = layout.layoutAttributesForItem(at: indexPath),
              dataSource.collectionView(self, canMoveItemAt: indexPath) else { return false }
        movement = Movement(original: indexPath, current: indexPath,
                            position: Point(x: attributes.frame.midX, y: attributes.frame.midY))
        updateVisibleCells()
        return true
    }

    /// Moves the moving cell's centre to `position` (content coordinates, i.e. this view's)
    /// and the item's target to the index path the layout gives for it.
    public func updateInteractiveMovementTargetPosition(_ position: Point) {
        guard let m = movement, position.isFinite else { return }
        movement?.position = position
        if let proposed = layout.targetIndexPathForInteractivelyMovingItem(m.current, withPosition: position) {
            let target = collectionDelegate?.collectionView(self, targetIndexPathForMoveOfItemFromOriginalIndexPath: m.original,
                                                  atCurrentIndexPath: m.current, toProposedIndexPath: proposed) ?? proposed
            if target != m.current && isValidTarget(target, current: m.current) {
                movement?.current = target
                layout.invalidateLayout(forItemsInSections: Array(Set([m.current.section, target.section])).sorted())
            }
        }
        updateVisibleCells()
    }

    /// Commits the movement: the data source's `moveItemAt(_:to:)` is called (only when the
    /// item's place changed), and the cells, the selection and the highlight follow the item.
    public func endInteractiveMovement() {
        guard let m = movement else { return }
        if m.current != m.original {
            dataSource?.collectionView(self, moveItemAt: m.original, to: m.current)
            remapAfterMove(m)
        }
        movement = nil
        layout.invalidateLayout(forItemsInSections: Array(Set([m.original.section, m.current.section])).sorted())
        updateVisibleCells()
    }

    /// Puts the item back where it was; the data source is not told.
    public func cancelInteractiveMovement() {
        guard let m = movement else { return }
        movement = nil
        layout.invalidateLayout(forItemsInSections: Array(Set([m.original.section, m.current.section])).sorted())
        updateVisibleCells()
    }

    /// Installs a long-press recognizer that drives the movement, as apps do with
    /// UICollectionView: began → `beginInteractiveMovementForItem` at the pressed item,
    /// changed → `updateInteractiveMovementTargetPosition` (the touch's location), ended →
    /// update to the lift location, then `endInteractiveMovement`, cancelled →
    /// `cancelInteractiveMovement`. A press that begins on no item moves nothing.
    ///
    /// The recognizer keeps the defaults (`cancelsTouchesInView` true), so the pressed cell
    /// is unhighlighted when the press begins and is not selected.
    @discardableResult
    public func installInteractiveMovementGesture(
        minimumPressDuration: Duration = GestureDefaults.minimumPressDuration,
        name: String? = nil
    ) -> LongPressGestureRecognizer {
        let press = LongPressGestureRecognizer(minimumPressDuration: minimumPressDuration, name: name ?? "\(debugName).reorder")
        installInteractiveMovement(on: press)
        addGestureRecognizer(press)
        return press
    }

    /// The interactive movement driven by a continuous recognizer of your own (a long press
    /// configured and attached where you want it: a scene's), with the same rules as
    /// `installInteractiveMovementGesture`, which makes its recognizer and calls this.
    public func installInteractiveMovement(on recognizer: GestureRecognizer) {
        var driving = false
        recognizer.addTarget { [weak self] recognizer in
            guard let self else { return }
            let point = recognizer.location(in: self)
            switch recognizer.state {
            case .began:
                driving = false
                if let item = indexPathForItem(at: point) {
                    driving = beginInteractiveMovementForItem(at: item)
                    if driving { updateInteractiveMovementTargetPosition(point) }
                }
            case .changed:
                if driving { updateInteractiveMovementTargetPosition(point) }
            case .ended:
                if driving {
                    updateInteractiveMovementTargetPosition(point)
                    endInteractiveMovement()
                }
                driving = false
            case .cancelled:
                if driving { cancelInteractiveMovement() }
                driving = false
            case .possible, .failed:
                break
            }
        }
    }

    private func isValidTarget(_ target: LayoutIndexPath, current: LayoutIndexPath) -> Bool {
        guard target.section >= 0, target.section < dataSectionCount, target.item >= 0 else { return false }
        let count = displayItemCount(inSection: target.section)
        // Within the moving item's current section the count already includes it; moving
        // into another section may append.
        return target.section == current.section ? target.item < count : target.item <= count
    }

    /// After the data source moved the item: what was displayed at a place is now there in
    /// the model, so visible cells, selection, highlight and the tracked touch take their
    /// display index paths.
    private func remapAfterMove(_ m: Movement) {
        func map(_ p: LayoutIndexPath) -> LayoutIndexPath {
            Self.displayPath(forData: p, original: m.original, current: m.current)
        }
        remapVisibleCells(map)
        selected = Set(selected.map(map))
        highlighted = highlighted.map(map)
        if let item = tracking?.indexPath { tracking?.indexPath = map(item) }
    }
}
