import Testing
import RealModule
import GestureKit
import GestureTestSupport

/// What Apple's gesture pages say their sample code does, checked on GestureKit with the
/// same idioms (in our own words and code): a view dragged by `initialCenter + translation`,
/// turned by `transform.rotated(by:)`, a custom recognizer that keeps the touch it began with,
/// handlers plugged in as target and action.
@Suite("Apple's sample idioms behave as Apple's pages say")
struct AppleSampleFidelityTests {
    /// A view controller's handlers, as Apple's samples write them.
    final class PieceController {
        let piece: View
        var initialCenter = Point.zero
        var calls = 0
        init(piece: View) { self.piece = piece }

        func panPiece(_ pan: PanGestureRecognizer) {
            calls += 1
            switch pan.state {
            case .began:
                initialCenter = piece.center
                piece.center = initialCenter + pan.translation(in: piece.superview)
            case .changed:
                piece.center = initialCenter + pan.translation(in: piece.superview)
            case .cancelled:
                piece.center = initialCenter
            default:
                break
            }
        }

        func rotatePiece(_ rotation: RotationGestureRecognizer) {
            guard rotation.state == .began || rotation.state == .changed else { return }
            piece.transform = piece.transform.rotated(by: rotation.rotation)
            rotation.rotation = 0
        }

        func scalePiece(_ pinch: PinchGestureRecognizer) {
            guard pinch.state == .began || pinch.state == .changed else { return }
            piece.transform = piece.transform.scaledBy(x: pinch.scale, y: pinch.scale)
            pinch.scale = 1
        }
    }

    func pieceSetup() -> (Harness, View, PieceController) {
        let h = Harness()
        let piece = View(id: "piece", frame: Rect(x: 100, y: 100, width: 100, height: 100))
        h.root.addSubview(piece)
        return (h, piece, PieceController(piece: piece))
    }

    @Test("a view dragged by its initial center plus the pan's translation stays under the finger: a 60 pt drag moves it 60 pt")
    func dragFollowsFinger() {
        let (h, piece, controller) = pieceSetup()
        piece.addGestureRecognizer(PanGestureRecognizer(target: controller, action: PieceController.panPiece))
        h.down(0, 150, 150, at: 0)
        for i in 1...6 { h.move(0, 150 + Double(i) * 10, 150, at: Double(i) * 0.01) }
        #expect(piece.center == Point(x: 210, y: 150),
                "expected the piece centred under the finger at (210, 150) after a 60 pt drag, got \(piece.center)")
        h.up(0, 210, 150, at: 0.07)
        #expect(controller.calls == 7, "began, five changes and the end: got \(controller.calls)")
    }

    @Test("a 90° turn of two fingers turns a view by 90°: the turn that began the rotation counts")
    func rotationTurnsAllTheWay() {
        let (h, piece, controller) = pieceSetup()
        h.root.addGestureRecognizer(RotationGestureRecognizer(target: controller, action: PieceController.rotatePiece))
        h.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500)])
        for i in 1...10 {
            let a = Double(i) * Double.pi / 20
            h.frame(Double(i) * 0.01, [(0, .moved, 500 - 100 * Double.cos(a), 500 - 100 * Double.sin(a)),
                                       (1, .moved, 500 + 100 * Double.cos(a), 500 + 100 * Double.sin(a))])
        }
        let angle = Double.atan2(y: piece.transform.b, x: piece.transform.a)
        #expect(abs(angle - Double.pi / 2) < 1e-9, "expected the view turned by π/2, got \(angle) rad")
    }

    @Test("a pinch's scale is 1 at began, and a view scaled by each change ends scaled by the span's growth since began")
    func pinchScaleAtBegan() {
        let (h, piece, controller) = pieceSetup()
        var scaleAtBegan: Double?
        var spanAtBegan = 0.0
        let pinch = PinchGestureRecognizer { p in
            guard p.state == .began else { return }
            scaleAtBegan = p.scale
            spanAtBegan = p.location(ofTouch: 0, in: nil).distance(to: p.location(ofTouch: 1, in: nil))
        }
        pinch.addTarget(controller, action: PieceController.scalePiece)
        h.root.addGestureRecognizer(pinch)
        h.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500)])
        for i in 1...10 { h.frame(Double(i) * 0.01, [(0, .moved, 400 - Double(i) * 5, 500), (1, .moved, 600 + Double(i) * 5, 500)]) }
        #expect(scaleAtBegan == 1, "expected scale 1.0 at began, as Apple's pinch page says, got \(String(describing: scaleAtBegan))")
        #expect(spanAtBegan > 200 && spanAtBegan < 300)
        #expect(abs(piece.transform.a - 300 / spanAtBegan) < 1e-9,
                "expected the view scaled by 300/\(spanAtBegan), got \(piece.transform.a)")
    }

    @Test("a turned and scaled view is touched where it is drawn, and locations in it come through its transform")
    func transformedHitTesting() {
        let h = Harness()
        let card = View(id: "card", frame: Rect(x: 250, y: 250, width: 100, height: 100))
        h.root.addSubview(card)
        card.transform = AffineTransform(rotationAngle: Double.pi / 4)
        // A corner of the untransformed frame is outside the turned square.
        #expect(h.engine.hitTest(Point(x: 345, y: 345)) === h.root, "the frame's corner is outside the turned card")
        // Beyond the frame's right edge, but inside the turned square's right corner (70.7 pt out).
        #expect(h.engine.hitTest(Point(x: 365, y: 300)) === card, "the turned card's corner reaches past its frame")
        card.transform = card.transform.scaledBy(x: 2, y: 2)
        #expect(h.engine.hitTest(Point(x: 430, y: 300)) === card, "scaled by 2, it reaches 141 pt from its center")
        let center = card.convertFromScreen(Point(x: 300, y: 300))
        #expect(abs(center.x - 50) < 1e-9 && abs(center.y - 50) < 1e-9, "the card's center is (50, 50) in its own space, got \(center)")
        let back = card.convertToScreen(Point(x: 100, y: 50))
        // 50 pt right of the center, scaled by 2 and turned 45°: 100 pt down and to the right.
        let out = 100 / 2.0.squareRoot()
        #expect(abs(back.x - (300 + out)) < 1e-9 && abs(back.y - (300 + out)) < 1e-9,
                "the card's right edge mid-point is scaled by 2 and turned 45° on screen, got \(back)")
        #expect(abs(card.frame.width - 200 * 2.0.squareRoot()) < 1e-9, "the frame is the turned card's bounding box")
    }

    @Test("translation(in:) of a scaled view is the movement in its own space: a 60 pt drag is 30 pt in a view scaled by 2")
    func translationInScaledView() {
        let h = Harness()
        let zoomed = View(id: "zoomed", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        h.root.addSubview(zoomed)
        zoomed.transform = AffineTransform(scaleX: 2, y: 2)
        let pan = h.add(PanGestureRecognizer(name: "pan"), to: zoomed)
        h.down(0, 500, 500, at: 0)
        for i in 1...6 { h.move(0, 500 + Double(i) * 10, 500, at: Double(i) * 0.01) }
        #expect(pan.translation(in: nil) == Point(x: 60, y: 0))
        #expect(pan.translation(in: zoomed) == Point(x: 30, y: 0), "got \(pan.translation(in: zoomed))")
        pan.setTranslation(.zero, in: zoomed)
        h.move(0, 570, 500, at: 0.07)
        #expect(pan.translation(in: zoomed) == Point(x: 5, y: 0), "10 pt on screen after the reset, 5 in the zoomed view")
    }

    /// A one-finger stroke to the right, written as Apple's custom recognizers are: it keeps
    /// the touch it began with and compares each moved touch to it.
    final class RightStrokeRecognizer: GestureRecognizer {
        var trackedTouch: Touch?
        var start = Point.zero
        var sawSameTouchInASet = false

        override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
            super.touchesBegan(touches, with: event)
            if touches.count != 1 { state = .failed }
            if trackedTouch == nil, let first = touches.first {
                trackedTouch = first
                start = first.location(in: view)
            } else {
                for touch in touches where touch != trackedTouch { ignore(touch, for: event) }
            }
        }

        override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
            super.touchesMoved(touches, with: event)
            guard let newTouch = touches.first, newTouch == trackedTouch else {
                state = .failed
                return
            }
            sawSameTouchInASet = Set([newTouch, trackedTouch!]).count == 1 && event.allTouches.contains(newTouch)
        }

        override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
            super.touchesEnded(touches, with: event)
            guard let touch = touches.first, touch == trackedTouch else { state = .failed; return }
            state = touch.location(in: view).x - start.x >= 50 ? .ended : .failed
        }

        override func reset() {
            super.reset()
            trackedTouch = nil
        }
    }

    @Test("a touch saved when it began equals the same touch when it moves, so a recognizer that compares them recognizes")
    func touchIdentity() {
        let h = Harness()
        let stroke = h.add(RightStrokeRecognizer(name: "stroke"))
        h.down(0, 100, 500, at: 0)
        for i in 1...6 { h.move(0, 100 + Double(i) * 10, 500 + Double(i), at: Double(i) * 0.01) }
        #expect(stroke.sawSameTouchInASet, "the moved touch and the saved one are one element of a Set, and in the event's touches")
        h.up(0, 160, 506, at: 0.07)
        #expect(h.lines("stroke") == ["0.070 stroke: possible→ended"], "got \(h.lines("stroke"))")
        #expect(stroke.trackedTouch == nil, "reset() ran after the final state")
    }

    /// A continuous recognizer written the UIKit way with no `kind` declared: it begins at the
    /// first move, changes at each, ends at the lift.
    final class FreeDrag: GestureRecognizer {
        var locations: [Point] = []
        override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
            super.touchesMoved(touches, with: event)
            state = state == .possible ? .began : .changed
            locations.append(location(in: view))
        }
        override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
            super.touchesEnded(touches, with: event)
            state = state == .possible ? .failed : .ended
        }
    }

    @Test("a recognizer that sets began is continuous without declaring a kind, and its location is its touches' centroid in its view")
    func uikitShapedContinuous() {
        let h = Harness()
        let panel = View(id: "panel", frame: Rect(x: 100, y: 200, width: 800, height: 600))
        h.root.addSubview(panel)
        let drag = h.add(FreeDrag(name: "drag"), to: panel)
        h.frame(0, [(0, .began, 300, 400), (1, .began, 500, 400)])
        h.frame(0.01, [(0, .moved, 310, 400), (1, .moved, 510, 420)])
        h.frame(0.02, [(0, .moved, 320, 400), (1, .moved, 520, 440)])
        h.frame(0.03, [(0, .ended, 320, 400), (1, .ended, 520, 440)])
        #expect(h.lines("drag") == ["0.010 drag: possible→began", "0.020 drag: began→changed", "0.030 drag: changed→ended"],
                "got \(h.lines("drag"))")
        #expect(drag.locations == [Point(x: 310, y: 210), Point(x: 320, y: 220)],
                "the centroid of the two fingers in the panel's coordinates, got \(drag.locations)")
    }

    @Test("a recognizer made with a target and action holds the target weakly: it keeps nothing alive and calls nothing once the target is gone")
    func targetIsWeak() {
        let (h, piece, _) = pieceSetup()
        weak var gone: PieceController?
        do {
            let controller = PieceController(piece: piece)
            gone = controller
            piece.addGestureRecognizer(PanGestureRecognizer(target: controller, action: PieceController.panPiece))
        }
        #expect(gone == nil, "the recognizer does not keep its target alive")
        h.down(0, 150, 150, at: 0)
        h.move(0, 200, 150, at: 0.01)
        h.up(0, 200, 150, at: 0.02)
        #expect(piece.center == Point(x: 150, y: 150), "no action ran once the target was gone")
        #expect(h.lines("pan#").isEmpty)
    }

    @Test("removeTarget removes the target's actions; closures and other targets stay")
    func removeTarget() {
        let (h, piece, controller) = pieceSetup()
        var closureCalls = 0
        let pan = PanGestureRecognizer(target: controller, action: PieceController.panPiece)
        pan.addTarget { _ in closureCalls += 1 }
        piece.addGestureRecognizer(pan)
        pan.removeTarget(controller)
        h.down(0, 150, 150, at: 0)
        h.move(0, 200, 150, at: 0.01)
        h.up(0, 200, 150, at: 0.02)
        #expect(controller.calls == 0 && closureCalls == 2, "controller \(controller.calls), closure \(closureCalls)")
    }

    @Test("a screen edge pan made without edges and given them later begins at that edge")
    func edgePanEdgesLater() {
        let h = Harness(screen: Size(width: 800, height: 480))
        let edge = ScreenEdgePanGestureRecognizer()
        edge.name = "edge"
        h.add(edge)
        h.down(0, 8, 240, at: 0)
        h.move(0, 40, 240, at: 0.01)
        h.up(0, 40, 240, at: 0.02)
        #expect(h.lines("edge") == ["0.000 edge: possible→failed"], "with no edges it fails at touch-down")
        edge.edges = .left
        h.down(0, 8, 240, at: 1)
        h.move(0, 40, 240, at: 1.01)
        h.up(0, 40, 240, at: 1.02)
        #expect(h.lines("edge").suffix(2) == ["1.010 edge: possible→began", "1.020 edge: began→ended"], "got \(h.lines("edge"))")
    }
}
