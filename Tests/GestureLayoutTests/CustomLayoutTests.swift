import Testing
import GestureKit
import GestureLayout
import GestureTestSupport

/// A layout of one's own, as the collection-view guide writes one: the items on one row,
/// `spreadDistance` points apart, each 40 × 40. A pinch sets the spread.
final class SpreadLayout: CollectionViewLayout {
    var spreadDistance = 50.0
    private(set) var prepared = 0
    private var frames: [Rect] = []

    override func prepare() {
        super.prepare()
        prepared += 1
        let count = collectionView?.numberOfItems(inSection: 0) ?? 0
        frames = (0..<count).map { Rect(x: 10 + Double($0) * spreadDistance, y: 10, width: 40, height: 40) }
    }

    override var collectionViewContentSize: Size {
        Size(width: (frames.last?.maxX ?? 0) + 10, height: 60)
    }

    override func layoutAttributesForElements(in rect: Rect) -> [LayoutAttributes] {
        frames.enumerated().compactMap { i, f in
            f.intersects(rect) ? LayoutAttributes(indexPath: LayoutIndexPath(item: i, section: 0), frame: f, category: .cell) : nil
        }
    }
}

/// A flow layout that lifts every cell 5 points, to show a subclass's override is used.
final class LiftedFlowLayout: FlowLayout {
    override func layoutAttributesForElements(in rect: Rect) -> [LayoutAttributes] {
        super.layoutAttributesForElements(in: rect).map { a in
            var lifted = a
            lifted.frame = a.frame.offsetBy(dx: 0, dy: -5)
            return lifted
        }
    }
}

/// Ten items in one section, cells made as they are asked for.
final class TenItems: CollectionViewDataSource {
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 10 }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: LayoutIndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
    }
    func collectionView(_ collectionView: CollectionView, moveItemAt source: LayoutIndexPath, to destination: LayoutIndexPath) {}
}

@Suite("Layouts of one's own, and layouts that re-lay themselves")
struct CustomLayoutTests {
    func collection(_ layout: CollectionViewLayout, source: TenItems) -> CollectionView {
        let collection = CollectionView(id: "collection", frame: Rect(x: 0, y: 0, width: 1000, height: 200), layout: layout)
        collection.register({ CollectionViewCell() }, forCellWithReuseIdentifier: "cell")
        collection.dataSource = source
        return collection
    }

    @Test("a pinch handler that updates a custom layout's spread and invalidates it moves the visible cells by the end of the step, with no other call")
    func pinchSpreadsTheCells() throws {
        let layout = SpreadLayout()
        let source = TenItems()
        let collection = collection(layout, source: source)
        let script = Harness(root: collection)
        #expect(collection.cellForItem(at: LayoutIndexPath(item: 1, section: 0))?.frame.minX == 60)
        var framesSeenInHandler: [Double] = []
        let pinch = PinchGestureRecognizer { pinch in
            guard pinch.numberOfTouches == 2 else { return }
            let p1 = pinch.location(ofTouch: 0, in: collection), p2 = pinch.location(ofTouch: 1, in: collection)
            layout.spreadDistance = p1.distance(to: p2) / 4
            layout.invalidateLayout()
            // Not yet: the layout pass comes at the end of the step, as UIKit's.
            framesSeenInHandler.append(collection.cellForItem(at: LayoutIndexPath(item: 1, section: 0))?.frame.minX ?? -1)
        }
        collection.addGestureRecognizer(pinch)
        script.frame(0, [(0, .began, 300, 100), (1, .began, 500, 100)])
        for i in 1...5 { script.frame(Double(i) * 0.02, [(0, .moved, 300 - Double(i) * 20, 100), (1, .moved, 500 + Double(i) * 20, 100)]) }
        #expect(pinch.state == .changed)
        // The fingers are 400 pt apart: a spread of 100.
        let cell = try #require(collection.cellForItem(at: LayoutIndexPath(item: 1, section: 0)))
        #expect(cell.frame.minX == 110, "expected the second cell at 10 + 100 after the step, got \(cell.frame.minX)")
        #expect(collection.contentSize.width == 10 + 9 * 100 + 40 + 10)
        #expect(framesSeenInHandler.first == 60, "inside the handler the cells have not moved yet")
        #expect(!collection.needsLayout, "the pass ran at the end of the step")
    }

    @Test("setting a flow layout's item size re-lays the cells by itself: at once outside a step")
    func flowItemSizeOutsideAStep() throws {
        let layout = FlowLayout(dataSource: nil, boundsSize: Size(width: 1000, height: 200))
        layout.itemSize = Size(width: 100, height: 100)
        let collection = collection(layout, source: TenItems())
        _ = Harness(root: collection)
        #expect(collection.cellForItem(at: LayoutIndexPath(item: 1, section: 0))?.frame.width == 100)
        layout.itemSize = Size(width: 150, height: 150)
        let cell = try #require(collection.cellForItem(at: LayoutIndexPath(item: 1, section: 0)))
        let laidOut = try #require(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 1, section: 0)))
        #expect(cell.frame.width == 150 && cell.frame == laidOut.frame, "expected the cell re-laid at once at \(laidOut.frame), got \(cell.frame)")
    }

    @Test("a FlowLayout subclass's override of layoutAttributesForElements(in:) is what the collection view shows")
    func flowSubclassOverride() throws {
        let layout = LiftedFlowLayout(dataSource: nil, boundsSize: Size(width: 1000, height: 200))
        layout.itemSize = Size(width: 100, height: 100)
        layout.sectionInset = EdgeInsets(top: 20, left: 0, bottom: 0, right: 0)
        let collection = collection(layout, source: TenItems())
        let cell = try #require(collection.cellForItem(at: LayoutIndexPath(item: 0, section: 0)))
        #expect(cell.frame.minY == 15, "the subclass lifted the cell 5 pt above the inset, got \(cell.frame)")
    }

    @Test("a custom layout's default item lookup and hit-testing come from its elements")
    func defaultsFromElements() {
        let layout = SpreadLayout()
        let collection = collection(layout, source: TenItems())
        #expect(collection.indexPathForItem(at: Point(x: 125, y: 30)) == LayoutIndexPath(item: 2, section: 0))
        #expect(collection.indexPathForItem(at: Point(x: 55, y: 30)) == nil, "a gap between items")
        #expect(collection.layoutAttributesForItem(at: LayoutIndexPath(item: 3, section: 0))?.frame.minX == 160)
        #expect(layout.prepared >= 1)
    }

    @Test("a right click on an item does not select it (a secondary click is a context menu's); a left click does")
    func secondaryClickDoesNotSelect() {
        let layout = SpreadLayout()
        let collection = collection(layout, source: TenItems())
        let script = Harness(root: collection)
        let item = Point(x: 125, y: 30)
        script.engine.send(.motion(to: item, at: Instant(seconds: 0), device: InputDeviceID(1)))
        script.engine.send(.button(true, at: item, time: Instant(seconds: 0.1), device: InputDeviceID(1), button: 0x111))
        script.engine.send(.button(false, at: item, time: Instant(seconds: 0.15), device: InputDeviceID(1), button: 0x111))
        script.advance(to: 1)
        #expect(collection.indexPathsForSelectedItems.isEmpty, "the right click selected \(collection.indexPathsForSelectedItems)")
        script.engine.send(.button(true, at: item, time: Instant(seconds: 1.1), device: InputDeviceID(1)))
        script.engine.send(.button(false, at: item, time: Instant(seconds: 1.15), device: InputDeviceID(1)))
        script.advance(to: 2)
        #expect(collection.indexPathsForSelectedItems == [LayoutIndexPath(item: 2, section: 0)], "the left click selects item 2")
    }
}
