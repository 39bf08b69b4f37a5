import GestureKit

extension GestureTester {
    /// How one person makes the tester's gestures: how often the screen reports a moving
    /// finger, how long a tap is held and how long after one gesture the next comes, how far
    /// apart fingers land, in what order and how staggered, how far inside the edge an edge
    /// pan lands, how much the reported positions wobble, and how late the screen reports a
    /// contact. Every gesture the tester makes follows its `variation`; a parameter you pass
    /// to a gesture wins over it.
    ///
    /// ``typical`` is the measured middle of each figure (the constants of
    /// ``GestureTester``, each with its source). A ``Sweep`` draws variations from the measured
    /// ranges, seeded, so a test can run over many people's ways of making a gesture and a
    /// failure replays exactly.
    public struct Variation: Hashable, Sendable, CustomStringConvertible {
        /// Events a second while fingers move (a touchscreen's report rate).
        public var sampleRate: Int
        /// How long a tap is held; nil: `GestureTester.tapHold`, at most half the shortest
        /// `maximumTapDuration` of the recognizers there.
        public var tapHold: Duration?
        /// The pause from a tap's lift to the next tap's touch-down, and from the end of one
        /// gesture to the next; nil: `GestureTester.tapPause`, at most half the shortest
        /// `maximumTapInterval` there.
        public var tapPause: Duration?
        /// How far apart side-by-side fingers land, centre to centre, in millimetres.
        public var fingerSpacingMillimetres: Double
        /// The time between one finger's touch-down and the next finger's (and between their
        /// lifts), for gestures of several fingers.
        public var stagger: Duration
        /// Whether the fingers land (and lift) right to left instead of left to right.
        public var reversedTouchOrder: Bool
        /// How far inside the screen's edge an edge pan lands, in millimetres.
        public var edgeInsetMillimetres: Double
        /// The most a reported position is off the finger's path, in millimetres (each event's
        /// offset drawn at random within it, from `seed`): a finger's wobble and the
        /// digitiser's noise.
        public var jitterMillimetres: Double
        /// How late the screen reports a contact after the finger lands: a moving finger is
        /// first reported this far along its path, and the samples before are lost.
        public var reportLatency: Duration
        /// The seed of the jitter's random numbers.
        public var seed: UInt64

        public init(sampleRate: Int = GestureTester.defaultSampleRate, tapHold: Duration? = nil, tapPause: Duration? = nil,
                    fingerSpacingMillimetres: Double = GestureTester.fingerSpacingMillimetres,
                    stagger: Duration = .zero, reversedTouchOrder: Bool = false,
                    edgeInsetMillimetres: Double = GestureTester.edgeInsetMillimetres,
                    jitterMillimetres: Double = 0, reportLatency: Duration = .zero, seed: UInt64 = 0) {
            self.sampleRate = sampleRate
            self.tapHold = tapHold
            self.tapPause = tapPause
            self.fingerSpacingMillimetres = fingerSpacingMillimetres
            self.stagger = stagger
            self.reversedTouchOrder = reversedTouchOrder
            self.edgeInsetMillimetres = edgeInsetMillimetres
            self.jitterMillimetres = jitterMillimetres
            self.reportLatency = reportLatency
            self.seed = seed
        }

        /// The measured middle of every figure: the tester's defaults.
        public static let typical = Variation()

        /// The variation as Swift that makes it, naming only what differs from ``typical``:
        /// `Variation(sampleRate: 60, tapHold: .milliseconds(24))`.
        public var description: String {
            let t = Variation.typical
            var parts: [String] = []
            if sampleRate != t.sampleRate { parts.append("sampleRate: \(sampleRate)") }
            if let tapHold { parts.append("tapHold: \(swiftDuration(tapHold))") }
            if let tapPause { parts.append("tapPause: \(swiftDuration(tapPause))") }
            if fingerSpacingMillimetres != t.fingerSpacingMillimetres { parts.append("fingerSpacingMillimetres: \(fmt(fingerSpacingMillimetres))") }
            if stagger != t.stagger { parts.append("stagger: \(swiftDuration(stagger))") }
            if reversedTouchOrder { parts.append("reversedTouchOrder: true") }
            if edgeInsetMillimetres != t.edgeInsetMillimetres { parts.append("edgeInsetMillimetres: \(fmt(edgeInsetMillimetres))") }
            if jitterMillimetres != t.jitterMillimetres { parts.append("jitterMillimetres: \(fmt(jitterMillimetres))") }
            if reportLatency != t.reportLatency { parts.append("reportLatency: \(swiftDuration(reportLatency))") }
            if jitterMillimetres != 0 { parts.append("seed: \(seed)") }
            return "Variation(\(parts.joined(separator: ", ")))"
        }

        /// Checks every figure, naming the first out of range.
        func validate() throws {
            func check(_ ok: Bool, _ name: String, _ value: String, _ why: String) throws {
                if !ok { throw GestureTestError.invalidParameter(parameter: "variation.\(name)", value: value, why: why) }
            }
            try check(sampleRate >= 1 && sampleRate <= 10_000, "sampleRate", "\(sampleRate)", "must be 1 to 10,000 events a second")
            if let tapHold { try check(tapHold > .zero, "tapHold", swiftDuration(tapHold), "must be longer than zero") }
            if let tapPause { try check(tapPause > .zero, "tapPause", swiftDuration(tapPause), "must be longer than zero") }
            try check(fingerSpacingMillimetres.isFinite && fingerSpacingMillimetres > 0, "fingerSpacingMillimetres",
                      fmt(fingerSpacingMillimetres), "must be a positive number of millimetres")
            try check(stagger >= .zero, "stagger", swiftDuration(stagger), "must not be negative")
            try check(edgeInsetMillimetres.isFinite && edgeInsetMillimetres >= 0, "edgeInsetMillimetres",
                      fmt(edgeInsetMillimetres), "must be zero or more millimetres")
            try check(jitterMillimetres.isFinite && jitterMillimetres >= 0, "jitterMillimetres", fmt(jitterMillimetres),
                      "must be zero or more millimetres")
            try check(reportLatency >= .zero, "reportLatency", swiftDuration(reportLatency), "must not be negative")
        }
    }
}

/// A duration as Swift writes it: `.milliseconds(24)`, `.microseconds(8333)`, `.nanoseconds(5)`.
func swiftDuration(_ d: Duration) -> String {
    let ns = d.nanosecondCount
    if ns % 1_000_000 == 0 { return ns % 1_000_000_000 == 0 ? ".seconds(\(ns / 1_000_000_000))" : ".milliseconds(\(ns / 1_000_000))" }
    if ns % 1000 == 0 { return ".microseconds(\(ns / 1000))" }
    return ".nanoseconds(\(ns))"
}

/// SplitMix64: a small seeded generator (Steele, Lea and Flood, "Fast splittable pseudorandom
/// number generators", OOPSLA 2014), the same sequence on every platform and Swift version.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A number in `range`, uniformly.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}
