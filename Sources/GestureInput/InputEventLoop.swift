import CLinuxEventFD
import GestureKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The live input loop: `poll()` on a source's fd (libinput's, a Wayland connection's: any
/// `InputEventSource`), one CLOCK_MONOTONIC timerfd armed to the caller's next deadline (the engine's earliest timer), an eventfd for `stop()`, and
/// optionally a signalfd. No busy waiting: the thread sleeps until input arrives, the
/// deadline passes, or someone stops the loop.
///
/// The loop knows nothing of the engine; `run` takes three closures:
/// - `onEvent`: every event of the source, in order;
/// - `nextDeadline`: asked before every wait; nil means no timer;
/// - `advance`: called with the current time once a deadline has been reached;
/// - `beforeWait` (optional): called after each batch of events and deadlines, just before the
///   loop sleeps again: where an app draws what the batch changed.
public final class InputEventLoop {
    /// Stops a running loop from any thread (or a signal handler: it only `write`s to an
    /// eventfd). Valid while its loop exists.
    public struct StopHandle: Sendable {
        let fd: Int32
        public func stop() {
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { write(fd, $0.baseAddress, 8) }
        }
    }

    public let source: any InputEventSource
    private let timerFD: Int32
    private let stopFD: Int32
    private var signalFD: Int32 = -1
    private var previousSignalMask = sigset_t()

    public init(source: any InputEventSource) throws {
        self.source = source
        let timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard timer >= 0 else {
            throw InputLoopError.systemCallFailed(call: "timerfd_create", errno: errno)
        }
        let stop = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard stop >= 0 else {
            let code = errno
            close(timer)
            throw InputLoopError.systemCallFailed(call: "eventfd", errno: code)
        }
        self.timerFD = timer
        self.stopFD = stop
    }

    deinit {
        close(timerFD)
        close(stopFD)
        if signalFD >= 0 {
            close(signalFD)
            pthread_sigmask(SIG_SETMASK, &previousSignalMask, nil)
        }
    }

    public var stopHandle: StopHandle { StopHandle(fd: stopFD) }

    /// Asks a running loop to return (thread-safe). A stop requested before `run` makes the
    /// next `run` return at once.
    public func stop() { stopHandle.stop() }

    /// Makes the loop stop cleanly when one of `signals` (e.g. SIGINT, SIGTERM) arrives.
    /// The signals are blocked in the calling thread (call this before starting other
    /// threads so they inherit the mask) and read through a signalfd.
    public func stopOnSignals(_ signals: [Int32]) throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        if signalFD < 0 {
            pthread_sigmask(SIG_BLOCK, &mask, &previousSignalMask)
        } else {
            pthread_sigmask(SIG_BLOCK, &mask, nil)
        }
        let fd = signalfd(signalFD, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fd >= 0 else { throw InputLoopError.systemCallFailed(call: "signalfd", errno: errno) }
        signalFD = fd
    }

    /// Runs until `stop()` or a signal registered with `stopOnSignals`. Returns the signal
    /// number that stopped it, if one did.
    @discardableResult
    public func run(onEvent: (InputEvent) -> Void,
                    nextDeadline: () -> Instant?,
                    advance: (Instant) -> Void,
                    beforeWait: (() -> Void)? = nil) throws -> Int32? {
        try source.dispatch(into: onEvent)
        var armed: Instant? = nil
        while true {
            beforeWait?()
            let deadline = nextDeadline()
            if deadline != armed {
                try arm(deadline)
                armed = deadline
            }
            var fds = [pollfd(fd: source.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
            if signalFD >= 0 {
                fds.append(pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw InputLoopError.systemCallFailed(call: "poll", errno: errno)
            }
            if fds[2].revents != 0 {
                var value: UInt64 = 0
                _ = read(stopFD, &value, 8)
                return nil
            }
            if fds.count > 3, fds[3].revents != 0 {
                var info = signalfd_siginfo()
                let n = read(signalFD, &info, MemoryLayout<signalfd_siginfo>.size)
                if n == MemoryLayout<signalfd_siginfo>.size { return Int32(info.ssi_signo) }
            }
            if fds[0].revents != 0 {
                try source.dispatch(into: onEvent)
            }
            if fds[1].revents != 0 {
                var expirations: UInt64 = 0
                _ = read(timerFD, &expirations, 8)
                armed = nil     // a one-shot timer that fired must be armed again
            }
            if let deadline {
                let now = MonotonicClock.now()
                if now >= deadline {
                    armed = nil     // re-arm even if the same deadline is asked for again
                    advance(now)
                }
            }
        }
    }

    private func arm(_ deadline: Instant?) throws {
        var spec = itimerspec()
        if let deadline {
            // An absolute time in the past fires at once; zero would disarm, so use 1 ns.
            let ns = max(deadline.nanoseconds, 1)
            spec.it_value.tv_sec = Int(ns / 1_000_000_000)
            spec.it_value.tv_nsec = Int(ns % 1_000_000_000)
        }
        guard timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil) == 0 else {
            throw InputLoopError.systemCallFailed(call: "timerfd_settime", errno: errno)
        }
    }
}
