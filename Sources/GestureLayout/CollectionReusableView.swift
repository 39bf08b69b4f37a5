import GestureKit

/// A view a `CollectionView` places at a layout element's frame and recycles by reuse
/// identifier (UIKit's `UICollectionReusableView`): the base of cells and of section headers
/// and footers.
///
/// Create instances only in the closures given to `CollectionView.register(...)`; get them
/// with `dequeueReusable...`. The collection view sets the frame from the layout
/// attributes (`apply(_:)`), adds the view as its subview while the element is visible and
/// removes it (into the reuse queue) when it scrolls off.
open class CollectionReusableView: View {
    /// The identifier it was registered and dequeued with.
    public internal(set) var reuseIdentifier: String?
    /// `LayoutElementKind.sectionHeader` / `.sectionFooter` for supplementary views, nil for
    /// cells.
    public internal(set) var elementKind: String?
    /// The element it currently shows (for a cell, the item's index path in the data
    /// source; for a header or footer, item 0 of its section). Nil while in the queue.
    public internal(set) var indexPath: LayoutIndexPath?
    /// The collection view that created it.
    public internal(set) weak var collectionView: CollectionView?
    /// What the collection view's layout pass reads of every visible view at every frame of a
    /// scroll, in one value Swift does not check for exclusive access at run time (as the
    /// collection view's `PassState`, measured with Benchmarks/Sources/profile-scroll). Sound:
    /// each accessor below reads or writes and is done.
    struct LayoutMarks {
        var zIndex: Int = LayoutZIndex.cell
        var visibleStamp = 0
    }
    #if GESTUREKIT_CHECKED_ACCESS
    private var marks = LayoutMarks()
    #else
    @exclusivity(unchecked) private var marks = LayoutMarks()
    #endif
    /// The zIndex of the attributes last applied (the collection view keeps higher ones in
    /// front).
    public internal(set) var zIndex: Int {
        get { marks.zIndex }
        set { marks.zIndex = newValue }
    }
    /// The collection view's last layout pass that wanted this view on screen.
    var visibleStamp: Int {
        get { marks.visibleStamp }
        set { marks.visibleStamp = newValue }
    }

    public override init(id: String = "reusable", frame: Rect = .zero) {
        super.init(id: id, frame: frame)
    }

    /// Called when the view is taken from the reuse queue, before the data source
    /// configures it: reset what the previous element left (UIKit calls it at the same
    /// moment, from `dequeueReusable...`).
    open func prepareForReuse() {}

    /// Applies the layout's geometry. Overrides must call super.
    open func apply(_ attributes: LayoutAttributes) {
        frame = attributes.frame
        zIndex = attributes.zIndex
    }
}

/// A collection view cell (UIKit's `UICollectionViewCell`).
///
/// Touches delivered to a cell are passed on to its collection view, as UIKit's responder
/// chain does (see `CollectionView`'s "Touches, highlight and selection"): that is what
/// highlights and selects it. A subclass that overrides the `touches…` methods must call
/// super to keep that.
open class CollectionViewCell: CollectionReusableView {
    /// Set by the collection view when the item is selected or deselected, and when the cell
    /// is configured for an item.
    open var isSelected = false
    /// Set by the collection view while a touch that may select the item is down on it.
    open var isHighlighted = false

    public override init(id: String = "cell", frame: Rect = .zero) {
        super.init(id: id, frame: frame)
    }

    // Each calls super first (View's default: the deprecated `[Touch]` method, which a
    // subclass may still override), then hands the touches to the collection view.
    open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesBegan(touches, with: event)
        collectionView?.handleTouches(.began, inDeliveryOrder(touches), from: self)
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesMoved(touches, with: event)
        collectionView?.handleTouches(.moved, inDeliveryOrder(touches), from: self)
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesEnded(touches, with: event)
        collectionView?.handleTouches(.ended, inDeliveryOrder(touches), from: self)
    }

    open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesCancelled(touches, with: event)
        collectionView?.handleTouches(.cancelled, inDeliveryOrder(touches), from: self)
    }
}
