import CGTK4
import GestureInput
import GestureKit

/// What both GTK hosts (`GTKGestureInput` on one widget, `GTKWindowInput` on a window) do
/// with GDK's events once they have them, stated once:
/// - `GDKEventReader` turns each event into the client's input, in the host widget's
///   coordinates;
/// - the client's clock is GDK's event time less the first event's (`ClientClock`), as every
///   live source's. GDK's times are CLOCK_MONOTONIC's on Wayland and the X server's on X11:
///   the time now, for deadlines, is the monotonic clock's where an event's time is within
///   `GTKInputDriver.sameClockWithin` of its arrival, and otherwise the last event's time plus
///   what has passed since it arrived;
/// - a touchpad gesture the system never ends is cancelled before its device goes
///   (`UnfinishedGestures`);
/// - the client's deadlines are one GLib timeout at the next, set again after every batch
///   of input and every deadline. Nothing here reads a clock but to schedule that timeout;
/// - `finish` cancels what is in progress (touches, hovering, a pen, a touchpad gesture) and
///   finishes the client, so every recognizer ends in a final state.
final class GTKInputDriver {
    let client: any LiveInputClient
    var reader = GDKEventReader()
    private var clock = ClientClock()
    private var unfinished = UnfinishedGestures()
    private var timeout: guint = 0
    private(set) var isFinished = false
    /// Called after every deadline the client handled (the host claims and redraws).
    var afterDeadline: (() -> Void)?

    init(client: any LiveInputClient) {
        self.client = client
    }

    deinit {
        if timeout != 0 { g_source_remove(timeout) }
    }

    /// The monotonic time of the first event: zero on the client's clock.
    var origin: Instant? { clock.origin }

    /// Reads `event` (which arrived at `widget`) and hands its input to the client: whether
    /// there was any.
    func read(_ event: OpaquePointer, widget: UnsafeMutableRawPointer) -> Bool {
        guard !isFinished else { return false }
        let events = reader.read(event, widget: widget)
        for e in events { deliver(e) }
        return !events.isEmpty
    }

    func deliver(_ event: InputEvent) {
        if let time = event.time { lastArrival = (time, MonotonicClock.now()) }
        if let cancel = unfinished.cancel(before: event) { client.handle(clock.rebased(cancel)) }
        client.handle(clock.rebased(event))
    }

    /// The touch following `sequence` cancelled (GTK gave it to a gesture of its own, or its
    /// widget went): whether one was down.
    @discardableResult
    func cancel(sequence: OpaquePointer) -> Bool {
        let events = reader.cancel(sequence: sequence, at: reader.time.now)
        for e in events { deliver(e) }
        return !events.isEmpty
    }

    /// The sequences of the touches down.
    var touchSequences: [OpaquePointer] { reader.sequences }

    /// Every touch down cancelled (a drag the compositor now carries took them).
    func cancelTouches() {
        for sequence in reader.sequences { cancel(sequence: sequence) }
    }

    /// Cancels what is in progress and finishes the client (once).
    func finish() {
        guard !isFinished else { return }
        let time = reader.time.now
        for event in reader.cancelAll(at: time) { deliver(event) }
        for event in unfinished.cancelAll(at: time) { deliver(event) }
        client.finish()
        isFinished = true
        if timeout != 0 { g_source_remove(timeout) }
        timeout = 0
    }

    // MARK: deadlines

    /// The last event's time (GDK's) and when it arrived (the monotonic clock's).
    private var lastArrival: (time: Instant, monotonic: Instant)?

    /// How close an event's time must be to its arrival to be taken as on the monotonic
    /// clock (an X server's times count from its start: far off).
    static let sameClockWithin = Duration.seconds(10)

    /// The client's clock now (what the menu key, which is no `InputEvent`, is stamped with).
    var clientNow: Instant { now }

    /// The client's clock now.
    private var now: Instant {
        let monotonic = MonotonicClock.now()
        guard let arrival = lastArrival,
              abs(arrival.time.nanoseconds - arrival.monotonic.nanoseconds) > Self.sameClockWithin.nanosecondCount
        else { return clock.clientTime(monotonic) ?? .zero }
        let source = Instant(nanoseconds: arrival.time.nanoseconds + (monotonic.nanoseconds - arrival.monotonic.nanoseconds))
        return clock.clientTime(source) ?? .zero
    }

    func schedule() {
        if timeout != 0 { g_source_remove(timeout) }
        timeout = 0
        guard !isFinished, let deadline = client.nextDeadline else { return }
        let wait = max(0, deadline.nanoseconds - now.nanoseconds)
        let ms = guint((wait + 999_999) / 1_000_000)
        timeout = g_timeout_add_full(G_PRIORITY_DEFAULT, ms, gtkDriverDeadline,
                                     Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    fileprivate func deadlineFired() {
        timeout = 0
        guard !isFinished else { return }
        client.advance(to: now)
        afterDeadline?()
        schedule()
    }
}

private let gtkDriverDeadline: @convention(c) (gpointer?) -> gboolean = { data in
    guard let data else { return 0 }
    Unmanaged<GTKInputDriver>.fromOpaque(data).takeUnretainedValue().deadlineFired()
    return 0   // G_SOURCE_REMOVE: the next deadline is a new timeout
}

/// GestureGTK's claims of touch sequences, on the widget it is attached to: a gesture that
/// tracks every sequence (every finger, and the mouse's) in the capture phase, so that
/// claiming one makes GTK cancel it in every gesture of the widgets underneath
/// (`gtk_gesture_set_sequence_state`). It is never recognized, so it never stops an event on
/// its own: the host stops the claimed sequences' later events itself (`isClaimed`).
///
/// One gesture with `n-points` of `maximumSequences` tracks as many sequences as GTK will
/// give it; GTK denies a sequence past `n-points` on arrival, so a gesture of GTK's own with
/// a fixed count (a zoom's 2) could not claim a third finger.
final class GTKSequenceClaims {
    /// The most sequences claimed at once: more fingers than any touchscreen reports.
    static let maximumSequences: guint = 32

    let gesture: UnsafeMutableRawPointer
    private var claimed: Set<UnsafeMutableRawPointer?> = []

    /// A claiming gesture (not yet on a widget).
    init() {
        gesture = gk_claimer_new(Self.maximumSequences)!
        gk_controller_set_limit_none(gesture)
    }

    /// Claims `sequence` (nil: the mouse's): whether it is claimed now.
    @discardableResult
    func claim(_ sequence: OpaquePointer?) -> Bool {
        let key = sequence.map(UnsafeMutableRawPointer.init)
        // GTK's word, not ours: a sequence GTK reuses for a new touch is new to it.
        guard gk_gesture_try_claim(gesture, sequence) != 0 else { return false }
        claimed.insert(key)
        return true
    }

    func isClaimed(_ sequence: OpaquePointer?) -> Bool {
        claimed.contains(sequence.map(UnsafeMutableRawPointer.init))
    }

    /// `sequence` ended or was cancelled.
    func forget(_ sequence: OpaquePointer?) {
        claimed.remove(sequence.map(UnsafeMutableRawPointer.init))
    }

    var count: Int { claimed.count }

    /// No sequence is down: forgets everything (and GTK's gesture its points).
    func reset() {
        claimed.removeAll()
        gk_controller_reset(gesture)
    }
}
