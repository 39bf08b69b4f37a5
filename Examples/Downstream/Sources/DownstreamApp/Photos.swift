import GestureKit
import GestureLayout

/// A collection view of photos, as an app would set one up: a flow layout, a data source
/// that dequeues cells, a delegate told of selections, and a pan that scrolls.
final class Photos: CollectionViewDataSource, CollectionViewDelegate {
    let collection: CollectionView
    var selected: [LayoutIndexPath] = []

    init(frame: Rect) {
        let layout = FlowLayout(dataSource: nil, boundsSize: frame.size)
        layout.itemSize = Size(width: 100, height: 100)
        layout.minimumInteritemSpacing = 10
        layout.minimumLineSpacing = 10
        collection = CollectionView(id: "photos", frame: frame, layout: layout)
        collection.register({ CollectionViewCell() }, forCellWithReuseIdentifier: "photo")
        collection.dataSource = self
        collection.delegate = self
        collection.installScrollingPan()
    }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 200 }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: LayoutIndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "photo", for: indexPath)
    }

    func collectionView(_ collectionView: CollectionView, moveItemAt source: LayoutIndexPath, to destination: LayoutIndexPath) {}

    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: LayoutIndexPath) {
        selected.append(indexPath)
    }
}
