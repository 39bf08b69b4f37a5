import GestureKit

// The collection view's rule for calls into app code (its layout's `prepare()` and
// queries, its data source, its delegate, a cell's `apply(_:)` and `prepareForReuse()`):
//
// **No access to the collection view's state is held across a call into app code.** A pass
// (`updateVisibleCells`) first asks the layout for the elements in view into a buffer it has
// taken out of its state, then brings the views in line: every read or write of its state
// is one access, done before the next call out. So a layout, a data source or a cell may read
// anything public while it is asked (`indexPathsForVisibleItems`, `visibleCells`, the
// selection, `contentOffset`), as UIKit's may.
//
// What app code asks for during a pass waits for it: a pass asked for meanwhile (a new
// `contentOffset`, `layoutIfNeeded()`, an invalidation laid out at once) runs right after
// it, up to `maximumPassesInARow` in a row. One call stops with a precondition naming the
// misuse: `reloadData()` (and a new `layout` or `dataSource`) during a pass, from the
// layout's `prepare()` or queries or from the data source's `cellForItemAt`; it would retire
// the views the pass is placing. UIKit does not allow it either.

// MARK: - Data source and delegate

/// Supplies the items and their views (UIKit's `UICollectionViewDataSource`). Index paths
/// are always the data source's own (see `CollectionView`'s "Index paths").
public protocol CollectionViewDataSource: AnyObject {
    /// Default 1.
    func numberOfSections(in collectionView: CollectionView) -> Int
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
    /// Return a cell from `collectionView.dequeueReusableCell(withReuseIdentifier:for:)`,
    /// configured for the item.
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: LayoutIndexPath) -> CollectionViewCell
    /// Return a view from `dequeueReusableSupplementaryView(ofKind:withReuseIdentifier:for:)`;
    /// nil shows nothing there. Default nil.
    func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
                        at indexPath: LayoutIndexPath) -> CollectionReusableView?
    /// Whether the item may be moved interactively. Default true.
    func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: LayoutIndexPath) -> Bool
    /// An interactive movement ended with the item at a new place: move it in the model
    /// (remove at `source`, insert at `destination`, both in the model's index paths).
    func collectionView(_ collectionView: CollectionView, moveItemAt source: LayoutIndexPath,
                        to destination: LayoutIndexPath)
}

extension CollectionViewDataSource {
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
    public func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
                               at indexPath: LayoutIndexPath) -> CollectionReusableView? { nil }
    public func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: LayoutIndexPath) -> Bool { true }
}

/// What the app hears about highlight, selection and movement (UIKit's
/// `UICollectionViewDelegate`). Every method has UIKit's default. Only touches call these;
/// `selectItem`/`deselectItem` do not (as in UIKit).
/// It is a `ScrollViewDelegate` too, as UIKit's is: set it as the collection view's `delegate`.
public protocol CollectionViewDelegate: ScrollViewDelegate {
    /// Default true. No also means a touch on the item does not select it (UIKit).
    func collectionView(_ collectionView: CollectionView, shouldHighlightItemAt indexPath: LayoutIndexPath) -> Bool
    func collectionView(_ collectionView: CollectionView, didHighlightItemAt indexPath: LayoutIndexPath)
    func collectionView(_ collectionView: CollectionView, didUnhighlightItemAt indexPath: LayoutIndexPath)
    /// Default true.
    func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: LayoutIndexPath) -> Bool
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: LayoutIndexPath)
    /// Default true. Asked when a touch would deselect (multiple selection).
    func collectionView(_ collectionView: CollectionView, shouldDeselectItemAt indexPath: LayoutIndexPath) -> Bool
    func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: LayoutIndexPath)
    /// During an interactive movement: where the item may go when the layout proposes
    /// `proposed` (display index paths). Default `proposed`.
    func collectionView(_ collectionView: CollectionView,
                        targetIndexPathForMoveOfItemFromOriginalIndexPath original: LayoutIndexPath,
                        atCurrentIndexPath current: LayoutIndexPath,
                        toProposedIndexPath proposed: LayoutIndexPath) -> LayoutIndexPath
}

extension CollectionViewDelegate {
    public func collectionView(_ collectionView: CollectionView, shouldHighlightItemAt indexPath: LayoutIndexPath) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, didHighlightItemAt indexPath: LayoutIndexPath) {}
    public func collectionView(_ collectionView: CollectionView, didUnhighlightItemAt indexPath: LayoutIndexPath) {}
    public func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: LayoutIndexPath) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: LayoutIndexPath) {}
    public func collectionView(_ collectionView: CollectionView, shouldDeselectItemAt indexPath: LayoutIndexPath) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: LayoutIndexPath) {}
    public func collectionView(_ collectionView: CollectionView,
                               targetIndexPathForMoveOfItemFromOriginalIndexPath original: LayoutIndexPath,
                               atCurrentIndexPath current: LayoutIndexPath,
                               toProposedIndexPath proposed: LayoutIndexPath) -> LayoutIndexPath { proposed }
}

// MARK: - Layouts a collection view can drive

/// The counts a collection view gives its layout: the data source's, except while an item
/// is being moved interactively, when they are the displayed ones (the moving item counted
/// in the section it currently hovers over). For a `TableLayout`, row heights, titles and
/// header and footer heights come from the collection view's data source when it also
/// conforms to `TableLayoutDataSource` (row heights follow the moving item).
public final class CollectionViewLayoutSource: FlowLayoutDataSource, TableLayoutDataSource {
    weak var collectionView: CollectionView?

    init(_ collectionView: CollectionView) { self.collectionView = collectionView }

    private var table: (any TableLayoutDataSource)? { collectionView?.dataSource as? any TableLayoutDataSource }

    public func numberOfSections() -> Int { collectionView?.dataSectionCount ?? 0 }
    public func numberOfItems(inSection section: Int) -> Int { collectionView?.displayItemCount(inSection: section) ?? 0 }
    public func numberOfRows(inSection section: Int) -> Int { numberOfItems(inSection: section) }

    public func rowHeights(inSection section: Int) -> [Double]? {
        guard let cv = collectionView, let table else { return nil }
        guard let movement = cv.movement,
              section == movement.original.section || section == movement.current.section else {
            return table.rowHeights(inSection: section)
        }
        // Reorder the heights as the rows are displayed.
        var bySection: [Int: [Double]] = [:]
        for s in Set([movement.original.section, movement.current.section]) {
            guard let h = table.rowHeights(inSection: s) else { return nil }
            bySection[s] = h
        }
        let count = cv.displayItemCount(inSection: section)
        var heights: [Double] = []
        heights.reserveCapacity(count)
        for item in 0..<count {
            let data = cv.dataPath(forDisplay: LayoutIndexPath(item: item, section: section))
            guard let h = bySection[data.section], data.item < h.count else { return nil }
            heights.append(h[data.item])
        }
        return heights
    }
    public func titleForHeader(inSection section: Int) -> String? { table?.titleForHeader(inSection: section) }
    public func titleForFooter(inSection section: Int) -> String? { table?.titleForFooter(inSection: section) }
    public func heightForHeader(inSection section: Int) -> Double? { table?.heightForHeader(inSection: section) }
    public func heightForFooter(inSection section: Int) -> Double? { table?.heightForFooter(inSection: section) }
}

// MARK: - Constants

public enum CollectionViewMetrics {
    /// zIndex of the cell being moved interactively (unitless order): above cells (0) and
    /// headers and footers (`LayoutZIndex.supplementaryView`, 10).
    public static let movingItemZIndex = 1_000
}

/// Counters of view creation and reuse, for tests and profiling.
package struct CollectionViewReuseStatistics: Hashable, Sendable {
    package var cellsCreated = 0
    package var cellsReused = 0
    package var supplementaryViewsCreated = 0
    package var supplementaryViewsReused = 0
}

/// Identifies a displayed element: a cell by its item's data-source index path, a header or
/// footer by its section.
struct ElementKey: Hashable, Comparable {
    var category: LayoutElementCategory
    var indexPath: LayoutIndexPath

    private var rank: Int {
        switch category { case .header: 0; case .cell: 1; case .footer: 2 }
    }
    /// Hashes two integers: the category's synthesized hash would hash its raw string, which
    /// was half of a scrolling frame's time (every visible element is looked up each frame).
    func hash(into hasher: inout Hasher) {
        hasher.combine(indexPath.item &* 3 &+ rank)
        hasher.combine(indexPath.section)
    }
    static func < (a: ElementKey, b: ElementKey) -> Bool {
        (a.indexPath.section, a.rank, a.indexPath.item) < (b.indexPath.section, b.rank, b.indexPath.item)
    }
}

// MARK: - CollectionView

/// A headless `UICollectionView`: a `ScrollView` that shows the elements its layout puts
/// in the visible rectangle as reusable subviews, and turns touches into highlight,
/// selection and interactive reordering.
///
/// ## Scrolling and visible elements
/// It scrolls as its superclass `ScrollView` does (one finger drags, the content decelerates
/// and bounces). `contentOffset` is the view's `boundsOrigin`: the collection view's own coordinates are
/// the layout's content coordinates, and each visible element's view is a subview whose
/// frame is its layout frame. `updateVisibleCells()` (UIKit's `layoutSubviews`) runs when
/// the offset, the layout or the data change: elements that left the visible rectangle
/// `bounds` are removed and go to their reuse queue; elements that came in are asked from
/// the data source, which dequeues views (`prepareForReuse()` is called on reused ones).
/// Nothing is kept beyond the visible rectangle (no prefetching). Call it yourself after
/// changing `frame` or `boundsOrigin` directly. Headers and footers are kept in front of
/// cells, the moving cell in front of everything.
///
/// After a layout change the offset is pulled back so it does not pass the end of the
/// content (it is never raised: a negative offset stays).
///
/// ## Index paths
/// Public index paths are the data source's. During an interactive movement the layout
/// shows items at display index paths (the moving item at its current target, the others
/// shifted); the collection view translates, so the data source and the delegate's
/// selection methods only see model index paths until the move is committed.
///
/// ## Touches, highlight and selection
/// See `handleTouches(_:_:from:)`.
open class CollectionView: ScrollView {
    /// Setting a new layout binds it, invalidates it and reloads the visible elements.
    public var layout: CollectionViewLayout {
        didSet {
            guard layout !== oldValue else { return }
            if oldValue.collectionView === self { oldValue.collectionView = nil }
            updatingLayout {
                layout.collectionView = self
                layout.bind(to: layoutSource)
                lastBoundsSize = nil
                reloadData()
            }
        }
    }
    /// True while the collection view itself changes and re-lays its layout (a reload, a
    /// layout pass): the layout's invalidations then need no further pass.
    private var isUpdatingLayout = false

    private func updatingLayout(_ body: () -> Void) {
        let was = isUpdatingLayout
        isUpdatingLayout = true
        defer { isUpdatingLayout = was }
        body()
    }

    /// The layout was invalidated (`CollectionViewLayout.invalidateLayout()`): the visible
    /// cells are re-laid at the end of the step, unless the collection view is doing so now.
    func layoutBecameStale() {
        if !isUpdatingLayout { setNeedsLayout() }
    }

    /// UIKit's layout pass: the offset clamped to the new content, and the visible cells
    /// brought in line with the layout (`layoutDidChange()`).
    open override func layoutSubviews() {
        super.layoutSubviews()
        layoutDidChange()
    }
    public weak var dataSource: (any CollectionViewDataSource)? {
        didSet { reloadData() }
    }
    /// The `delegate`, when it is a `CollectionViewDelegate` (highlight, selection, movement).
    var collectionDelegate: (any CollectionViewDelegate)? { delegate as? any CollectionViewDelegate }

    /// Whether touches select items (and highlight them). Default true.
    public var allowsSelection = true {
        didSet { if !allowsSelection { clearSelectionSilently() } }
    }
    /// Whether a touch adds to the selection (and a touch on a selected item deselects it)
    /// instead of replacing it. Default false.
    public var allowsMultipleSelection = false {
        didSet {
            if !allowsMultipleSelection, selected.count > 1 {
                let keep = selected.min()!
                for p in selected.sorted() where p != keep { setSelected(false, p) }
            }
        }
    }

    /// The layout's full scrollable size, points (setting it does nothing: the layout
    /// decides, as in UIKit).
    open override var contentSize: Size {
        get { layout.contentSize }
        set {}
    }

    /// A new content offset brings in the cells that came into view.
    open override func contentOffsetDidChange() {
        updateVisibleCells()
    }

    /// The flow layout's item size when the pinch installed by `installPinchToResize` began;
    /// nil when no such pinch is under way.
    package internal(set) var itemSizeAtPinchBegan: Size?

    package private(set) var reuseStatistics = CollectionViewReuseStatistics()

    // MARK: State (internal: the extensions in the other files use it)

    lazy var layoutSource = CollectionViewLayoutSource(self)
    private var cellFactories: [String: () -> CollectionViewCell] = [:]
    private var supplementaryFactories: [String: [String: () -> CollectionReusableView]] = [:]
    private var cellQueues: [String: [CollectionViewCell]] = [:]
    private var supplementaryQueues: [String: [String: [CollectionReusableView]]] = [:]

    /// What `updateVisibleCells` reads and writes at every frame of a scroll, in one value: the collection view's one property Swift does not
    /// check for exclusive access at run time. Benchmarks/Sources/profile-scroll under
    /// callgrind (a frame of a decelerating scroll over 100,000 items) measures 43,600
    /// instructions a frame with it and 51,400 with the checks (+18%). Sound because no
    /// access is held across a call into other code (the rule at the top of this file): each
    /// forwarding accessor below reads or writes and is done, and the layout fills a buffer
    /// taken out of this state, not the state itself.
    struct PassState {
        var lastBoundsSize: Size?
        var visibleViews: [ElementKey: CollectionReusableView] = [:]
        var attributesBuffer: [LayoutAttributes] = []
        /// Elements coming into view in this pass, in layout order.
        var pending: [(key: ElementKey, attributes: LayoutAttributes)] = []
        var retiring: [ElementKey] = []
        /// Counts `updateVisibleCells` passes; each visible view carries the last it was wanted in.
        var layoutPass = 0
        /// A pass is under way (`updateVisibleCells`).
        var isInPass = false
        /// A pass was asked for while one was under way: it runs right after.
        var passRequested = false
    }
    #if GESTUREKIT_CHECKED_ACCESS
    private var passState = PassState()
    #else
    @exclusivity(unchecked) private var passState = PassState()
    #endif

    private var lastBoundsSize: Size? {
        _read { yield passState.lastBoundsSize }
        _modify { yield &passState.lastBoundsSize }
    }
    private(set) var visibleViews: [ElementKey: CollectionReusableView] {
        _read { yield passState.visibleViews }
        _modify { yield &passState.visibleViews }
    }
    private var attributesBuffer: [LayoutAttributes] {
        _read { yield passState.attributesBuffer }
        _modify { yield &passState.attributesBuffer }
    }
    private var pending: [(key: ElementKey, attributes: LayoutAttributes)] {
        _read { yield passState.pending }
        _modify { yield &passState.pending }
    }
    private var retiring: [ElementKey] {
        _read { yield passState.retiring }
        _modify { yield &passState.retiring }
    }
    private var layoutPass: Int {
        _read { yield passState.layoutPass }
        _modify { yield &passState.layoutPass }
    }
    private var isInPass: Bool {
        get { passState.isInPass }
        set { passState.isInPass = newValue }
    }
    private var passRequested: Bool {
        get { passState.passRequested }
        set { passState.passRequested = newValue }
    }
    /// An interactive movement under way (read by the layout during a pass: not in
    /// `passState`).
    var movement: Movement?
    /// The drag and drop interactions' delegate that reorders (`installDragReordering`).
    var dragReordering: AnyObject?

    /// Selected items (model index paths).
    var selected: Set<LayoutIndexPath> = []
    /// The highlighted item, if any (model index path).
    var highlighted: LayoutIndexPath?
    /// The touch that may select an item: see `handleTouches`.
    var tracking: TouchTracking?

    struct TouchTracking {
        var touch: TouchID
        /// The item under the touch, while it may still select it.
        var indexPath: LayoutIndexPath?
    }

    struct Movement {
        /// Where the item is in the data source.
        var original: LayoutIndexPath
        /// Where it is displayed now (the target index path).
        var current: LayoutIndexPath
        /// Its centre, in content coordinates.
        var position: Point
    }

    public init(id: String = "collection", frame: Rect, layout: CollectionViewLayout) {
        self.layout = layout
        super.init(id: id, frame: frame)
        updatingLayout {
            layout.collectionView = self
            layout.bind(to: layoutSource)
        }
    }

    // MARK: Touches (UIResponder overrides: touches on gaps, and on cells that ignore touches)

    // Each calls super first (View's default: the deprecated `[Touch]` method, which a
    // subclass may still override).
    open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesBegan(touches, with: event)
        handleTouches(.began, inDeliveryOrder(touches), from: self)
    }
    open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesMoved(touches, with: event)
        handleTouches(.moved, inDeliveryOrder(touches), from: self)
    }
    open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesEnded(touches, with: event)
        handleTouches(.ended, inDeliveryOrder(touches), from: self)
    }
    open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesCancelled(touches, with: event)
        handleTouches(.cancelled, inDeliveryOrder(touches), from: self)
    }

    // MARK: Registration and dequeuing

    /// Registers how to make cells for `identifier` (UIKit's `register(_:forCellWithReuseIdentifier:)`).
    public func register(_ make: @escaping () -> CollectionViewCell, forCellWithReuseIdentifier identifier: String) {
        cellFactories[identifier] = make
    }

    /// Registers how to make headers or footers (`kind` is a `LayoutElementKind`).
    public func register(_ make: @escaping () -> CollectionReusableView,
                         forSupplementaryViewOfKind kind: String, withReuseIdentifier identifier: String) {
        supplementaryFactories[kind, default: [:]][identifier] = make
    }

    /// A cell from the reuse queue (after `prepareForReuse()`), or a new one from the
    /// registered closure. Traps when nothing is registered for `identifier` (as UIKit).
    public func dequeueReusableCell(withReuseIdentifier identifier: String,
                                    for indexPath: LayoutIndexPath) -> CollectionViewCell {
        // `[key, default:]` mutates the queue in place; `[key]?.popLast()` copied it (an
        // allocation for every cell that scrolls into view).
        if cellQueues[identifier] != nil, let cell = cellQueues[identifier, default: []].popLast() {
            reuseStatistics.cellsReused += 1
            cell.prepareForReuse()
            return cell
        }
        guard let make = cellFactories[identifier] else {
            preconditionFailure("no cell registered for reuse identifier \"\(identifier)\"")
        }
        let cell = make()
        cell.reuseIdentifier = identifier
        cell.collectionView = self
        reuseStatistics.cellsCreated += 1
        return cell
    }

    /// A header or footer from the reuse queue of (`kind`, `identifier`), or a new one.
    public func dequeueReusableSupplementaryView(ofKind kind: String, withReuseIdentifier identifier: String,
                                                 for indexPath: LayoutIndexPath) -> CollectionReusableView {
        if supplementaryQueues[kind]?[identifier] != nil,
           let view = supplementaryQueues[kind, default: [:]][identifier, default: []].popLast() {
            reuseStatistics.supplementaryViewsReused += 1
            view.prepareForReuse()
            return view
        }
        guard let make = supplementaryFactories[kind]?[identifier] else {
            preconditionFailure("no \(kind) view registered for reuse identifier \"\(identifier)\"")
        }
        let view = make()
        view.reuseIdentifier = identifier
        view.elementKind = kind
        view.collectionView = self
        reuseStatistics.supplementaryViewsCreated += 1
        return view
    }

    /// Views waiting in the reuse queues.
    public var queuedViewCount: Int {
        cellQueues.values.reduce(0) { $0 + $1.count }
            + supplementaryQueues.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }
    }

    // MARK: Counts (data source, and as displayed)

    var dataSectionCount: Int {
        guard let dataSource else { return 0 }
        return max(0, dataSource.numberOfSections(in: self))
    }

    func dataItemCount(inSection section: Int) -> Int {
        guard let dataSource, section >= 0, section < dataSectionCount else { return 0 }
        return max(0, dataSource.collectionView(self, numberOfItemsInSection: section))
    }

    func displayItemCount(inSection section: Int) -> Int {
        var n = dataItemCount(inSection: section)
        if let m = movement {
            if section == m.original.section { n -= 1 }
            if section == m.current.section { n += 1 }
        }
        return n
    }

    public var numberOfSections: Int { dataSectionCount }
    public func numberOfItems(inSection section: Int) -> Int { dataItemCount(inSection: section) }

    /// The model index path of the item displayed at `display`.
    func dataPath(forDisplay display: LayoutIndexPath) -> LayoutIndexPath {
        guard let m = movement else { return display }
        if display == m.current { return m.original }
        var item = display.item
        if display.section == m.current.section && item > m.current.item { item -= 1 }
        if display.section == m.original.section && item >= m.original.item { item += 1 }
        return LayoutIndexPath(item: item, section: display.section)
    }

    /// Where the item at model index path `data` is displayed.
    func displayPath(forData data: LayoutIndexPath) -> LayoutIndexPath {
        guard let m = movement else { return data }
        return Self.displayPath(forData: data, original: m.original, current: m.current)
    }

    static func displayPath(forData data: LayoutIndexPath, original: LayoutIndexPath,
                            current: LayoutIndexPath) -> LayoutIndexPath {
        if data == original { return current }
        var item = data.item
        if data.section == original.section && item > original.item { item -= 1 }
        if data.section == current.section && item >= current.item { item += 1 }
        return LayoutIndexPath(item: item, section: data.section)
    }

    // MARK: Queries

    /// The item at `point` (content coordinates, i.e. this view's), nil in gaps and on
    /// headers and footers. A model index path.
    public func indexPathForItem(at point: Point) -> LayoutIndexPath? {
        layout.indexPathForItem(at: point).map(dataPath(forDisplay:))
    }

    /// The layout's attributes for the item, at the place it is displayed.
    public func layoutAttributesForItem(at indexPath: LayoutIndexPath) -> LayoutAttributes? {
        layout.layoutAttributesForItem(at: displayPath(forData: indexPath))
    }

    /// The visible cell showing the item, if any.
    public func cellForItem(at indexPath: LayoutIndexPath) -> CollectionViewCell? {
        visibleViews[ElementKey(category: .cell, indexPath: indexPath)] as? CollectionViewCell
    }

    public func supplementaryView(forElementKind kind: String, at indexPath: LayoutIndexPath) -> CollectionReusableView? {
        let category: LayoutElementCategory = kind == LayoutElementKind.sectionFooter ? .footer : .header
        return visibleViews[ElementKey(category: category, indexPath: LayoutIndexPath(item: 0, section: indexPath.section))]
    }

    /// The items with a visible cell, in index path order.
    public var indexPathsForVisibleItems: [LayoutIndexPath] {
        visibleViews.keys.filter { $0.category == .cell }.map(\.indexPath).sorted()
    }

    /// The visible cells, in index path order.
    public var visibleCells: [CollectionViewCell] {
        indexPathsForVisibleItems.compactMap { cellForItem(at: $0) }
    }

    /// The visible headers and footers, by section, header first.
    public var visibleSupplementaryViews: [CollectionReusableView] {
        visibleViews.keys.filter { $0.category != .cell }.sorted().compactMap { visibleViews[$0] }
    }

    public func indexPath(for cell: CollectionViewCell) -> LayoutIndexPath? {
        guard cell.collectionView === self, let p = cell.indexPath, cellForItem(at: p) === cell else { return nil }
        return p
    }

    // MARK: Updates

    /// Re-reads everything from the data source: every visible view goes back to its queue,
    /// the layout is invalidated, and the visible elements are asked afresh. Selected items
    /// that no longer exist are dropped from the selection. An interactive movement under
    /// way is cancelled.
    public func reloadData() {
        precondition(!isInPass, "CollectionView.reloadData() (or a new layout or data source) was called on \(debugName) during its layout pass, from its layout's prepare() or layoutAttributesForElements(in:), its data source's cellForItemAt or a cell's apply(_:) or prepareForReuse(): a collection view cannot reload the views it is placing. Reload before or after the pass (UIKit does not allow it either)")
        updatingLayout {
            movement = nil
            for key in visibleViews.keys.sorted() { retire(key) }
            layout.invalidateLayout()
            if highlighted != nil, tracking == nil { highlighted = nil }
            selected = selected.filter { $0.section < dataSectionCount && $0.item < dataItemCount(inSection: $0.section) }
            layoutDidChange()
        }
    }

    /// Re-lays the collection view now: the offset is clamped to the content and the
    /// visible cells follow the layout. An invalidated layout does this by itself at the
    /// end of the step (`layoutSubviews()`); call it to see the result before then.
    private func layoutDidChange() {
        updatingLayout {
            syncBoundsSize()
            clampContentOffset()
            updateVisibleCells()
        }
        clearNeedsLayout()
    }

    /// How many passes may follow one another because each asked for another (a layout
    /// whose `prepare()` scrolls the collection view every time) before the rest are dropped
    /// and the loop is reported as a programming error.
    static let maximumPassesInARow = 8

    /// Brings the subviews in line with the layout's elements in the visible rectangle
    /// (UIKit's `layoutSubviews`). Asked for during a pass (by the layout, the data source or
    /// a cell), it runs right after that pass (the rule at the top of this file).
    package func updateVisibleCells() {
        guard !isInPass else {
            passRequested = true
            return
        }
        isInPass = true
        defer { isInPass = false }
        var passes = 0
        repeat {
            passRequested = false
            passes += 1
            onePass()
        } while passRequested && passes < CollectionView.maximumPassesInARow
        if passRequested {
            passRequested = false
            gestureEngine?.programmingError("\(debugName) asked for another layout pass during each of \(passes) passes in a row: its layout, data source or cells change it every time it is laid out; the rest are dropped")
        }
    }

    /// One pass: the layout's elements in view into a buffer taken out of the pass state
    /// (the layout may read the collection view meanwhile), then the views brought in line.
    private func onePass() {
        syncBoundsSize()
        var attributes: [LayoutAttributes] = []
        swap(&attributes, &attributesBuffer)
        layout.layoutAttributesForElements(in: bounds, into: &attributes)
        defer { attributesBuffer = attributes }
        // One look-up per element in view (this runs at every frame of a scroll): visible
        // views that are still wanted are updated in place and stamped with this pass; the
        // others go back to their queues; then the new ones are made, in layout order.
        layoutPass &+= 1
        pending.removeAll(keepingCapacity: true)
        var needsReorder = false
        func want(_ key: ElementKey, _ a: LayoutAttributes) {
            if let view = visibleViews[key] {
                guard view.visibleStamp != layoutPass else { return }   // listed twice: the first wins
                view.visibleStamp = layoutPass
                if view.zIndex != a.zIndex { needsReorder = true }
                view.apply(a)
            } else if !pending.contains(where: { $0.key == key }) {
                pending.append((key, a))
            }
        }
        for a in attributes {
            if a.category == .cell {
                let data = dataPath(forDisplay: a.indexPath)
                if let m = movement, data == m.original { continue }   // placed below
                want(ElementKey(category: .cell, indexPath: data), a)
            } else {
                want(ElementKey(category: a.category, indexPath: a.indexPath), a)
            }
        }
        // The moving cell follows the finger wherever its slot is.
        if let m = movement, var a = layout.layoutAttributesForItem(at: m.current) {
            a.frame = Rect(x: m.position.x - a.frame.width / 2, y: m.position.y - a.frame.height / 2,
                           width: a.frame.width, height: a.frame.height)
            a.zIndex = CollectionViewMetrics.movingItemZIndex
            want(ElementKey(category: .cell, indexPath: m.original), a)
        }
        retiring.removeAll(keepingCapacity: true)
        for (key, view) in visibleViews where view.visibleStamp != layoutPass { retiring.append(key) }
        retiring.sort()
        for key in retiring { retire(key) }
        for (key, a) in pending {
            guard let view = makeView(for: key) else { continue }
            view.apply(a)
            view.visibleStamp = layoutPass
            addSubview(view)
            visibleViews[key] = view
            if a.zIndex != LayoutZIndex.cell { needsReorder = true }
        }
        if needsReorder || hasNewCellInFrontOfSupplementary() { restoreZOrder() }
    }

    /// Re-keys the visible cells (after the data source moved items).
    func remapVisibleCells(_ map: (LayoutIndexPath) -> LayoutIndexPath) {
        var result: [ElementKey: CollectionReusableView] = [:]
        result.reserveCapacity(visibleViews.count)
        for (key, view) in visibleViews {
            var newKey = key
            if key.category == .cell {
                newKey.indexPath = map(key.indexPath)
                view.indexPath = newKey.indexPath
            }
            result[newKey] = view
        }
        visibleViews = result
    }

    private func syncBoundsSize() {
        if lastBoundsSize != frame.size {
            lastBoundsSize = frame.size
            layout.invalidateLayout(forBoundsSize: frame.size)
        }
    }

    private func clampContentOffset() {
        guard scrollPhase == .rest else { return }   // motion under way comes back by itself
        let hi = maximumContentOffset
        boundsOrigin = Point(x: min(boundsOrigin.x, hi.x), y: min(boundsOrigin.y, hi.y))
    }

    private func makeView(for key: ElementKey) -> CollectionReusableView? {
        guard let dataSource else { return nil }
        if key.category == .cell {
            let cell = dataSource.collectionView(self, cellForItemAt: key.indexPath)
            cell.collectionView = self
            cell.indexPath = key.indexPath
            cell.isSelected = selected.contains(key.indexPath)
            cell.isHighlighted = highlighted == key.indexPath
            return cell
        }
        guard let kind = key.category.elementKind,
              let view = dataSource.collectionView(self, viewForSupplementaryElementOfKind: kind, at: key.indexPath)
        else { return nil }
        view.collectionView = self
        view.elementKind = kind
        view.indexPath = key.indexPath
        return view
    }

    private func retire(_ key: ElementKey) {
        guard let view = visibleViews.removeValue(forKey: key) else { return }
        view.removeFromSuperview()
        view.indexPath = nil
        guard let identifier = view.reuseIdentifier else { return }
        if let cell = view as? CollectionViewCell {
            cellQueues[identifier, default: []].append(cell)
        } else if let kind = view.elementKind {
            supplementaryQueues[kind, default: [:]][identifier, default: []].append(view)
        }
    }

    private func isManaged(_ view: View) -> CollectionReusableView? {
        guard let v = view as? CollectionReusableView, v.collectionView === self, let p = v.indexPath else { return nil }
        let category: LayoutElementCategory = v.elementKind == nil ? .cell
            : (v.elementKind == LayoutElementKind.sectionFooter ? .footer : .header)
        return visibleViews[ElementKey(category: category, indexPath: p)] === v ? v : nil
    }

    private func hasNewCellInFrontOfSupplementary() -> Bool {
        var highest = Int.min
        for view in subviews {
            guard let v = isManaged(view) else { continue }
            if v.zIndex < highest { return true }
            highest = max(highest, v.zIndex)
        }
        return false
    }

    /// Moves the managed views with a zIndex above the cells' to the front, in zIndex order
    /// (then element order), so hit-testing finds them first.
    private func restoreZOrder() {
        guard hasNewCellInFrontOfSupplementary() else { return }
        var raised: [(Int, ElementKey, CollectionReusableView)] = []
        for (key, view) in visibleViews where view.zIndex > LayoutZIndex.cell {
            raised.append((view.zIndex, key, view))
        }
        raised.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        for (_, _, view) in raised { addSubview(view) }
    }
}
