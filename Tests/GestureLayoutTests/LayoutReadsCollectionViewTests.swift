import Testing
import GestureKit
import GestureLayout
import GestureTestSupport

/// A flow layout written as UIKit layouts are: `prepare()` and
/// `layoutAttributesForElements(in:)` look at what the collection view shows
/// (`indexPathsForVisibleItems`), here to keep a count of the cells already on screen.
final class VisibleReadingFlowLayout: FlowLayout {
    private(set) var visibleSeenInPrepare: [Int] = []
    private(set) var visibleSeenInQuery: [Int] = []

    override func prepare() {
        super.prepare()
        visibleSeenInPrepare.append(collectionView?.indexPathsForVisibleItems.count ?? -1)
    }

    override func layoutAttributesForElements(in rect: Rect) -> [LayoutAttributes] {
        visibleSeenInQuery.append(collectionView?.indexPathsForVisibleItems.count ?? -1)
        return super.layoutAttributesForElements(in: rect)
    }
}

@Suite("A layout reads its collection view while it is asked")
struct LayoutReadsCollectionViewTests {
    @Test("a FlowLayout subclass whose prepare() and layoutAttributesForElements(in:) read indexPathsForVisibleItems lays out, scrolls and reloads, and sees the cells on screen before each pass")
    func flowLayoutSubclassReadsVisibleItems() {
        let h = Harness(screen: Size(width: 400, height: 400))
        let layout = VisibleReadingFlowLayout(dataSource: nil, boundsSize: Size(width: 400, height: 400))
        layout.itemSize = Size(width: 100, height: 100)
        let collection = CollectionView(id: "collection", frame: Rect(x: 0, y: 0, width: 400, height: 400), layout: layout)
        collection.register({ CollectionViewCell() }, forCellWithReuseIdentifier: "cell")
        let source = TenItems()
        collection.dataSource = source
        h.root.addSubview(collection)
        let first = collection.indexPathsForVisibleItems.count
        #expect(first == 10, "ten 100 pt items in a 400 pt wide view, three to a line with 10 pt spacing, all within 400 pt: 10 on screen; found \(first)")
        #expect(layout.visibleSeenInPrepare.first == 0, "the first prepare() runs before any cell is on screen and sees none: \(layout.visibleSeenInPrepare)")
        // Every pass asks the layout again; each read sees the cells as they were before it.
        collection.contentOffset = Point(x: 0, y: 40)
        collection.reloadData()
        #expect(layout.visibleSeenInQuery.count >= 3,
                "the layout is asked at the first pass, after the scroll and after the reload: \(layout.visibleSeenInQuery)")
        #expect(layout.visibleSeenInQuery.dropFirst().allSatisfy { $0 >= 0 },
                "each later query sees the collection view (never nil) and its visible cells: \(layout.visibleSeenInQuery)")
        #expect(collection.indexPathsForVisibleItems.count == 10, "the reload brings back all ten cells")
    }
}
