import GestureKit

/// UIKit's `UICollectionViewLayout`: the base class of every layout a collection view
/// drives. `FlowLayout` and `TableLayout` are subclasses; an app writes its own layout by
/// subclassing it (or `FlowLayout`) and overriding:
///
/// - `prepare()`: compute what the queries need (called once after each invalidation,
///   before the next query);
/// - `collectionViewContentSize`: the size of the whole content;
/// - `layoutAttributesForElements(in:)`: the cells, headers and footers in a rectangle;
/// - `layoutAttributesForItem(at:)` (by default, found among the elements of the whole
///   content) and `layoutAttributesForSupplementaryView(ofKind:at:)`;
/// - `shouldInvalidateLayout(forBoundsChange:)`: whether a new bounds (a scroll, a resize)
///   needs a new layout (default no, as UIKit's).
///
/// **The rule:** a layout change is laid out once. `invalidateLayout()` (and a new
/// `FlowLayout` parameter, which invalidates) re-lays the collection view's visible cells by
/// itself, as UIKit's next layout pass does: at the end of the engine's step (at once outside
/// one), with no other call, however many changes the step made; `layoutIfNeeded()` on the
/// collection view does it at once instead, for code that needs the cells in place now (the
/// pass at the end of the step then has nothing to do). A pinch handler that updates a layout
/// parameter sees the cells move. A layout reads its counts from `collectionView`
/// (`numberOfSections`, `numberOfItems(inSection:)`), which it holds weakly, and may read
/// anything public of it while it is asked (CollectionView.swift's rule).
open class CollectionViewLayout {
    /// The collection view this layout lays out, once set as its `layout`.
    public internal(set) weak var collectionView: CollectionView?
    /// Whether `prepare()` must run before the next query.
    private var needsPrepare = true

    public init() {}

    // MARK: What subclasses override (UIKit's names)

    /// Computes the layout. Called once after each invalidation, before the next query;
    /// call `super`.
    open func prepare() {}

    /// The size of the whole scrollable content, in points. Default zero.
    open var collectionViewContentSize: Size { .zero }

    /// The attributes of every cell, header and footer whose frame shares area with `rect`.
    /// Default none.
    open func layoutAttributesForElements(in rect: Rect) -> [LayoutAttributes] { [] }

    /// The attributes of one item. By default, found among the elements of the whole
    /// content (override it when that is slow).
    open func layoutAttributesForItem(at indexPath: LayoutIndexPath) -> LayoutAttributes? {
        let all = Rect(origin: .zero, size: collectionViewContentSize)
        return layoutAttributesForElements(in: all).first { $0.category == .cell && $0.indexPath == indexPath }
    }

    /// The attributes of a header or footer (`LayoutElementKind`). Default none.
    open func layoutAttributesForSupplementaryView(ofKind kind: String,
                                                   at indexPath: LayoutIndexPath) -> LayoutAttributes? { nil }

    /// Whether the collection view's new bounds (scrolled to another origin, or resized)
    /// needs a new layout. Default false, as UIKit's; `FlowLayout` says yes to a new size.
    open func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool { false }

    /// Marks the layout stale: `prepare()` runs again before the next query, and the
    /// collection view re-lays its visible cells at the end of the step (at once outside
    /// one). Call `super` when overriding.
    open func invalidateLayout() {
        layoutBecameStale()
    }

    /// The item under `point` (content coordinates), nil in gaps and supplementary views.
    /// By default the front-most cell whose frame contains it.
    open func indexPathForItem(at point: Point) -> LayoutIndexPath? {
        guard point.isFinite else { return nil }
        let probe = Rect(origin: point, size: Size(width: 1e-9, height: 1e-9))
        return layoutAttributesForElements(in: probe)
            .last { $0.category == .cell && $0.frame.contains(point) }?.indexPath
    }

    /// UIKit's `targetIndexPath(forInteractivelyMovingItem:withPosition:)`: where an item
    /// moved interactively lands with the finger at `position`. By default the item under
    /// the finger, or where it was when the finger is over no item.
    open func targetIndexPathForInteractivelyMovingItem(_ previousIndexPath: LayoutIndexPath,
                                                        withPosition position: Point) -> LayoutIndexPath? {
        indexPathForItem(at: position) ?? previousIndexPath
    }

    // MARK: What the collection view calls

    /// The stale mark every invalidation sets: `prepare()` again, and a layout pass of the
    /// collection view.
    package final func layoutBecameStale() {
        needsPrepare = true
        collectionView?.layoutBecameStale()
    }

    /// Runs `prepare()` if the layout was invalidated since it last ran.
    package final func prepareIfNeeded() {
        guard needsPrepare else { return }
        needsPrepare = false
        prepare()
    }

    public var contentSize: Size {
        prepareIfNeeded()
        return collectionViewContentSize
    }

    /// The elements in `rect` into `buffer` (keeping its capacity). By default through
    /// `layoutAttributesForElements(in:)`; the built-in layouts answer without an array.
    open func layoutAttributesForElements(in rect: Rect, into buffer: inout [LayoutAttributes]) {
        prepareIfNeeded()
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: layoutAttributesForElements(in: rect))
    }

    /// The collection view now reads its counts through `source` (the displayed counts
    /// while an item is moved interactively).
    open func bind(to source: CollectionViewLayoutSource) {
        invalidateLayout()
    }

    /// The collection view's bounds size is now `size`: invalidated if
    /// `shouldInvalidateLayout(forBoundsChange:)` says so.
    open func invalidateLayout(forBoundsSize size: Size) {
        let origin = collectionView?.bounds.origin ?? .zero
        if shouldInvalidateLayout(forBoundsChange: Rect(origin: origin, size: size)) { invalidateLayout() }
    }

    /// The item counts (or, for a table, the row heights) of these sections changed; the
    /// number of sections did not.
    open func invalidateLayout(forItemsInSections sections: [Int]) {
        invalidateLayout()
    }
}
