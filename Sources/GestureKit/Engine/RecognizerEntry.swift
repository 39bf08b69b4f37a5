/// What the engine holds of one attached recognizer outside arbitration, in one slot of
/// `EngineStorage.slots`: the object (retained), the handle the dispatch loop calls it
/// through (not retained), and what it shows its actions, its delegate and the app.
///
/// The invariant a reader checks here: `handle` is set exactly when `recognizer` is, to the
/// same object (`init(_:)` and `vacate()` are the only writers), so the handle's object is
/// alive whenever the handle is there to be used.
///
/// The slot's third part, its arbitration record (RecognizerRecord.swift), is at the same
/// index of `Arbiter.records` and not here: arbitration holds the arbiter while it asks
/// delegates questions, and their answers read this entry (`shown`, the object), so the two
/// must be different properties of the engine (EngineStorage.swift says why that matters).
struct RecognizerEntry {
    /// The recognizer; nil for a free slot.
    private(set) var recognizer: GestureRecognizer?
    /// The same recognizer, for calls without reference counting.
    private(set) var handle: UnretainedRecognizer?
    /// What the recognizer shows (`state`, `numberOfTouches`, the touches `location(in:)` is
    /// the centroid of). The engine writes it only outside arbitration: carrying out the
    /// arbiter's actions, joining and lifting touches.
    var shown = RecognizerRecord.Shown()

    init(_ recognizer: GestureRecognizer) {
        self.recognizer = recognizer
        handle = UnretainedRecognizer(recognizer)
    }

    /// The recognizer left its slot; what it showed stays until the slot is taken again.
    mutating func vacate() {
        recognizer = nil
        handle = nil
    }
}
