import Logging

/// Tracing: every transition (with its reason), delivery and ignored input goes to the
/// `traceHandler` and, at debug level, to the `logger` — the answer to "why did my tap
/// fail?". Nothing is built for the trace when nobody listens.
extension GestureEngine {
    func updateTracing() {
        storage.isTracing = traceHandler != nil || logger.logLevel <= .debug
    }

    func emit(_ event: GestureTraceEvent) {
        if logger.logLevel <= .debug {
            logger.debug("\(event.description)")
        }
        traceHandler?(event)
    }

    /// A wiring mistake of the app's: logged at error level whoever listens, and traced.
    package func programmingError(_ message: String) {
        logger.error("\(message)")
        traceHandler?(.programmingError(time: now, message: message))
    }

    func ignored(_ reason: String, at time: Instant? = nil) {
        emit(.inputIgnored(time: time ?? now, reason: reason))
    }
}
