import GestureKit

/// Supplies section and item counts to a `FlowLayout` (UICollectionViewDataSource's counting
/// half).
public protocol FlowLayoutDataSource: AnyObject {
    func numberOfSections() -> Int
    func numberOfItems(inSection section: Int) -> Int
}

/// A data source that is just an array of item counts, one per section.
public final class ItemCountsDataSource: FlowLayoutDataSource {
    public var itemCounts: [Int]
    public init(_ itemCounts: [Int]) { self.itemCounts = itemCounts }
    public func numberOfSections() -> Int { itemCounts.count }
    public func numberOfItems(inSection section: Int) -> Int { itemCounts[section] }
}

/// A data source made of two closures.
public final class ClosureFlowLayoutDataSource: FlowLayoutDataSource {
    private let sections: () -> Int
    private let items: (Int) -> Int
    public init(numberOfSections: @escaping () -> Int, numberOfItems: @escaping (Int) -> Int) {
        self.sections = numberOfSections
        self.items = numberOfItems
    }
    public func numberOfSections() -> Int { sections() }
    public func numberOfItems(inSection section: Int) -> Int { items(section) }
}

/// What to recompute on the next query (UICollectionViewFlowLayoutInvalidationContext).
/// Flags combine: the layout does the union of the work.
public struct FlowLayoutInvalidationContext: Hashable, Sendable {
    /// Re-read the number of sections and every count, and remeasure everything.
    public var invalidateEverything = false
    /// Re-read the number of sections and every section's count (O(sections) data source
    /// calls), remeasure everything.
    public var invalidateDataSourceCounts = false
    /// itemSize, spacing, insets or reference sizes changed: remeasure every section
    /// (O(sections) arithmetic), no data source calls
    /// (UIKit's `invalidateFlowLayoutDelegateMetrics`).
    public var invalidateFlowLayoutMetrics = false
    /// Only these sections' item counts changed (the number of sections did not): re-read
    /// their counts and remeasure from the first of them onwards.
    public var invalidatedSections: [Int] = []
    /// The collection view's bounds size changed to this (see
    /// `FlowLayout.shouldInvalidateLayout(forBoundsSize:)`).
    public var newBoundsSize: Size? = nil

    public init() {}

    public static var everything: Self { var c = Self(); c.invalidateEverything = true; return c }
    public static var dataSourceCounts: Self { var c = Self(); c.invalidateDataSourceCounts = true; return c }
    public static var metrics: Self { var c = Self(); c.invalidateFlowLayoutMetrics = true; return c }
    public static func sections(_ sections: [Int]) -> Self {
        var c = Self(); c.invalidatedSections = sections; return c
    }
    public static func boundsChange(to size: Size) -> Self {
        var c = Self(); c.newBoundsSize = size; return c
    }
}

/// UICollectionViewFlowLayout for uniform item sizes, headless.
///
/// ## Geometry (vertical scrolling; horizontal swaps the axes: lines become columns filled
/// top to bottom, sections run left to right)
///
/// Per section, along the scrolling axis: header (reference height, full collection-view
/// width; absent when that height is 0), `sectionInset.top`, the lines of items separated by
/// `minimumLineSpacing`, `sectionInset.bottom`, footer. Empty sections keep their header,
/// insets and footer (UIKit applies section insets to empty sections; apps return `.zero`
/// insets for them to avoid the gap).
///
/// Across a line: `available = width − inset.left − inset.right`;
/// `itemsPerLine = max(1, ⌊(available + minimumInteritemSpacing) / (itemWidth + minimumInteritemSpacing)⌋)`.
/// - Two or more per line: lines are justified as UIKit does: the first item touches
///   `inset.left`, the last of a full line touches `available`'s right edge, and the spacing
///   is `(available − n·itemWidth) / (n − 1)` ≥ the minimum ("the actual spacing may possibly
///   be adjusted upward", UICollectionViewFlowLayout.minimumInteritemSpacing docs).
/// - The last, partial line of a section: for uniform item sizes UIKit keeps the items on the
///   columns of the full lines (same spacing, left-aligned, so the grid stays a grid). UIKit
///   left-aligns the last row with exactly the minimum spacing only when sizes are
///   non-uniform, which this layout does not model (rdar://20825965, "last row is
///   left-aligned by default if items have a non-uniform height … internal optimization …
///   for uniform-sized elements"; newbedev/stackoverflow 56035879 "on the last line it used
///   exactly the minimumInteritemSpacing", a rounding-induced non-uniform case).
/// - One item per line (it is wider than can fit two): UIKit centres a line's lone item in
///   the available width (stackoverflow 13588283/"if an item ended up on a line by itself, it
///   would be centered by the flow layout"). With uniform sizes every line, the last one
///   included, is such a line, so every item is centred. An item wider than the available
///   width (UIKit logs "the item width must be less than the width of the UICollectionView
///   minus the section insets") starts at `inset.left` and overflows on the right.
///
/// Frames are not rounded to device pixels (UIKit rounds to the screen scale; headless we
/// keep exact values).
///
/// ## Cost
/// No per-item storage. A prefix-sum array of section starts (sections + 1 doubles) is
/// rebuilt lazily from the first stale section; a metrics change costs O(sections)
/// arithmetic, a count change in section k costs O(sections − k). Queries binary-search the
/// sections, then use arithmetic within a section: a rect query costs
/// O(log sections + visible elements).
open class FlowLayout: CollectionViewLayout {
    public enum ScrollDirection: String, Hashable, Sendable, CaseIterable {
        case vertical, horizontal
    }

    /// Lines that fit within this many points are accepted (guards against floating-point
    /// error in `itemsPerLine` when items fit exactly).
    public static let lineFitTolerance: Double = 1e-9

    // MARK: Configuration (setting any of these invalidates the metrics, as in UIKit)

    /// Default 50×50 points (UIKit's default itemSize).
    public var itemSize = Size(width: 50, height: 50) { didSet { if itemSize != oldValue { metricsChanged() } } }
    /// Points between lines (rows when vertical, columns when horizontal); UIKit default 10.
    public var minimumLineSpacing: Double = 10 { didSet { if minimumLineSpacing != oldValue { metricsChanged() } } }
    /// Minimum points between items in a line; UIKit default 10.
    public var minimumInteritemSpacing: Double = 10 { didSet { if minimumInteritemSpacing != oldValue { metricsChanged() } } }
    /// Points around each section's items (not around its header and footer); default zero.
    public var sectionInset = EdgeInsets.zero { didSet { if sectionInset != oldValue { metricsChanged() } } }
    /// Vertical: only the height is used (the header spans the width). Horizontal: only the
    /// width is used. Zero there means no header. Default zero.
    public var headerReferenceSize = Size.zero { didSet { if headerReferenceSize != oldValue { metricsChanged() } } }
    public var footerReferenceSize = Size.zero { didSet { if footerReferenceSize != oldValue { metricsChanged() } } }
    public var scrollDirection = ScrollDirection.vertical { didSet { if scrollDirection != oldValue { metricsChanged() } } }
    /// The collection view's bounds size, points. Vertical scrolling uses its width,
    /// horizontal its height; the other dimension only matters to the caller.
    public private(set) var boundsSize: Size

    /// Held weakly, as UIKit's layout holds its collection view. `nil` means no sections.
    public weak var dataSource: (any FlowLayoutDataSource)? {
        didSet { pendingCounts = .all }
    }
    private var retainedDataSource: (any FlowLayoutDataSource)?

    // MARK: Cached state

    private enum PendingCounts { case none, all, some }
    private var pendingCounts = PendingCounts.all
    private var pendingSections: [Int] = []
    private var counts: [Int] = []
    /// `starts[s]` is where section s begins along the scrolling axis; `starts[count]` is the
    /// content length. `starts[0]` is always 0; `starts[s + 1]` is valid for s < `measuredUpTo`.
    private var starts: [Double] = [0]
    /// Sections `0..<measuredUpTo` have valid `starts[s + 1]`.
    private var measuredUpTo = 0
    private var metricsValid = false
    private var m = Metrics()

    /// Counters for tests and profiling: work done since creation.
    package struct Diagnostics: Hashable, Sendable {
        /// Sections whose length was (re)computed into the prefix sums.
        package var sectionsMeasured = 0
        /// `numberOfItems(inSection:)` calls made.
        package var countsRead = 0
    }
    package private(set) var diagnostics = Diagnostics()

    public init(dataSource: (any FlowLayoutDataSource)?, boundsSize: Size) {
        self.dataSource = dataSource
        self.boundsSize = boundsSize
        super.init()
    }

    /// Convenience: the layout owns a static `ItemCountsDataSource`.
    public convenience init(itemCounts: [Int], boundsSize: Size) {
        let source = ItemCountsDataSource(itemCounts)
        self.init(dataSource: source, boundsSize: boundsSize)
        retainedDataSource = source
    }

    // MARK: Invalidation

    open override func invalidateLayout() {
        invalidateLayout(with: .everything)
    }

    public func invalidateLayout(with context: FlowLayoutInvalidationContext) {
        if context.invalidateEverything || context.invalidateDataSourceCounts {
            pendingCounts = .all
            pendingSections.removeAll(keepingCapacity: true)
        } else if !context.invalidatedSections.isEmpty, pendingCounts != .all {
            pendingCounts = .some
            pendingSections.append(contentsOf: context.invalidatedSections)
        }
        if context.invalidateEverything || context.invalidateFlowLayoutMetrics {
            metricsChanged()
        }
        if let size = context.newBoundsSize, size != boundsSize {
            let crossChanged = crossLength(of: size) != crossLength(of: boundsSize)
            boundsSize = size
            // Only the cross-axis length changes line breaking and header spans; the
            // scrolling-axis length changes nothing in the layout.
            if crossChanged { metricsChanged() }
        }
        layoutBecameStale()
    }

    /// UIKit's `shouldInvalidateLayout(forBoundsChange:)` for a flow layout: true when the
    /// size changes (scrolling, i.e. an origin change, never invalidates).
    public func shouldInvalidateLayout(forBoundsSize newSize: Size) -> Bool {
        newSize != boundsSize
    }

    /// UIKit's: a new size invalidates, a new origin (scrolling) does not.
    open override func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool {
        shouldInvalidateLayout(forBoundsSize: newBounds.size)
    }

    /// Computes the metrics and the section offsets not yet measured; call `super` when
    /// overriding.
    open override func prepare() {
        super.prepare()
        prepareCaches()
    }

    // MARK: Binding to a collection view

    open override func bind(to source: CollectionViewLayoutSource) {
        dataSource = source
        invalidateLayout(with: .dataSourceCounts)
    }
    open override func invalidateLayout(forBoundsSize size: Size) {
        invalidateLayout(with: .boundsChange(to: size))
    }
    open override func invalidateLayout(forItemsInSections sections: [Int]) {
        invalidateLayout(with: .sections(sections))
    }

    private func metricsChanged() {
        metricsValid = false
        measuredUpTo = 0
        // UIKit's flow layout invalidates itself when a property changes.
        layoutBecameStale()
    }

    // MARK: Lazy preparation

    private struct Metrics {
        var itemsPerLine = 1
        var itemMain = 0.0, itemCross = 0.0
        var linePitch = 0.0        // itemMain + lineSpacing
        var crossFirst = 0.0       // cross-axis origin of column 0
        var crossPitch = 0.0       // itemCross + actual interitem spacing (0 when one per line)
        var lineSpacing = 0.0
        var headerMain = 0.0, footerMain = 0.0
        var insetBefore = 0.0, insetAfter = 0.0
        var boundsCross = 0.0
        var hasVisibleItems = false
    }

    private func crossLength(of size: Size) -> Double {
        scrollDirection == .vertical ? size.width : size.height
    }

    private func computeMetrics() {
        var k = Metrics()
        let vertical = scrollDirection == .vertical
        k.itemMain = vertical ? itemSize.height : itemSize.width
        k.itemCross = vertical ? itemSize.width : itemSize.height
        k.lineSpacing = minimumLineSpacing
        k.linePitch = k.itemMain + minimumLineSpacing
        k.headerMain = max(0, vertical ? headerReferenceSize.height : headerReferenceSize.width)
        k.footerMain = max(0, vertical ? footerReferenceSize.height : footerReferenceSize.width)
        k.insetBefore = vertical ? sectionInset.top : sectionInset.left
        k.insetAfter = vertical ? sectionInset.bottom : sectionInset.right
        let crossBefore = vertical ? sectionInset.left : sectionInset.top
        let crossAfter = vertical ? sectionInset.right : sectionInset.bottom
        k.boundsCross = crossLength(of: boundsSize)
        let available = k.boundsCross - crossBefore - crossAfter
        let pitch = k.itemCross + minimumInteritemSpacing
        var n = 1
        if pitch > 0 {
            let fit = (available + minimumInteritemSpacing) / pitch + Self.lineFitTolerance
            n = max(1, clampedFloor(fit, 1, 1 << 40))
        }
        k.itemsPerLine = n
        if n >= 2 {
            let spacing = (available - Double(n) * k.itemCross) / Double(n - 1)
            k.crossPitch = k.itemCross + spacing
            k.crossFirst = crossBefore
        } else {
            k.crossPitch = 0
            k.crossFirst = crossBefore + max(0, (available - k.itemCross) / 2)
        }
        k.hasVisibleItems = k.itemMain > 0 && k.itemCross > 0
        m = k
        metricsValid = true
    }

    private func refreshCounts() {
        switch pendingCounts {
        case .none:
            return
        case .all:
            let source = dataSource
            let sectionCount = max(0, source?.numberOfSections() ?? 0)
            counts.removeAll(keepingCapacity: true)
            counts.reserveCapacity(sectionCount)
            for s in 0..<sectionCount {
                counts.append(max(0, source!.numberOfItems(inSection: s)))
            }
            diagnostics.countsRead += sectionCount
            if starts.count != sectionCount + 1 {
                starts = [Double](repeating: 0, count: sectionCount + 1)
            }
            measuredUpTo = 0
        case .some:
            var first = counts.count
            if let source = dataSource {
                for s in pendingSections where s >= 0 && s < counts.count {
                    counts[s] = max(0, source.numberOfItems(inSection: s))
                    diagnostics.countsRead += 1
                    first = min(first, s)
                }
            }
            measuredUpTo = min(measuredUpTo, first)
        }
        pendingCounts = .none
        pendingSections.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    private func prepareCaches() {
        if pendingCounts != .none { refreshCounts() }
        if !metricsValid { computeMetrics() }
        if measuredUpTo < counts.count { measure() }
    }

    private func measure() {
        let k = m
        let fixed = k.headerMain + k.insetBefore + k.insetAfter + k.footerMain
        let n = k.itemsPerLine
        let sectionCount = counts.count
        let from = measuredUpTo
        counts.withUnsafeBufferPointer { c in
            starts.withUnsafeMutableBufferPointer { st in
                var y = st[from]
                for s in from..<sectionCount {
                    let count = c[s]
                    var length = fixed
                    if count > 0 {
                        let lines = (count - 1) / n + 1
                        length += Double(lines) * k.linePitch - k.lineSpacing
                    }
                    y += length
                    st[s + 1] = y
                }
            }
        }
        diagnostics.sectionsMeasured += sectionCount - from
        measuredUpTo = sectionCount
    }

    // MARK: Frames

    @inline(__always)
    private func rect(main: Double, cross: Double, mainLength: Double, crossLength: Double) -> Rect {
        scrollDirection == .vertical
            ? Rect(x: cross, y: main, width: crossLength, height: mainLength)
            : Rect(x: main, y: cross, width: mainLength, height: crossLength)
    }

    @inline(__always)
    private func itemFrame(section s: Int, item i: Int) -> Rect {
        let k = m
        let line = i / k.itemsPerLine, column = i - line * k.itemsPerLine
        let main = starts[s] + k.headerMain + k.insetBefore + Double(line) * k.linePitch
        let cross = k.crossFirst + Double(column) * k.crossPitch
        return rect(main: main, cross: cross, mainLength: k.itemMain, crossLength: k.itemCross)
    }

    @inline(__always)
    private func headerFrame(section s: Int) -> Rect {
        rect(main: starts[s], cross: 0, mainLength: m.headerMain, crossLength: m.boundsCross)
    }

    @inline(__always)
    private func footerFrame(section s: Int) -> Rect {
        rect(main: starts[s + 1] - m.footerMain, cross: 0, mainLength: m.footerMain, crossLength: m.boundsCross)
    }

    // MARK: Queries

    public var numberOfSections: Int { prepareCaches(); return counts.count }

    public func numberOfItems(inSection section: Int) -> Int {
        prepareCaches()
        return section >= 0 && section < counts.count ? counts[section] : 0
    }

    /// Items per line (row when vertical, column when horizontal) for the current metrics.
    public var itemsPerLine: Int { prepareCaches(); return m.itemsPerLine }

    open override var collectionViewContentSize: Size {
        prepareCaches()
        let length = starts[counts.count]
        return scrollDirection == .vertical
            ? Size(width: m.boundsCross, height: length)
            : Size(width: length, height: m.boundsCross)
    }

    open override func layoutAttributesForItem(at indexPath: LayoutIndexPath) -> LayoutAttributes? {
        prepareCaches()
        let s = indexPath.section, i = indexPath.item
        guard s >= 0, s < counts.count, i >= 0, i < counts[s] else { return nil }
        return LayoutAttributes(indexPath: indexPath, frame: itemFrame(section: s, item: i), category: .cell)
    }

    open override func layoutAttributesForSupplementaryView(ofKind kind: String,
                                                            at indexPath: LayoutIndexPath) -> LayoutAttributes? {
        prepareCaches()
        let s = indexPath.section
        guard s >= 0, s < counts.count else { return nil }
        let path = LayoutIndexPath(item: 0, section: s)
        switch kind {
        case LayoutElementKind.sectionHeader where m.headerMain > 0:
            return LayoutAttributes(indexPath: path, frame: headerFrame(section: s), category: .header)
        case LayoutElementKind.sectionFooter where m.footerMain > 0:
            return LayoutAttributes(indexPath: path, frame: footerFrame(section: s), category: .footer)
        default:
            return nil
        }
    }

    open override func layoutAttributesForElements(in rect: Rect) -> [LayoutAttributes] {
        var buffer: [LayoutAttributes] = []
        flowAttributes(in: rect, into: &buffer)
        return buffer
    }

    /// Without an array for a `FlowLayout` itself; through `layoutAttributesForElements(in:)`
    /// for a subclass, which may override that.
    public override func layoutAttributesForElements(in rect: Rect, into buffer: inout [LayoutAttributes]) {
        if type(of: self) == FlowLayout.self {
            flowAttributes(in: rect, into: &buffer)
        } else {
            super.layoutAttributesForElements(in: rect, into: &buffer)
        }
    }

    private func flowAttributes(in rect: Rect, into buffer: inout [LayoutAttributes]) {
        buffer.removeAll(keepingCapacity: true)
        prepareCaches()
        let sectionCount = counts.count
        guard sectionCount > 0, rect.width > 0, rect.height > 0 else { return }
        let k = m
        let vertical = scrollDirection == .vertical
        let u0 = vertical ? rect.minY : rect.minX, u1 = vertical ? rect.maxY : rect.maxX
        let v0 = vertical ? rect.minX : rect.minY, v1 = vertical ? rect.maxX : rect.maxY
        var s = starts.withUnsafeBufferPointer {
            firstSection(endingAfter: u0, starts: $0, sectionCount: sectionCount)
        }
        // Columns are the same in every section.
        let lastColumn = k.itemsPerLine - 1
        var columnLo = 0, columnHi = lastColumn
        if k.crossPitch > 0 {
            columnLo = clampedFloor((v0 - k.crossFirst) / k.crossPitch - 1, 0, lastColumn)
            columnHi = clampedFloor((v1 - k.crossFirst) / k.crossPitch, 0, lastColumn)
        }
        while s < sectionCount, starts[s] < u1 {
            let path = LayoutIndexPath(item: 0, section: s)
            if k.headerMain > 0 {
                let f = headerFrame(section: s)
                if f.intersects(rect) { buffer.append(LayoutAttributes(indexPath: path, frame: f, category: .header)) }
            }
            let count = counts[s]
            if count > 0, k.hasVisibleItems {
                let itemsStart = starts[s] + k.headerMain + k.insetBefore
                let lastLine = (count - 1) / k.itemsPerLine
                var lineLo = 0, lineHi = lastLine
                if k.linePitch > 0 {
                    lineLo = clampedFloor((u0 - itemsStart) / k.linePitch - 1, 0, lastLine)
                    lineHi = clampedFloor((u1 - itemsStart) / k.linePitch, 0, lastLine)
                }
                if lineLo <= lineHi {
                    for line in lineLo...lineHi {
                        let main = itemsStart + Double(line) * k.linePitch
                        for column in columnLo...columnHi {
                            let item = line * k.itemsPerLine + column
                            if item >= count { break }
                            let f = self.rect(main: main, cross: k.crossFirst + Double(column) * k.crossPitch,
                                              mainLength: k.itemMain, crossLength: k.itemCross)
                            if f.intersects(rect) {
                                buffer.append(LayoutAttributes(indexPath: LayoutIndexPath(item: item, section: s),
                                                               frame: f, category: .cell))
                            }
                        }
                    }
                }
            }
            if k.footerMain > 0 {
                let f = footerFrame(section: s)
                if f.intersects(rect) { buffer.append(LayoutAttributes(indexPath: path, frame: f, category: .footer)) }
            }
            s += 1
        }
    }

    open override func indexPathForItem(at point: Point) -> LayoutIndexPath? {
        prepareCaches()
        let sectionCount = counts.count
        let k = m
        guard sectionCount > 0, k.hasVisibleItems, point.isFinite else { return nil }
        let vertical = scrollDirection == .vertical
        let u = vertical ? point.y : point.x, v = vertical ? point.x : point.y
        let s = starts.withUnsafeBufferPointer {
            firstSection(endingAfter: u, starts: $0, sectionCount: sectionCount)
        }
        guard s < sectionCount, starts[s] <= u, counts[s] > 0 else { return nil }
        let count = counts[s]
        let itemsStart = starts[s] + k.headerMain + k.insetBefore
        let lastLine = (count - 1) / k.itemsPerLine
        let line = k.linePitch > 0 ? clampedFloor((u - itemsStart) / k.linePitch, 0, lastLine) : 0
        let column = k.crossPitch > 0 ? clampedFloor((v - k.crossFirst) / k.crossPitch, 0, k.itemsPerLine - 1) : 0
        let item = line * k.itemsPerLine + column
        guard item < count, itemFrame(section: s, item: item).contains(point) else { return nil }
        return LayoutIndexPath(item: item, section: s)
    }

    /// UIKit's `targetIndexPath(forInteractivelyMovingItem:withPosition:)`: the index the
    /// moved item takes with the finger at `position`.
    ///
    /// - The section is the one whose band (header to footer) contains the position along
    ///   the scrolling axis, clamped to the first and last sections.
    /// - Within it, the line and column are the nearest slots: a gap belongs half to the
    ///   slot before it and half to the slot after (so a finger in the spacing picks the
    ///   closer item), positions above the first line count as the first line, beyond the
    ///   last column as the last column.
    /// - Past the end (after the last item of a partial line, or below the last line) the
    ///   index is the section's last valid one: `count − 1` when moving within the section,
    ///   `count` (append) when moving in from another section. An empty destination section
    ///   gives item 0.
    open override func targetIndexPathForInteractivelyMovingItem(_ previousIndexPath: LayoutIndexPath,
                                                                 withPosition position: Point) -> LayoutIndexPath? {
        prepareCaches()
        let sectionCount = counts.count
        guard sectionCount > 0, position.isFinite else { return nil }
        let k = m
        let vertical = scrollDirection == .vertical
        let u = vertical ? position.y : position.x, v = vertical ? position.x : position.y
        let s = min(sectionCount - 1, starts.withUnsafeBufferPointer {
            firstSection(endingAfter: u, starts: $0, sectionCount: sectionCount)
        })
        let count = counts[s]
        let maxIndex = s == previousIndexPath.section ? count - 1 : count
        guard count > 0, maxIndex > 0 else { return LayoutIndexPath(item: max(0, maxIndex), section: s) }
        let itemsStart = starts[s] + k.headerMain + k.insetBefore
        let lastLine = (count - 1) / k.itemsPerLine
        let itemsEnd = itemsStart + Double(lastLine) * k.linePitch + k.itemMain
        if u >= itemsEnd { return LayoutIndexPath(item: maxIndex, section: s) }
        let line = k.linePitch > 0
            ? clampedFloor((u - itemsStart + k.lineSpacing / 2) / k.linePitch, 0, lastLine) : 0
        var column = 0
        if k.crossPitch > 0 {
            let spacing = k.crossPitch - k.itemCross
            column = clampedFloor((v - k.crossFirst + spacing / 2) / k.crossPitch, 0, k.itemsPerLine - 1)
        }
        return LayoutIndexPath(item: min(line * k.itemsPerLine + column, maxIndex), section: s)
    }
}
