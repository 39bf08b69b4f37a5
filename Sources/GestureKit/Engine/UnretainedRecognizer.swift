/// A recognizer the engine calls without reference counting: its slot's entry
/// (RecognizerEntry.swift) holds the strong reference beside it and sets and clears both
/// together, so the object is alive whenever a handle is there to be used.
///
/// Why: the dispatch loop calls a recognizer for every touch phase of every frame, and a
/// retain and release around each call were measured with Benchmarks/Sources/profile-dispatch
/// under callgrind: 3,567 instructions a frame with this type and 3,728 without it (two
/// touches, eight recognizers panning), 56,996 and 67,652 (64 recognizers undecided).
struct UnretainedRecognizer {
    #if GESTUREKIT_CHECKED_ACCESS
    // A debug build (GESTUREKIT_CHECKED_ACCESS) holds the recognizer as any reference does.
    private let reference: GestureRecognizer

    init(_ recognizer: GestureRecognizer) {
        reference = recognizer
    }

    @inline(__always)
    func with<T>(_ body: (GestureRecognizer) -> T) -> T {
        body(reference)
    }
    #else
    private let reference: Unmanaged<GestureRecognizer>

    init(_ recognizer: GestureRecognizer) {
        reference = .passUnretained(recognizer)
    }

    /// Calls `body` with the recognizer, which its slot's entry keeps alive.
    @inline(__always)
    func with<T>(_ body: (GestureRecognizer) -> T) -> T {
        reference._withUnsafeGuaranteedRef(body)
    }
    #endif
}
