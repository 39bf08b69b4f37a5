import GestureKit

/// Touches on a scroll view's content (UIKit's `delaysContentTouches`,
/// `canCancelContentTouches`, and a touch on moving content).
///
/// Rule: a touch that comes down while the content moves on its own stops it and reaches
/// nothing else; otherwise, with `delaysContentTouches`, the content gets the touch once it
/// has been down `ScrollViewMetrics.contentTouchDelay` without becoming a drag (or at once
/// when it lifts earlier), and a drag that begins first takes it (the content never sees
/// it); without it, the content gets the touch at once and a drag that begins cancels it
/// (`canCancelContentTouches`).
///
/// It is done with the engine's own delivery rules (SEMANTICS.md, "Delivery to views") by a
/// recognizer on the scroll view, simultaneous with the scrolling pan, as UIKit's
/// `UIScrollViewDelayedTouchesBeganGestureRecognizer`:
///
/// | input | decision | so the content |
/// |---|---|---|
/// | touch down on moving content | motion stops; recognize (cancels touches in view) | never sees the touch; a tap or long press on it fails (exclusivity) |
/// | touchpad hold begins on moving content | motion stops; recognize | (a hold is no touch of the content) |
/// | touchpad hold on still content | fail | |
/// | touch down on still content, delaying | possible until the delay (delays touches began) | gets it late |
/// | the delay passes, or the touch lifts first | fail | gets the held events, in order |
/// | touch down on still content, not delaying | fail | gets it at once |
/// | a drag begins meanwhile | (the pan cancels touches in view) | never sees it |
/// | a drag would begin once the content has the touch | the pan begins only with `canCancelContentTouches` | gets `touchesCancelled`, or keeps the touch |
public final class ScrollViewContentTouchRecognizer: GestureRecognizer {
    weak var scrollView: ScrollView?
    private var wakeAt: Instant?

    init(scrollView: ScrollView) {
        self.scrollView = scrollView
        super.init(name: "\(scrollView.debugName).contentTouches")
        delaysTouchesEnded = false
    }

    public override func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        guard let scrollView else { return .fail(.custom("no scroll view")) }
        if scrollView.isMovingOnItsOwn {
            scrollView.stopMotion()
            for t in touches { scrollView.touchesThatStoppedScrolling.insert(t.id) }
            return .recognize(.custom("a touch on moving content stops it"))
        }
        guard scrollView.delaysContentTouches else {
            scrollView.contentIsTracking = true
            return .fail(.custom("content touches are not delayed"))
        }
        if wakeAt == nil { wakeAt = time + ScrollViewMetrics.contentTouchDelay }
        return .none
    }

    public override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        scrollView?.contentIsTracking = true
        return .fail(.custom("the touch lifted before the content touch delay"))
    }

    /// A touchpad hold (libinput's GESTURE_HOLD: fingers resting on the pad) is a touch on
    /// the content for this rule: on moving content it stops it, as GTK 4's scrolled window
    /// stops kinetic scrolling on a hold. The built-in decoder makes the same hold of resting
    /// fingers (`TouchpadInterpreter`).
    public override func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool { kind == .hold }

    public override func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
        guard event.phase == .begin, let scrollView, scrollView.isMovingOnItsOwn else {
            return .fail(.custom("a touchpad hold on still content"))
        }
        scrollView.stopMotion()
        return .recognize(.custom("a touchpad hold on moving content stops it"))
    }

    public override func deadlineReached(at time: Instant) -> GestureDecision {
        wakeAt = nil
        scrollView?.contentIsTracking = true
        return .fail(.custom("no drag began within the content touch delay"))
    }

    public override var deadline: Instant? { wakeAt }

    public override func reset() {
        wakeAt = nil
        guard let scrollView else { return }
        // The sequence is over: touches that stopped the content are gone; content they
        // held past an edge springs back.
        scrollView.touchesThatStoppedScrolling.removeAll()
        scrollView.panTouchStarts.removeAll(keepingCapacity: true)
        scrollView.contentIsTracking = false
        scrollView.bounceBackIfNeeded()
    }
}
