@testable import GestureKit
import Testing

/// Arbitration on its own, as swift-nio tests its state machines: decisions in, actions out,
/// over a table of its own, with the recognizers' answers (requirements, simultaneity, the
/// delegate) from tables.
@Suite struct ArbiterTests {
    /// A host of arbitration: its table, and the recognizers' answers, from tables.
    final class Answers: ArbitrationHost {
        var table = RecognizerTable()
        var names: [String]
        /// (a, b): `a.require(toFail: b)`.
        var requirements: [(Int, Int)] = []
        /// Pairs that may recognize at the same time.
        var simultaneousPairs: [(Int, Int)] = []
        var declinesBegin: Set<Int> = []
        var liveDeadlines: Set<Int> = []
        var cancelsTouches: Set<Int> = []

        init(names: [String]) { self.names = names }

        func name(of r: RecognizerSlot) -> String { names[r.rawValue] }
        func forEachExplicitRequirement(of r: RecognizerSlot, _ body: (RecognizerSlot) -> Bool) {
            for (a, b) in requirements where a == r.rawValue {
                if !body(RecognizerSlot(rawValue: b)) { return }
            }
        }
        func explicitlyRequires(_ a: RecognizerSlot, toFail b: RecognizerSlot) -> Bool {
            requirements.contains { $0 == (a.rawValue, b.rawValue) }
        }
        func requires(_ a: RecognizerSlot, toFail b: RecognizerSlot) -> Bool { explicitlyRequires(a, toFail: b) }
        var hasDynamicRequirements: Bool { false }
        func canPrevent(_ a: RecognizerSlot, _ b: RecognizerSlot) -> Bool { true }
        func viewShouldBegin(_ r: RecognizerSlot) -> Bool { true }
        func requirementPathExists(from a: RecognizerSlot, to b: RecognizerSlot) -> Bool {
            var seen: Set<Int> = [], frontier = [a.rawValue]
            while let x = frontier.popLast() {
                if x == b.rawValue { return true }
                if seen.insert(x).inserted { frontier += requirements.filter { $0.0 == x }.map(\.1) }
            }
            return false
        }
        func simultaneous(_ a: RecognizerSlot, _ b: RecognizerSlot) -> Bool {
            simultaneousPairs.contains { $0 == (a.rawValue, b.rawValue) || $0 == (b.rawValue, a.rawValue) }
        }
        func shouldBegin(_ r: RecognizerSlot) -> Bool { !declinesBegin.contains(r.rawValue) }
        func deadline(of r: RecognizerSlot) -> Instant? {
            liveDeadlines.contains(r.rawValue) ? Instant(seconds: 1) : nil
        }
        func cancelsTouchesInView(_ r: RecognizerSlot) -> Bool { cancelsTouches.contains(r.rawValue) }

        /// Adds a recognizer of `kind` (an object only for its slot: the answers are the tables').
        func add(_ kind: GestureRecognizer.Kind) {
            _ = table.add(GestureRecognizer(name: names[table.slotCount]), kind: kind, isEnabled: true)
        }
    }

    let tap = RecognizerSlot(rawValue: 0)
    let other = RecognizerSlot(rawValue: 1)

    /// The recognizers (`kinds`) on one touch's arena, the touch down and joined.
    func arbiter(_ kinds: [GestureRecognizer.Kind], _ q: Answers) -> TouchID {
        for kind in kinds { q.add(kind) }
        let touch = q.table.newTouchID()
        q.table.openArena(touch, members: kinds.indices.map { RecognizerSlot(rawValue: $0) })
        q.table.join(touch)
        return touch
    }

    /// The transitions among `actions`, as "name: from → to (reason)".
    func transitions(_ actions: [ArbitrationAction], _ q: Answers) -> [String] {
        actions.compactMap {
            guard case let .transition(r, from, to, reason) = $0 else { return nil }
            return "\(q.names[r.rawValue]): \(from.rawValue) → \(to.rawValue) (\(reason))"
        }
    }

    @Test func aLoneTapRecognizesAtOnceAndPerformsItsActions() {
        let q = Answers(names: ["tap"])
        _ = arbiter([.discrete], q)
        let actions = q.decide(.recognize(.tapsCompleted(taps: 1, touches: 1)), for: tap)
        #expect(transitions(actions, q) == ["tap: possible → ended (1 tap of 1 touch completed)"])
        #expect(actions.contains(.performActions(tap)), "a recognized tap calls its actions")
    }

    @Test func aTapThatRequiresADoubleTapToFailWaitsThenRecognizesWhenItFails() {
        let q = Answers(names: ["single", "double"])
        q.requirements = [(0, 1)]
        _ = arbiter([.discrete, .discrete], q)
        #expect(q.decide(.recognize(.tapsCompleted(taps: 1, touches: 1)), for: tap)
                == [.waiting(tap, reason: .waitingForFailure(of: "double"))],
                "the single tap waits for the double tap, which still tracks the touch")
        let actions = q.decide(.fail(.tapIntervalExpired(allowed: .milliseconds(300))), for: other)
        #expect(transitions(actions, q) == [
            "double: possible → failed (no next tap within 0.3 s)",
            "single: possible → ended (1 tap of 1 touch completed)",
        ], "once the double tap fails, the waiting single tap recognizes")
    }

    @Test func aTapFailsAtOnceWhenTheDoubleTapItRequiresRecognizes() {
        let q = Answers(names: ["single", "double"])
        q.requirements = [(0, 1)]
        _ = arbiter([.discrete, .discrete], q)
        _ = q.decide(.recognize(.tapsCompleted(taps: 1, touches: 1)), for: tap)
        let actions = q.decide(.recognize(.tapsCompleted(taps: 2, touches: 1)), for: other)
        #expect(transitions(actions, q).prefix(2) == [
            "double: possible → ended (2 taps of 1 touch completed)",
            "single: possible → failed (double recognized first)",
        ])
    }

    @Test func aPanThatBeginsExcludesTheTapOnItsTouchAndCancelsTheTouchInItsView() {
        let q = Answers(names: ["tap", "pan"])
        q.cancelsTouches = [1]
        let touch = arbiter([.discrete, .continuous], q)
        let actions = q.decide(.begin(.panned(points: 12, threshold: 10)), for: other)
        #expect(transitions(actions, q) == [
            "pan: possible → began (moved 12 pt > threshold 10 pt)",
            "tap: possible → failed (pan recognized and they are not simultaneous)",
        ])
        #expect(actions.contains(.cancelTouchInView(touch)), "a pan that cancels touches in view takes its touch from the view")
    }

    @Test func anExcludedRecognizerStaysFailedWhileItsSequenceLasts() {
        let q = Answers(names: ["long", "pan"])
        _ = arbiter([.continuous, .continuous], q)
        _ = q.decide(.begin(.panned(points: 12, threshold: 10)), for: other)
        // The long press was excluded; a new touch reaches both while the first is down.
        let second = q.table.newTouchID()
        q.table.openArena(second, members: [tap, other])
        q.table.join(second)
        let actions = q.decide(.begin(.pressDurationReached(held: .milliseconds(500), touches: 1)), for: tap)
        #expect(transitions(actions, q) == [],
                "a long press excluded by a pan stays failed while its sequence lasts: a new touch does not start it again")
        #expect(q.table.state(of: tap) == .failed)
    }

    @Test func simultaneousRecognizersBothBegin() {
        let q = Answers(names: ["pinch", "rotation"])
        q.simultaneousPairs = [(0, 1)]
        _ = arbiter([.continuous, .continuous], q)
        _ = q.decide(.begin(.spanChanged(points: 9, threshold: 8)), for: tap)
        _ = q.decide(.begin(.rotated(radians: 0.3, threshold: 0.26)), for: other)
        #expect(q.table.state(of: tap) == .began && q.table.state(of: other) == .began,
                "a pinch and a rotation allowed together both begin")
    }

    @Test func theDelegateMayDeclineABegin() {
        let q = Answers(names: ["tap"])
        q.declinesBegin = [0]
        _ = arbiter([.discrete], q)
        let actions = q.decide(.recognize(.tapsCompleted(taps: 1, touches: 1)), for: tap)
        #expect(transitions(actions, q) == ["tap: possible → failed (delegate's shouldBegin said no)"])
    }

    @Test func aRecognizerWhoseTouchesLiftedFailsAtTheEndOfTheStepUnlessATimerHoldsIt() {
        let q = Answers(names: ["double"])
        q.liveDeadlines = [0]
        _ = arbiter([.discrete], q)
        q.table.lift(tap)
        #expect(q.endOfStep(tap).isEmpty, "a double tap waiting for its second tap keeps its timer and stays possible")
        q.liveDeadlines = []
        #expect(transitions(q.endOfStep(tap), q) == ["double: possible → failed (touches lifted without a gesture)"])
    }

    @Test func anArenasLiveListHoldsOnlyRecognizersNotInAFinalStateAndFollowsResets() {
        let q = Answers(names: ["tap", "pan"])
        let touch = arbiter([.discrete, .continuous], q)
        guard let arena = q.table.arenaIndex(touch) else { Issue.record("the touch has no arena"); return }
        q.table.refreshLive(arena)
        #expect(q.table.arenas[arena].live == [tap, other], "both possible: a frame of moves feeds both")
        _ = q.decide(.fail(.movedTooFar(points: 12, allowed: 10)), for: tap)
        q.table.refreshLive(arena)
        #expect(q.table.arenas[arena].live == [other], "the failed tap waits for its sequence to end: a frame of moves skips it")
        _ = q.decide(.begin(.panned(points: 11, threshold: 10)), for: other)
        _ = q.decide(.end(.touchesEnded), for: other)
        q.table.refreshLive(arena)
        #expect(q.table.arenas[arena].live.isEmpty, "both final: nothing to feed until the touch lifts")
        q.table.lift(tap)
        let reset = q.table.endSequenceIfOver(tap)
        #expect(reset, "its sequence over, the tap is reset")
        q.table.refreshLive(arena)
        #expect(q.table.arenas[arena].live == [tap], "the tap's sequence ended: reset to possible, it is live again")
    }

    @Test func aChangeComesBackAsChangedOnlyFromABegunRecognizer() {
        let q = Answers(names: ["tap", "pan"])
        _ = arbiter([.discrete, .continuous], q)
        #expect(q.decide(.change, for: other) == [],
                "a pan that has not begun changes nothing")
        _ = q.decide(.begin(.panned(points: 11, threshold: 10)), for: other)
        #expect(q.decide(.change, for: other) == [.changed(other, from: .began)],
                "a begun pan's new values make it changed, from began, and touches no other recognizer: no list of actions")
        #expect(q.table.state(of: other) == .changed)
        #expect(q.decide(.change, for: other) == [.changed(other, from: .changed)])
    }

    @Test func arbitrationRunsAheadOfWhatTheEngineCarriesOutAndKeepsTheSequencesTouches() {
        let q = Answers(names: ["pan"])
        let touch = arbiter([.continuous], q)
        q.table.lift(tap)
        let actions = q.decide(.recognize(.touchesEnded), for: tap)
        #expect(q.table.state(of: tap) == .possible, "began, ended and reset at once: its touch had lifted")
        #expect(transitions(actions, q) == ["pan: possible → began (touches lifted)",
                                              "pan: began → ended (touches lifted)"])
        #expect(q.table.records[tap.rawValue].previousSequence == [touch], "the reset kept the sequence's touch")
        #expect(q.table.sequenceTouches(tap) == [touch], "its location is still where its touch lifted")
    }

    @Test func aSlotTakenAgainNeverFiresItsLastRecognizersDeadline() {
        let q = Answers(names: ["tap", "tap again"])
        q.add(.discrete)
        q.table.armTimer(tap, at: Instant(seconds: 1))
        q.table.remove(tap)
        q.add(.discrete)
        #expect(q.table.nextDeadline() == nil, "the removed recognizer's deadline is stale for the slot's new one")
        q.table.armTimer(tap, at: Instant(seconds: 2))
        let fired = q.table.popDueTimer(before: Instant(seconds: 3), inclusive: false)
        #expect(fired?.1 == Instant(seconds: 2))
        #expect(q.table.records[tap.rawValue].timer.fired == Instant(seconds: 2), "the record keeps the deadline that fired")
    }

    @Test func theNextDeadlineIsReadWithoutChangingAnythingAndStaysTheEarliestLiveOne() {
        let q = Answers(names: ["long", "double"])
        q.add(.continuous)
        q.add(.discrete)
        q.table.armTimer(tap, at: Instant(seconds: 1))
        q.table.armTimer(other, at: Instant(seconds: 2))
        #expect(q.table.nextDeadline() == Instant(seconds: 1))
        // The earliest is asked for again later: its old entry on top goes stale, and is dropped
        // as the change is made, not when the next deadline is read.
        q.table.armTimer(tap, at: Instant(seconds: 3))
        #expect(q.table.nextDeadline() == Instant(seconds: 2), "the long press moved past the double tap")
        q.table.armTimer(other, at: nil)
        #expect(q.table.nextDeadline() == Instant(seconds: 3), "the double tap's deadline dropped")
        let due = q.table.popDueTimer(before: Instant(seconds: 4), inclusive: false)
        #expect(due?.0 == tap)
        #expect(q.table.nextDeadline() == nil, "nothing left")
    }
}
