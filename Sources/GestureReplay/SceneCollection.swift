import GestureKit
import GestureLayout

/// The items of a scene's `layout`, as the data source and delegate of the scene's
/// `CollectionView`: the collection view the apps get does the selecting, moving and resizing;
/// this only keeps the item ids in display order and prints what happened.
final class SceneItems: CollectionViewDataSource, CollectionViewDelegate {
    /// Item ids by section, in display order (ids count from 0 across sections, in the
    /// scene's order). A move moves them.
    var items: [[Int]]
    /// The item the last move moved.
    var movedItem: Int?
    /// Where records go (the scene's `onRecord`), with the engine's time.
    let record: (ReplayRecord) -> Void
    let now: () -> Instant

    init(sections: [Int], now: @escaping () -> Instant, record: @escaping (ReplayRecord) -> Void) {
        var next = 0
        items = sections.map { count in
            defer { next += count }
            return Array(next..<next + count)
        }
        self.now = now
        self.record = record
    }

    static let cellIdentifier = "item"

    func numberOfSections(in collectionView: CollectionView) -> Int { items.count }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        items[section].count
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: LayoutIndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: Self.cellIdentifier, for: indexPath)
    }

    /// The collection view committed an interactive movement (the scene's `reorder`).
    func collectionView(_ collectionView: CollectionView, moveItemAt source: LayoutIndexPath, to destination: LayoutIndexPath) {
        let id = items[source.section].remove(at: source.item)
        items[destination.section].insert(id, at: destination.item)
        movedItem = id
        record(.move(time: now(), from: [source.section, source.item], to: [destination.section, destination.item], id: id))
    }

    /// A touch selected an item (the collection view's own selection, as UICollectionView's).
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: LayoutIndexPath) {
        selected(indexPath)
    }

    /// Whether a zoom is under way: from its beginning to its end, after any spring back
    /// (the offset it moves is on its `zoom` lines, not on `scroll` lines).
    private(set) var zoomUnderWay = false

    func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) {
        zoomUnderWay = true
    }

    /// The zoom scale changed (the scene layout's zoom range): a `zoom` line, `zooming` while
    /// a pinch or a wheel drives it, `bouncing` after, while it springs back into its range.
    func scrollViewDidZoom(_ scrollView: ScrollView) {
        record(.zoom(time: now(), zoomScale: scrollView.zoomScale, contentOffset: scrollView.contentOffset,
                     phase: scrollView.isZooming ? .zooming : .bouncing))
    }

    /// The zoom is over: its `rest` line.
    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) {
        zoomUnderWay = false
        record(.zoom(time: now(), zoomScale: scale, contentOffset: scrollView.contentOffset, phase: .rest))
    }

    func selected(_ indexPath: LayoutIndexPath) {
        record(.select(time: now(), section: indexPath.section, item: indexPath.item, id: items[indexPath.section][indexPath.item]))
    }
}

/// The scene's cells take no touches: a touch on an item lands on the collection view (the
/// scene's root view), which finds the item under it, so the scene's recognizers and `touches`
/// lines see the root as they would without a layout.
final class SceneItemCell: CollectionViewCell {
    init() {
        super.init(id: "item")
        isUserInteractionEnabled = false
    }
}
