import Foundation
import GestureKit
import GestureReplay
import GestureTestSupport

/// A replay's records, with helpers to ask what was recognized.
struct Replayed {
    let records: [ReplayRecord]

    init(_ fixture: String, scene: Scene = .defaultScene()) throws {
        records = try TraceReplay.records(path: Fixtures.path(fixture), scene: scene)
    }

    init(path: String, scene: Scene = .defaultScene()) throws {
        records = try TraceReplay.records(path: path, scene: scene)
    }

    var states: [ReplayRecord.State] {
        records.compactMap { if case let .state(s) = $0 { s } else { nil } }
    }

    /// The transitions of one recognizer into one state.
    func times(_ recognizer: String, _ to: GestureRecognizer.State) -> [Double] {
        states.filter { $0.recognizer == recognizer && $0.to == to }.map(\.time.seconds)
    }

    func count(_ recognizer: String, _ to: GestureRecognizer.State) -> Int {
        times(recognizer, to).count
    }

    /// The last transition of `recognizer` into `to`.
    func last(_ recognizer: String, _ to: GestureRecognizer.State) -> ReplayRecord.State? {
        states.last { $0.recognizer == recognizer && $0.to == to }
    }

    var jsonLines: [String] { records.map(\.jsonLine) }
}

/// A scene from JSON text.
func scene(_ json: String) throws -> Scene {
    try Scene.parse(JSONParser.parse(json))
}

/// Runs the built `gesturekit` tool; returns its exit status, standard output and error.
func runTool(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
    let r = try runProcess(builtProduct("gesturekit"), arguments, environment: environment)
    return (r.status, r.output, r.errors)
}

/// A scratch file, removed when the test is done with it.
struct TempFile {
    let path: String
    init(_ content: String, name: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturereplay-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        path = dir.appendingPathComponent("\(UUID().uuidString)-\(name)").path
        FileManager.default.createFile(atPath: path, contents: Data(content.utf8))
    }
    init(bytes: [UInt8], name: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturereplay-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        path = dir.appendingPathComponent("\(UUID().uuidString)-\(name)").path
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
