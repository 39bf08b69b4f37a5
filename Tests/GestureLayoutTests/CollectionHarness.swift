import GestureKit
import GestureLayout
import GestureTestSupport

/// A cell that shows one model value and counts its reuses.
final class ValueCell: CollectionViewCell {
    var value: Int?
    var reuses = 0
    override func prepareForReuse() {
        reuses += 1
        value = nil
    }
}

final class TitleView: CollectionReusableView {
    var section: Int?
    override func prepareForReuse() { section = nil }
}

/// A model of sections of distinct values, which is also the delegate and logs what it
/// hears, stamped with the engine's time: "0.050 select [0, 1]".
class Model: CollectionViewDataSource, CollectionViewDelegate {
    var sections: [[Int]]
    var events: [String] = []
    var moves: [(LayoutIndexPath, LayoutIndexPath)] = []
    var clock: () -> Instant = { .zero }
    var cellsCreated = 0
    var supplementaryCreated = 0
    var headers = false

    init(_ counts: [Int]) {
        var next = 0
        sections = counts.map { n in
            defer { next += n }
            return Array(next..<(next + n))
        }
    }

    func attach(_ cv: CollectionView) {
        cv.register({ [unowned self] in
            cellsCreated += 1
            return ValueCell()
        }, forCellWithReuseIdentifier: "cell")
        for kind in [LayoutElementKind.sectionHeader, LayoutElementKind.sectionFooter] {
            cv.register({ [unowned self] in
                supplementaryCreated += 1
                return TitleView(id: kind)
            }, forSupplementaryViewOfKind: kind, withReuseIdentifier: "title")
        }
        cv.dataSource = self
        cv.delegate = self
    }

    private func log(_ what: String, _ p: LayoutIndexPath) { events.append("\(ms(clock())) \(what) \(p)") }

    func numberOfSections(in collectionView: CollectionView) -> Int { sections.count }
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { sections[section].count }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: LayoutIndexPath) -> CollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath) as! ValueCell
        cell.value = sections[indexPath.section][indexPath.item]
        return cell
    }
    func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
                        at indexPath: LayoutIndexPath) -> CollectionReusableView? {
        let view = collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "title", for: indexPath) as! TitleView
        view.section = indexPath.section
        return view
    }
    func collectionView(_ collectionView: CollectionView, moveItemAt source: LayoutIndexPath, to destination: LayoutIndexPath) {
        moves.append((source, destination))
        let value = sections[source.section].remove(at: source.item)
        sections[destination.section].insert(value, at: destination.item)
    }

    func collectionView(_ collectionView: CollectionView, didHighlightItemAt indexPath: LayoutIndexPath) { log("highlight", indexPath) }
    func collectionView(_ collectionView: CollectionView, didUnhighlightItemAt indexPath: LayoutIndexPath) { log("unhighlight", indexPath) }
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: LayoutIndexPath) { log("select", indexPath) }
    func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: LayoutIndexPath) { log("deselect", indexPath) }
}

/// The visible elements as (category, index path, frame), in a stable order: what the
/// collection view shows, and what the layout says it should show.
struct Shown: Hashable, Comparable, CustomStringConvertible {
    var category: LayoutElementCategory
    var indexPath: LayoutIndexPath
    var frame: Rect
    static func < (a: Shown, b: Shown) -> Bool {
        (a.indexPath, a.category.rawValue) < (b.indexPath, b.category.rawValue)
    }
    var description: String { "\(category.rawValue) \(indexPath) \(frame)" }
}

extension CollectionView {
    /// What is on screen: every managed subview with its element and frame.
    var shown: [Shown] {
        var result: [Shown] = []
        for cell in visibleCells {
            result.append(Shown(category: .cell, indexPath: cell.indexPath!, frame: cell.frame))
        }
        for view in visibleSupplementaryViews {
            result.append(Shown(category: view.elementKind == LayoutElementKind.sectionFooter ? .footer : .header,
                                indexPath: view.indexPath!, frame: view.frame))
        }
        return result.sorted()
    }

    /// What the layout has in the visible rectangle.
    var expected: [Shown] {
        layout.layoutAttributesForElements(in: bounds)
            .map { Shown(category: $0.category, indexPath: $0.indexPath, frame: $0.frame) }
            .sorted()
    }
}
