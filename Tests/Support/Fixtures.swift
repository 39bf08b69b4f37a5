import Foundation

/// The package root, found from this file's path.
public let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while url.path != "/" {
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        url.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: ".")
}()

/// The real recordings of Fixtures/ (their sources and licences in Fixtures/SOURCES.md).
public enum Fixtures {
    public static let directory = packageRoot.appendingPathComponent("Fixtures")
    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    /// Every recording in Fixtures/ (everything but SOURCES.md).
    public static let all: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { !$0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted()
    /// The recordings of touch devices: every fixture but the mice (`mouse-…`,
    /// `synthetic-mouse-…`) and the pens.
    public static let touch: [String] = all.filter { !mice.contains($0) && !pens.contains($0) }
    /// The recordings of pens (`pen-…`): tablet tools on a screen or a tablet.
    public static let pens: [String] = all.filter { $0.hasPrefix("pen-") }
    /// The recordings of mice and pointing sticks.
    public static let mice: [String] = all.filter { $0.hasPrefix("mouse-") || $0.hasPrefix("synthetic-mouse-") }
    /// The recordings of touchpads (`tp-…`, `synthetic-tp-…`): pointers, whose contacts never
    /// become touches.
    public static let touchpads: [String] = all.filter { $0.hasPrefix("tp-") || $0.hasPrefix("synthetic-tp-") }
    /// The recordings of touchscreens.
    public static let touchscreens: [String] = touch.filter { !touchpads.contains($0) }
}
