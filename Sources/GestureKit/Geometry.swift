/// Points, sizes and rectangles in points (1 pt is one unit of the app's screen
/// coordinate space; y grows downwards, as in UIKit).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// Euclidean distance to `other`, in points.
    public func distance(to other: Point) -> Double {
        let dx = other.x - x, dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
    public static func / (a: Point, k: Double) -> Point { Point(x: a.x / k, y: a.y / k) }

    public var description: String { "(\(x), \(y))" }
}

public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    public static func * (s: Size, k: Double) -> Size { Size(width: s.width * k, height: s.height * k) }

    public var description: String { "\(width)×\(height)" }
}

public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var width: Double { size.width }
    public var height: Double { size.height }

    /// Half-open containment, as UIKit's `CGRect.contains`: the minimum edges are inside,
    /// the maximum edges are not.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// How far short of a maximum edge `closestPoint(to:)` stops, in points: the last point,
    /// where X servers and wlroots up to 0.16 keep their cursor (`wlr_box_closest_point`:
    /// width − 1; later wlroots stop 1/65536 short). A whole point keeps a mouse's whole-unit
    /// moves on whole points after it.
    public static let closestPointEdgeInset = 1.0

    /// The point inside the rectangle (`contains` is true of it) closest to `p`: a point past
    /// a maximum edge stops `closestPointEdgeInset` short of it. A pointer clamped to the
    /// screen this way stays over the views at its right and bottom edges, as a compositor's
    /// cursor does; clamped to the edge itself, it would be over none.
    public func closestPoint(to p: Point) -> Point {
        func closest(_ v: Double, _ low: Double, _ high: Double) -> Double {
            v < low ? low : v >= high ? max(low, high - Self.closestPointEdgeInset) : v
        }
        return Point(x: closest(p.x, minX, maxX), y: closest(p.y, minY, maxY))
    }

    /// True when the two rectangles share interior area.
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    public var description: String { "[\(minX), \(minY), \(width), \(height)]" }
}

/// Insets from the edges of a rectangle, in points (UIKit's `UIEdgeInsets`).
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}
