import GestureKit

/// Aiming at views. A gesture aimed at a view lands at the view's centre (or at the point of
/// the view given as `at:`, in its own coordinates) in screen points, through its transforms
/// and its scroll views' offsets. The rule: if the engine's hit test
/// at a finger's landing point would give the touch to a view that is neither the target
/// nor inside it (a view on top, or none: the target hidden or off screen), the gesture is
/// not made and the step throws `GestureTestError.missedView`, naming the view that would get
/// the touch. A person's finger would not reach the target either.
extension GestureTester {
    /// Where a gesture aimed at `view` lands: its centre, in screen points. Throws if another
    /// view would get a touch there.
    public func aim(at view: View) throws -> Point {
        try aim(at: view, point: nil)
    }

    /// Where a gesture aimed at `point` of `view` (in the view's own coordinates, its
    /// bounds; nil: its centre) lands, in screen points. Throws if another view would get a
    /// touch there (a caption bar over part of a photo), or if `point` is outside the view.
    public func aim(at view: View, point: Point?) throws -> Point {
        let bounds = view.bounds
        let local = point ?? Point(x: bounds.midX, y: bounds.midY)
        guard local.isFinite else {
            throw GestureTestError.invalidParameter(parameter: "at", value: "(\(fmt(local.x)), \(fmt(local.y)))", why: "must be finite (no NaN or infinity)")
        }
        guard view.point(inside: local) else {
            throw GestureTestError.invalidParameter(
                parameter: "at", value: "(\(fmt(local.x)), \(fmt(local.y)))",
                why: "is outside view \(view.debugName), whose bounds are \(describe(bounds)) (a point in the view's own coordinates)")
        }
        let screenPoint = view.convertToScreen(local)
        try check(screenPoint, reaches: view)
        return screenPoint
    }

    /// Throws unless a touch at `point` reaches `view` (or a view inside it).
    func check(_ point: Point, reaches view: View) throws {
        let hit = engine.hitTest(point)
        var walk = hit
        while let v = walk {
            if v === view { return }
            walk = v.superview
        }
        throw GestureTestError.missedView(target: view.debugName, point: point, hit: hit?.debugName,
                                          why: whyUnreachable(view, at: point, hit: hit))
    }

    private func whyUnreachable(_ view: View, at point: Point, hit: View?) -> String {
        var top = view
        var chain: [View] = [view]
        while let s = top.superview { top = s; chain.append(s) }
        if !engine.roots.contains(where: { $0 === top }) {
            return "view \(view.debugName) is not in the engine's view tree (its topmost superview, \(top.debugName), is not a root)"
        }
        if let hidden = chain.first(where: \.isHidden) {
            return hidden === view ? "it is hidden" : "its superview \(hidden.debugName) is hidden"
        }
        if let off = chain.first(where: { !$0.isUserInteractionEnabled }) {
            return off === view ? "its isUserInteractionEnabled is false" : "its superview \(off.debugName) has isUserInteractionEnabled false"
        }
        if !view.point(inside: view.convertFromScreen(point)) {
            return "the point is outside the view itself (a finger of a gesture wider than the view)"
        }
        if let outside = chain.dropFirst().first(where: { !$0.point(inside: $0.convertFromScreen(point)) }) {
            return "the point is outside its superview \(outside.debugName): the view is off screen or clipped there"
        }
        return hit.map { "view \($0.debugName) is on top of it there" } ?? "nothing there accepts touches"
    }

    /// The recognizers that would see a touch at `point`: those of the view the hit test
    /// gives and of its superviews, innermost first.
    func recognizers(at point: Point) -> [GestureRecognizer] {
        var result: [GestureRecognizer] = []
        var walk = engine.hitTest(point)
        while let v = walk {
            result += v.gestureRecognizers
            walk = v.superview
        }
        return result
    }

    /// The recognizers of type `R` enabled at `point`.
    func recognizers<R: GestureRecognizer>(_ type: R.Type, at point: Point) -> [R] {
        var result: [R] = []
        var walk = engine.hitTest(point)
        while let v = walk {
            for r in v.gestureRecognizers { if let r = r as? R, r.isEnabled { result.append(r) } }
            walk = v.superview
        }
        return result
    }
}
