import GestureKit

/// A path through points, walked at constant speed: `point(at:)` is where a finger is when
/// `fraction` of the path's length lies behind it.
struct Polyline {
    let points: [Point]
    /// The length of the path up to each point.
    private let lengths: [Double]

    init(_ points: [Point]) {
        self.points = points
        var lengths: [Double] = [0]
        for i in points.indices.dropFirst() {
            let d = points[i] - points[i - 1]
            lengths.append(lengths[i - 1] + (d.x * d.x + d.y * d.y).squareRoot())
        }
        self.lengths = lengths
    }

    var length: Double { lengths.last ?? 0 }

    func point(at fraction: Double) -> Point {
        guard let last = points.last else { return .zero }
        guard points.count > 1, length > 0 else { return last }
        let along = fraction * length
        var i = 1
        while i < points.count - 1 && lengths[i] < along { i += 1 }
        let segment = lengths[i] - lengths[i - 1]
        let f = segment > 0 ? (along - lengths[i - 1]) / segment : 1
        return points[i - 1] + (points[i] - points[i - 1]) * f
    }
}
