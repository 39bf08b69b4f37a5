import GestureKit

/// What live input drives: a gesture engine, a scene around one, an app's wall. Times it sees
/// are on its own clock, zero at the first event (as a replay's are), so a live session and a
/// replay of the same recording print comparable times.
public protocol LiveInputClient: AnyObject {
    /// One event of the source, its time on the client's clock.
    func handle(_ event: InputEvent)
    /// The client's next deadline on its clock (a long press's duration, a double tap's
    /// interval), asked before every wait; nil: none.
    var nextDeadline: Instant? { get }
    /// The client's clock reached `now`: fire what is due.
    func advance(to now: Instant)
    /// A batch of events and deadlines was handled and the loop is about to sleep: where an
    /// app draws what the batch changed. `run.stop()` ends the run.
    func batchHandled(by run: LiveInputRun)
    /// The end of input (the devices are already removed, their touches cancelled).
    func finish()
}

extension LiveInputClient {
    public func batchHandled(by run: LiveInputRun) {}
    public func finish() {}
}

extension GestureEngine: LiveInputClient {
    public func handle(_ event: InputEvent) { send(event) }
}
