import GestureFormat
import GestureKit
import GestureLayout

/// Sizes and colours of the wall. The defaults are chosen so that the recordings in
/// Fixtures/ land on tiles when mapped onto the default screen (1280 × 800): the Wacom
/// taps at 48 % × 48 % hit the fourth tile of the second row, the long-press drag from
/// 25 % × 38 % starts on the second tile of that row.
public enum PhotoWallStyle {
    public static let defaultScreen = Size(width: 1280, height: 800)
    public static let photosPerSection = 14

    public static let itemSize = Size(width: 168, height: 168)
    public static let spacing = 12.0
    public static let sectionInset = EdgeInsets(top: 16, left: 16, bottom: 16, right: 16)
    public static let headerHeight = 48.0
    public static let footerHeight = 32.0
    /// The smallest and largest tile side a pinch can make.
    public static let minimumItemSide = 72.0

    public static let background = Color(rgb: 0x16181d)
    public static let headerBar = Color(rgb: 0x2c3242)
    public static let footerBar = Color(rgb: 0x21252f)
    public static let headerText = Color(rgb: 0xf2f4f8)
    public static let detailText = Color(rgb: 0xaab2c4)
    /// The ring around the selected tile.
    public static let selection = Color(rgb: 0xffffff)
    public static let selectionWidth = 6.0
    /// Laid over a tile while a finger that may select it is down.
    public static let highlight = Color(r: 255, g: 255, b: 255, a: 70)
    /// The band at the bottom of a tile, behind its number: the tile's colour × this.
    public static let bandShade = 0.78
    public static let bandHeight = 26.0
    /// The picked-up tile: drawn this much larger, over a shadow.
    public static let liftScale = 1.08
    public static let shadow = Color(r: 0, g: 0, b: 0, a: 130)
    public static let shadowOffset = Point(x: 8, y: 10)
    /// The zoom: the rest of the wall is dimmed by this.
    public static let dim = Color(r: 0, g: 0, b: 0, a: 200)
    public static let zoomFraction = 0.72
    public static let touchDisc = Color(r: 255, g: 255, b: 255, a: 90)
    public static let touchRadius = 22.0
    public static let captionBackground = Color(r: 0, g: 0, b: 0, a: 170)
    /// The scroll indicator (UIKit's): a bar at the right edge, shown while the content moves,
    /// its length the visible fraction of the content (at least `scrollIndicatorMinimum`).
    public static let scrollIndicator = Color(r: 255, g: 255, b: 255, a: 150)
    public static let scrollIndicatorWidth = 6.0 /* pt */
    public static let scrollIndicatorInset = 4.0 /* pt, from the right edge and the ends */
    public static let scrollIndicatorMinimum = 36.0 /* pt */
}

/// Something the wall did in answer to a gesture (one per recognized gesture).
public struct PhotoWallEvent: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A single tap selected a tile.
        case selected
        /// A double tap zoomed a tile.
        case zoomed
        /// A tap or double tap closed the zoom.
        case unzoomed
        /// A pinch resized the tiles (at its end).
        case resized
        /// A long press picked a tile up.
        case pickedUp
        /// The picked-up tile was dropped (at a new place, or where it was).
        case reordered
        /// A one-finger drag scrolled, and the finger lifted (the content may move on).
        case scrolled
        /// The content, moving on after a drag (decelerating, bouncing back), came to rest.
        case cameToRest
        /// A touch came down on moving content and stopped it (it selects nothing).
        case stopped
        /// A right click (or the menu key) opened a photo's context menu.
        case menuOpened
        /// The context menu closed: an action was chosen, or it was dismissed.
        case menuClosed
    }

    public var time: Instant
    public var kind: Kind
    /// The recognizer's name ("tap", "doubleTap", "pinch", "longPress", "pan"), or "scroll"
    /// for what the content did on its own (came to rest, was stopped by a touch).
    public var gesture: String
    /// What happened, for people: "selected Forest 3".
    public var text: String

    public var description: String {
        let ms = (time.nanoseconds + 500_000) / 1_000_000
        let frac = String(ms % 1000)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac) s  \(gesture): \(text)"
    }
}

/// The photo wall: a full-screen collection view of coloured tiles in titled sections, and
/// the gestures that drive it. Pure Swift: input arrives as `TouchFrame`s on any clock
/// (`send`, `advance(to:)`), what to draw comes out as a `DisplayList` (`render()`).
///
/// - Pinch: the tiles' size follows the pinch (`itemSize = itemSizeAtBegan × scale`, the
///   layout invalidated), between `minimumItemSide` and what fits the screen.
/// - Tap: selects the tile (a white ring). It requires the double tap to fail, so it fires
///   when the double tap's interval has run out.
/// - Double tap (`delaysTouchesBegan`: the tile is not highlighted while it may still be a
///   double tap): zooms the tile over the dimmed wall; a tap or double tap closes the zoom.
/// - Long press, then drag: picks the tile up (larger, over a shadow), the others make room
///   as it moves, and lifting drops it there.
/// - One-finger drag: scrolls, as a `UICollectionView` does: it is the collection view's own
///   scroll view pan (one finger; two or more fingers down before it begins make it fail, and
///   they are the pinch's). When the finger lifts the content keeps the release velocity and
///   slows down, rubber-bands past the ends and springs back, frame by frame on the engine's
///   display link (`nextDeadline` includes its frames: the app's render loop or the replay
///   fires them). A touch on moving content stops it and selects nothing.
///
/// The recognizers' relationships (all on the collection view):
///
/// | recognizers | relationship | so |
/// |---|---|---|
/// | pan – long press | exclusive | a finger still for the press duration picks the tile up and later movement moves it, not the wall; a drag that begins earlier scrolls and cancels the press |
/// | pan – pinch | simultaneous | a second finger joining a scroll may pinch (as a scroll view's pan and zoom) |
/// | pan – tap, double tap | exclusive | a drag is never a tap |
/// | tap – double tap | tap requires double tap to fail | a double tap is never a tap first |
/// | content touches – tap, long press | exclusive | a touch on moving content stops it and is no selection |
public final class PhotoWall {
    public let screen: Size
    public let engine: GestureEngine
    public let library: PhotoLibrary
    public let layout: FlowLayout
    public let collectionView: CollectionView

    public let singleTap: TapGestureRecognizer
    public let doubleTap: TapGestureRecognizer
    public let pinch: PinchGestureRecognizer
    public let reorder: LongPressGestureRecognizer
    public let scroll: PanGestureRecognizer
    /// The photos' context menu: a right click (touch keeps its long press for
    /// reordering); the wall draws it (`render()`) and takes the press that picks an item.
    public internal(set) var contextMenu: ContextMenuInteraction!
    /// The photo the context menu is for.
    var menuItem: LayoutIndexPath?
    /// A press that landed on the drawn menu (or outside it, closing it): its source ids,
    /// and whether the pointer's button is held, whose events the engine never sees.
    var menuTouches: Set<Int> = []
    var menuHoldsPointer = false
    /// Whether the wall draws its context menu and takes the presses on it (true), or a
    /// toolkit does (photowall-gtk: GTK's popover).
    public var drawsContextMenu = true

    /// The zoomed tile, if any (photo id).
    public private(set) var zoomedPhoto: Int?
    /// Everything the wall did, in order.
    public private(set) var events: [PhotoWallEvent] = []
    /// Events not yet taken by `takeEvents()`.
    private var unread: [PhotoWallEvent] = []
    /// Touches down now, by source id (drawn as discs).
    public private(set) var touches: [Int: Point] = [:]
    /// The tiles touches highlighted, in order (a finger down on a tile that may select it).
    public private(set) var highlights: [LayoutIndexPath] = []
    /// Where the item being moved started (for the event).
    private var pickedUpFrom: LayoutIndexPath?
    private var pickedUpPhoto: Int?

    public init(screen: Size = PhotoWallStyle.defaultScreen, library: PhotoLibrary = .sample()) {
        self.screen = screen
        self.library = library
        engine = GestureEngine()
        layout = FlowLayout(dataSource: nil, boundsSize: screen)
        layout.itemSize = PhotoWallStyle.itemSize
        layout.minimumLineSpacing = PhotoWallStyle.spacing
        layout.minimumInteritemSpacing = PhotoWallStyle.spacing
        layout.sectionInset = PhotoWallStyle.sectionInset
        layout.headerReferenceSize = Size(width: screen.width, height: PhotoWallStyle.headerHeight)
        layout.footerReferenceSize = Size(width: screen.width, height: PhotoWallStyle.footerHeight)
        collectionView = CollectionView(id: "wall", frame: Rect(origin: .zero, size: screen), layout: layout)
        collectionView.register({ PhotoCell(id: "photo") }, forCellWithReuseIdentifier: PhotoCell.reuseIdentifier)
        for kind in [LayoutElementKind.sectionHeader, LayoutElementKind.sectionFooter] {
            collectionView.register({ SectionBar(id: kind) }, forSupplementaryViewOfKind: kind,
                                    withReuseIdentifier: SectionBar.reuseIdentifier)
        }

        doubleTap = TapGestureRecognizer(taps: 2, name: "doubleTap")
        doubleTap.delaysTouchesBegan = true
        singleTap = TapGestureRecognizer(name: "tap")
        singleTap.require(toFail: doubleTap)
        collectionView.addGestureRecognizer(doubleTap)
        collectionView.addGestureRecognizer(singleTap)
        pinch = collectionView.installPinchToResize(name: "pinch")
        reorder = collectionView.installInteractiveMovementGesture(name: "longPress")
        // The scroll view's own one-finger pan scrolls (UICollectionView's panGestureRecognizer).
        scroll = collectionView.panGestureRecognizer
        scroll.name = "pan"
        pinch.recognizeSimultaneously(with: scroll)

        collectionView.dataSource = library
        collectionView.delegate = self
        engine.addRoot(collectionView)

        // Target and action, as a UIKit view controller wires them: the recognizers hold
        // the wall weakly.
        singleTap.addTarget(self, action: PhotoWall.tapped)
        doubleTap.addTarget(self, action: PhotoWall.doubleTapped)
        pinch.addTarget(self, action: PhotoWall.pinched)
        reorder.addTarget(self, action: PhotoWall.pressed)
        scroll.addTarget(self, action: PhotoWall.scrolled)
        setUpContextMenu()
    }

    // MARK: Input

    /// One input event (screen points), on the caller's clock: touches go through `send(_:)`
    /// for frames, everything else to the engine as it is.
    public func send(_ event: InputEvent) {
        if case let .touchFrame(frame) = event { send(frame); return }
        if case let .pointer(pointer) = event, menuTakes(pointer) { return }
        engine.send(event)
    }

    /// One frame of touches (screen points), on the caller's clock.
    public func send(_ frame: TouchFrame) {
        guard let frame = menuTakes(frame) else { return }
        for change in frame.changes {
            switch change.phase {
            case .began, .moved: if change.location.isFinite { touches[change.sourceID] = change.location }
            case .ended, .cancelled: touches[change.sourceID] = nil
            }
        }
        // A touch that comes down on moving content stops it (the scroll view notes it).
        let stoppedBefore = collectionView.touchesThatStoppedScrolling.count
        engine.send(frame)
        if collectionView.touchesThatStoppedScrolling.count > stoppedBefore {
            emit(.stopped, gesture: "scroll", "a touch stopped the wall at \(Int(collectionView.contentOffset.y.rounded())) pt")
        }
    }

    /// Time passes: deadlines up to `time` fire (the double tap's interval, the long press,
    /// the display link's frames while the content moves on its own).
    public func advance(to time: Instant) {
        engine.advance(to: time)
    }

    /// The earliest deadline the engine waits for: a recognizer's, or the next animation
    /// frame while the content moves on its own (the display link's, `frameRate` a second).
    public var nextDeadline: Instant? { engine.nextDeadline }

    /// Whether the content is moving: dragged, decelerating or bouncing back.
    public var isScrolling: Bool { collectionView.scrollPhase != .rest }

    /// The end of input: pending deadlines fire, touches still down are cancelled.
    public func finish() {
        engine.finish()
        touches.removeAll()
    }

    /// Events since the last call.
    public func takeEvents() -> [PhotoWallEvent] {
        defer { unread.removeAll() }
        return unread
    }

    // MARK: Queries

    /// The photos in display order, section by section (ids).
    public var order: [[Int]] { library.sections.map { $0.photos.map(\.id) } }

    /// The tile's frame on the screen, if it is laid out (wherever it is, visible or not).
    public func screenFrame(of indexPath: LayoutIndexPath) -> Rect? {
        collectionView.layoutAttributesForItem(at: indexPath).map { toScreen($0.frame) }
    }

    /// The frame of a section's header or footer on the screen.
    public func screenFrame(ofSupplementary kind: String, section: Int) -> Rect? {
        layout.layoutAttributesForSupplementaryView(ofKind: kind, at: LayoutIndexPath(item: 0, section: section))
            .map { toScreen($0.frame) }
    }

    /// The photo under a screen point.
    public func indexPath(atScreen point: Point) -> LayoutIndexPath? {
        collectionView.indexPathForItem(at: collectionView.convertFromScreen(point))
    }

    /// Where the zoomed tile is drawn.
    public var zoomFrame: Rect {
        let side = (min(screen.width, screen.height) * PhotoWallStyle.zoomFraction).rounded()
        return Rect(x: ((screen.width - side) / 2).rounded(), y: ((screen.height - side) / 2 - 20).rounded(),
                    width: side, height: side)
    }

    func toScreen(_ content: Rect) -> Rect {
        content.offsetBy(dx: collectionView.frame.minX - collectionView.contentOffset.x,
                         dy: collectionView.frame.minY - collectionView.contentOffset.y)
    }

    // MARK: What each gesture does

    /// Zooms the photo at `item`, as a double tap on it does (a context menu's "Zoom");
    /// `gesture` names what asked, in the event.
    public func zoom(photoAt item: LayoutIndexPath, gesture: String) {
        guard let photo = library.photo(at: item) else { return }
        setZoom(photo.id)
        emit(.zoomed, gesture: gesture, "zoomed \(library.name(of: item))")
    }

    /// Selects the photo at `item`, as a tap on it does.
    public func select(photoAt item: LayoutIndexPath, gesture: String) {
        guard library.photo(at: item) != nil else { return }
        collectionView.selectItem(at: item)
        emit(.selected, gesture: gesture, "selected \(library.name(of: item))")
    }

    private func emit(_ kind: PhotoWallEvent.Kind, _ recognizer: GestureRecognizer, _ text: String) {
        emit(kind, gesture: recognizer.name, text)
    }

    func emit(_ kind: PhotoWallEvent.Kind, gesture: String, _ text: String) {
        let event = PhotoWallEvent(time: engine.now, kind: kind, gesture: gesture, text: text)
        events.append(event)
        unread.append(event)
    }

    private func setZoom(_ photo: Int?) {
        zoomedPhoto = photo
        // While zoomed only taps work (they close the zoom).
        for r in [pinch, reorder, scroll] as [GestureRecognizer] { r.isEnabled = photo == nil }
    }

    private func tapped(_ tap: TapGestureRecognizer) {
        if zoomedPhoto != nil {
            setZoom(nil)
            emit(.unzoomed, singleTap, "closed the zoom")
            return
        }
        guard let item = collectionView.indexPathForItem(at: singleTap.location(in: collectionView)) else { return }
        collectionView.selectItem(at: item)
        emit(.selected, singleTap, "selected \(library.name(of: item))")
    }

    private func doubleTapped(_ tap: TapGestureRecognizer) {
        if zoomedPhoto != nil {
            setZoom(nil)
            emit(.unzoomed, doubleTap, "closed the zoom")
            return
        }
        guard let item = collectionView.indexPathForItem(at: doubleTap.location(in: collectionView)),
              let photo = library.photo(at: item) else { return }
        setZoom(photo.id)
        emit(.zoomed, doubleTap, "zoomed \(library.name(of: item))")
    }

    private func pinched(_ pinch: PinchGestureRecognizer) {
        switch pinch.state {
        case .began, .changed:
            // installPinchToResize has set itemSize = itemSizeAtBegan × scale; keep it on screen.
            // A new item size invalidates the layout, which the collection view lays out at the
            // end of the step, once, with the pinch's own change.
            let largest = min(screen.width - PhotoWallStyle.sectionInset.left - PhotoWallStyle.sectionInset.right,
                              screen.height - PhotoWallStyle.headerHeight - PhotoWallStyle.footerHeight
                                  - PhotoWallStyle.sectionInset.top - PhotoWallStyle.sectionInset.bottom)
            let side = layout.itemSize.width
            let clamped = min(max(side, PhotoWallStyle.minimumItemSide), largest)
            if clamped != side {
                layout.itemSize = Size(width: clamped, height: clamped * layout.itemSize.height / side)
            }
        case .ended:
            let s = layout.itemSize
            let asked = PhotoWallStyle.itemSize.width * pinch.scale
            let limit = abs(asked - s.width) > 0.5 ? (asked < s.width ? ", the smallest" : ", the largest") : ""
            emit(.resized, pinch, "tiles \(Int(s.width.rounded())) × \(Int(s.height.rounded())) pt\(limit) (pinch × \(format2(pinch.scale)))")
        case .cancelled, .possible, .failed:
            break
        }
    }

    private func pressed(_ press: LongPressGestureRecognizer) {
        switch reorder.state {
        case .began:
            guard let (original, _) = collectionView.interactiveMovement else { return }
            pickedUpFrom = original
            pickedUpPhoto = library.photo(at: original)?.id
            emit(.pickedUp, reorder, "picked up \(library.name(of: original))")
        case .ended, .cancelled:
            guard let from = pickedUpFrom, let id = pickedUpPhoto, let to = library.indexPath(ofPhoto: id) else { return }
            pickedUpFrom = nil
            pickedUpPhoto = nil
            let name = library.name(of: to)
            emit(.reordered, reorder, from == to ? "put \(name) back" : "moved \(name) from place \(from.item + 1) to \(to.item + 1)")
        case .changed, .possible, .failed:
            break
        }
    }

    private func scrolled(_ pan: PanGestureRecognizer) {
        guard scroll.state == .ended || scroll.state == .cancelled else { return }
        let y = Int(collectionView.contentOffset.y.rounded())
        if let target = flingTarget {
            let speed = Int(abs(collectionView.scrollVelocity.y).rounded())
            emit(.scrolled, scroll, "let go at \(y) pt, \(speed) pt/s: moving on to \(Int(target.y.rounded())) pt")
        } else {
            emit(.scrolled, scroll, "scrolled to \(y) pt")
        }
    }

    /// Where the content released by the last drag comes to rest, while it moves on.
    public private(set) var flingTarget: Point?
}

/// The wall answers the collection view's delegate questions: a touch highlights a tile, but
/// only the tap recognizer selects (a two-finger touch, or touches the view receives after the
/// recognizers failed, must not select behind the gestures' back).
extension PhotoWall: CollectionViewDelegate {
    public func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: LayoutIndexPath) -> Bool {
        false
    }

    public func collectionView(_ collectionView: CollectionView, didHighlightItemAt indexPath: LayoutIndexPath) {
        highlights.append(indexPath)
    }

    public func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Point,
                                          targetContentOffset: inout Point) {
        flingTarget = targetContentOffset
    }

    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        if !decelerate { flingTarget = nil }
    }

    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {
        flingTarget = nil
        emit(.cameToRest, gesture: "scroll", "came to rest at \(Int(scrollView.contentOffset.y.rounded())) pt")
    }
}

func format2(_ v: Double) -> String { DecimalText.fixed(v, digits: 2) }
