/// What the engine holds of one attached recognizer besides its arbitration record, in one
/// entry of its table (`RecognizerTable.entries`): the object (retained), the handle the
/// dispatch loop calls it through (not retained), and what it shows its actions, its delegate
/// and the app.
///
/// The invariant a reader checks here: `handle` is set exactly when `recognizer` is, to the
/// same object (`init(_:)` and `vacate()` are the only writers), so the handle's object is
/// alive whenever the handle is there to be used.
///
/// The slot's arbitration record (RecognizerRecord.swift) is at the same index of
/// `RecognizerTable.records`: the records are what arbitration reads and runs ahead in, the
/// entries what the app reads (`shown`).
struct RecognizerEntry {
    /// The recognizer; nil for a free slot.
    private(set) var recognizer: GestureRecognizer?
    /// The same recognizer, for calls without reference counting.
    private(set) var handle: UnretainedRecognizer?
    /// What the recognizer shows (`state`, `numberOfTouches`, the touches `location(in:)` is
    /// the centroid of). Written as the engine carries out arbitration's actions, and as the
    /// recognizer joins, lifts or ignores touches; never by arbitration itself.
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
