import GestureKit

/// Logs what the engine sets aside and why, and the wiring mistakes
/// it refuses: bad input never stops the engine, so these lines are
/// where it shows.
func logSetAsideInput(of engine: GestureEngine,
                      to log: @escaping (String) -> Void) {
    engine.traceHandler = { event in
        switch event {
        case let .inputIgnored(time, reason):
            log("\(time) ignored: \(reason)")
        case let .programmingError(time, message):
            log("\(time) refused: \(message)")
        default:
            break
        }
    }
}
