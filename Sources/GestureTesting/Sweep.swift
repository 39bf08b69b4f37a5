import GestureKit
#if canImport(Testing)
import Testing
#endif

extension GestureTester {
    /// Realism sweeps: a test body run over seeded variations of how a person makes the
    /// gestures (report rate, jitter, tap hold and pause, finger spacing, touch order and
    /// stagger, edge inset, report latency), from the measured ranges (``Ranges/people``).
    ///
    /// The rule, stated once:
    /// - Variation 0 is ``Variation/typical``; then each figure alone at each end of its range
    ///   (the others typical), where threshold bugs live; then seeded draws of every figure at
    ///   once. The same seed gives the same variations on every machine.
    /// - ``run(fileID:filePath:line:column:_:)`` runs the body once a variation, each with a
    ///   tester of its own that the body makes (`GestureTester(root:variation:)`), until one
    ///   fails (a check that throws, or an `#expect` that records). It then shrinks it: each
    ///   figure back to typical where the failure stays, then each the least way from typical
    ///   that still fails. It runs the smallest failing variation once more, so that its
    ///   failures are reported at their own lines, and fails at the sweep's line with the seed,
    ///   the index and the variation as Swift, to paste and replay exactly.
    /// - ``variations`` are the same variations as Swift Testing arguments
    ///   (`@Test(arguments: GestureTester.Sweep(seed: 7).variations)`): each a test case of
    ///   its own, shown by its Swift; those are not shrunk.
    public struct Sweep: Sendable {
        /// The seed of the draws.
        public var seed: UInt64
        /// How many variations in all (at least 1: the typical).
        public var count: Int
        /// The ranges the figures are drawn from.
        public var ranges: Ranges

        public init(seed: UInt64 = 1, count: Int = 32, ranges: Ranges = .people) {
            self.seed = seed
            self.count = max(1, count)
            self.ranges = ranges
        }

        /// The ranges of each figure.
        public struct Ranges: Hashable, Sendable {
            public var sampleRate: ClosedRange<Int>
            public var tapHold: ClosedRange<Duration>
            public var tapPause: ClosedRange<Duration>
            public var fingerSpacingMillimetres: ClosedRange<Double>
            public var stagger: ClosedRange<Duration>
            public var edgeInsetMillimetres: ClosedRange<Double>
            public var jitterMillimetres: ClosedRange<Double>
            public var reportLatency: ClosedRange<Duration>

            public init(sampleRate: ClosedRange<Int>, tapHold: ClosedRange<Duration>, tapPause: ClosedRange<Duration>,
                        fingerSpacingMillimetres: ClosedRange<Double>, stagger: ClosedRange<Duration>,
                        edgeInsetMillimetres: ClosedRange<Double>, jitterMillimetres: ClosedRange<Double>,
                        reportLatency: ClosedRange<Duration>) {
                self.sampleRate = sampleRate
                self.tapHold = tapHold
                self.tapPause = tapPause
                self.fingerSpacingMillimetres = fingerSpacingMillimetres
                self.stagger = stagger
                self.edgeInsetMillimetres = edgeInsetMillimetres
                self.jitterMillimetres = jitterMillimetres
                self.reportLatency = reportLatency
            }

            /// People, as measured (`MeasuredDefaultsTests` checks the measured ones against the
            /// project's touchscreen recordings): report rates from 60 (iOS without ProMotion)
            /// to 240 Hz (the recordings: 72 to 166); tap holds of 24 to 110 ms and pauses of 125
            /// to 153 ms (the recordings' taps); fingers 15 to 20 mm apart (a fingertip's width);
            /// fingers of one gesture landing up to 81 ms after the first (the recordings: 1 to
            /// 81 ms); edge pans landing 2 to 5 mm in (where a finger from the bezel is first
            /// reported); jitter up to 0.5 mm (a design figure: the Surface Pro 3 long press's
            /// resting finger drifts 2.3 mm over 2.9 s); contacts reported up to 17 ms late (two
            /// frames at 120 Hz, a controller confirming a contact over consecutive scans: a
            /// design figure, not a measured one).
            public static let people = Ranges(
                sampleRate: 60...240, tapHold: .milliseconds(24)...(.milliseconds(110)),
                tapPause: .milliseconds(125)...(.milliseconds(153)), fingerSpacingMillimetres: 15...20,
                stagger: .zero...(.milliseconds(81)), edgeInsetMillimetres: 2...5, jitterMillimetres: 0...0.5,
                reportLatency: .zero...(.milliseconds(17)))
        }

        /// The sweep's variations: the typical, each figure at each end of its range, then
        /// seeded draws, `count` in all.
        public var variations: [Variation] { (0..<count).map(variation) }

        /// The variation at `index` (the same for the same seed, on every machine).
        public func variation(_ index: Int) -> Variation {
            let corners = cornerVariations
            if index == 0 { return .typical }
            if index - 1 < corners.count { return corners[index - 1] }
            var g = SeededGenerator(seed: seed &* 0x2545_F491_4F6C_DD1D &+ UInt64(index))
            func duration(_ r: ClosedRange<Duration>) -> Duration {
                let ns = g.uniform(Double(r.lowerBound.nanosecondCount)...Double(r.upperBound.nanosecondCount))
                return .milliseconds(Int64((ns / 1e6).rounded()))
            }
            let rate = Int(g.uniform(Double(ranges.sampleRate.lowerBound)...Double(ranges.sampleRate.upperBound)).rounded())
            return Variation(sampleRate: rate, tapHold: duration(ranges.tapHold), tapPause: duration(ranges.tapPause),
                             fingerSpacingMillimetres: (g.uniform(ranges.fingerSpacingMillimetres) * 10).rounded() / 10,
                             stagger: duration(ranges.stagger), reversedTouchOrder: g.next() & 1 == 1,
                             edgeInsetMillimetres: (g.uniform(ranges.edgeInsetMillimetres) * 10).rounded() / 10,
                             jitterMillimetres: (g.uniform(ranges.jitterMillimetres) * 100).rounded() / 100,
                             reportLatency: duration(ranges.reportLatency), seed: g.next())
        }

        /// Each figure alone at each end of its range.
        var cornerVariations: [Variation] {
            let r = ranges
            var out: [Variation] = []
            func add(_ change: (inout Variation) -> Void) {
                var v = Variation.typical
                change(&v)
                if v != .typical && !out.contains(v) { out.append(v) }
            }
            add { $0.sampleRate = r.sampleRate.lowerBound }
            add { $0.sampleRate = r.sampleRate.upperBound }
            add { $0.tapHold = r.tapHold.lowerBound }
            add { $0.tapHold = r.tapHold.upperBound }
            add { $0.tapPause = r.tapPause.lowerBound }
            add { $0.tapPause = r.tapPause.upperBound }
            add { $0.fingerSpacingMillimetres = r.fingerSpacingMillimetres.lowerBound }
            add { $0.fingerSpacingMillimetres = r.fingerSpacingMillimetres.upperBound }
            add { $0.stagger = r.stagger.upperBound }
            add { $0.reversedTouchOrder = true }
            add { $0.edgeInsetMillimetres = r.edgeInsetMillimetres.lowerBound }
            add { $0.edgeInsetMillimetres = r.edgeInsetMillimetres.upperBound }
            add { $0.jitterMillimetres = r.jitterMillimetres.upperBound; $0.seed = seed }
            add { $0.reportLatency = r.reportLatency.upperBound }
            return out
        }

        /// What a sweep found: the first failing variation, the smallest it shrank to, and the
        /// failure of that one.
        public struct Failure: Error, CustomStringConvertible {
            public var seed: UInt64
            public var index: Int
            public var count: Int
            public var found: Variation
            public var shrunk: Variation
            /// What the shrunk variation's run threw or recorded.
            public var failure: String

            public var description: String {
                """
                the sweep failed at variation \(index) of \(count) (seed \(seed)): \(found)
                the smallest failing variation: \(shrunk)
                replay it: tester.variation = GestureTester.\(shrunk), or GestureTester.Sweep(seed: \(seed)).variation(\(index)) for the one found
                what failed: \(failure)
                """
            }
        }

        /// Runs `body` over the variations until one fails, shrinks it, and fails at the
        /// calling line with what it found (see the rule above). Returns how many variations
        /// passed when none failed.
        @discardableResult
        public func run(fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
                        column: UInt = #column, _ body: (Variation) throws -> Void) throws -> Int {
            for index in 0..<count {
                let v = variation(index)
                guard let first = Sweep.failure(of: v, body) else { continue }
                var shrunk = v, failure = first
                shrink(&shrunk, &failure, body)
                // Once more, reported as usual, so its failures point at their own lines.
                try? GestureTester.$isSweeping.withValue(false) { try body(shrunk) }
                let found = Failure(seed: seed, index: index, count: count, found: v, shrunk: shrunk, failure: failure)
                try GestureTester.reportSweep(found, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            }
            return count
        }

        /// Moves each figure of `v` back towards typical while the body still fails.
        func shrink(_ v: inout Variation, _ failure: inout String, _ body: (Variation) throws -> Void) {
            func attempt(_ candidate: Variation) -> Bool {
                guard candidate != v, let f = Sweep.failure(of: candidate, body) else { return false }
                v = candidate
                failure = f
                return true
            }
            let t = Variation.typical
            // Each figure back to typical where the failure stays.
            _ = attempt(with(v) { $0.sampleRate = t.sampleRate })
            _ = attempt(with(v) { $0.tapHold = t.tapHold })
            _ = attempt(with(v) { $0.tapPause = t.tapPause })
            _ = attempt(with(v) { $0.fingerSpacingMillimetres = t.fingerSpacingMillimetres })
            _ = attempt(with(v) { $0.stagger = t.stagger })
            _ = attempt(with(v) { $0.reversedTouchOrder = t.reversedTouchOrder })
            _ = attempt(with(v) { $0.edgeInsetMillimetres = t.edgeInsetMillimetres })
            _ = attempt(with(v) { $0.jitterMillimetres = t.jitterMillimetres; $0.seed = t.seed })
            _ = attempt(with(v) { $0.reportLatency = t.reportLatency })
            // The least change from typical that still fails, by halving.
            func halve(_ get: (Variation) -> Double, _ set: @escaping (inout Variation, Double) -> Void, typical: Double,
                       step: Double) {
                var failing = get(v), passing = typical
                while abs(failing - passing) > step {
                    let middle = ((failing + passing) / 2 / step).rounded() * step
                    if middle == failing || middle == passing { break }
                    if attempt(with(v) { set(&$0, middle) }) { failing = middle } else { passing = middle }
                }
            }
            halve({ Double($0.sampleRate) }, { $0.sampleRate = Int($1) }, typical: Double(t.sampleRate), step: 1)
            if v.tapHold != nil {
                halve({ $0.tapHold!.inSeconds * 1000 }, { $0.tapHold = .milliseconds(Int64($1)) },
                      typical: GestureTester.tapHold.inSeconds * 1000, step: 1)
            }
            if v.tapPause != nil {
                halve({ $0.tapPause!.inSeconds * 1000 }, { $0.tapPause = .milliseconds(Int64($1)) },
                      typical: GestureTester.tapPause.inSeconds * 1000, step: 1)
            }
            halve({ $0.fingerSpacingMillimetres }, { $0.fingerSpacingMillimetres = $1 }, typical: t.fingerSpacingMillimetres, step: 0.1)
            halve({ $0.stagger.inSeconds * 1000 }, { $0.stagger = .milliseconds(Int64($1)) }, typical: 0, step: 1)
            halve({ $0.edgeInsetMillimetres }, { $0.edgeInsetMillimetres = $1 }, typical: t.edgeInsetMillimetres, step: 0.1)
            halve({ $0.reportLatency.inSeconds * 1000 }, { $0.reportLatency = .milliseconds(Int64($1)) }, typical: 0, step: 1)
        }

        private func with(_ v: Variation, _ change: (inout Variation) -> Void) -> Variation {
            var copy = v
            change(&copy)
            return copy
        }

        /// Runs `body` with `v` quietly: what it threw or recorded, or nil when it passed.
        static func failure(of v: Variation, _ body: (Variation) throws -> Void) -> String? {
            let failure = FailureBox()
            GestureTester.$isSweeping.withValue(true) {
                #if canImport(Testing)
                if Test.current != nil {
                    // An `#expect` in the body records an issue: taken as this run's failure,
                    // and kept from failing the test (the shrunk run reports it).
                    withKnownIssue("a sweep's trial run", isIntermittent: true) {
                        do { try body(v) } catch { failure.set("\(error)") }
                    } matching: { issue in
                        failure.set(issue.description)
                        return true
                    }
                    return
                }
                #endif
                do { try body(v) } catch { failure.set("\(error)") }
            }
            return failure.value
        }

        /// The first failure of a trial run (set from Swift Testing's issue matcher).
        final class FailureBox: @unchecked Sendable {
            private(set) var value: String?
            func set(_ text: String) { if value == nil { value = text } }
        }
    }

    /// Whether the checks run inside a sweep's trial: they then throw quietly instead of
    /// reporting.
    @TaskLocal static var isSweeping = false

    /// Makes a tester over a new engine with `root` as its one root view, making its gestures
    /// as `variation` says.
    public convenience init(root: View, variation: Variation) {
        self.init(root: root)
        self.variation = variation
    }

    static func reportSweep(_ failure: Sweep.Failure, at site: CallSite) throws -> Never {
        try fail(failure.description + "\n(at \(site))", error: failure, svg: nil, at: site)
    }
}
