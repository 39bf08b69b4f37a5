import GestureKit
import GestureReplay
import GestureTraces

/// The replay pipeline the throughput figures measure: TraceReader's streaming decoder
/// feeding the engine through the default scene (`TraceReplay.run` without the
/// validation pass), every record handed to a closure that only counts it.
public enum ReplayPipeline {
    /// Replays `path`; returns the number of replay records produced.
    public static func run(path: String) throws -> Int {
        var records = 0
        try TraceReplay.run(path: path, scene: .defaultScene(), validateFirst: false) { _ in records &+= 1 }
        return records
    }

    /// The number of evdev events in the trace (every device, SYN_REPORTs included).
    public static func countEvents(path: String) throws -> Int {
        var count = 0
        try TraceReader(path: path).forEachEvdevEvent { _, _ in count &+= 1 }
        return count
    }
}
