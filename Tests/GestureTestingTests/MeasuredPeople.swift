import GestureKit
import GestureTestSupport
import GestureTraces

/// What people's fingers did in the project's own touchscreen recordings (`Fixtures/ts-…`,
/// the real ones, not the synthetic): how long a tap is held, how long after one tap the next
/// lands, how often the screens report a moving finger, and how far apart side-by-side fingers
/// land. GestureTester's defaults are these figures; `MeasuredDefaultsTests` checks that they
/// are, and prints the table (`swift test --filter MeasuredDefaultsTests`).
struct MeasuredPeople {
    /// A touch that went down and came up.
    struct Contact {
        var recording: String
        var down: Instant
        var up: Instant
        var start: Point
        var farthest: Double
        var hold: Duration { up - down }
    }

    /// Every hold of a tap (a touch lifted within the tap's 500 ms that travelled at most
    /// 1 % of the screen), in milliseconds, sorted.
    var tapHolds: [Double] = []
    /// Every pause from a tap's lift to the next tap's touch-down on the same screen, within a
    /// second, in milliseconds, sorted.
    var tapGaps: [Double] = []
    /// Each recording's report rate while fingers move: one over the median time between its
    /// frames that move a finger, in events a second, by recording.
    var reportRates: [String: Double] = [:]
    /// Where several fingers landed at once on a screen whose size is known: the distance from
    /// each finger to its nearest neighbour, in millimetres, sorted.
    var neighbourSpacings: [Double] = []
    /// Where a second finger joined one already down on a screen whose size is known (a
    /// pinch's or a rotation's two fingers): the distance between them, in millimetres, sorted.
    var secondFingerDistances: [Double] = []
    /// How long after the first finger of a gesture the others landed, for gestures of
    /// several fingers (landing within 100 ms of each other), in milliseconds, sorted.
    var landingStaggers: [Double] = []

    /// The real touchscreen recordings (not `synthetic-…`).
    static let recordings = Fixtures.touchscreens.filter { $0.hasPrefix("ts-") }

    static func measure() throws -> MeasuredPeople {
        var result = MeasuredPeople()
        for name in recordings {
            let path = Fixtures.path(name)
            // Read once for the device's size; where it is known, map its surface onto a
            // screen of that many points, so a point is a millimetre.
            let size = try TraceReader(path: path).devices.first(where: { $0.kind == .touchscreen })?.physicalSize
            let screen = size ?? Size(width: 1000, height: 1000)
            let reader = try TraceReader(path: path, screen: screen)
            var open: [Int: Contact] = [:]
            var contacts: [Contact] = []
            var movingFrames: [Instant] = []
            var gestureStart: Instant?
            for case let .touchFrame(frame) in try reader.frames().map(InputEvent.touchFrame) {
                let openBefore = open.count
                var landed: [Point] = []
                var moved = false
                for change in frame.changes {
                    switch change.phase {
                    case .began:
                        open[change.sourceID] = Contact(recording: name, down: frame.time, up: frame.time,
                                                        start: change.location, farthest: 0)
                        landed.append(change.location)
                    case .moved:
                        moved = true
                        if var c = open[change.sourceID] {
                            c.farthest = max(c.farthest, c.start.distance(to: change.location))
                            open[change.sourceID] = c
                        }
                    case .ended, .cancelled:
                        if var c = open.removeValue(forKey: change.sourceID) {
                            c.up = frame.time
                            c.farthest = max(c.farthest, c.start.distance(to: change.location))
                            if change.phase == .ended { contacts.append(c) }
                        }
                    }
                }
                if moved { movingFrames.append(frame.time) }
                if size != nil, open.count == 2, openBefore == 1, landed.count == 1 {
                    let both = open.values.map(\.start)
                    result.secondFingerDistances.append(both[0].distance(to: both[1]))
                }
                if openBefore == 0, !landed.isEmpty { gestureStart = frame.time }
                if openBefore > 0, !landed.isEmpty, let first = gestureStart, frame.time - first <= .milliseconds(100) {
                    result.landingStaggers.append((frame.time - first).inSeconds * 1000)
                }
                if size != nil, landed.count >= 2 {
                    for p in landed {
                        result.neighbourSpacings.append(landed.filter { $0 != p }.map { p.distance(to: $0) }.min()!)
                    }
                }
            }
            let intervals = zip(movingFrames, movingFrames.dropFirst()).map { ($1 - $0).inSeconds }
                .filter { $0 > 0 && $0 < 0.05 }.sorted()
            if intervals.count >= 10 {
                result.reportRates[name] = 1 / intervals[intervals.count / 2]
            }
            // Taps, in the recordings of taps: lifted within 500 ms, travelled at most 1 % of
            // the screen's diagonal.
            guard name.contains("tap") else { continue }
            let diagonal = (screen.width * screen.width + screen.height * screen.height).squareRoot()
            let taps = contacts.filter { $0.hold <= .milliseconds(500) && $0.farthest <= diagonal / 100 }
                .sorted { $0.down < $1.down }
            result.tapHolds += taps.map { $0.hold.inSeconds * 1000 }
            // The gap from one tap's lift to the next touch-down: taps of one finger that
            // follow each other (a multi-finger tap's fingers land together and are one tap).
            let fingersDown = Dictionary(grouping: taps, by: \.down).values.map { group in
                (down: group[0].down, up: group.map(\.up).max()!)
            }.sorted { $0.down < $1.down }
            for (a, b) in zip(fingersDown, fingersDown.dropFirst()) where b.down > a.up && b.down - a.up < .seconds(1) {
                result.tapGaps.append((b.down - a.up).inSeconds * 1000)
            }
        }
        result.tapHolds.sort()
        result.tapGaps.sort()
        result.neighbourSpacings.sort()
        result.secondFingerDistances.sort()
        result.landingStaggers.sort()
        return result
    }

    /// The median of sorted `values`.
    static func median(_ values: [Double]) -> Double {
        let n = values.count
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2
    }
}
