import Foundation
import GestureKit
import GestureTestSupport
import GestureTraces

/// What these tests ask of the package's recordings (GestureTestSupport's `Fixtures`) besides
/// the lists every target shares.
extension Fixtures {
    static let evemu: [String] = all.filter { $0.hasSuffix(".evemu") }

    static func isPen(_ name: String) -> Bool { name.hasPrefix("pen-") }

    static func isMouse(_ name: String) -> Bool { name.hasPrefix("mouse-") || name.hasPrefix("synthetic-mouse-") }
}

/// A scratch file with the given content, removed by the caller's `defer`.
struct TempFile {
    let path: String

    init(_ content: String, name: String = "trace") throws {
        try self.init(bytes: Array(content.utf8), name: name)
    }

    init(bytes: [UInt8], name: String = "trace") throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("gesturetraces-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        path = dir.appendingPathComponent("\(UUID().uuidString)-\(name)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// What a trace decodes to, in a form tests can compare.
struct Decoded {
    var frames: [TouchFrame] = []
    var gestures: [TouchpadGestureEvent] = []
    var drops: [(Instant, InputDeviceID)] = []
    var devices: [TraceDevice] = []
    var removed: [(InputDeviceID, Instant)] = []
    var notes: [(Instant, InputDeviceID, String)] = []
    var pointer: [PointerEvent] = []
    var pens: [PenEvent] = []
    var modifiers: [(time: Instant, flags: ModifierFlags)] = []

    /// `touchpads: .contacts` for what the pad reported; `.pointer` (a replay's reading) for
    /// the pointer events and touchpad gestures the decoder makes of it.
    init(_ reader: TraceReader, touchpads: TraceReader.TouchpadReading = .pointer) throws {
        try reader.run(touchpads: touchpads) { item in
            switch item {
            case .deviceAdded(let d): devices.append(contentsOf: reader.devices.filter { $0.id == d.id })
            case .touchFrame(let f): frames.append(f)
            case .touchpadGesture(let g): gestures.append(g)
            case .eventsDropped(let t, let d): drops.append((t, d))
            case .deviceRemoved(let d, let t): removed.append((d, t ?? .zero))
            case .note(let t, let d, let text): notes.append((t, d, text))
            case .pointer(let p): pointer.append(p)
            case .pen(let p): pens.append(p)
            case .modifiers(let t, _, let flags): modifiers.append((t, flags))
            }
        }
    }

    /// A recording's frames as its devices reported them: a touchpad's contacts included
    /// (what the decoder checks look at).
    init(path: String, screen: Size = Size(width: 1000, height: 1000), touchpads: TraceReader.TouchpadReading = .contacts) throws {
        try self.init(TraceReader(path: path, screen: screen), touchpads: touchpads)
    }

    var changes: [TouchChange] { frames.flatMap(\.changes) }
    var began: [TouchChange] { changes.filter { $0.phase == .began } }

    /// Times (seconds) at which touches began.
    var beganTimes: [Double] {
        frames.flatMap { f in f.changes.filter { $0.phase == .began }.map { _ in f.time.seconds } }
    }

    /// Most contacts down at once.
    var maxSimultaneous: Int {
        var down = 0, best = 0
        for f in frames {
            for c in f.changes {
                switch c.phase {
                case .began: down += 1
                case .ended, .cancelled: down -= 1
                case .moved: break
                }
            }
            best = max(best, down)
        }
        return best
    }

    /// Problems with the contact lifecycle: a began for an id already down, a moved/ended for
    /// an id not down, or contacts still down at the end.
    func lifecycleProblems(requireAllLifted: Bool = true) -> [String] {
        var problems: [String] = []
        var down: [InputDeviceID: Set<Int>] = [:]
        for f in frames {
            for c in f.changes {
                switch c.phase {
                case .began:
                    if !down[f.device, default: []].insert(c.sourceID).inserted {
                        problems.append("\(f.time): id \(c.sourceID) began while down")
                    }
                case .moved:
                    if !(down[f.device]?.contains(c.sourceID) ?? false) {
                        problems.append("\(f.time): id \(c.sourceID) moved while not down")
                    }
                case .ended, .cancelled:
                    if down[f.device]?.remove(c.sourceID) == nil {
                        problems.append("\(f.time): id \(c.sourceID) ended while not down")
                    }
                }
            }
        }
        if requireAllLifted {
            for (d, ids) in down where !ids.isEmpty { problems.append("\(d): ids \(ids.sorted()) still down at the end") }
        }
        return problems
    }
}

extension TraceError {
    /// Runs `body` and returns the TraceError it threw (nil if it threw none or another error).
    static func catching(_ body: () throws -> Void) -> TraceError? {
        do { try body() } catch let e as TraceError { return e } catch { return nil }
        return nil
    }
}

/// Decodes every item of the trace at `path` (errors included).
func decodeAll(_ path: String) throws {
    let reader = try TraceReader(path: path)
    try reader.run { _ in }
}
