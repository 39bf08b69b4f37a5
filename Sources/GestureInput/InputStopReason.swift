/// Why a run of live input ended: the one answer of every way to run a source, which says
/// which of these it gives (`LiveInputRun`, libinput's `LiveInput` and `LibinputListener`,
/// `WaylandInput`, GTK's window). Whatever the reason, the run cancels what is still in
/// progress and finishes its client before it returns.
public enum InputStopReason: Hashable, Sendable, CustomStringConvertible {
    /// The run's time limit passed (and, for libinput's runs, `stop()`: see `LiveInput`).
    case duration
    /// SIGINT or SIGTERM.
    case signal
    /// `stop()`, or the run's end condition (`LiveInputRun.run(_:endWhen:)`) said so.
    case stopped
    /// Every device was gone (libinput's `stopWhenDevicesGone`).
    case devicesGone
    /// The window was asked to close.
    case windowClosed
    /// The compositor went away (or broke the protocol): the message says how.
    case connectionLost(String)

    /// The case's name (`duration`, `signal`, …), as a run's output prints it; a lost
    /// connection's message in parentheses.
    public var description: String {
        switch self {
        case .duration: "duration"
        case .signal: "signal"
        case .stopped: "stopped"
        case .devicesGone: "devicesGone"
        case .windowClosed: "windowClosed"
        case let .connectionLost(message): "connectionLost(\(String(reflecting: message)))"
        }
    }
}
