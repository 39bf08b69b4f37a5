import GestureKit
import GestureLayout
import PhotoWallApp
import Testing

/// Touches made up here, on virtual time: one finger, as a person drags and flicks.
struct Finger {
    let wall: PhotoWall
    var id = 1

    func send(_ phase: TouchPhase, _ p: Point, at t: Double) {
        wall.send(TouchFrame(time: Instant(seconds: t), changes: [TouchChange(sourceID: id, phase: phase, location: p)]))
    }

    /// Down at `from`, moves to `to` in `duration` seconds at 120 frames a second (eased in
    /// when `eased`, at a steady speed otherwise), lifts there at once. Returns the time of the lift.
    @discardableResult
    func flick(from: Point, to: Point, at start: Double, duration: Double) -> Double {
        send(.began, from, at: start)
        let steps = max(1, Int((duration * 120).rounded()))
        for i in 1...steps {
            let s = Double(i) / Double(steps)
            send(.moved, Point(x: from.x + (to.x - from.x) * s, y: from.y + (to.y - from.y) * s),
                 at: start + duration * s)
        }
        send(.ended, to, at: start + duration)
        return start + duration
    }

    /// Down and up at `p`, `duration` seconds apart.
    func tap(_ p: Point, at t: Double, duration: Double = 0.05) {
        send(.began, p, at: t)
        send(.ended, p, at: t + duration)
    }
}

extension PhotoWall {
    /// Runs every deadline (display-link frames included) up to `t`.
    func run(until t: Double) {
        while let d = nextDeadline, d <= Instant(seconds: t) { advance(to: d) }
        advance(to: Instant(seconds: t))
    }
}

/// PhotoWall as a UICollectionView: one finger scrolls, a release flings on, slows down and
/// bounces at the ends; long press, pinch and taps still do what they did.
@Suite("PhotoWall: one-finger scrolling and flings")
struct PhotoWallScrollTests {
    /// One-finger swipes: a flick up on the Wacom (fast: the fling runs to the bottom and
    /// bounces), and on the Dell Canvas (up from the bottom edge, slow; down from the top
    /// edge: the content is pulled past the top and springs back). All generated: the one
    /// recorded one-finger swipe (the Pixel Tablet's) begins sideways (below).
    static let swipes = ["synthetic-ts-wacom-flick-up-1f.evemu", "synthetic-ts-dell-canvas27-edge-swipe-bottom-1f.evemu",
                         "synthetic-ts-dell-canvas27-edge-swipe-top-1f.evemu"]

    /// What a replay shows of the scroll: the offset when the finger lifted, the content's
    /// velocity then, and every offset the content had after that.
    struct Fling {
        var release: Point?
        var velocity = Point.zero
        var after: [Double] = []
        var phases: [ScrollPhase] = []
    }

    static func replayFling(_ name: String) throws -> (Replayed, Fling) {
        var fling = Fling()
        let r = try Replayed(Traces.fixture(name), onEvent: { event, wall in
            if event.kind == .scrolled {
                fling.release = wall.collectionView.contentOffset
                fling.velocity = wall.collectionView.scrollVelocity
                wall.collectionView.onScroll = { view in
                    fling.after.append(view.contentOffset.y)
                    fling.phases.append(view.scrollPhase)
                }
            }
        })
        return (r, fling)
    }

    @Test("the recorded Pixel Tablet swipe begins sideways (12 pt right, 2 pt up when it passes the pan's threshold), so the wall, which scrolls only vertically, does not scroll, select or zoom")
    func sidewaysSwipeDoesNotScroll() throws {
        let (r, fling) = try Self.replayFling("ts-pixel-tablet-nvt-swipe-1f.evemu")
        #expect(fling.release == nil, "a drag that begins across the only direction the wall scrolls is not a scroll: \(r.events)")
        #expect(r.wall.collectionView.contentOffset == .zero, "the wall stays at the top")
        #expect(!r.kinds.contains(.selected) && !r.kinds.contains(.zoomed), "a swipe is no tap: \(r.events)")
    }

    @Test("a one-finger swipe scrolls the wall against the finger, and nothing else happens", arguments: swipes)
    func oneFingerScrolls(_ name: String) throws {
        let (down, up) = try Traces.firstDownAndLastUp(Traces.fixture(name))
        let (r, fling) = try Self.replayFling(name)
        #expect(r.kinds.first == .scrolled, "the swipe is a scroll: \(r.events)")
        #expect(!r.kinds.contains(.selected) && !r.kinds.contains(.zoomed) && !r.kinds.contains(.pickedUp))
        let release = try #require(fling.release)
        // The finger went up (or down) the screen; the content followed it until the lift
        // (the offset moves the other way), as far as the top edge allows.
        let fingerDy = up.y - down.y
        if fingerDy < 0 {
            #expect(release.y > 0, "a finger moving up \(-fingerDy) pt scrolls the wall down")
        } else {
            #expect(release.y < 0 || r.wall.collectionView.contentOffset.y == 0,
                    "a finger moving down at the top pulls the content past the edge (rubber band)")
        }
        #expect(r.wall.layout.itemSize == PhotoWallStyle.itemSize)
        #expect(r.wall.collectionView.indexPathsForSelectedItems.isEmpty)
    }

    @Test("the release flings on: the content decelerates frame by frame and comes to rest within 1 pt of the projection (or at the edge)",
          arguments: swipes)
    func flingComesToRestAtTheProjection(_ name: String) throws {
        let (r, fling) = try Self.replayFling(name)
        let release = try #require(fling.release)
        let cv = r.wall.collectionView
        let physics = ScrollPhysics(decelerationRate: cv.decelerationRate.rawValue)
        let lo = cv.minimumContentOffset.y, hi = cv.maximumContentOffset.y
        let projected = min(max(physics.projection(release.y, velocity: fling.velocity.y), lo), hi)
        #expect(fling.velocity.y != 0, "the swipe is released moving")
        #expect(abs(cv.contentOffset.y - projected) <= 1,
                "came to rest at \(cv.contentOffset.y) pt; the projection from \(release.y) pt at \(fling.velocity.y) pt/s is \(projected) pt")
        #expect(abs(cv.contentOffset.y - release.y) > 20, "the content moved on after the lift")
        #expect(fling.after.count > 10, "the motion took many display-link frames, not one jump: \(fling.after.count)")
        #expect(fling.phases.contains(.decelerating) || fling.phases.contains(.bouncing))
        #expect(fling.phases.last == .rest && cv.scrollPhase == .rest)
        #expect(r.kinds.last == .cameToRest, "the wall says when it came to rest: \(r.events)")
    }

    @Test("a flick up scrolls on and slows down: each frame moves less than the one before, and it comes to rest at the projection")
    func generatedFlingDecelerates() throws {
        let wall = PhotoWall()
        let finger = Finger(wall: wall)
        var offsets: [(t: Double, y: Double)] = []
        var release: (Double, Double)?
        wall.scroll.addTarget { pan in
            if pan.state == .ended { release = (wall.collectionView.contentOffset.y, wall.collectionView.scrollVelocity.y) }
        }
        let lift = finger.flick(from: Point(x: 640, y: 600), to: Point(x: 640, y: 500), at: 1, duration: 0.1)
        wall.collectionView.onScroll = { offsets.append((wall.engine.now.seconds, $0.contentOffset.y)) }
        wall.run(until: lift + 10)
        let (y0, v0) = try #require(release)
        #expect(v0 > 500, "a 100 pt flick in 0.1 s is released at about 1000 pt/s, found \(v0)")
        let projected = ScrollPhysics().projection(y0, velocity: v0)
        #expect(projected < wall.collectionView.maximumContentOffset.y, "the test flick stays clear of the bottom")
        #expect(abs(wall.collectionView.contentOffset.y - projected) <= 1)
        // Speed between frames (pt per s); the first frame may come sooner than 1/60 s after
        // the lift (frames fall on the display's grid), so speeds, not steps, are compared.
        let speeds = zip(offsets.dropFirst(), offsets).map { ($0.y - $1.y) / ($0.t - $1.t) }
        #expect(offsets.count > 30, "many frames: \(offsets.count)")
        #expect(speeds.allSatisfy { $0 >= 0 }, "it never moves back")
        // The last step settles on the projection (`ScrollPhysics.restDistance`): left out.
        let slowing = Array(speeds.dropLast())
        #expect(zip(slowing.dropFirst(), slowing).allSatisfy { $0 <= $1 + 1e-6 }, "it slows down from frame to frame: \(speeds.suffix(4))")
        #expect(abs(offsets[offsets.count - 1].y - offsets[offsets.count - 2].y) <= 1, "the settling step is small")
        #expect(abs(wall.engine.now.seconds - lift - 10) < 1e-6)
        #expect(wall.events.map(\.kind) == [.scrolled, .cameToRest])
    }

    @Test("a flick down at the top runs past the edge and bounces back to it")
    func flingPastTheTopBounces() throws {
        let wall = PhotoWall()
        let finger = Finger(wall: wall)
        var lowest = 0.0
        let lift = finger.flick(from: Point(x: 640, y: 300), to: Point(x: 640, y: 420), at: 1, duration: 0.06)
        #expect(wall.collectionView.contentOffset.y < 0, "the drag pulled the content past the top (rubber band)")
        wall.collectionView.onScroll = { lowest = min(lowest, $0.contentOffset.y) }
        wall.run(until: lift + 5)
        #expect(lowest < -10, "the content ran past the top: \(lowest) pt")
        #expect(wall.collectionView.contentOffset.y == 0, "and came back to the edge")
        #expect(wall.events.last?.kind == .cameToRest)
    }

    @Test("a tap on moving content stops it where it is, and neither selects nor opens the photo")
    func tapOnMovingContentStopsIt() throws {
        let wall = PhotoWall()
        let finger = Finger(wall: wall)
        let lift = finger.flick(from: Point(x: 640, y: 600), to: Point(x: 640, y: 400), at: 1, duration: 0.1)
        wall.run(until: lift + 0.2)
        #expect(wall.collectionView.isDecelerating, "still moving 0.2 s after the flick")
        let tapAt = Point(x: 300, y: 300)
        #expect(wall.indexPath(atScreen: tapAt) != nil, "the tap lands on a tile")
        Finger(wall: wall, id: 2).tap(tapAt, at: lift + 0.2)
        let stoppedAt = wall.collectionView.contentOffset.y
        wall.run(until: lift + 5)
        #expect(wall.collectionView.contentOffset.y == stoppedAt, "the content stayed where the touch stopped it")
        let kinds = wall.events.map(\.kind)
        #expect(kinds == [.scrolled, .stopped], "\(wall.events)")
        #expect(wall.collectionView.indexPathsForSelectedItems.isEmpty)
        #expect(wall.zoomedPhoto == nil)
        // The next tap, on still content, selects.
        Finger(wall: wall, id: 3).tap(tapAt, at: lift + 6)
        wall.run(until: lift + 7)
        #expect(wall.events.last?.kind == .selected)
    }

    @Test("a drag that begins before the long press's duration scrolls, and the press never picks a tile up")
    func dragBeforeThePressScrolls() throws {
        let wall = PhotoWall()
        let finger = Finger(wall: wall)
        let start = Point(x: 300, y: 500)
        finger.send(.began, start, at: 1)
        // 60 pt up in 0.2 s, then still for a second (longer than the press's duration).
        for i in 1...24 { finger.send(.moved, Point(x: 300, y: 500 - 2.5 * Double(i)), at: 1 + Double(i) / 120) }
        for i in 1...120 { finger.send(.moved, Point(x: 300, y: 440), at: 1.2 + Double(i) / 120) }
        #expect(wall.collectionView.isDragging)
        #expect(abs(wall.collectionView.contentOffset.y - 50) < 1, "the content followed the finger past the 10 pt threshold")
        finger.send(.ended, Point(x: 300, y: 440), at: 2.3)
        wall.run(until: 5)
        #expect(!wall.events.contains { $0.kind == .pickedUp }, "\(wall.events)")
        #expect(wall.events.first?.kind == .scrolled)
        #expect(!wall.collectionView.isMovingItemInteractively)
    }

    @Test("a finger still for the long press's duration picks the tile up; then moving it moves the tile, not the wall")
    func longPressWinsOverTheScroll() throws {
        let r = try Replayed(Traces.longPressDrag)
        #expect(r.kinds == [.pickedUp, .reordered])
        #expect(r.wall.collectionView.contentOffset == .zero, "the wall did not scroll under the moving tile")
    }

    @Test("a pinch still resizes the tiles and does not scroll")
    func pinchStillResizes() throws {
        let r = try Replayed(Traces.pinchOut)
        #expect(r.kinds == [.resized])
        #expect(r.wall.layout.itemSize.width > PhotoWallStyle.itemSize.width * 1.5)
        #expect(r.wall.collectionView.contentOffset == .zero)
    }

    @Test("a second finger joining a scroll pinches: the pinch runs with the scroll, as a scroll view's pan and pinch do")
    func pinchJoinsAScroll() throws {
        let wall = PhotoWall()
        func frame(_ t: Double, _ changes: [TouchChange]) { wall.send(TouchFrame(time: Instant(seconds: t), changes: changes)) }
        frame(1, [TouchChange(sourceID: 1, phase: .began, location: Point(x: 600, y: 500))])
        for i in 1...12 { frame(1 + Double(i) / 120, [TouchChange(sourceID: 1, phase: .moved, location: Point(x: 600, y: 500 - 5 * Double(i)))]) }
        #expect(wall.collectionView.isDragging, "one finger scrolls")
        let scrolled = wall.collectionView.contentOffset.y
        // A second finger lands 100 pt to the right and the two spread apart to 300 pt.
        frame(1.2, [TouchChange(sourceID: 2, phase: .began, location: Point(x: 700, y: 440))])
        for i in 1...24 {
            let d = 100 + 200 * Double(i) / 24
            frame(1.2 + Double(i) / 120, [TouchChange(sourceID: 1, phase: .moved, location: Point(x: 650 - d / 2, y: 440)),
                                           TouchChange(sourceID: 2, phase: .moved, location: Point(x: 650 + d / 2, y: 440))])
        }
        #expect(wall.pinch.state == .changed, "the pinch began while the scroll went on")
        #expect(wall.collectionView.isDragging)
        frame(1.5, [TouchChange(sourceID: 1, phase: .ended, location: Point(x: 500, y: 440)),
                    TouchChange(sourceID: 2, phase: .ended, location: Point(x: 800, y: 440))])
        wall.run(until: 5)
        let kinds = wall.events.map(\.kind)
        #expect(kinds.contains(.resized) && kinds.contains(.scrolled), "\(wall.events)")
        #expect(wall.layout.itemSize.width > PhotoWallStyle.itemSize.width * 2, "the span tripled: \(wall.layout.itemSize)")
        #expect(scrolled > 40)
    }

    @Test("while the content moves the scroll indicator is drawn at the right edge; at rest it is gone")
    func scrollIndicatorWhileMoving() throws {
        let wall = PhotoWall()
        let finger = Finger(wall: wall)
        let lift = finger.flick(from: Point(x: 640, y: 600), to: Point(x: 640, y: 400), at: 1, duration: 0.1)
        wall.run(until: lift + 0.1)
        let bar = try #require(wall.scrollIndicatorFrame, "an indicator while decelerating")
        #expect(bar.maxX <= wall.screen.width && bar.minX > wall.screen.width - 20)
        #expect(wall.render().commands.contains(.fill(bar, PhotoWallStyle.scrollIndicator)))
        wall.run(until: lift + 10)
        #expect(wall.scrollIndicatorFrame == nil)
    }
}
