import GestureKit
import GestureLayout
import GestureTraces
import PhotoWallApp
import Testing

/// The app's logic on recorded traces, without SDL: what each gesture does to the wall.
@Suite("PhotoWall: gestures on recordings")
struct PhotoWallAppTests {
    @Test("the recordings land on tiles of the default layout")
    func recordingsLandOnTiles() throws {
        let wall = PhotoWall()
        for path in [Traces.tap, Traces.doubleTap, Traces.longPressDrag] {
            let (down, up) = try Traces.firstDownAndLastUp(path)
            #expect(wall.indexPath(atScreen: down) != nil, "\(path): touch-down at \(down) is in a gap")
            #expect(wall.indexPath(atScreen: up) != nil, "\(path): lift at \(up) is in a gap")
        }
        // The drag goes from one tile to another.
        let (down, up) = try Traces.firstDownAndLastUp(Traces.longPressDrag)
        #expect(wall.indexPath(atScreen: down) != wall.indexPath(atScreen: up))
    }

    @Test("a tap selects the tile under it, once the double tap's interval has run out")
    func tapSelects() throws {
        let (down, _) = try Traces.firstDownAndLastUp(Traces.tap)
        let target = try #require(PhotoWall().indexPath(atScreen: down))
        let r = try Replayed(Traces.tap)
        #expect(r.kinds == [.selected])
        #expect(r.wall.collectionView.indexPathsForSelectedItems == [target])
        // 0.024 s tap + the double tap's 0.3 s interval.
        let t = try #require(r.events.first).time.seconds
        #expect(abs(t - (0.024 + GestureDefaults.maximumTapInterval.inSeconds)) < 0.002)
        #expect(r.wall.zoomedPhoto == nil)
    }

    @Test("a double tap zooms the tile and selects nothing; the tile is never highlighted (delaysTouchesBegan)")
    func doubleTapZooms() throws {
        let (down, _) = try Traces.firstDownAndLastUp(Traces.doubleTap)
        let before = PhotoWall()
        let target = try #require(before.indexPath(atScreen: down))
        let photo = try #require(before.library.photo(at: target))
        let wall = PhotoWall()
        try PhotoWallReplay.run(path: Traces.doubleTap, into: wall) { _ in }
        #expect(wall.events.map(\.kind) == [.zoomed])
        #expect(wall.zoomedPhoto == photo.id)
        #expect(wall.collectionView.indexPathsForSelectedItems.isEmpty)
        #expect(wall.highlights.isEmpty, "the view saw the touches: \(wall.highlights)")
        // While zoomed the wall draws the dimmed overlay and the tile large.
        let list = wall.render()
        #expect(list.commands.contains(.fill(Rect(origin: .zero, size: wall.screen), PhotoWallStyle.dim)))
        #expect(list.commands.contains(.fill(wall.zoomFrame, photo.color)))
    }

    @Test("a pinch resizes the tiles: itemSize = itemSize at began × scale, the layout follows")
    func pinchResizes() throws {
        var scales: [Double] = []
        let wall = PhotoWall()
        wall.pinch.addTarget { p in
            if p.state == .changed || p.state == .ended { scales.append(p.scale) }
        }
        try PhotoWallReplay.run(path: Traces.pinchOut, into: wall) { _ in }
        #expect(wall.events.map(\.kind) == [.resized])
        let scale = try #require(scales.last)
        #expect(scale > 1.5 && scale < 1.9, "the recording spreads its fingers ×1.76")
        let side = PhotoWallStyle.itemSize.width * scale
        #expect(abs(wall.layout.itemSize.width - side) < 1e-6)
        #expect(abs(wall.layout.itemSize.height - side) < 1e-6)
        // Fewer columns: 1248 pt across holds 4 tiles of ~283 pt.
        #expect(wall.layout.itemsPerLine == 4)
        let first = try #require(wall.screenFrame(of: LayoutIndexPath(item: 0, section: 0)))
        #expect(abs(first.width - side) < 1e-6)
        // The pinch had the three fingers to itself: nothing scrolled.
        #expect(wall.collectionView.contentOffset == .zero)
    }

    @Test("a long press picks the tile up and dragging moves it to the tile under the finger")
    func longPressDragReorders() throws {
        let (down, up) = try Traces.firstDownAndLastUp(Traces.longPressDrag)
        let before = PhotoWall()
        let from = try #require(before.indexPath(atScreen: down))
        let to = try #require(before.indexPath(atScreen: up))
        let moved = try #require(before.library.photo(at: from))
        var lifted: LayoutIndexPath?
        let r = try Replayed(Traces.longPressDrag) { event, wall in
            if event.kind == .pickedUp { lifted = wall.collectionView.interactiveMovement?.original }
        }
        #expect(r.kinds == [.pickedUp, .reordered])
        #expect(lifted == from)
        #expect(r.wall.library.indexPath(ofPhoto: moved.id) == to)
        // The others closed up: the order is the old one with the photo taken out and put back.
        var expected = before.order
        let id = expected[from.section].remove(at: from.item)
        expected[to.section].insert(id, at: to.item)
        #expect(r.wall.order == expected)
        #expect(!r.wall.collectionView.isMovingItemInteractively)
        // Nothing was selected or zoomed on the way.
        #expect(r.wall.collectionView.indexPathsForSelectedItems.isEmpty)
        #expect(r.wall.zoomedPhoto == nil)
    }

    @Test("a tap closes the zoom; pinch, long press and pan are off while zoomed")
    func tapClosesZoom() throws {
        let wall = PhotoWall()
        try PhotoWallReplay.run(path: Traces.doubleTap, into: wall) { _ in }
        #expect(wall.zoomedPhoto != nil)
        #expect(!wall.pinch.isEnabled && !wall.reorder.isEnabled && !wall.scroll.isEnabled)
        // A tap, two seconds later.
        let t = wall.engine.now.seconds + 2
        let p = Point(x: 100, y: 100)
        wall.send(TouchFrame(time: Instant(seconds: t), changes: [TouchChange(sourceID: 7, phase: .began, location: p)]))
        wall.send(TouchFrame(time: Instant(seconds: t + 0.05), changes: [TouchChange(sourceID: 7, phase: .ended, location: p)]))
        wall.finish()
        #expect(wall.events.map(\.kind) == [.zoomed, .unzoomed])
        #expect(wall.zoomedPhoto == nil)
        #expect(wall.pinch.isEnabled && wall.reorder.isEnabled && wall.scroll.isEnabled)
    }

    @Test("only the tap selects: touches the recognizers let through highlight but never select")
    func onlyTheTapSelects() throws {
        // The Dell Canvas recording: a two-finger hold, a four-finger drag, a five-finger
        // pinch and a one-finger swipe. None is a tap.
        let r = try Replayed(Traces.fixture("ts-dell-canvas27-hold2f-drag4f-pinch5f-swipe1f.evemu"))
        #expect(!r.kinds.contains(.selected))
        #expect(r.wall.collectionView.indexPathsForSelectedItems.isEmpty)
        #expect(!r.wall.highlights.isEmpty, "the two-finger hold reached a tile")
        #expect(r.kinds.contains(.resized))
    }

    @Test("a pinch past the smallest size stops there, and says so")
    func pinchClamps() throws {
        let r = try Replayed(Traces.fixture("ts-surface-pro3-pinch-in-3f.debug-events.txt"))
        #expect(r.wall.layout.itemSize.width == PhotoWallStyle.minimumItemSide)
        let resized = try #require(r.events.first { $0.kind == .resized })
        #expect(resized.text.hasPrefix("tiles 72 × 72 pt, the smallest (pinch × 0.3"))
    }

    @Test("two fingers moving together neither scroll nor resize: one finger scrolls, and the pinch needs its span to change")
    func twoFingerPanDoesNothing() throws {
        let r = try Replayed(Traces.fixture("ts-ep0430m09-pan-down-2f.evemu"))
        #expect(r.kinds.isEmpty, "\(r.events)")
        #expect(r.wall.collectionView.contentOffset == .zero)
        #expect(r.wall.layout.itemSize == PhotoWallStyle.itemSize)
    }

    @Test("every tile has its own colour, and none is the selection's white or the background")
    func coloursAreDistinct() {
        let photos = PhotoLibrary.sample().sections.flatMap(\.photos)
        #expect(Set(photos.map(\.color)).count == photos.count)
        for p in photos {
            #expect(p.color.distance(to: PhotoWallStyle.selection) > 40)
            #expect(p.color.distance(to: PhotoWallStyle.background) > 40)
        }
        for section in PhotoLibrary.sample().sections {
            for (a, b) in zip(section.photos, section.photos.dropFirst()) {
                #expect(a.color.distance(to: b.color) > 12, "\(a.number) and \(b.number) look alike")
            }
        }
    }
}


@Suite("PhotoWall: lifetime")
struct PhotoWallLifetimeTests {
    @Test("the wall, its collection view and engine are freed once released, after every recorded gesture and with a fling still running")
    func wallIsFreed() throws {
        let flick = Traces.fixture("synthetic-ts-wacom-flick-up-1f.evemu")
        for path in [Traces.tap, Traces.doubleTap, Traces.longPressDrag, flick] {
            weak var wall: PhotoWall?
            weak var engine: GestureEngine?
            weak var collection: CollectionView?
            var events = 0
            try {
                let r = try Replayed(path)
                events = r.events.count
                (wall, engine, collection) = (r.wall, r.wall.engine, r.wall.collectionView)
            }()
            #expect(events > 0, "\(path): the wall acted on the recording")
            #expect(wall == nil && collection == nil, "\(path): the wall and its collection view are freed")
            #expect(engine == nil, "\(path): the engine is freed")
        }
        // Mid-fling: the flick's frames sent, the fling still running when the wall is let go.
        weak var flinging: PhotoWall?
        try {
            let wall = PhotoWall()
            for frame in try TraceReader(path: flick, screen: PhotoWallStyle.defaultScreen).frames() { wall.send(frame) }
            #expect(wall.collectionView.isDecelerating, "the flick flings the wall")
            flinging = wall
        }()
        #expect(flinging == nil, "a wall let go mid-fling is freed")
    }
}
