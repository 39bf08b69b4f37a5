import Foundation
import Testing
import GestureKit
import GestureTraces
import GestureReplay

/// Kiosk screens: edge swipes on a screen of known size. The recordings are synthetic
/// (scripts/make-synthetic-kiosk.py: the Dell Canvas 27's real description, generated
/// events), labelled so in their names.
@Suite("Kiosks")
struct KioskTests {
    static let edgeScene = """
        {"screen": [1920, 1080], "recognizers": [
          {"id": "edgePan", "kind": "screenEdgePan", "view": "root", "edges": ["left", "right", "top", "bottom"]},
          {"id": "pan", "kind": "pan", "view": "root", "requireToFail": ["edgePan"]}]}
        """
    static let panOnly = """
        {"screen": [1920, 1080], "recognizers": [{"id": "pan", "kind": "pan", "view": "root"}]}
        """

    @Test("a synthetic edge swipe from each edge begins the edge pan and not the plain pan",
          arguments: ["left", "right", "top", "bottom"])
    func edgeSwipe(_ edge: String) throws {
        let r = try Replayed("synthetic-ts-dell-canvas27-edge-swipe-\(edge)-1f.evemu", scene: scene(Self.edgeScene))
        #expect(r.count("edgePan", .began) == 1, "expected the swipe in from the \(edge) edge to begin the edge pan")
        #expect(r.count("edgePan", .ended) == 1, "expected the edge pan to end at the lift")
        #expect(r.count("pan", .began) == 0, "expected the plain pan not to begin: it requires the edge pan to fail")
        #expect(r.last("pan", .failed)?.reason == "edgePan recognized first")
    }

    @Test("a synthetic swipe that starts 20 mm in fails the edge pan at touch-down, and the plain pan begins as if alone")
    func twentyMillimetresIn() throws {
        let fixture = "synthetic-ts-dell-canvas27-swipe-20mm-in-1f.evemu"
        let r = try Replayed(fixture, scene: scene(Self.edgeScene))
        let failed = try #require(r.last("edgePan", .failed), "expected the edge pan to fail")
        #expect(failed.time == .zero, "expected the edge pan to fail at touch-down, not later")
        // "began D mm from the nearest edge > margin 5 mm", D about 20 (the screen's scale is the
        // mean of its two axes').
        let words = failed.reason.split(separator: " ")
        let distance = words.count > 2 ? Double(words[1]) : nil
        #expect(words.count == 11 && words[2] == "mm" && failed.reason.hasSuffix("> margin 5 mm"), "got \(failed.reason)")
        #expect(distance.map { abs($0 - 20) < 0.2 } == true, "expected the touch about 20 mm from the edge, got \(failed.reason)")
        #expect(r.count("edgePan", .began) == 0)
        let alone = try Replayed(fixture, scene: scene(Self.panOnly))
        #expect(r.count("pan", .began) == 1, "expected the plain pan to begin")
        #expect(r.times("pan", .began) == alone.times("pan", .began),
                "expected the plain pan to begin when a pan alone does (no wait for the edge pan)")
        #expect(!r.records.contains { if case let .waiting(_, id, _) = $0 { id == "pan" } else { false } },
                "expected the plain pan never to wait")
    }

    @Test("a screenEdgePan without edges, or with an unknown one, is refused naming the key")
    func sceneErrors() throws {
        #expect(throws: SceneError.self) {
            try scene(#"{"recognizers": [{"id": "e", "kind": "screenEdgePan", "view": "root"}]}"#)
        }
        do {
            _ = try scene(#"{"recognizers": [{"id": "e", "kind": "screenEdgePan", "view": "root", "edges": ["middle"]}]}"#)
            Issue.record("expected an unknown edge to be refused")
        } catch let error as SceneError {
            #expect(error.path == #"recognizers[0] ("e").edges[0]"#)
        }
        let s = try scene(#"{"recognizers": [{"id": "e", "kind": "screenEdgePan", "view": "root", "edges": "left", "marginMillimetres": 8}]}"#)
        #expect(s.recognizers[0].edges == .left)
        #expect(s.recognizers[0].parameters["marginMillimetres"] == 8)
        #expect(s.recognizers[0].allowedTouchTypes == .direct, "expected direct touches only, as UIKit's edge pan")
    }

    @Test("the scene's input key rotates the synthetic rotated taps back to where they were touched (built-in decoder)",
          arguments: [0, 90, 180, 270])
    func sceneRotation(_ degrees: Int) throws {
        let s = try scene(#"{"input": {"rotate": \#(degrees)}, "recognizers": [{"id": "tap", "kind": "tap", "view": "root"}]}"#)
        let r = try Replayed("synthetic-ts-wacom-tap-rotated-\(degrees)-1f.evemu", scene: s)
        let tap = try #require(r.last("tap", .ended), "expected the tap recognized")
        // 25 % across and 30 % down of the 1000-pt screen, within a device unit.
        #expect(abs(tap.location.x - 250) < 0.5 && abs(tap.location.y - 300) < 0.7,
                "expected the tap at (250, 300), got \(tap.location)")
    }

    @Test("the scene's input key is checked key by key")
    func inputErrors() throws {
        let s = try scene(#"{"input": {"rotate": 270, "calibration": [1, 0, 0, 0, 1, 0], "region": [0, 0, 500, 500]}}"#)
        #expect(s.input == TouchMapping(rotation: 270, calibration: [1, 0, 0, 0, 1, 0], region: Rect(x: 0, y: 0, width: 500, height: 500)))
        #expect(try scene(#"{"input": {"touchpadTapping": true}}"#).input.touchpadTapping == true, "touchpads tap")
        #expect(try scene(#"{"input": {"touchpadTapping": false}}"#).input.touchpadTapping == false, "touchpads do not tap")
        #expect(s.input.touchpadTapping == nil, "left out: libinput's default for each pad")
        for (json, path) in [(#"{"input": {"rotate": 45}}"#, "input.rotate"), (#"{"input": {"calibration": [1, 0]}}"#, "input.calibration"),
                             (#"{"input": {"region": [0, 0, 0, 10]}}"#, "input.region"), (#"{"input": {"flip": true}}"#, "input.flip"),
                             (#"{"input": {"touchpadTapping": "on"}}"#, "input.touchpadTapping")] {
            do {
                _ = try scene(json)
                Issue.record("expected \(json) to be refused")
            } catch let error as SceneError {
                #expect(error.path == path, "expected the error at \(path), got \(error)")
            }
        }
    }
}
