import Foundation

/// The package root, found from this file's path.
package let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while url.path != "/" {
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        url.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: ".")
}()

/// The real recordings of Fixtures/ (their sources and licences in Fixtures/SOURCES.md).
package enum Fixtures {
    package static let directory = packageRoot.appendingPathComponent("Fixtures")
    package static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    /// Every recording in Fixtures/ (everything but SOURCES.md).
    package static let all: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { !$0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted()
    /// The recordings of touch devices: every fixture but the mice (`mouse-…`,
    /// `synthetic-mouse-…`) and the pens.
    package static let touch: [String] = all.filter { !mice.contains($0) && !pens.contains($0) }
    /// The recordings of pens (`pen-…`): tablet tools on a screen or a tablet.
    package static let pens: [String] = all.filter { $0.hasPrefix("pen-") }
    /// The recordings of mice and pointing sticks.
    package static let mice: [String] = all.filter { $0.hasPrefix("mouse-") || $0.hasPrefix("synthetic-mouse-") }
    /// The recordings of touchpads (`tp-…`, `synthetic-tp-…`): pointers, whose contacts never
    /// become touches.
    package static let touchpads: [String] = all.filter { $0.hasPrefix("tp-") || $0.hasPrefix("synthetic-tp-") }
    /// The recordings of touchscreens.
    package static let touchscreens: [String] = touch.filter { !touchpads.contains($0) }
}
