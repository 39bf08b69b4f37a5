import GestureKit
import GestureLayout

/// One tile of the wall: a "photo" that is a flat colour with a number.
public struct Photo: Hashable, Sendable {
    /// Unique across the library; stays with the photo when it is moved.
    public var id: Int
    /// Shown on the tile ("12").
    public var number: Int
    public var color: Color
}

/// A titled section of photos.
public struct PhotoSection: Hashable, Sendable {
    public var title: String
    public var photos: [Photo]
}

/// The wall's model and the collection view's data source: sections of photos, moved by
/// interactive reordering.
public final class PhotoLibrary: CollectionViewDataSource {
    public private(set) var sections: [PhotoSection]

    public init(sections: [PhotoSection]) {
        self.sections = sections
    }

    /// The default wall: four sections of 14 photos, each section in its own range of hues,
    /// every tile a different colour (neighbours differ in hue and in brightness).
    public static func sample() -> PhotoLibrary {
        let specs: [(String, Double)] = [("Sunrise", 350), ("Forest", 85), ("Ocean", 175), ("Dusk", 255)]
        var id = 0
        var sections: [PhotoSection] = []
        for (title, hue) in specs {
            var photos: [Photo] = []
            for i in 0..<PhotoWallStyle.photosPerSection {
                let t = Double(i) / Double(PhotoWallStyle.photosPerSection - 1)
                let color = Color(hue: hue + 70 * t,
                                  saturation: i % 2 == 0 ? 0.62 : 0.78,
                                  value: [0.93, 0.72, 0.84, 0.64][i % 4])
                photos.append(Photo(id: id, number: i + 1, color: color))
                id += 1
            }
            sections.append(PhotoSection(title: title, photos: photos))
        }
        return PhotoLibrary(sections: sections)
    }

    public func photo(at indexPath: LayoutIndexPath) -> Photo? {
        guard indexPath.section >= 0, indexPath.section < sections.count,
              indexPath.item >= 0, indexPath.item < sections[indexPath.section].photos.count else { return nil }
        return sections[indexPath.section].photos[indexPath.item]
    }

    /// Where the photo with `id` is.
    public func indexPath(ofPhoto id: Int) -> LayoutIndexPath? {
        for (s, section) in sections.enumerated() {
            if let i = section.photos.firstIndex(where: { $0.id == id }) { return LayoutIndexPath(item: i, section: s) }
        }
        return nil
    }

    /// "Forest 3": the section title and the photo's number.
    public func name(of indexPath: LayoutIndexPath) -> String {
        guard let photo = photo(at: indexPath) else { return "nothing" }
        return "\(sections[indexPath.section].title) \(photo.number)"
    }

    // MARK: CollectionViewDataSource

    public func numberOfSections(in collectionView: CollectionView) -> Int { sections.count }

    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        sections[section].photos.count
    }

    public func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: LayoutIndexPath) -> CollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: PhotoCell.reuseIdentifier, for: indexPath)
        (cell as? PhotoCell)?.photo = photo(at: indexPath)
        return cell
    }

    public func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
                               at indexPath: LayoutIndexPath) -> CollectionReusableView? {
        let view = collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: SectionBar.reuseIdentifier,
                                                                   for: indexPath)
        guard let bar = view as? SectionBar else { return view }
        let section = sections[indexPath.section]
        if kind == LayoutElementKind.sectionHeader {
            bar.title = section.title
            bar.detail = "\(section.photos.count) photos"
        } else {
            bar.title = "pinch to resize · double tap to zoom · hold and drag to reorder · one finger to scroll"
            bar.detail = nil
        }
        return bar
    }

    public func collectionView(_ collectionView: CollectionView, moveItemAt source: LayoutIndexPath,
                               to destination: LayoutIndexPath) {
        let photo = sections[source.section].photos.remove(at: source.item)
        sections[destination.section].photos.insert(photo, at: destination.item)
    }
}

/// A photo's cell.
public final class PhotoCell: CollectionViewCell {
    public static let reuseIdentifier = "photo"
    public var photo: Photo?

    public override func prepareForReuse() {
        photo = nil
    }
}

/// A section's header or footer bar.
public final class SectionBar: CollectionReusableView {
    public static let reuseIdentifier = "bar"
    public var title = ""
    public var detail: String?

    public override func prepareForReuse() {
        title = ""
        detail = nil
    }
}
