import Foundation
import GestureKit
import GestureLayout
import PhotoWallApp
import PhotoWallRender
import Testing
import GestureTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A wall drawn by SDL's software renderer onto a surface with no display, and read back.
struct RenderedFrame {
    let image: PixelImage
    let list: DisplayList
    let avoid: [Rect]

    init(_ wall: PhotoWall) throws {
        let canvas = try Canvas(width: Int(wall.screen.width), height: Int(wall.screen.height))
        list = wall.render()
        canvas.draw(list)
        image = try canvas.readPixels()
        var avoid = canvas.textBounds
        #expect(avoid.count == list.textRects.count, "every line of text was drawn")
        if let caption = wall.captionFrame { avoid.append(caption) }
        for (_, p) in wall.touches {
            let r = PhotoWallStyle.touchRadius
            avoid.append(Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
        }
        self.avoid = avoid
    }

    /// The colour at `point`, which must be away from text, the caption and fingers (the
    /// probes check shapes and colours, never glyphs).
    func color(at point: Point, sourceLocation: SourceLocation = #_sourceLocation) -> Color? {
        let clash = avoid.first { $0.insetBy(-2).contains(point) }
        #expect(clash == nil, "probe \(point) falls on text or an overlay at \(clash.map(\.description) ?? "")",
                sourceLocation: sourceLocation)
        return image.color(at: point)
    }

    /// Expects `expected` at `point`, within `tolerance` per channel.
    func expect(_ point: Point, is expected: Color, tolerance: Int = 1, _ what: String,
                sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = color(at: point, sourceLocation: sourceLocation)
        #expect(actual.map { $0.distance(to: expected) <= tolerance } == true,
                "\(what) at \(point): expected \(expected), found \(actual.map(\.description) ?? "nothing")",
                sourceLocation: sourceLocation)
    }

    /// The run of pixels of `color` along row `y` through `x` (its first and last x).
    func run(of color: Color, row y: Double, through x: Double) -> ClosedRange<Int>? {
        let yi = Int(y), xi = Int(x)
        func matches(_ x: Int) -> Bool { image.color(x: x, y: yi).map { $0.distance(to: color) <= 1 } ?? false }
        guard matches(xi) else { return nil }
        var lo = xi, hi = xi
        while matches(lo - 1) { lo -= 1 }
        while matches(hi + 1) { hi += 1 }
        return lo...hi
    }
}

/// Recorded gestures through the app, drawn headlessly; the pixels are checked where there
/// is no text: a tile's colour, the gaps, the bars, the selection ring, the zoom, the tile
/// order after a reorder, the tile size after a pinch. SDL's state is process-wide, so these
/// run one at a time.
@Suite("PhotoWall: pixels of replayed gestures", .serialized)
struct PhotoWallPixelTests {
    @Test("tap: the selected tile has the white ring; tiles, gaps and bars have their colours")
    func tap() throws {
        let (down, _) = try Traces.firstDownAndLastUp(Traces.tap)
        let r = try Replayed(Traces.tap)
        let wall = r.wall
        let selected = try #require(wall.collectionView.indexPathsForSelectedItems.first)
        #expect(selected == wall.indexPath(atScreen: down))
        let frame = try RenderedFrame(wall)
        let tile = try #require(wall.screenFrame(of: selected))
        let photo = try #require(wall.library.photo(at: selected))
        // The ring: 6 pt of white just inside each edge; the tile's colour inside it.
        let ring = PhotoWallStyle.selectionWidth
        for p in [Point(x: tile.minX + 2, y: tile.midY), Point(x: tile.maxX - 3, y: tile.midY),
                  Point(x: tile.midX, y: tile.minY + 2), Point(x: tile.midX, y: tile.maxY - 3)] {
            frame.expect(p, is: PhotoWallStyle.selection, "the selection ring")
        }
        frame.expect(Point(x: tile.minX + ring + 3, y: tile.midY - 20), is: photo.color, "inside the ring")
        frame.expect(tile.center.offset(0, -20), is: photo.color, "the selected tile")
        // An unselected tile: its colour right up to its edge.
        let first = LayoutIndexPath(item: 0, section: 0), second = LayoutIndexPath(item: 1, section: 0)
        let a = try #require(wall.screenFrame(of: first)), b = try #require(wall.screenFrame(of: second))
        let photoA = try #require(wall.library.photo(at: first))
        frame.expect(a.center, is: photoA.color, "tile 1")
        frame.expect(Point(x: a.minX + 1, y: a.midY), is: photoA.color, "tile 1's left edge")
        // The gap between tiles 1 and 2 (12 pt) shows the background, and nothing else.
        #expect(abs(b.minX - a.maxX - PhotoWallStyle.spacing) < 1)
        frame.expect(Point(x: (a.maxX + b.minX) / 2, y: a.midY), is: PhotoWallStyle.background, "the gap")
        frame.expect(Point(x: a.midX, y: a.maxY + PhotoWallStyle.spacing / 2), is: PhotoWallStyle.background,
                     "the gap between rows")
        #expect(frame.run(of: PhotoWallStyle.background, row: a.midY, through: (a.maxX + b.minX) / 2)
                == Int(a.maxX)...Int(b.minX) - 1)
        // The header and footer bars, away from their text.
        let header = try #require(wall.screenFrame(ofSupplementary: LayoutElementKind.sectionHeader, section: 0))
        frame.expect(Point(x: header.width * 0.55, y: header.midY), is: PhotoWallStyle.headerBar, "the header bar")
        frame.expect(Point(x: header.width * 0.55, y: header.minY + 2), is: PhotoWallStyle.headerBar, "the header bar's top")
        let footer = try #require(wall.screenFrame(ofSupplementary: LayoutElementKind.sectionFooter, section: 0))
        frame.expect(Point(x: footer.width * 0.9, y: footer.midY), is: PhotoWallStyle.footerBar, "the footer bar")
        // The header's swatch shows the section's first colour.
        frame.expect(Point(x: header.minX + 2, y: header.midY), is: photoA.color, "the header's swatch")
    }

    @Test("UIKit: a right click on a photo opens its context menu at the pointer, drawn by the wall (no toolkit draws it on SDL); a click on the disabled Share does nothing, one outside closes it, and Zoom zooms")
    func contextMenu() throws {
        let wall = PhotoWall()
        let tile = try #require(wall.screenFrame(of: LayoutIndexPath(item: 2, section: 0)))
        let at = tile.center
        func click(_ p: Point, _ t: Double, button: Int = 0x110) {
            wall.send(.pointer(.motion(to: p, at: Instant(seconds: t))))
            wall.send(.pointer(.button(true, at: p, time: Instant(seconds: t + 0.01), button: button)))
            wall.send(.pointer(.button(false, at: p, time: Instant(seconds: t + 0.08), button: button)))
        }
        click(at, 0, button: 0x111)
        let panel = try #require(wall.menuPanel, "the right click opens the menu")
        #expect(panel.frame.origin == at, "the menu opens at the pointer: \(panel.frame)")
        #expect(panel.rows.map(\.title) == ["Zoom", "Select", "Share"] && panel.rows.map(\.isEnabled) == [true, true, false])
        let frame = try RenderedFrame(wall)
        frame.expect(Point(x: panel.frame.maxX - 8, y: panel.rows[0].frame.midY), is: PhotoWallStyle.menuBackground, "the menu's panel")
        frame.expect(Point(x: panel.frame.maxX - 8, y: panel.separators[0].midY), is: PhotoWallStyle.menuSeparator, "the line before Share's section")
        try? FileManager.default.createDirectory(atPath: packageRoot.path + "/out", withIntermediateDirectories: true)
        let canvas = try Canvas(width: Int(wall.screen.width), height: Int(wall.screen.height))
        canvas.draw(wall.render())
        try canvas.savePNG(to: packageRoot.path + "/out/photowall-context-menu.png")

        click(panel.rows[2].frame.center, 1)
        #expect(wall.menuPanel != nil && wall.zoomedPhoto == nil, "Share is disabled: the menu stays, nothing happens")
        click(Point(x: 40, y: 700), 2)
        #expect(wall.menuPanel == nil && wall.collectionView.indexPathsForSelectedItems.isEmpty,
                "a click outside closes the menu, and is no tap on the wall")
        click(at, 3, button: 0x111)
        let again = try #require(wall.menuPanel)
        click(again.rows[0].frame.center, 4)
        #expect(wall.menuPanel == nil && wall.zoomedPhoto == wall.library.photo(at: LayoutIndexPath(item: 2, section: 0))?.id,
                "Zoom zooms the photo the menu was for")
        #expect(wall.events.map(\.kind).filter { [.menuOpened, .menuClosed, .zoomed].contains($0) } == [.menuOpened, .menuClosed, .menuOpened, .menuClosed, .zoomed],
                "\(wall.events)")
    }

    @Test("double tap: the tile drawn large over the dimmed wall")
    func doubleTap() throws {
        let r = try Replayed(Traces.doubleTap)
        let wall = r.wall
        let id = try #require(wall.zoomedPhoto)
        let at = try #require(wall.library.indexPath(ofPhoto: id))
        let photo = try #require(wall.library.photo(at: at))
        let frame = try RenderedFrame(wall)
        let zoom = wall.zoomFrame
        #expect(zoom.width > 500)
        frame.expect(zoom.center, is: photo.color, "the zoomed tile")
        frame.expect(Point(x: zoom.minX + 1, y: zoom.minY + 1), is: photo.color, "the zoomed tile's corner")
        #expect(frame.run(of: photo.color, row: zoom.minY + 10, through: zoom.midX) == Int(zoom.minX)...Int(zoom.maxX) - 1)
        // Around it, the wall dimmed: a gap is the background under the dim, a tile its colour under it.
        let a = try #require(wall.screenFrame(of: LayoutIndexPath(item: 0, section: 0)))
        let b = try #require(wall.screenFrame(of: LayoutIndexPath(item: 1, section: 0)))
        frame.expect(Point(x: (a.maxX + b.minX) / 2, y: a.midY),
                     is: PhotoWallStyle.dim.composited(over: PhotoWallStyle.background), "a dimmed gap")
        let photoA = try #require(wall.library.photo(at: LayoutIndexPath(item: 0, section: 0)))
        frame.expect(a.center, is: PhotoWallStyle.dim.composited(over: photoA.color), "a dimmed tile")
    }

    @Test("pinch: the tiles are drawn at the pinched size")
    func pinch() throws {
        let before = try RenderedFrame(PhotoWall())
        let first = LayoutIndexPath(item: 0, section: 0)
        let original = try #require(PhotoWall().screenFrame(of: first))
        let photo = try #require(PhotoLibrary.sample().photo(at: first))
        let r = try Replayed(Traces.pinchOut)
        let wall = r.wall
        let side = wall.layout.itemSize.width
        let frame = try RenderedFrame(wall)
        let tile = try #require(wall.screenFrame(of: first))
        // Measured along a row near the tile's top (above its number band).
        let widthBefore = try #require(before.run(of: photo.color, row: original.minY + 10, through: original.midX)).count
        let widthAfter = try #require(frame.run(of: photo.color, row: tile.minY + 10, through: tile.midX)).count
        #expect(widthBefore == 168)
        #expect(abs(Double(widthAfter) - side) <= 1, "drawn \(widthAfter) px wide, laid out \(side) pt")
        #expect(Double(widthAfter) > 1.5 * Double(widthBefore))
        // Its height, down a column: from its top to the number band.
        let band = photo.color.scaled(PhotoWallStyle.bandShade)
        frame.expect(Point(x: tile.maxX - 4, y: tile.maxY - 4), is: band, "the number band")
        frame.expect(Point(x: tile.maxX - 4, y: tile.maxY - PhotoWallStyle.bandHeight - 4), is: photo.color, "above the band")
        // Four to a row now, with the background between them.
        let second = try #require(wall.screenFrame(of: LayoutIndexPath(item: 1, section: 0)))
        #expect(abs(second.minY - tile.minY) < 1e-9)
        let fifth = try #require(wall.screenFrame(of: LayoutIndexPath(item: 4, section: 0)))
        #expect(fifth.minY > tile.maxY)
        frame.expect(Point(x: (tile.maxX + second.minX) / 2, y: tile.midY - 20), is: PhotoWallStyle.background, "the gap")
    }

    @Test("mid-fling (a one-finger flick up, 0.07 s after the lift): the tiles are drawn where the content is, with the scroll indicator")
    func midFling() throws {
        let wall = PhotoWall()
        var drawn: RenderedFrame?
        try PhotoWallReplay.run(path: Traces.fixture("synthetic-ts-wacom-flick-up-1f.evemu"), into: wall,
                                snapshots: [Instant(seconds: 0.25)],
                                onSnapshot: { _ in drawn = try RenderedFrame(wall) }) { _ in }
        let frame = try #require(drawn)
        // At 0.25 s the content was decelerating, 672 pt down (see `photowall --frame-at 0.25`);
        // the replay then ran on until it came to rest.
        let list = frame.list
        let offset = try #require(list.commands.compactMap { c -> Double? in
            if case let .fill(r, color) = c, color == PhotoWallStyle.scrollIndicator { return r.minY } else { return nil }
        }.first, "the scroll indicator is drawn mid-fling")
        #expect(offset > 100, "the indicator has moved down its track: \(offset)")
        let bar = Rect(x: wall.screen.width - PhotoWallStyle.scrollIndicatorInset - PhotoWallStyle.scrollIndicatorWidth,
                       y: offset, width: PhotoWallStyle.scrollIndicatorWidth, height: 20)
        // At the wall's right edge it lies over the background or a section's bar.
        let under = [PhotoWallStyle.background, PhotoWallStyle.headerBar, PhotoWallStyle.footerBar]
        let seen = try #require(frame.color(at: Point(x: bar.midX, y: bar.minY + 10)))
        #expect(under.contains { PhotoWallStyle.scrollIndicator.composited(over: $0).distance(to: seen) <= 2 },
                "the scroll indicator's translucent white, found \(seen)")
        // Ocean's first tile (section 2) is on screen, drawn at its laid-out place less the
        // offset then: its frame in content coordinates minus 672 ± 1 pt.
        let ocean = LayoutIndexPath(item: 0, section: 2)
        let content = try #require(wall.collectionView.layoutAttributesForItem(at: ocean)).frame
        let photo = try #require(wall.library.photo(at: ocean))
        let top = content.minY - 672
        frame.expect(Point(x: content.midX, y: top + 12), is: photo.color, tolerance: 1, "Ocean 1 just below its top edge")
        frame.expect(Point(x: content.midX, y: top - 6), is: PhotoWallStyle.background, "the gap above Ocean 1")
    }

    @Test("long-press drag: the tiles are drawn in the new order")
    func longPressDrag() throws {
        let (down, up) = try Traces.firstDownAndLastUp(Traces.longPressDrag)
        let before = PhotoWall()
        let from = try #require(before.indexPath(atScreen: down))
        let to = try #require(before.indexPath(atScreen: up))
        #expect(from.section == to.section && from.item < to.item)
        let moved = try #require(before.library.photo(at: from))
        let displaced = try #require(before.library.photo(at: to))

        var liftedFrame: RenderedFrame?
        var liftedWall: (Rect, Point)?
        let r = try Replayed(Traces.longPressDrag) { event, wall in
            guard event.kind == .pickedUp, let touch = wall.touches.values.first else { return }
            liftedFrame = try RenderedFrame(wall)
            liftedWall = (try #require(wall.screenFrame(of: from)), touch)
        }
        // Picked up: the tile, larger, centred on the finger, over a shadow.
        let lifted = try #require(liftedFrame)
        let (slot, finger) = try #require(liftedWall)
        let half = slot.width * PhotoWallStyle.liftScale / 2
        lifted.expect(Point(x: finger.x + half - 3, y: finger.y - half + 3), is: moved.color, "the lifted tile's corner")
        let liftedWidth = try #require(lifted.run(of: moved.color, row: finger.y - half + 3, through: finger.x + half - 3)).count
        #expect(abs(Double(liftedWidth) - 2 * half) <= 1, "drawn \(liftedWidth) px wide, lifted \(2 * half) pt")

        let wall = r.wall
        #expect(wall.library.indexPath(ofPhoto: moved.id) == to)
        let frame = try RenderedFrame(wall)
        // Every tile of the section shows the photo the model has there.
        for (item, photo) in wall.library.sections[to.section].photos.enumerated() {
            let path = LayoutIndexPath(item: item, section: to.section)
            let tile = try #require(wall.screenFrame(of: path))
            frame.expect(tile.center.offset(0, -20), is: photo.color, "tile \(path)")
        }
        // The moved photo is where the finger lifted; the one that was there moved back one.
        let target = try #require(wall.screenFrame(of: to))
        frame.expect(target.center.offset(0, -20), is: moved.color, "the moved photo")
        let previous = try #require(wall.screenFrame(of: LayoutIndexPath(item: to.item - 1, section: to.section)))
        frame.expect(previous.center.offset(0, -20), is: displaced.color, "the displaced photo")
        // Its old place shows the photo that followed it.
        let old = try #require(wall.screenFrame(of: from))
        let follower = try #require(before.library.photo(at: LayoutIndexPath(item: from.item + 1, section: from.section)))
        frame.expect(old.center.offset(0, -20), is: follower.color, "the photo after it, closed up")
    }

    @Test("a window (SDL's offscreen video driver here) shows the same pixels as the headless surface")
    func windowMatchesHeadless() throws {
        if getenv("SDL_VIDEODRIVER") == nil { setenv("SDL_VIDEODRIVER", "offscreen", 1) }
        let wall = try Replayed(Traces.tap).wall
        let headless = try RenderedFrame(wall)
        let window = try Canvas(windowTitle: "PhotoWall test", width: 1280, height: 800, fullscreen: false)
        #expect(window.hasWindow)
        #expect((window.width, window.height) == (1280, 800))
        window.draw(wall.render())
        window.present()
        #expect(!window.pollQuit())
        #expect(try window.readPixels().pixels == headless.image.pixels)
    }

    @Test("the software renderer on a surface gives the same pixels every time")
    func deterministic() throws {
        let a = try RenderedFrame(try Replayed(Traces.tap).wall)
        let b = try RenderedFrame(try Replayed(Traces.tap).wall)
        #expect(a.image.pixels == b.image.pixels)
    }
}

extension Point {
    func offset(_ dx: Double, _ dy: Double) -> Point { Point(x: x + dx, y: y + dy) }
}

/// HiDPI: a canvas of 2 pixels a point draws the same wall at twice the pixels.
@Suite("PhotoWall at 2 pixels a point")
struct PhotoWallHiDPITests {
    @Test("the wall drawn at 2 pixels a point is the wall at 1, each point two pixels across: every shape edge where the points say, and text drawn at twice the size (more pixels of it, not the same ones scaled)")
    func twice() throws {
        let wall = PhotoWall(screen: Size(width: 400, height: 300))
        let one = try Canvas(width: 400, height: 300)
        let two = try Canvas(width: 400, height: 300, pixelScale: 2)
        let list = wall.render()
        one.draw(list)
        two.draw(list)
        let a = try one.readPixels(), b = try two.readPixels()
        #expect(a.width == 400 && a.height == 300 && b.width == 800 && b.height == 600, "1× is 400 × 300 pixels, 2× 800 × 600")
        // Away from text, each pixel of 1× is the 2 × 2 block of 2× (shapes' edges fall on whole points).
        var compared = 0, differing = 0
        let text = one.textBounds.map { $0.insetBy(-3) }
        for y in stride(from: 0, to: 300, by: 3) {
            for x in stride(from: 0, to: 400, by: 3) where !text.contains(where: { $0.contains(Point(x: Double(x), y: Double(y))) }) {
                compared += 1
                let c = a.color(x: x, y: y)
                let block = [b.color(x: 2 * x, y: 2 * y), b.color(x: 2 * x + 1, y: 2 * y + 1)]
                if block.contains(where: { ($0?.distance(to: c!) ?? 999) > 2 }) { differing += 1 }
            }
        }
        #expect(compared > 5_000 && Double(differing) < 0.01 * Double(compared),
                "the 2× wall is the 1× wall at twice the pixels: \(differing) of \(compared) probes differ")
        // Text: twice the size in pixels, drawn at that size.
        let textOne = one.textBounds.map { $0.size.height }.reduce(0, +), textTwo = two.textBounds.map { $0.size.height }.reduce(0, +)
        #expect(abs(textTwo - 2 * textOne) < 0.15 * textTwo, "text boxes twice as tall in pixels: \(textOne) → \(textTwo)")
    }
}
