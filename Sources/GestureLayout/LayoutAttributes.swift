import GestureKit

/// Locates an element: an item (a flow layout's cell, a table's row) within a section, or,
/// for a section's header and footer, `item` 0 of the section (as UIKit's supplementary
/// views are addressed).
///
/// Named `LayoutIndexPath` rather than `IndexPath` so that it never collides with
/// Foundation's type in files that import both.
public struct LayoutIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(item: Int, section: Int) {
        self.item = item
        self.section = section
    }

    /// UITableView's spelling.
    public init(row: Int, section: Int) {
        self.init(item: row, section: section)
    }

    /// UITableView's spelling of `item`.
    public var row: Int {
        get { item }
        set { item = newValue }
    }

    public static func < (a: LayoutIndexPath, b: LayoutIndexPath) -> Bool {
        (a.section, a.item) < (b.section, b.item)
    }

    public var description: String { "[\(section), \(item)]" }
}

/// What an element is (UIKit's `representedElementCategory` plus the supplementary kind).
public enum LayoutElementCategory: String, Hashable, Sendable, CaseIterable {
    /// A collection view cell or a table row.
    case cell
    /// A section header (supplementary view of kind `LayoutElementKind.sectionHeader`).
    case header
    /// A section footer (supplementary view of kind `LayoutElementKind.sectionFooter`).
    case footer

    /// The supplementary kind string, `nil` for cells.
    public var elementKind: String? {
        switch self {
        case .cell: nil
        case .header: LayoutElementKind.sectionHeader
        case .footer: LayoutElementKind.sectionFooter
        }
    }
}

/// Supplementary view kinds (UICollectionView.elementKindSectionHeader / ...Footer).
public enum LayoutElementKind {
    public static let sectionHeader = "header"
    public static let sectionFooter = "footer"
}

/// Z order of elements (UIKit's `zIndex`; larger draws on top). UIKit does not document the
/// values its flow layout uses; we keep cells at 0 and put headers and footers above them
/// so that overlapping supplementary views (negative spacing, pinned headers) stay visible.
public enum LayoutZIndex {
    /// zIndex of cells and table rows (unitless order).
    public static let cell = 0
    /// zIndex of section headers and footers (unitless order).
    public static let supplementaryView = 10
}

/// The geometry of one element (UICollectionViewLayoutAttributes, headless: no alpha,
/// transform or hidden flag, since nothing is drawn here).
public struct LayoutAttributes: Hashable, Sendable, CustomStringConvertible {
    public var indexPath: LayoutIndexPath
    /// In content coordinates, points.
    public var frame: Rect
    public var category: LayoutElementCategory
    public var zIndex: Int

    public init(indexPath: LayoutIndexPath, frame: Rect, category: LayoutElementCategory,
                zIndex: Int? = nil) {
        self.indexPath = indexPath
        self.frame = frame
        self.category = category
        self.zIndex = zIndex ?? (category == .cell ? LayoutZIndex.cell : LayoutZIndex.supplementaryView)
    }

    /// "header" / "footer" for supplementary views, `nil` for cells (UIKit's
    /// `representedElementKind`).
    public var representedElementKind: String? { category.elementKind }

    public var description: String { "\(category.rawValue) \(indexPath) \(frame)" }
}

// MARK: - Shared arithmetic

/// `floor(x)` as an Int clamped to `lo...hi`; NaN gives `lo`. Never traps on huge values.
@inline(__always)
func clampedFloor(_ x: Double, _ lo: Int, _ hi: Int) -> Int {
    guard lo <= hi else { return lo }
    if !(x >= Double(lo)) { return lo }          // also NaN
    if x >= Double(hi) { return hi }
    return Int(x.rounded(.down))
}

/// Index of the first element of the sorted `starts[0..<count]` prefix-sum array whose
/// successor is greater than `value`: the section whose half-open band
/// `[starts[i], starts[i+1])` contains `value`, or the first one after it. `starts` has
/// `sectionCount + 1` entries. Returns `sectionCount` when `value` is past the end.
@inline(__always)
func firstSection(endingAfter value: Double, starts: UnsafeBufferPointer<Double>, sectionCount: Int) -> Int {
    var lo = 0, hi = sectionCount
    while lo < hi {
        let mid = (lo &+ hi) >> 1
        if starts[mid + 1] > value { hi = mid } else { lo = mid + 1 }
    }
    return lo
}
