import GestureKit
import GestureTesting
import GestureTraces

/// Recordings replayed into your own views: any file GestureTraces reads (evemu, `libinput
/// record`, `libinput debug-events`, and GestureKit's own input recordings of what an app
/// received, `GestureRecorder`), mapped onto the tester's screen as `gesturekit replay`
/// maps it, and fed by the same rule (GestureTraces' `RecordingFeed`), so the recognizers go
/// through the same transitions at the same times as the replay prints, shifted by where the
/// tester's clock stood.
extension GestureTester {
    /// Replays the recording at `path` into the tester's engine. Its first event comes at
    /// `now` on a tester that has sent nothing yet (so times read as in `gesturekit replay`),
    /// otherwise one sample after `now`. Touchscreens are mapped onto the tester's screen
    /// (`mapping`: rotation, calibration, region, as `gesturekit replay --rotate` and friends);
    /// touchpads are decoded on virtual time by GestureTraces' built-in decoder, as the
    /// replay's default backend does. With `endInput` (the default) the recording's end is
    /// the end of input, as in the replay: deadlines run and touches still down are cancelled.
    ///
    /// Throws the reader's error, naming the file and line, for a file it cannot read; the
    /// whole file is checked before any event reaches the engine.
    public func replay(recording path: String, mapping: TouchMapping = .identity, endInput: Bool = true) throws {
        let size = Size(width: screen.width, height: screen.height)
        let reader = try TraceReader(path: path, screen: size, mapping: mapping)
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
            let shifted = origin == .zero ? event : event.rebased(by: shift)
            if let t = shifted.time { markSent(at: t) }
            feed.feed(shifted, to: engine)
        }
        if endInput {
            feed.finish(engine)
            markSent(at: engine.now)
        }
    }
}
