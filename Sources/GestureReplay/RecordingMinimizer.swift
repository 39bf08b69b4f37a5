import GestureKit
import GestureRecording
import GestureTraces

/// Shrinks a recording to a small one that still makes a scene's expectation fail
/// (`gesturekit minimize`; docs/RECORDING.md, "Trimming and minimizing"): a bug report becomes
/// a regression file.
///
/// **How:** delta debugging (Zeller's ddmin) on replays of the scene, in three passes, each
/// keeping a change only if the expectation still fails and every `still` expectation still
/// holds:
/// 1. touches: each contact's whole life (a touch from its `began` to its end, a pen's stroke,
///    a pointer's button touch, a touchpad gesture) is one part, and the other events (hover,
///    scrolls, modifiers, notes) one part for each device and quarter second;
/// 2. moves: each move of the contacts left (a touch's `moved` change, a pen's or a held
///    pointer's motion, a gesture's update);
/// 3. time: the recording moved to start at 0, and every pause longer than a second with
///    nothing down shortened to a second.
/// Devices' arrivals and removals are kept (those of devices with nothing left go at the end),
/// and so are clock lines. The result is 1-minimal for the first two passes when no replay
/// limit cut them short: taking out any one part left makes the failure go.
public struct RecordingMinimizer {
    public let scene: Scene
    /// What should hold, and fails on the recording.
    public let expectation: SceneExpectation
    /// What must still hold on every smaller recording (so that the failure stays the same
    /// failure, not input taken away).
    public let still: [SceneExpectation]
    /// The most replays the minimizer runs.
    public var maximumReplays: Int

    public init(scene: Scene, expectation: SceneExpectation, still: [SceneExpectation] = [], maximumReplays: Int = 20_000) {
        self.scene = scene
        self.expectation = expectation
        self.still = still
        self.maximumReplays = maximumReplays
    }

    /// What the minimizer found.
    public struct Result {
        /// The smaller recording's lines after its header.
        public var entries: [InputRecording.Entry]
        /// Contacts (and other parts) of the recording, and how many are left.
        public var parts: Int
        public var partsKept: Int
        /// Moves of the contacts left, and how many are left.
        public var moves: Int
        public var movesKept: Int
        /// Seconds from the first to the last timed line, before and after.
        public var seconds: Double
        public var secondsKept: Double
        /// Replays run, and whether the limit stopped the search early.
        public var replays: Int
        public var limited: Bool
    }

    /// Why a recording cannot be minimized.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether the scene, replaying `entries`, fails the expectation while the `still` ones hold.
    public func fails(_ entries: [InputRecording.Entry]) throws -> Bool {
        var records: [ReplayRecord] = []
        let session = try ReplaySession(scene: scene) { records.append($0) }
        for entry in entries {
            switch entry {
            case let .event(event): session.feed(event)
            case let .clock(time): session.advance(to: time)
            case .stopped: break
            }
        }
        session.finish()
        return !expectation.holds(on: records) && still.allSatisfy { $0.holds(on: records) }
    }

    /// Minimizes `entries` (a recording's lines after its header).
    public func minimize(_ entries: [InputRecording.Entry]) throws -> Result {
        guard try fails(entries) else {
            let why = still.isEmpty ? "" : " (with \(still.map(\.description).joined(separator: ", ")) holding)"
            throw Failure(description: "the expectation \"\(expectation)\" does not fail on the recording\(why): there is nothing to minimize")
        }
        var search = Search(minimizer: self)
        let atoms = Atoms(entries)
        // 1. Touches: whole contacts and other parts.
        let parts = ddmin(Array(0..<atoms.partCount), &search) { kept in
            atoms.entries(parts: Set(kept), moves: nil)
        }
        let keptParts = Set(parts)
        // 2. Moves of the contacts left.
        let candidates = atoms.moves.indices.filter { keptParts.contains(atoms.moves[$0].part) }
        let moves = ddmin(candidates, &search) { kept in
            atoms.entries(parts: keptParts, moves: Set(kept).union(atoms.moves.indices.filter { !keptParts.contains(atoms.moves[$0].part) }))
        }
        var result = atoms.entries(parts: keptParts, moves: Set(moves).union(atoms.moves.indices.filter { !keptParts.contains(atoms.moves[$0].part) }))
        // 3. Time.
        result = try compressTime(result, &search)
        result = Atoms.withoutIdleDevices(result)
        return Result(entries: result, parts: atoms.partCount, partsKept: parts.count,
                      moves: candidates.count, movesKept: moves.count,
                      seconds: Atoms.seconds(entries), secondsKept: Atoms.seconds(result),
                      replays: search.replays, limited: search.limited)
    }

    // MARK: The search

    struct Search {
        let minimizer: RecordingMinimizer
        var replays = 0
        var limited = false

        /// Whether `entries` still fail; false without a replay once the limit is reached.
        mutating func fails(_ entries: [InputRecording.Entry]) throws -> Bool {
            guard replays < minimizer.maximumReplays else {
                limited = true
                return false
            }
            replays += 1
            return try minimizer.fails(entries)
        }
    }

    /// Zeller's ddmin: the smallest subset of `items` (in order) found whose recording,
    /// `make(subset)`, still fails.
    private func ddmin(_ items: [Int], _ search: inout Search, _ make: ([Int]) -> [InputRecording.Entry]) -> [Int] {
        var current = items
        if (try? search.fails(make([]))) == true { return [] }
        var n = 2
        while current.count >= 2 {
            let size = (current.count + n - 1) / n
            let chunks = stride(from: 0, to: current.count, by: size).map { Array(current[$0..<min($0 + size, current.count)]) }
            var reduced = false
            for chunk in chunks where chunks.count > 1 {
                if (try? search.fails(make(chunk))) == true {
                    current = chunk
                    n = 2
                    reduced = true
                    break
                }
            }
            if !reduced {
                for i in chunks.indices where chunks.count > 2 {
                    let complement = chunks.enumerated().filter { $0.offset != i }.flatMap(\.element)
                    if (try? search.fails(make(complement))) == true {
                        current = complement
                        n = max(n - 1, 2)
                        reduced = true
                        break
                    }
                }
            }
            if !reduced {
                if n >= current.count { break }
                n = min(current.count, n * 2)
            }
            if search.limited { break }
        }
        if current.count == 1, (try? search.fails(make([]))) == true { return [] }
        return current
    }

    /// Moves the recording to start at 0, then shortens each pause of more than a second with
    /// nothing down to a second, each change kept while the failure stays.
    private func compressTime(_ entries: [InputRecording.Entry], _ search: inout Search) throws -> [InputRecording.Entry] {
        var current = entries
        if let first = Atoms.times(current).first, first > .zero {
            let shifted = Atoms.shifted(current, after: first, by: first - .zero)
            if try search.fails(shifted) { current = shifted }
        }
        for (start, end) in Atoms.pauses(current, longerThan: .seconds(1)).reversed() {
            // Clock lines late in the pause go (the engine fires those deadlines on its way to
            // the next event anyway); the rest of the recording comes a pause minus a second earlier.
            let kept = current.filter { entry in
                guard case let .clock(t) = entry else { return true }
                return !(t > start + .seconds(1) && t < end)
            }
            let shorter = Atoms.shifted(kept, after: end, by: (end - start) - .seconds(1))
            if try search.fails(shorter) { current = shorter }
        }
        return current
    }
}

/// A recording taken apart for the minimizer: every event (and every change of a touch frame)
/// belongs to a part; moves are also atoms of their own.
struct Atoms {
    let source: [InputRecording.Entry]
    /// For each entry: its part (nil: always kept), or, for a touch frame, each change's part.
    private let partOfEntry: [Int?]
    private let partsOfChanges: [[Int]?]
    /// For each entry (and change): its move's index, if it is a move.
    private let moveOfEntry: [Int?]
    private let movesOfChanges: [[Int?]?]
    /// How many parts there are.
    let partCount: Int
    /// Each move's part and entry.
    let moves: [(part: Int, entry: Int)]

    init(_ entries: [InputRecording.Entry]) {
        source = entries
        var partOfEntry: [Int?] = [], partsOfChanges: [[Int]?] = []
        var moveOfEntry: [Int?] = [], movesOfChanges: [[Int?]?] = []
        var partCount = 0
        var moves: [(part: Int, entry: Int)] = []
        var touches: [TouchKey: Int] = [:]
        var pens: [InputDeviceID: Int] = [:]
        var pointers: [InputDeviceID: (part: Int, held: Set<Int>)] = [:]
        var gestures: [GestureKey: Int] = [:]
        var others: [OtherKey: Int] = [:]
        func newPart() -> Int {
            partCount += 1
            return partCount - 1
        }
        func other(_ device: InputDeviceID, _ time: Instant?) -> Int {
            let key = OtherKey(device: device, quarter: (time?.nanoseconds ?? 0) / 250_000_000)
            if let p = others[key] { return p }
            let p = newPart()
            others[key] = p
            return p
        }
        for (index, entry) in entries.enumerated() {
            var part: Int?
            var move: Int?
            var changeParts: [Int]?
            var changeMoves: [Int?]?
            if case let .event(event) = entry {
                switch event {
                case .deviceAdded, .deviceRemoved:
                    break
                case let .touchFrame(frame):
                    changeParts = []
                    changeMoves = []
                    for c in frame.changes {
                        let key = TouchKey(device: frame.device, id: c.sourceID)
                        let p: Int
                        if c.phase == .began || touches[key] == nil {
                            p = newPart()
                            touches[key] = p
                        } else {
                            p = touches[key]!
                        }
                        if c.phase == .ended || c.phase == .cancelled { touches[key] = nil }
                        changeParts!.append(p)
                        if c.phase == .moved {
                            moves.append((p, index))
                            changeMoves!.append(moves.count - 1)
                        } else {
                            changeMoves!.append(nil)
                        }
                    }
                case let .pen(p):
                    if p.phase == .down { pens[p.device] = newPart() }
                    if let stroke = pens[p.device] {
                        part = stroke
                        if p.phase == .moved { moves.append((stroke, index)); move = moves.count - 1 }
                        if p.phase == .up || p.phase == .out { pens[p.device] = nil }
                    } else {
                        part = other(p.device, p.time)
                    }
                case let .pointer(p):
                    if p.kind == .button, ButtonMask(evdevCode: p.button) != nil {
                        if p.pressed {
                            var touch = pointers[p.device] ?? (newPart(), [])
                            touch.held.insert(p.button)
                            pointers[p.device] = touch
                            part = touch.part
                        } else if var touch = pointers[p.device] {
                            touch.held.remove(p.button)
                            part = touch.part
                            pointers[p.device] = touch.held.isEmpty ? nil : touch
                        } else {
                            part = other(p.device, p.time)
                        }
                    } else if let touch = pointers[p.device] {
                        part = touch.part
                        if p.kind == .motion { moves.append((touch.part, index)); move = moves.count - 1 }
                        if p.kind == .leave { pointers[p.device] = nil }
                    } else {
                        part = other(p.device, p.time)
                    }
                case let .touchpadGesture(g):
                    let key = GestureKey(device: g.device, kind: g.kind)
                    if g.phase == .begin || gestures[key] == nil { gestures[key] = newPart() }
                    part = gestures[key]
                    if g.phase == .update { moves.append((part!, index)); move = moves.count - 1 }
                    if g.phase == .end || g.phase == .cancel { gestures[key] = nil }
                case let .modifiers(time, device, _), let .eventsDropped(time, device), let .note(time, device, _):
                    part = other(device, time)
                }
            }
            partOfEntry.append(part)
            partsOfChanges.append(changeParts)
            moveOfEntry.append(move)
            movesOfChanges.append(changeMoves)
        }
        self.partOfEntry = partOfEntry
        self.partsOfChanges = partsOfChanges
        self.moveOfEntry = moveOfEntry
        self.movesOfChanges = movesOfChanges
        self.partCount = partCount
        self.moves = moves
    }

    private struct TouchKey: Hashable { var device: InputDeviceID; var id: Int }
    private struct GestureKey: Hashable { var device: InputDeviceID; var kind: TouchpadGestureEvent.Kind }
    private struct OtherKey: Hashable { var device: InputDeviceID; var quarter: Int64 }

    /// The recording with only `parts`, and of their moves only `moves` (nil: all).
    func entries(parts kept: Set<Int>, moves keptMoves: Set<Int>?) -> [InputRecording.Entry] {
        var out: [InputRecording.Entry] = []
        out.reserveCapacity(source.count)
        func keeps(move: Int?) -> Bool { move.map { keptMoves?.contains($0) ?? true } ?? true }
        for (i, entry) in source.enumerated() {
            if let changeParts = partsOfChanges[i], case var .event(.touchFrame(frame)) = entry {
                let changeMoves = movesOfChanges[i]!
                let before = frame.changes.count
                frame.changes = frame.changes.indices.filter { kept.contains(changeParts[$0]) && keeps(move: changeMoves[$0]) }
                    .map { frame.changes[$0] }
                if !frame.changes.isEmpty || before == 0 { out.append(.event(.touchFrame(frame))) }
            } else if let part = partOfEntry[i] {
                if kept.contains(part) && keeps(move: moveOfEntry[i]) { out.append(entry) }
            } else {
                out.append(entry)
            }
        }
        return out
    }

    /// The devices' arrivals and removals without those of devices nothing else is left of.
    static func withoutIdleDevices(_ entries: [InputRecording.Entry]) -> [InputRecording.Entry] {
        var used: Set<InputDeviceID> = []
        for case let .event(event) in entries {
            switch event {
            case .deviceAdded, .deviceRemoved: break
            default: used.insert(ContactCounter.device(of: event))
            }
        }
        return entries.filter { entry in
            switch entry {
            case let .event(.deviceAdded(info)): used.contains(info.id)
            case let .event(.deviceRemoved(device, _)): used.contains(device)
            default: true
            }
        }
    }

    static func times(_ entries: [InputRecording.Entry]) -> [Instant] {
        entries.compactMap { entry in
            switch entry {
            case let .event(e): e.time
            case let .clock(t): t
            case let .stopped(t, _): t
            }
        }
    }

    static func seconds(_ entries: [InputRecording.Entry]) -> Double {
        let t = times(entries)
        guard let first = t.min(), let last = t.max() else { return 0 }
        return (last - first).inSeconds
    }

    /// Every time at or after `at` made `by` earlier.
    static func shifted(_ entries: [InputRecording.Entry], after at: Instant, by: Duration) -> [InputRecording.Entry] {
        let origin = Instant.zero + by
        func shift(_ t: Instant) -> Instant { t >= at ? Instant(nanoseconds: t.nanoseconds - origin.nanoseconds) : t }
        return entries.map { entry in
            switch entry {
            case let .event(e): .event(e.time.map { $0 >= at } == true ? e.rebased(by: origin) : e)
            case let .clock(t): .clock(shift(t))
            case let .stopped(t, reason): .stopped(time: shift(t), reason: reason)
            }
        }
    }

    /// The pauses longer than `minimum` between events with no contact down: where each
    /// starts (the last event before it) and ends (the next).
    static func pauses(_ entries: [InputRecording.Entry], longerThan minimum: Duration) -> [(Instant, Instant)] {
        var contacts = ContactCounter()
        var last: Instant?
        var out: [(Instant, Instant)] = []
        for entry in entries {
            guard case let .event(event) = entry else { continue }
            if let t = event.time {
                if contacts.total == 0, let last, t - last > minimum { out.append((last, t)) }
                last = t
            }
            contacts.apply(event) { _, _, _ in }
        }
        return out
    }
}
