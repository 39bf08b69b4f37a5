import Foundation
import GestureKit
import GestureReplay

/// The package root, found from this file's path.
let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while url.path != "/" {
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        url.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: ".")
}()

enum Fixtures {
    static let directory = packageRoot.appendingPathComponent("Fixtures")
    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    /// Every recording in Fixtures/ (everything but SOURCES.md).
    static let all: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { !$0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted()
    /// The recordings of touch devices: every fixture but the mice (`mouse-…`,
    /// `synthetic-mouse-…`) and the pens.
    static let touch: [String] = all.filter { !mice.contains($0) && !pens.contains($0) }
    /// The recordings of pens (`pen-…`): tablet tools on a screen or a tablet.
    static let pens: [String] = all.filter { $0.hasPrefix("pen-") }
    /// The recordings of mice and pointing sticks.
    static let mice: [String] = all.filter { $0.hasPrefix("mouse-") || $0.hasPrefix("synthetic-mouse-") }
    /// The recordings of touchpads (`tp-…`, `synthetic-tp-…`): pointers, whose contacts never
    /// become touches.
    static let touchpads: [String] = all.filter { $0.hasPrefix("tp-") || $0.hasPrefix("synthetic-tp-") }
    /// The recordings of touchscreens.
    static let touchscreens: [String] = touch.filter { !touchpads.contains($0) }
}

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
    let binary = packageRoot.appendingPathComponent(".build/debug/gesturekit")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
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
