import GestureKit
import GestureLayout

extension PhotoWall {
    /// What the screen shows now, back to front: the background, the collection view's
    /// visible headers, footers and tiles (in their z-order: the picked-up tile on top), the
    /// scroll indicator while the content moves, the zoom over the dimmed wall, the fingers
    /// down, and a caption (`captionText`).
    public func render() -> DisplayList {
        var list = DisplayList(size: screen, background: PhotoWallStyle.background)
        let moving = collectionView.interactiveMovement?.original
        for view in collectionView.subviews where !view.isHidden {
            let frame = toScreen(view.frame)
            guard frame.intersects(Rect(origin: .zero, size: screen)) else { continue }
            if let bar = view as? SectionBar {
                drawBar(bar, frame: frame, into: &list)
            } else if let cell = view as? PhotoCell, let photo = cell.photo {
                let lifted = moving != nil && cell.indexPath == moving
                drawTile(photo, frame: frame, selected: cell.isSelected, highlighted: cell.isHighlighted,
                         lifted: lifted, into: &list)
            }
        }
        if let bar = scrollIndicatorFrame { list.fill(bar, PhotoWallStyle.scrollIndicator) }
        if let id = zoomedPhoto, let at = library.indexPath(ofPhoto: id), let photo = library.photo(at: at) {
            list.fill(Rect(origin: .zero, size: screen), PhotoWallStyle.dim)
            let frame = zoomFrame
            drawTile(photo, frame: frame, selected: false, highlighted: false, lifted: false, numberSize: 28, into: &list)
            list.text("\(library.name(of: at))  ·  tap to close",
                      in: Rect(x: 0, y: frame.maxY + 14, width: screen.width, height: 30),
                      size: 20, style: .bold, alignment: .center, PhotoWallStyle.headerText)
        }
        for (_, point) in touches.sorted(by: { $0.key < $1.key }) {
            list.disc(center: point, radius: PhotoWallStyle.touchRadius, PhotoWallStyle.touchDisc)
        }
        drawMenu(into: &list)
        if let text = captionText, let caption = captionFrame {
            list.fill(caption, PhotoWallStyle.captionBackground)
            list.text(text, in: caption, size: 18, alignment: .center, PhotoWallStyle.headerText)
        }
        return list
    }

    /// Where the vertical scroll indicator is drawn, while the content moves (dragged,
    /// decelerating, bouncing): at the right edge, `scrollIndicatorInset` from it and from
    /// the ends. Its length is the visible fraction of the content,
    /// `track × height / contentHeight`, and it runs along the track as the offset runs from
    /// the top to the bottom; past an end it shortens by the overshoot, as UIKit's does.
    public var scrollIndicatorFrame: Rect? {
        guard isScrolling else { return nil }
        let content = collectionView.contentSize.height
        let height = collectionView.frame.height
        guard content > height else { return nil }
        let inset = PhotoWallStyle.scrollIndicatorInset
        let track = height - 2 * inset
        let y = collectionView.contentOffset.y
        let lo = collectionView.minimumContentOffset.y, hi = collectionView.maximumContentOffset.y
        let overshoot = y < lo ? lo - y : (y > hi ? y - hi : 0)
        let length = max(PhotoWallStyle.scrollIndicatorMinimum, track * height / content - overshoot)
        let progress = hi > lo ? min(max((y - lo) / (hi - lo), 0), 1) : 0
        let top = inset + (track - length) * progress
        return Rect(x: collectionView.frame.maxX - inset - PhotoWallStyle.scrollIndicatorWidth,
                    y: (collectionView.frame.minY + top).rounded(),
                    width: PhotoWallStyle.scrollIndicatorWidth, height: length.rounded())
    }

    /// The caption: while the content moves on its own (after a fling), what it is doing
    /// ("scroll: decelerating at 645 pt, 3157 pt/s"); otherwise the last event.
    public var captionText: String? {
        let cv = collectionView
        if cv.isMovingOnItsOwn, cv.scrollPhase != .rest {
            return "scroll: \(cv.scrollPhase.rawValue) at \(Int(cv.contentOffset.y.rounded())) pt, \(Int(abs(cv.scrollVelocity.y).rounded())) pt/s"
        }
        return events.last.map { "\($0.gesture): \($0.text)" }
    }

    /// Where the caption is (pixel probes keep out of it).
    public var captionFrame: Rect? {
        captionText == nil ? nil : Rect(x: (screen.width / 2 - 330).rounded(), y: screen.height - 58, width: 660, height: 40)
    }

    private func drawBar(_ bar: SectionBar, frame: Rect, into list: inout DisplayList) {
        let header = bar.elementKind == LayoutElementKind.sectionHeader
        list.fill(frame, header ? PhotoWallStyle.headerBar : PhotoWallStyle.footerBar)
        let inset = PhotoWallStyle.sectionInset.left + 4
        let textRect = Rect(x: frame.minX + inset, y: frame.minY, width: frame.width - 2 * inset, height: frame.height)
        if header {
            if let section = bar.indexPath?.section, let first = library.sections[section].photos.first {
                // A swatch of the section's colours at the left edge.
                list.fill(Rect(x: frame.minX, y: frame.minY, width: 6, height: frame.height), first.color)
            }
            list.text(bar.title, in: textRect, size: 22, style: .bold, PhotoWallStyle.headerText)
            if let detail = bar.detail {
                list.text(detail, in: textRect, size: 16, alignment: .right, PhotoWallStyle.detailText)
            }
        } else {
            list.text(bar.title, in: textRect, size: 13, PhotoWallStyle.detailText)
        }
    }

    private func drawTile(_ photo: Photo, frame: Rect, selected: Bool, highlighted: Bool, lifted: Bool,
                          numberSize: Double = 15, into list: inout DisplayList) {
        var rect = frame
        if lifted {
            let k = PhotoWallStyle.liftScale
            rect = Rect(x: frame.midX - frame.width * k / 2, y: frame.midY - frame.height * k / 2,
                        width: frame.width * k, height: frame.height * k)
            list.fill(rect.offsetBy(dx: PhotoWallStyle.shadowOffset.x, dy: PhotoWallStyle.shadowOffset.y),
                      PhotoWallStyle.shadow)
        }
        list.fill(rect, photo.color)
        let band = min(PhotoWallStyle.bandHeight * numberSize / 15, rect.height / 3)
        let bandRect = Rect(x: rect.minX, y: rect.maxY - band, width: rect.width, height: band)
        list.fill(bandRect, photo.color.scaled(PhotoWallStyle.bandShade))
        list.text(String(photo.number), in: Rect(x: bandRect.minX + 10, y: bandRect.minY, width: bandRect.width - 20,
                                                 height: bandRect.height), size: numberSize, style: .bold,
                  Color(rgb: 0xffffff))
        if highlighted { list.fill(rect, PhotoWallStyle.highlight) }
        if selected { list.ring(rect, width: PhotoWallStyle.selectionWidth, PhotoWallStyle.selection) }
    }
}
