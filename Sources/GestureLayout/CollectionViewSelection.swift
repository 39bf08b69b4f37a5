import GestureKit

extension CollectionView {
    /// Turns touch deliveries into highlight and selection, as UICollectionView does.
    ///
    /// **Where touches arrive.** The engine delivers a touch to the view it hit at touch-down
    /// (SEMANTICS.md). A touch on a cell is delivered to the cell, which passes it here (the
    /// responder chain: `source` is the cell); a touch on the collection view itself (a gap,
    /// or a cell with `isUserInteractionEnabled` false) arrives with `source` the collection
    /// view, and the item is the one the layout has under the touch. Touches delivered to
    /// headers and footers select nothing. So everything a recognizer does to delivery
    /// (`delaysTouchesBegan`, `delaysTouchesEnded`, `cancelsTouchesInView`) shows up in what
    /// is highlighted and selected, and when.
    ///
    /// **Rules.**
    /// - One touch at a time: the first touch delivered while none is tracked is tracked;
    ///   others are ignored until it ends or is cancelled.
    /// - touchesBegan on an item: if `allowsSelection` and the delegate's
    ///   `shouldHighlightItemAt` (default yes), the item is highlighted (`didHighlightItemAt`).
    ///   Otherwise the touch can select nothing (UIKit: no highlight, no selection).
    /// - touchesMoved out of the item's frame: unhighlighted (`didUnhighlightItemAt`); the touch
    ///   can no longer select anything, even if it comes back.
    /// - touchesEnded: unhighlighted, then the item is selected (`shouldSelectItemAt`, then
    ///   `didSelectItemAt`). With single selection the previously selected items are
    ///   deselected first (`didDeselectItemAt`, not asked); an already selected item is
    ///   selected again (the delegate hears it again, as in UIKit). With multiple selection a
    ///   selected item is deselected instead (`shouldDeselectItemAt`, `didDeselectItemAt`).
    /// - touchesCancelled: unhighlighted; nothing is selected.
    /// - A touch on no item (a gap) selects and deselects nothing.
    public func handleTouches(_ phase: TouchPhase, _ touches: [Touch], from source: View) {
        switch phase {
        case .began:
            guard tracking == nil, let touch = touches.first else { return }
            var item: LayoutIndexPath?
            if let cell = source as? CollectionViewCell {
                item = cell.collectionView === self ? cell.indexPath : nil
            } else if source === self {
                item = indexPathForItem(at: touch.location(in: self))
            }
            tracking = TouchTracking(touch: touch.id, indexPath: nil)
            // Only the primary button selects: a secondary click is a context menu's (UIKit).
            let selects = touch.buttonMask.isEmpty || touch.buttonMask == .primary
            guard let item, selects, allowsSelection, movement == nil,
                  collectionDelegate?.collectionView(self, shouldHighlightItemAt: item) ?? true else { return }
            tracking?.indexPath = item
            setHighlighted(item)
        case .moved:
            guard let t = tracking, let item = t.indexPath,
                  let touch = touches.first(where: { $0.id == t.touch }) else { return }
            let frame = layoutAttributesForItem(at: item)?.frame
            if !(frame?.contains(touch.location(in: self)) ?? false) {
                tracking?.indexPath = nil
                setHighlighted(nil)
            }
        case .ended:
            guard let t = tracking, touches.contains(where: { $0.id == t.touch }) else { return }
            tracking = nil
            setHighlighted(nil)
            if let item = t.indexPath, allowsSelection { selectByTouch(item) }
        case .cancelled:
            guard let t = tracking, touches.contains(where: { $0.id == t.touch }) else { return }
            tracking = nil
            setHighlighted(nil)
        }
    }

    private func setHighlighted(_ item: LayoutIndexPath?) {
        guard item != highlighted else { return }
        if let old = highlighted {
            highlighted = nil
            cellForItem(at: old)?.isHighlighted = false
            collectionDelegate?.collectionView(self, didUnhighlightItemAt: old)
        }
        if let item {
            highlighted = item
            cellForItem(at: item)?.isHighlighted = true
            collectionDelegate?.collectionView(self, didHighlightItemAt: item)
        }
    }

    private func selectByTouch(_ item: LayoutIndexPath) {
        if allowsMultipleSelection && selected.contains(item) {
            guard collectionDelegate?.collectionView(self, shouldDeselectItemAt: item) ?? true else { return }
            setSelected(false, item)
            collectionDelegate?.collectionView(self, didDeselectItemAt: item)
            return
        }
        guard collectionDelegate?.collectionView(self, shouldSelectItemAt: item) ?? true else { return }
        if !allowsMultipleSelection {
            for old in selected.sorted() where old != item {
                setSelected(false, old)
                collectionDelegate?.collectionView(self, didDeselectItemAt: old)
            }
        }
        setSelected(true, item)
        collectionDelegate?.collectionView(self, didSelectItemAt: item)
    }

    func setSelected(_ isSelected: Bool, _ item: LayoutIndexPath) {
        if isSelected { selected.insert(item) } else { selected.remove(item) }
        cellForItem(at: item)?.isSelected = isSelected
    }

    func clearSelectionSilently() {
        for item in selected.sorted() { setSelected(false, item) }
    }

    // MARK: Programmatic selection (the delegate is not told, as in UIKit)

    /// The selected items, in index path order.
    public var indexPathsForSelectedItems: [LayoutIndexPath] { selected.sorted() }

    /// The highlighted item, if a touch is down on one.
    public var indexPathForHighlightedItem: LayoutIndexPath? { highlighted }

    /// Selects the item (replacing the selection unless `allowsMultipleSelection`); nil
    /// deselects everything. Does nothing when `allowsSelection` is false or the item does not
    /// exist.
    public func selectItem(at indexPath: LayoutIndexPath?) {
        guard allowsSelection else { return }
        guard let indexPath else {
            clearSelectionSilently()
            return
        }
        guard indexPath.section >= 0, indexPath.section < dataSectionCount, indexPath.item >= 0,
              indexPath.item < dataItemCount(inSection: indexPath.section) else { return }
        if !allowsMultipleSelection {
            for old in selected.sorted() where old != indexPath { setSelected(false, old) }
        }
        setSelected(true, indexPath)
    }

    public func deselectItem(at indexPath: LayoutIndexPath) {
        setSelected(false, indexPath)
    }
}
