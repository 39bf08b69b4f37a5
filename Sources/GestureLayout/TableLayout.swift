import GestureKit

/// Supplies a `TableLayout`'s sections (UITableViewDataSource's counting half plus the
/// height-related UITableViewDelegate methods). Every method but the two counts has a
/// default.
public protocol TableLayoutDataSource: AnyObject {
    func numberOfSections() -> Int
    func numberOfRows(inSection section: Int) -> Int
    /// Per-row heights for a section whose rows differ (`tableView(_:heightForRowAt:)`), one
    /// per row; nil (the default) means every row is `TableLayout.rowHeight`. Only sections
    /// that return an array cost storage (a prefix sum per row).
    func rowHeights(inSection section: Int) -> [Double]?
    /// `tableView(_:titleForHeaderInSection:)`; default nil.
    func titleForHeader(inSection section: Int) -> String?
    func titleForFooter(inSection section: Int) -> String?
    /// `tableView(_:heightForHeaderInSection:)`; nil (the default) means the table's
    /// `sectionHeaderHeight`, or, if that is nil too, the style's default for a header with
    /// or without a title.
    func heightForHeader(inSection section: Int) -> Double?
    func heightForFooter(inSection section: Int) -> Double?
}

extension TableLayoutDataSource {
    public func rowHeights(inSection section: Int) -> [Double]? { nil }
    public func titleForHeader(inSection section: Int) -> String? { nil }
    public func titleForFooter(inSection section: Int) -> String? { nil }
    public func heightForHeader(inSection section: Int) -> Double? { nil }
    public func heightForFooter(inSection section: Int) -> Double? { nil }
}

/// A table data source described by value, one `Section` per section.
public final class StaticTableDataSource: TableLayoutDataSource {
    public struct Section: Hashable, Sendable {
        public var rows: Int
        public var rowHeights: [Double]?
        public var headerTitle: String?
        public var footerTitle: String?
        public var headerHeight: Double?
        public var footerHeight: Double?
        public init(rows: Int, rowHeights: [Double]? = nil, headerTitle: String? = nil,
                    footerTitle: String? = nil, headerHeight: Double? = nil, footerHeight: Double? = nil) {
            self.rows = rowHeights?.count ?? rows
            self.rowHeights = rowHeights
            self.headerTitle = headerTitle
            self.footerTitle = footerTitle
            self.headerHeight = headerHeight
            self.footerHeight = footerHeight
        }
    }
    public var sections: [Section]
    public init(_ sections: [Section]) { self.sections = sections }
    public func numberOfSections() -> Int { sections.count }
    public func numberOfRows(inSection section: Int) -> Int { sections[section].rows }
    public func rowHeights(inSection section: Int) -> [Double]? { sections[section].rowHeights }
    public func titleForHeader(inSection section: Int) -> String? { sections[section].headerTitle }
    public func titleForFooter(inSection section: Int) -> String? { sections[section].footerTitle }
    public func heightForHeader(inSection section: Int) -> Double? { sections[section].headerHeight }
    public func heightForFooter(inSection section: Int) -> Double? { sections[section].footerHeight }
}

/// What to recompute on the next query.
public struct TableLayoutInvalidationContext: Hashable, Sendable {
    /// Re-read the whole data source (numberOfSections, counts, titles, heights).
    public var invalidateEverything = false
    /// rowHeight, style, default heights or sectionHeader/FooterHeight changed: re-resolve
    /// header/footer heights from what was read and remeasure (no data source calls).
    public var invalidateMetrics = false
    /// Only these sections changed (rows, row heights, titles or heights; not the number of
    /// sections): re-read them and remeasure from the first of them onwards.
    public var invalidatedSections: [Int] = []
    /// The table's bounds size changed to this. Only the width matters (rows span it);
    /// nothing is remeasured.
    public var newBoundsSize: Size? = nil

    public init() {}
    public static var everything: Self { var c = Self(); c.invalidateEverything = true; return c }
    public static var metrics: Self { var c = Self(); c.invalidateMetrics = true; return c }
    public static func sections(_ sections: [Int]) -> Self { var c = Self(); c.invalidatedSections = sections; return c }
    public static func boundsChange(to size: Size) -> Self { var c = Self(); c.newBoundsSize = size; return c }
}

/// UITableView's geometry, headless: a vertical stack of sections, each a header, its rows
/// and a footer, all spanning the table's width.
///
/// ## Default heights (points; Apple documents only `automaticDimension`, so these are the
/// values UIKit has resolved to at the default text size, iOS 7 to 14; they are not in
/// Apple's documentation and were not measured on a device here, so all are named constants
/// and any of them can be overridden per section or through `sectionHeaderHeight` /
/// `sectionFooterHeight`)
/// - Row: `defaultRowHeight` 44 (UITableView's historical `rowHeight` and the standard
///   UITableViewCell height).
/// - `.plain`: a header or footer with a title and no explicit height is
///   `plainTitledHeaderFooterHeight` 22 (UITableView's plain `sectionHeaderHeight` before
///   iOS 11); with neither title nor height there is no header/footer (height 0).
/// - `.grouped`: sections are always separated: a header without title is
///   `groupedUntitledHeaderHeight` 18, a footer without title `groupedUntitledFooterHeight`
///   18 (so 36 points between two untitled sections), a titled header
///   `groupedTitledHeaderHeight` 55.5 (the title sits at its bottom with the section gap
///   above it), a titled footer `groupedTitledFooterHeight` 37.5 (one line of footnote
///   text plus the gap below).
///
/// An explicit height of 0 gives no header/footer in both styles. (UIKit's grouped style
/// treats 0 from the delegate as "use the default"; apps return
/// `.leastNonzeroMagnitude` to get none. We honour 0 and document the difference.)
///
/// iOS 15's `sectionHeaderTopPadding` is not modelled (take it as 0). Plain-style floating
/// (pinned) headers are not modelled: frames are the unpinned ones.
public final class TableLayout: CollectionViewLayout {
    public enum Style: String, Hashable, Sendable, CaseIterable { case plain, grouped }

    /// Height of a standard row, points.
    public static let defaultRowHeight: Double = 44
    /// Plain style: header or footer with a title and no height, points.
    public static let plainTitledHeaderFooterHeight: Double = 22
    /// Grouped style: header without title, points.
    public static let groupedUntitledHeaderHeight: Double = 18
    /// Grouped style: footer without title, points.
    public static let groupedUntitledFooterHeight: Double = 18
    /// Grouped style: header with a one-line title, points.
    public static let groupedTitledHeaderHeight: Double = 55.5
    /// Grouped style: footer with a one-line title, points.
    public static let groupedTitledFooterHeight: Double = 37.5

    public var style: Style { didSet { if style != oldValue { metricsChanged() } } }
    /// Height of rows without a per-row height, points.
    public var rowHeight: Double = TableLayout.defaultRowHeight { didSet { if rowHeight != oldValue { metricsChanged() } } }
    /// UITableView.sectionHeaderHeight: used when the data source gives no height; nil means
    /// automatic (the style defaults above).
    public var sectionHeaderHeight: Double? = nil { didSet { if sectionHeaderHeight != oldValue { metricsChanged() } } }
    public var sectionFooterHeight: Double? = nil { didSet { if sectionFooterHeight != oldValue { metricsChanged() } } }
    /// The table's bounds size; rows, headers and footers span its width.
    public private(set) var boundsSize: Size

    public weak var dataSource: (any TableLayoutDataSource)? { didSet { pendingAll = true } }
    private var retainedDataSource: (any TableLayoutDataSource)?

    private struct SectionInfo {
        var rows = 0
        var explicitHeader: Double?
        var explicitFooter: Double?
        var hasHeaderTitle = false
        var hasFooterTitle = false
        /// Prefix sums of per-row heights (rows + 1 entries, first 0), or nil when uniform.
        var rowOffsets: [Double]?
        // Resolved by `resolve` for the current metrics:
        var header = 0.0
        var footer = 0.0
    }

    private var pendingAll = true
    private var pendingSections: [Int] = []
    private var metricsValid = false
    private var sections: [SectionInfo] = []
    private var starts: [Double] = [0]
    private var measuredUpTo = 0

    package struct Diagnostics: Hashable, Sendable {
        package var sectionsMeasured = 0
        package var sectionsRead = 0
    }
    package private(set) var diagnostics = Diagnostics()

    public init(style: Style, dataSource: (any TableLayoutDataSource)?, boundsSize: Size) {
        self.style = style
        self.dataSource = dataSource
        self.boundsSize = boundsSize
        super.init()
    }

    /// Convenience: the layout owns a `StaticTableDataSource`.
    public convenience init(style: Style, sections: [StaticTableDataSource.Section], boundsSize: Size) {
        let source = StaticTableDataSource(sections)
        self.init(style: style, dataSource: source, boundsSize: boundsSize)
        retainedDataSource = source
    }

    // MARK: Invalidation

    public override func invalidateLayout() { invalidateLayout(with: .everything) }

    public func invalidateLayout(with context: TableLayoutInvalidationContext) {
        if context.invalidateEverything {
            pendingAll = true
            pendingSections.removeAll(keepingCapacity: true)
        } else if !pendingAll {
            pendingSections.append(contentsOf: context.invalidatedSections)
        }
        if context.invalidateMetrics { metricsChanged() }
        if let size = context.newBoundsSize { boundsSize = size }
        layoutBecameStale()
    }

    public override func prepare() {
        super.prepare()
        prepareCaches()
    }

    /// A new width re-lays the table (its rows span it); scrolling does not.
    public override func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool {
        newBounds.size != boundsSize
    }

    public override func bind(to source: CollectionViewLayoutSource) {
        dataSource = source
        invalidateLayout(with: .everything)
    }
    public override func invalidateLayout(forBoundsSize size: Size) {
        invalidateLayout(with: .boundsChange(to: size))
    }
    public override func invalidateLayout(forItemsInSections sections: [Int]) {
        invalidateLayout(with: .sections(sections))
    }

    private func metricsChanged() {
        metricsValid = false
        measuredUpTo = 0
        layoutBecameStale()
    }

    // MARK: Lazy preparation

    private func read(_ s: Int, from source: any TableLayoutDataSource) -> SectionInfo {
        var info = SectionInfo()
        let heights = source.rowHeights(inSection: s)
        info.rows = max(0, heights?.count ?? source.numberOfRows(inSection: s))
        if let heights {
            var offsets = [Double](repeating: 0, count: heights.count + 1)
            var y = 0.0
            for (r, h) in heights.enumerated() {
                y += max(0, h)
                offsets[r + 1] = y
            }
            info.rowOffsets = offsets
        }
        info.explicitHeader = source.heightForHeader(inSection: s)
        info.explicitFooter = source.heightForFooter(inSection: s)
        info.hasHeaderTitle = source.titleForHeader(inSection: s) != nil
        info.hasFooterTitle = source.titleForFooter(inSection: s) != nil
        resolve(&info)
        diagnostics.sectionsRead += 1
        return info
    }

    private func resolve(_ info: inout SectionInfo) {
        func header() -> Double {
            if let h = info.explicitHeader ?? sectionHeaderHeight { return max(0, h) }
            switch style {
            case .plain: return info.hasHeaderTitle ? Self.plainTitledHeaderFooterHeight : 0
            case .grouped: return info.hasHeaderTitle ? Self.groupedTitledHeaderHeight : Self.groupedUntitledHeaderHeight
            }
        }
        func footer() -> Double {
            if let h = info.explicitFooter ?? sectionFooterHeight { return max(0, h) }
            switch style {
            case .plain: return info.hasFooterTitle ? Self.plainTitledHeaderFooterHeight : 0
            case .grouped: return info.hasFooterTitle ? Self.groupedTitledFooterHeight : Self.groupedUntitledFooterHeight
            }
        }
        info.header = header()
        info.footer = footer()
    }

    @inline(__always)
    private func prepareCaches() {
        if pendingAll || !pendingSections.isEmpty { refresh() }
        if !metricsValid {
            for s in sections.indices { resolve(&sections[s]) }
            metricsValid = true
            measuredUpTo = 0
        }
        if measuredUpTo < sections.count { measure() }
    }

    private func refresh() {
        if pendingAll {
            sections.removeAll(keepingCapacity: true)
            if let source = dataSource {
                let count = max(0, source.numberOfSections())
                sections.reserveCapacity(count)
                for s in 0..<count { sections.append(read(s, from: source)) }
            }
            if starts.count != sections.count + 1 { starts = [Double](repeating: 0, count: sections.count + 1) }
            measuredUpTo = 0
            metricsValid = true
        } else if let source = dataSource {
            var first = sections.count
            for s in pendingSections where s >= 0 && s < sections.count {
                sections[s] = read(s, from: source)
                first = min(first, s)
            }
            measuredUpTo = min(measuredUpTo, first)
        }
        pendingAll = false
        pendingSections.removeAll(keepingCapacity: true)
    }

    private func measure() {
        let from = measuredUpTo
        var y = starts[from]
        for s in from..<sections.count {
            y += sectionLength(sections[s])
            starts[s + 1] = y
        }
        diagnostics.sectionsMeasured += sections.count - from
        measuredUpTo = sections.count
    }

    @inline(__always)
    private func rowsLength(_ info: SectionInfo) -> Double {
        if let offsets = info.rowOffsets { return offsets[info.rows] }
        return Double(info.rows) * rowHeight
    }

    @inline(__always)
    private func sectionLength(_ info: SectionInfo) -> Double {
        info.header + rowsLength(info) + info.footer
    }

    /// Row `r`'s top relative to the section's first row, and its height.
    @inline(__always)
    private func rowSpan(_ info: SectionInfo, _ r: Int) -> (top: Double, height: Double) {
        if let offsets = info.rowOffsets { return (offsets[r], offsets[r + 1] - offsets[r]) }
        return (Double(r) * rowHeight, rowHeight)
    }

    /// The row of the section containing `y` (relative to the first row), clamped to the
    /// section's rows.
    private func rowIndex(_ info: SectionInfo, at y: Double) -> Int {
        let last = info.rows - 1
        if let offsets = info.rowOffsets {
            // First r with offsets[r + 1] > y.
            var lo = 0, hi = last
            while lo < hi {
                let mid = (lo + hi) >> 1
                if offsets[mid + 1] > y { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        return rowHeight > 0 ? clampedFloor(y / rowHeight, 0, last) : 0
    }

    // MARK: Rects (UITableView's rect(forSection:), rectForRow(at:), ...)

    public var numberOfSections: Int { prepareCaches(); return sections.count }

    public func numberOfRows(inSection section: Int) -> Int {
        prepareCaches()
        return section >= 0 && section < sections.count ? sections[section].rows : 0
    }

    public override var collectionViewContentSize: Size {
        prepareCaches()
        return Size(width: boundsSize.width, height: starts[sections.count])
    }

    /// The whole section, header to footer; `.zero` for a section that does not exist.
    public func rect(forSection section: Int) -> Rect {
        prepareCaches()
        guard section >= 0, section < sections.count else { return .zero }
        return Rect(x: 0, y: starts[section], width: boundsSize.width, height: starts[section + 1] - starts[section])
    }

    /// Zero height when the section has no header.
    public func rectForHeader(inSection section: Int) -> Rect {
        prepareCaches()
        guard section >= 0, section < sections.count else { return .zero }
        return Rect(x: 0, y: starts[section], width: boundsSize.width, height: sections[section].header)
    }

    public func rectForFooter(inSection section: Int) -> Rect {
        prepareCaches()
        guard section >= 0, section < sections.count else { return .zero }
        let h = sections[section].footer
        return Rect(x: 0, y: starts[section + 1] - h, width: boundsSize.width, height: h)
    }

    public func rectForRow(at indexPath: LayoutIndexPath) -> Rect {
        prepareCaches()
        let s = indexPath.section
        guard s >= 0, s < sections.count, indexPath.row >= 0, indexPath.row < sections[s].rows else { return .zero }
        return rowFrame(s, indexPath.row)
    }

    @inline(__always)
    private func rowFrame(_ s: Int, _ r: Int) -> Rect {
        let info = sections[s]
        let span = rowSpan(info, r)
        return Rect(x: 0, y: starts[s] + info.header + span.top, width: boundsSize.width, height: span.height)
    }

    /// The row whose rect contains `point`; nil in headers, footers and outside the table.
    public func indexPathForRow(at point: Point) -> LayoutIndexPath? { indexPathForItem(at: point) }

    /// Index paths of the rows whose rects share area with `rect`.
    public func indexPathsForRows(in rect: Rect) -> [LayoutIndexPath] {
        var buffer: [LayoutAttributes] = []
        layoutAttributesForElements(in: rect, into: &buffer)
        return buffer.lazy.filter { $0.category == .cell }.map(\.indexPath)
    }

    // MARK: What a collection view asks

    public override func layoutAttributesForItem(at indexPath: LayoutIndexPath) -> LayoutAttributes? {
        prepareCaches()
        let s = indexPath.section
        guard s >= 0, s < sections.count, indexPath.row >= 0, indexPath.row < sections[s].rows else { return nil }
        return LayoutAttributes(indexPath: indexPath, frame: rowFrame(s, indexPath.row), category: .cell)
    }

    public override func layoutAttributesForSupplementaryView(ofKind kind: String,
                                                     at indexPath: LayoutIndexPath) -> LayoutAttributes? {
        prepareCaches()
        let s = indexPath.section
        guard s >= 0, s < sections.count else { return nil }
        let path = LayoutIndexPath(row: 0, section: s)
        switch kind {
        case LayoutElementKind.sectionHeader where sections[s].header > 0:
            return LayoutAttributes(indexPath: path, frame: rectForHeader(inSection: s), category: .header)
        case LayoutElementKind.sectionFooter where sections[s].footer > 0:
            return LayoutAttributes(indexPath: path, frame: rectForFooter(inSection: s), category: .footer)
        default:
            return nil
        }
    }

    public override func layoutAttributesForElements(in rect: Rect) -> [LayoutAttributes] {
        var buffer: [LayoutAttributes] = []
        layoutAttributesForElements(in: rect, into: &buffer)
        return buffer
    }

    public override func layoutAttributesForElements(in rect: Rect, into buffer: inout [LayoutAttributes]) {
        buffer.removeAll(keepingCapacity: true)
        prepareCaches()
        let count = sections.count
        guard count > 0, rect.width > 0, rect.height > 0 else { return }
        var s = starts.withUnsafeBufferPointer { firstSection(endingAfter: rect.minY, starts: $0, sectionCount: count) }
        let width = boundsSize.width
        while s < count, starts[s] < rect.maxY {
            let info = sections[s]
            let path = LayoutIndexPath(row: 0, section: s)
            if info.header > 0 {
                let f = Rect(x: 0, y: starts[s], width: width, height: info.header)
                if f.intersects(rect) { buffer.append(LayoutAttributes(indexPath: path, frame: f, category: .header)) }
            }
            if info.rows > 0 {
                let rowsTop = starts[s] + info.header
                var r = rowIndex(info, at: rect.minY - rowsTop)
                while r < info.rows {
                    let span = rowSpan(info, r)
                    let f = Rect(x: 0, y: rowsTop + span.top, width: width, height: span.height)
                    if f.minY >= rect.maxY { break }
                    if f.intersects(rect) {
                        buffer.append(LayoutAttributes(indexPath: LayoutIndexPath(row: r, section: s), frame: f, category: .cell))
                    }
                    r += 1
                }
            }
            if info.footer > 0 {
                let f = Rect(x: 0, y: starts[s + 1] - info.footer, width: width, height: info.footer)
                if f.intersects(rect) { buffer.append(LayoutAttributes(indexPath: path, frame: f, category: .footer)) }
            }
            s += 1
        }
    }

    public override func indexPathForItem(at point: Point) -> LayoutIndexPath? {
        prepareCaches()
        let count = sections.count
        guard count > 0, point.isFinite else { return nil }
        let s = starts.withUnsafeBufferPointer { firstSection(endingAfter: point.y, starts: $0, sectionCount: count) }
        guard s < count, starts[s] <= point.y, sections[s].rows > 0 else { return nil }
        let info = sections[s]
        let r = rowIndex(info, at: point.y - starts[s] - info.header)
        guard rowFrame(s, r).contains(point) else { return nil }
        return LayoutIndexPath(row: r, section: s)
    }

    /// The proposed destination of a row being dragged (what UITableView passes to
    /// `tableView(_:targetIndexPathForMoveFromRowAt:toProposedIndexPath:)`): the row under
    /// the finger; the section's first row when over its header; its end (`rows − 1` within
    /// the same section, `rows` from another) when over its footer or past its last row; the
    /// first/last section when above/below the content. Horizontal position is ignored.
    public override func targetIndexPathForInteractivelyMovingItem(_ previousIndexPath: LayoutIndexPath,
                                                          withPosition position: Point) -> LayoutIndexPath? {
        prepareCaches()
        let count = sections.count
        guard count > 0, position.isFinite else { return nil }
        let y = position.y
        let s = min(count - 1, starts.withUnsafeBufferPointer { firstSection(endingAfter: y, starts: $0, sectionCount: count) })
        let info = sections[s]
        let maxIndex = s == previousIndexPath.section ? info.rows - 1 : info.rows
        guard info.rows > 0, maxIndex > 0 else { return LayoutIndexPath(row: max(0, maxIndex), section: s) }
        let rowsTop = starts[s] + info.header
        if y >= rowsTop + rowsLength(info) { return LayoutIndexPath(row: maxIndex, section: s) }
        return LayoutIndexPath(row: min(rowIndex(info, at: y - rowsTop), maxIndex), section: s)
    }
}
