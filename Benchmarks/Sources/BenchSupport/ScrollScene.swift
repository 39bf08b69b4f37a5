import GestureKit
import GestureLayout

/// A phone-sized collection view (390×844, 120×120 items, three to a line: about 24 cells
/// visible) over `items` items in sections of 1,000 (so a frame shows as many cells whatever
/// the count), decelerating: each inner iteration is one
/// display-link frame (`advance(to:)` the engine's next deadline), which moves the content,
/// brings in and reuses cells and reports the scroll. When it comes to rest it is flung
/// again the other way from where it is (20,000 pt/s: about 300 frames a fling at UIKit's
/// normal rate), so it stays around the middle of the content.
public final class ScrollScene: CollectionViewDataSource {
    public let engine = GestureEngine()
    public let collectionView: CollectionView
    let counts: [Int]
    var direction = 1.0
    public private(set) var frames = 0

    public init(items: Int) {
        counts = Array(repeating: 1000, count: max(1, items / 1000))
        let layout = FlowLayout(dataSource: nil, boundsSize: .zero)
        layout.itemSize = Size(width: 120, height: 120)
        layout.minimumLineSpacing = 10
        layout.minimumInteritemSpacing = 10
        collectionView = CollectionView(frame: Rect(x: 0, y: 0, width: 390, height: 844), layout: layout)
        collectionView.register({ CollectionViewCell() }, forCellWithReuseIdentifier: "cell")
        collectionView.dataSource = self
        engine.addRoot(collectionView)
        collectionView.contentOffset = Point(x: 0, y: collectionView.contentSize.height / 2)
        for _ in 0..<2_000 { frame() }   // every cell a frame needs is made and queued
    }

    public func numberOfSections(in collectionView: CollectionView) -> Int { counts.count }
    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { counts[section] }
    public func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: LayoutIndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
    }
    public func collectionView(_ collectionView: CollectionView, moveItemAt source: LayoutIndexPath, to destination: LayoutIndexPath) {}

    @inline(__always)
    public func frame() {
        if !collectionView.isDecelerating {
            direction = -direction
            collectionView.startDecelerating(velocity: Point(x: 0, y: 20_000 * direction))
        }
        engine.advance(to: engine.nextDeadline!)
        frames &+= 1
    }
}
