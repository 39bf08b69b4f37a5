import RealModule

/// A 2-D affine transform, as UIKit's `CGAffineTransform`: a point (x, y) maps to
/// `(a·x + c·y + tx, b·x + d·y + ty)`. A view's `transform` turns, scales and moves it about
/// its center; hit-testing and every location conversion go through it.
///
/// The building methods compose as Core Graphics' do: `t.scaledBy(x:y:)`,
/// `t.rotated(by:)` and `t.translatedBy(x:y:)` apply the new step first and then `t`
/// (so `view.transform = view.transform.scaledBy(x: s, y: s)` scales the view in its own
/// axes); `t.concatenating(u)` applies `t`, then `u`.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// Changes nothing.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Moves by (x, y) points.
    public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    /// Scales by `sx` and `sy`.
    public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// Turns by `angle` radians, clockwise on the screen (y grows downwards), as UIKit's.
    public init(rotationAngle angle: Double) {
        let cosine = Double.cos(angle), sine = Double.sin(angle)
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    public var isIdentity: Bool { self == .identity }

    /// `self`, then `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * other.a + b * other.c, b: a * other.b + b * other.d,
                        c: c * other.a + d * other.c, d: c * other.b + d * other.d,
                        tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// A translation by (x, y), then `self`.
    public func translatedBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(translationX: x, y: y).concatenating(self)
    }
    /// A scale by (sx, sy), then `self`.
    public func scaledBy(x sx: Double, y sy: Double) -> AffineTransform {
        AffineTransform(scaleX: sx, y: sy).concatenating(self)
    }
    /// A turn by `angle` radians, then `self`.
    public func rotated(by angle: Double) -> AffineTransform {
        AffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// The transform that undoes this one; `self` when it cannot be undone (a zero scale),
    /// as Core Graphics returns it.
    public func inverted() -> AffineTransform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return self }
        return AffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                               tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}

extension Point {
    /// The point moved by `t` (Core Graphics' `CGPoint.applying(_:)`).
    public func applying(_ t: AffineTransform) -> Point {
        Point(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension Rect {
    /// The smallest rectangle holding the four corners moved by `t` (`CGRect.applying(_:)`).
    public func applying(_ t: AffineTransform) -> Rect {
        if t.isIdentity { return self }
        let corners = [Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: minX, y: maxY), Point(x: maxX, y: maxY)]
            .map { $0.applying(t) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let lo = Point(x: xs.min()!, y: ys.min()!), hi = Point(x: xs.max()!, y: ys.max()!)
        return Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }
}
