import GestureKit
import GestureTesting
import GestureTraces

/// Recordings replayed into your own views: any file GestureTraces reads (evemu, `libinput
/// record`, `libinput debug-events`, and GestureKit's own input recordings of what an app
/// received, `GestureRecorder`), mapped onto the tester's screen as `gesturekit replay`
/// maps it, and fed by the same rule (GestureTraces' `RecordingFeed`), so the recognizers go
/// through the same transitions at the same times as the replay prints, shifted by where the
/// tester's clock stood.
///
/// The screen rule: a device recording (evemu, `libinput record`, debug-events) reports
/// positions on its own surface, which is mapped onto the tester's screen (its root's frame).
/// An input recording carries the screen it was made on, in points: replayed into a tester
/// whose screen is that size it plays as recorded; into one of the same shape (within 1 %) it
/// is scaled onto the tester's screen (every location, and every scroll and motion delta, by
/// the same factor); into one of another shape the replay is refused, naming both sizes,
/// before any event reaches the engine.
extension GestureTester {
    /// Replays the recording at `path` into the tester's engine. Its first event comes at
    /// `now` on a tester that has sent nothing yet (so times read as in `gesturekit replay`),
    /// otherwise one sample after `now`. Touchscreens are mapped onto the tester's screen
    /// (`mapping`: rotation, calibration, region, as `gesturekit replay --rotate` and friends);
    /// touchpads are decoded on virtual time by GestureTraces' built-in decoder, as the
    /// replay's default backend does. With `endInput` (the default) the recording's end is
    /// the end of input, as in the replay: deadlines run and touches still down are cancelled.
    ///
    /// Throws the reader's error, naming the file and line, for a file it cannot read, and
    /// `GestureTestError.recordingDoesNotFit` for an input recording
    /// whose screen is not the tester's shape; the whole file is checked before any event
    /// reaches the engine.
    public func replay(recording path: String, mapping: TouchMapping = .identity, endInput: Bool = true) throws {
        let size = Size(width: screen.width, height: screen.height)
        let reader = try TraceReader(path: path, screen: size, mapping: mapping)
        let fit = try recordingFit(reader)
        try reader.run { _ in }
        let origin = hasSentInput ? now + sampleInterval : now
        let shift = Instant(nanoseconds: -origin.nanoseconds)
        let feed = RecordingFeed(mapping: mapping, screen: size)
        try reader.run(advancingClock: { time in
            // An input recording's clock: the live loop moved the app's clock on here.
            let t = Instant(nanoseconds: time.nanoseconds &+ origin.nanoseconds)
            engine.advance(to: t)
            markSent(at: t)
        }) { event in
            var shifted = origin == .zero ? event : event.rebased(by: shift)
            if let fit { shifted = fit.apply(shifted) }
            if let t = shifted.time { markSent(at: t) }
            noteInput(shifted)
            feed.feed(shifted, to: engine)
        }
        if endInput {
            feed.finish(engine)
            markSent(at: engine.now)
        }
    }

    /// How an input recording's screen lands on the tester's: nil when they are the same size
    /// (or the recording is of a device, mapped by the reader); a scale when they are of one
    /// shape; throws when they are not.
    private func recordingFit(_ reader: TraceReader) throws -> ScreenFit? {
        guard let header = reader.recordingHeader else { return nil }
        let from = header.screen
        let to = screen
        if from.width == to.width && from.height == to.height && to.minX == 0 && to.minY == 0 { return nil }
        guard from.width > 0, from.height > 0 else {
            throw GestureTestError.recordingDoesNotFit(recording: "\(fmtSize(from))", screen: fmtSize(to.size),
                                                       why: "the recording \(reader.path) names no screen size")
        }
        let sx = to.width / from.width, sy = to.height / from.height
        guard abs(sx / sy - 1) <= 0.01 else {
            throw GestureTestError.recordingDoesNotFit(
                recording: fmtSize(from), screen: fmtSize(to.size),
                why: "the recording \(reader.path) was made on a screen of another shape, so its touches cannot land where they were; make the tester's root \(fmtSize(from)) points (or that shape)")
        }
        return ScreenFit(scale: (sx + sy) / 2, origin: to.origin)
    }
}

/// A uniform scale and an offset from an input recording's screen onto the tester's.
struct ScreenFit {
    var scale: Double
    var origin: Point

    func map(_ p: Point) -> Point { Point(x: origin.x + p.x * scale, y: origin.y + p.y * scale) }

    func apply(_ event: InputEvent) -> InputEvent {
        switch event {
        case var .touchFrame(frame):
            for i in frame.changes.indices { frame.changes[i].location = map(frame.changes[i].location) }
            if let ppm = frame.pointsPerMillimetre { frame.pointsPerMillimetre = ppm * scale }
            return .touchFrame(frame)
        case var .pointer(p):
            p.location = map(p.location)
            p.delta = p.delta * scale
            return .pointer(p)
        case var .pen(p):
            p.location = map(p.location)
            return .pen(p)
        case var .touchpadGesture(g):
            g.location = map(g.location)
            g.delta = g.delta * scale
            return .touchpadGesture(g)
        case var .deviceAdded(info):
            if let ppm = info.pointsPerMillimetre { info.pointsPerMillimetre = ppm * scale }
            return .deviceAdded(info)
        default:
            return event
        }
    }
}

private func fmtSize(_ s: Size) -> String {
    func n(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
    return "\(n(s.width))×\(n(s.height))"
}
