/// Animation frames on the engine's clock: a display link (UIKit's `CADisplayLink`) asks
/// the engine for a deadline at each frame of the display, and the engine calls it there.
///
/// Rule: a display link's frames are deadlines like a recognizer's; the engine never reads a
/// clock, so frames fire when input at or after them arrives or when `advance(to:)` passes
/// them (virtual time in tests and replays; the live event loop's real time in an app).
///
/// - Frames fall on the display's grid: frame `k` of a link at `frameRate` frames a second is
///   at `k / frameRate` seconds (whole nanoseconds, rounded down) since the engine's zero,
///   whatever the time the link was started, as a display's refresh has its own phase.
/// - A running link's next frame is the first grid point after the engine's time when it
///   was started (or after its previous frame). Every frame on the way fires, each at its own
///   time, in order with the recognizers' deadlines (a recognizer's deadline first at the same
///   instant) and before any later input.
/// - A paused link asks for nothing; `finish()` runs running links until they pause (an
///   animation that has come to rest pauses its link), up to `maximumTimersAtFinish`.
/// - The callback runs outside a step: it may send input, which is handled at once.
public final class DisplayLink {
    /// Frames a second (UIKit's `preferredFramesPerSecond`). Default 60. At least 1.
    public var frameRate: Int {
        didSet {
            frameRate = max(1, frameRate)
            if nextFrame != nil { nextFrame = DisplayLink.gridPoint(after: engine?.now ?? timestamp, rate: frameRate) }
        }
    }
    /// Whether the link is stopped. A link starts paused; un-pausing it at engine time `t`
    /// schedules its next frame at the first grid point after `t`.
    public var isPaused: Bool {
        get { nextFrame == nil }
        set {
            if newValue {
                nextFrame = nil
            } else if nextFrame == nil, let engine, !isInvalidated {
                timestamp = engine.now
                nextFrame = DisplayLink.gridPoint(after: engine.now, rate: frameRate)
            }
        }
    }
    /// The time of the frame being shown (in the callback), or when the link was last
    /// started.
    public internal(set) var timestamp: Instant = .zero
    /// When the next frame is due, if the link is running (UIKit's `targetTimestamp`).
    public internal(set) var nextFrame: Instant?
    /// The time from one frame to the next (`1 / frameRate` seconds; UIKit's `duration`,
    /// which is a `CFTimeInterval` there).
    public var frameDuration: Duration { .seconds(1) / frameRate }
    /// Seconds from one frame to the next (`1 / frameRate`).
    @available(*, deprecated, renamed: "frameDuration", message: "durations are Duration values: use frameDuration (frameDuration.inSeconds for a Double)")
    public var duration: Double { 1 / Double(frameRate) }
    /// Whether `invalidate()` was called: the link never fires again.
    public private(set) var isInvalidated = false
    /// Who runs the link, in words, for what the engine says it still waits for
    /// (`pendingDeadlines()`): "scroll view list's animation".
    package var label: String?

    weak var engine: GestureEngine?
    let onFrame: (DisplayLink) -> Void

    init(engine: GestureEngine, frameRate: Int, onFrame: @escaping (DisplayLink) -> Void) {
        self.engine = engine
        self.frameRate = max(1, frameRate)
        self.onFrame = onFrame
        timestamp = engine.now
    }

    /// Stops the link for good and detaches it from the engine.
    public func invalidate() {
        isInvalidated = true
        nextFrame = nil
        engine?.removeDisplayLink(self)
    }

    /// Frame rate used when none is given: 60 frames a second.
    public static let defaultFrameRate = 60 /* frames per second */

    /// The first point of the grid `k / rate` seconds strictly after `time`.
    static func gridPoint(after time: Instant, rate: Int) -> Instant {
        let r = Int64(rate)
        // k = floor(t × rate / 1e9) + 1, in full width so long uptimes do not overflow.
        let product = time.nanoseconds.multipliedFullWidth(by: r)
        let (k, _) = Int64(1_000_000_000).dividingFullWidth(product)
        let next = k &+ 1
        let ns = next.multipliedFullWidth(by: 1_000_000_000)
        let (t, _) = r.dividingFullWidth(ns)
        // Rounding down may land on `time` itself for rates that do not divide a second.
        return t > time.nanoseconds ? Instant(nanoseconds: t) : gridPoint(after: Instant(nanoseconds: time.nanoseconds + 1), rate: rate)
    }
}

extension GestureEngine {
    /// A display link calling `onFrame` at each frame, `frameRate` frames a second, while it
    /// is not paused. It starts paused: set `isPaused = false` to start it. The engine keeps
    /// it until `invalidate()`.
    public func addDisplayLink(frameRate: Int = DisplayLink.defaultFrameRate,
                               _ onFrame: @escaping (DisplayLink) -> Void) -> DisplayLink {
        let link = DisplayLink(engine: self, frameRate: frameRate, onFrame: onFrame)
        storage.displayLinks.append(link)
        return link
    }

    func removeDisplayLink(_ link: DisplayLink) {
        storage.displayLinks.removeAll { $0 === link }
    }

    /// The earliest frame a running display link waits for.
    var nextDisplayFrame: Instant? {
        var earliest: Instant?
        for link in storage.displayLinks {
            if let f = link.nextFrame, earliest.map({ f < $0 }) ?? true { earliest = f }
        }
        return earliest
    }

    /// The earliest of `other` and the next display frame.
    func nextDeadlineIncludingDisplayLinks(_ other: Instant?) -> Instant? {
        guard let f = nextDisplayFrame else { return other }
        guard let o = other else { return f }
        return min(o, f)
    }

    /// Fires every deadline before `limit` (or at it): the recognizers', the pointer's and the
    /// display links' frames, in time order (at the same instant, recognizers and the pointer
    /// first, then the links in the order they were added).
    ///
    /// An input deadline may start a link (the wheel's pause ending a zoom that leaves the
    /// content past an edge, which springs back): its frames before `limit` fire too, each at
    /// its own time, so the input deadlines are fired one instant at a time.
    func fireDeadlines(before limit: Instant, inclusive: Bool) {
        func within(_ t: Instant) -> Bool { t < limit || (inclusive && t == limit) }
        while true {
            let input = nextDeadlineIncludingPointer(storage.table.nextDeadline())
            guard let f = nextDisplayFrame, within(f) else {
                // No frame before the limit: fire the earliest input deadline, then look again.
                guard let i = input, within(i) else { break }
                fireInputDeadlines(before: i, inclusive: true)
                continue
            }
            if let i = input, i < f {
                fireInputDeadlines(before: i, inclusive: true)
                continue
            }
            fireInputDeadlines(before: f, inclusive: true)
            if now < f { now = f }
            var i = 0
            while i < storage.displayLinks.count {
                let link = storage.displayLinks[i]
                i += 1
                guard link.nextFrame == f else { continue }
                link.timestamp = f
                link.nextFrame = DisplayLink.gridPoint(after: f, rate: link.frameRate)
                link.onFrame(link)
            }
        }
        fireInputDeadlines(before: limit, inclusive: inclusive)
    }
}
