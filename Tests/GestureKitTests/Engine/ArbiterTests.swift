@testable import GestureKit
import Testing

/// The arbiter on its own, as swift-nio tests its state machines: decisions in, actions out,
/// with the recognizers' answers (requirements, simultaneity, the delegate) from a table.
@Suite struct ArbiterTests {
    /// The recognizers' answers, from tables.
    struct Answers: ArbiterQuestions {
        var names: [String]
        /// (a, b): `a.require(toFail: b)`.
        var requirements: [(Int, Int)] = []
        /// Pairs that may recognize at the same time.
        var simultaneousPairs: [(Int, Int)] = []
        var declinesBegin: Set<Int> = []
        var liveDeadlines: Set<Int> = []
        var cancelsTouches: Set<Int> = []

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
    }

    let tap = RecognizerSlot(rawValue: 0)
    let other = RecognizerSlot(rawValue: 1)

    /// Two recognizers (`kinds`) on one touch's arena, the touch down and joined.
    func arbiter(_ kinds: [GestureRecognizer.Kind]) -> (Arbiter, TouchID) {
        var a = Arbiter()
        for (i, kind) in kinds.enumerated() { a.add(RecognizerSlot(rawValue: i), kind: kind, isEnabled: true) }
        let touch = a.newTouchID()
        a.openArena(touch, members: kinds.indices.map { RecognizerSlot(rawValue: $0) })
        a.join(touch)
        return (a, touch)
    }

    /// The actions an outcome lists (none for a begun recognizer's change, which the engine
    /// carries out from the outcome itself).
    func list(_ outcome: Arbiter.Outcome) -> [Arbiter.Action] {
        if case let .actions(actions) = outcome { actions } else { [] }
    }

    /// The transitions among `actions`, as "name: from → to (reason)".
    func transitions(_ actions: [Arbiter.Action], _ q: Answers) -> [String] {
        actions.compactMap {
            guard case let .transition(r, from, to, reason) = $0 else { return nil }
            return "\(q.names[r.rawValue]): \(from.rawValue) → \(to.rawValue) (\(reason))"
        }
    }

    @Test func aLoneTapRecognizesAtOnceAndPerformsItsActions() {
        let q = Answers(names: ["tap"])
        var (a, _) = arbiter([.discrete])
        let actions = list(a.decide(.recognize(.tapsCompleted(taps: 1, touches: 1)), for: tap, q))
        #expect(transitions(actions, q) == ["tap: possible → ended (1 tap of 1 touch completed)"])
        #expect(actions.contains(.performActions(tap)), "a recognized tap calls its actions")
    }

    @Test func aTapThatRequiresADoubleTapToFailWaitsThenRecognizesWhenItFails() {
        var q = Answers(names: ["single", "double"])
        q.requirements = [(0, 1)]
        var (a, _) = arbiter([.discrete, .discrete])
        #expect(list(a.decide(.recognize(.tapsCompleted(taps: 1, touches: 1)), for: tap, q))
                == [.waiting(tap, reason: .waitingForFailure(of: "double"))],
                "the single tap waits for the double tap, which still tracks the touch")
        let actions = list(a.decide(.fail(.tapIntervalExpired(allowed: .milliseconds(300))), for: other, q))
        #expect(transitions(actions, q) == [
            "double: possible → failed (no next tap within 0.3 s)",
            "single: possible → ended (1 tap of 1 touch completed)",
        ], "once the double tap fails, the waiting single tap recognizes")
    }

    @Test func aTapFailsAtOnceWhenTheDoubleTapItRequiresRecognizes() {
        var q = Answers(names: ["single", "double"])
        q.requirements = [(0, 1)]
        var (a, _) = arbiter([.discrete, .discrete])
        _ = a.decide(.recognize(.tapsCompleted(taps: 1, touches: 1)), for: tap, q)
        let actions = list(a.decide(.recognize(.tapsCompleted(taps: 2, touches: 1)), for: other, q))
        #expect(transitions(actions, q).prefix(2) == [
            "double: possible → ended (2 taps of 1 touch completed)",
            "single: possible → failed (double recognized first)",
        ])
    }

    @Test func aPanThatBeginsExcludesTheTapOnItsTouchAndCancelsTheTouchInItsView() {
        var q = Answers(names: ["tap", "pan"])
        q.cancelsTouches = [1]
        var (a, touch) = arbiter([.discrete, .continuous])
        let actions = list(a.decide(.begin(.panned(points: 12, threshold: 10)), for: other, q))
        #expect(transitions(actions, q) == [
            "pan: possible → began (moved 12 pt > threshold 10 pt)",
            "tap: possible → failed (pan recognized and they are not simultaneous)",
        ])
        #expect(actions.contains(.cancelTouchInView(touch)), "a pan that cancels touches in view takes its touch from the view")
    }

    @Test func anExcludedRecognizerStaysFailedWhileItsSequenceLasts() {
        let q = Answers(names: ["long", "pan"])
        var (a, _) = arbiter([.continuous, .continuous])
        _ = a.decide(.begin(.panned(points: 12, threshold: 10)), for: other, q)
        // The long press was excluded; a new touch reaches both while the first is down.
        let second = a.newTouchID()
        a.openArena(second, members: [tap, other])
        a.join(second)
        let actions = list(a.decide(.begin(.pressDurationReached(held: .milliseconds(500), touches: 1)), for: tap, q))
        #expect(transitions(actions, q) == [],
                "a long press excluded by a pan stays failed while its sequence lasts: a new touch does not start it again")
        #expect(a.state(of: tap) == .failed)
    }

    @Test func simultaneousRecognizersBothBegin() {
        var q = Answers(names: ["pinch", "rotation"])
        q.simultaneousPairs = [(0, 1)]
        var (a, _) = arbiter([.continuous, .continuous])
        _ = a.decide(.begin(.spanChanged(points: 9, threshold: 8)), for: tap, q)
        _ = a.decide(.begin(.rotated(radians: 0.3, threshold: 0.26)), for: other, q)
        #expect(a.state(of: tap) == .began && a.state(of: other) == .began,
                "a pinch and a rotation allowed together both begin")
    }

    @Test func theDelegateMayDeclineABegin() {
        var q = Answers(names: ["tap"])
        q.declinesBegin = [0]
        var (a, _) = arbiter([.discrete])
        let actions = list(a.decide(.recognize(.tapsCompleted(taps: 1, touches: 1)), for: tap, q))
        #expect(transitions(actions, q) == ["tap: possible → failed (delegate's shouldBegin said no)"])
    }

    @Test func aRecognizerWhoseTouchesLiftedFailsAtTheEndOfTheStepUnlessATimerHoldsIt() {
        var q = Answers(names: ["double"])
        q.liveDeadlines = [0]
        var (a, _) = arbiter([.discrete])
        a.lift(tap)
        #expect(a.endOfStep(tap, q).isEmpty, "a double tap waiting for its second tap keeps its timer and stays possible")
        q.liveDeadlines = []
        #expect(transitions(a.endOfStep(tap, q), q) == ["double: possible → failed (touches lifted without a gesture)"])
    }

    @Test func anArenasLiveListHoldsOnlyRecognizersNotInAFinalStateAndFollowsResets() {
        let q = Answers(names: ["tap", "pan"])
        var (a, touch) = arbiter([.discrete, .continuous])
        guard let arena = a.arenaIndex(touch) else { Issue.record("the touch has no arena"); return }
        a.refreshLive(arena)
        #expect(a.arenas[arena].live == [tap, other], "both possible: a frame of moves feeds both")
        _ = a.decide(.fail(.movedTooFar(points: 12, allowed: 10)), for: tap, q)
        a.refreshLive(arena)
        #expect(a.arenas[arena].live == [other], "the failed tap waits for its sequence to end: a frame of moves skips it")
        _ = a.decide(.begin(.panned(points: 11, threshold: 10)), for: other, q)
        _ = a.decide(.end(.touchesEnded), for: other, q)
        a.refreshLive(arena)
        #expect(a.arenas[arena].live.isEmpty, "both final: nothing to feed until the touch lifts")
        a.lift(tap)
        #expect(a.endSequenceIfOver(tap) == [.reset(tap)], "its sequence over, the tap is reset")
        a.refreshLive(arena)
        #expect(a.arenas[arena].live == [tap], "the tap's sequence ended: reset to possible, it is live again")
    }

    @Test func aChangeGoesThroughDecideAndComesBackAsChangedOnlyFromABegunRecognizer() {
        let q = Answers(names: ["tap", "pan"])
        var (a, _) = arbiter([.discrete, .continuous])
        #expect(a.decide(.change, for: other, q) == .actions([]),
                "a pan that has not begun changes nothing")
        _ = a.decide(.begin(.panned(points: 11, threshold: 10)), for: other, q)
        #expect(a.decide(.change, for: other, q) == .changed(other, from: .began),
                "a begun pan's new values make it changed, from began, and touches no other recognizer: no list of actions")
        #expect(a.state(of: other) == .changed)
        #expect(a.decide(.change, for: other, q) == .changed(other, from: .changed))
    }

    @Test func arbitrationRunsAheadOfWhatTheEngineCarriesOutAndKeepsTheSequencesTouches() {
        let q = Answers(names: ["pan"])
        var (a, touch) = arbiter([.continuous])
        a.lift(tap)
        let actions = list(a.decide(.recognize(.touchesEnded), for: tap, q))
        #expect(a.state(of: tap) == .possible, "began, ended and reset at once: its touch had lifted")
        #expect(transitions(actions, q) == ["pan: possible → began (touches lifted)",
                                              "pan: began → ended (touches lifted)"])
        #expect(a.records[tap.rawValue].previousSequence == [touch], "the reset kept the sequence's touch")
        #expect(a.sequenceTouches(tap) == [touch], "its location is still where its touch lifted")
    }

    @Test func aSlotTakenAgainNeverFiresItsLastRecognizersDeadline() {
        var a = Arbiter()
        a.add(tap, kind: .discrete, isEnabled: true)
        a.armTimer(tap, at: Instant(seconds: 1))
        a.remove(tap)
        a.add(tap, kind: .discrete, isEnabled: true)
        #expect(a.nextDeadline() == nil, "the removed recognizer's deadline is stale for the slot's new one")
        a.armTimer(tap, at: Instant(seconds: 2))
        #expect(a.popDueTimer(before: Instant(seconds: 3), inclusive: false)?.1 == Instant(seconds: 2))
        #expect(a.records[tap.rawValue].timer.fired == Instant(seconds: 2), "the record keeps the deadline that fired")
    }
}
