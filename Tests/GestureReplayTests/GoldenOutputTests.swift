import Foundation
import GestureKit
import GestureReplay
import Testing
import GestureTestSupport

/// The replay contract's output, kept byte for byte: every fixture through the default scene
/// and the scenes in Tests/Golden/scenes (REPLAY.md's example, every kind with a layout, a
/// tree of views with every delivery flag, a collection layout that selects and reorders).
/// Tests/Golden/outputs holds what `gesturekit replay FIXTURE [--scene S] --json` printed;
/// any change to the engine that changes a byte of it shows here, with the first line that
/// differs.
///
/// A change of behaviour that is meant (a UIKit rule corrected) rewrites the kept output with
/// `GESTUREKIT_UPDATE_GOLDEN=1 swift test --filter GoldenOutputTests`, and the commit says
/// which outputs changed and why.
@Suite struct GoldenOutputTests {
    static let directory = packageRoot.appendingPathComponent("Tests/Golden")

    static let scenes: [String] = ["default"] + ((try? FileManager.default.contentsOfDirectory(
        atPath: directory.appendingPathComponent("scenes").path)) ?? [])
        .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()

    static func keptPath(_ fixture: String, _ scene: String) -> String {
        directory.appendingPathComponent("outputs/\(fixture).\(scene).jsonl").path
    }

    static func replay(_ fixture: String, _ sceneName: String) throws -> String {
        let scene: Scene
        if sceneName == "default" {
            scene = .defaultScene()
        } else {
            let path = directory.appendingPathComponent("scenes/\(sceneName).json").path
            scene = try Scene.parse(JSONParser.parse(String(contentsOfFile: path, encoding: .utf8)))
        }
        return try Replayed(fixture, scene: scene).jsonLines.map { $0 + "\n" }.joined()
    }

    @Test("the scenes to compare are all there", .tags(.golden))
    func scenesPresent() {
        #expect(Self.scenes.count == 5, "expected the default scene and four scene files, found \(Self.scenes)")
        #expect(Fixtures.all.count >= 20, "expected every fixture, found \(Fixtures.all.count)")
    }

    @Test("replay --json prints exactly the output kept for this fixture and scene", .tags(.golden),
          arguments: Fixtures.all, scenes)
    func sameOutput(fixture: String, scene: String) throws {
        let output = try Self.replay(fixture, scene)
        let path = Self.keptPath(fixture, scene)
        if ProcessInfo.processInfo.environment["GESTUREKIT_UPDATE_GOLDEN"] == "1" {
            try output.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let kept = try String(contentsOfFile: path, encoding: .utf8)
        guard output != kept else { return }
        let a = kept.split(separator: "\n", omittingEmptySubsequences: false)
        let b = output.split(separator: "\n", omittingEmptySubsequences: false)
        let first = Array(zip(a, b)).firstIndex { $0 != $1 } ?? min(a.count, b.count)
        Issue.record("""
            \(fixture) through the \(scene) scene: the replay's output changed at line \(first + 1) \
            (kept \(a.count) lines, now \(b.count))
              kept: \(first < a.count ? String(a[first]) : "(end)")
              now:  \(first < b.count ? String(b[first]) : "(end)")
            """)
    }

    @Test("the tool prints the same bytes as the library", .tags(.golden))
    func toolPrintsTheSame() throws {
        let fixture = "ts-wacom-isdv4-e6-double-tap-1f.evemu"
        let scenePath = Self.directory.appendingPathComponent("scenes/delivery.json").path
        let run = try runTool(["replay", Fixtures.path(fixture), "--scene", scenePath, "--json"])
        #expect(run.status == 0)
        #expect(run.out == (try String(contentsOfFile: Self.keptPath(fixture, "delivery"), encoding: .utf8)),
                "expected gesturekit replay --json to print the kept output byte for byte")
    }
}

extension Tag {
    @Tag static var golden: Self
}
