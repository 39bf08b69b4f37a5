import Foundation
import Testing
import GestureTestSupport

/// The `gesturekit` tool as a user runs it: exit status 0 for good input, 2 with a message
/// naming the file, the line (or key) and what was expected for bad input, and nothing
/// printed as recognized.
@Suite("gesturekit replay and inspect")
struct ToolTests {
    static let header = """
    # EVEMU 1.3
    N: Test Touchscreen
    I: 0003 056a 00e6 0139
    P: 02 00 00 00 00 00 00 00
    B: 00 0b 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 04 00 00 00 00 00 00
    B: 03 03 00 00 00 00 80 e0 02
    A: 00 0 1000 0 0 10
    A: 01 0 1000 0 0 10
    A: 2f 0 1 0 0 0
    A: 35 0 1000 0 0 10
    A: 36 0 1000 0 0 10
    A: 39 0 65535 0 0 0

    """
    /// A tap that the default scene recognizes (after the double tap's interval), then
    /// whatever bad line a case appends.
    static let tap = """
    E: 0.000000 0003 0039 0001
    E: 0.000000 0003 0035 0500
    E: 0.000000 0003 0036 0500
    E: 0.000000 0001 014a 0001
    E: 0.000000 0000 0000 0000
    E: 0.050000 0003 0039 -001
    E: 0.050000 0001 014a 0000
    E: 0.050000 0000 0000 0000

    """

    struct Bad: CustomTestStringConvertible, Sendable {
        let name: String
        let content: [UInt8]
        let message: String
        var testDescription: String { name }
    }

    static let yaml = """
    version: 1
    ndevices: 1
    devices:
    - node: /dev/input/event5
      evdev:
        name: "Test Touchscreen"
        id: [3, 1386, 230, 313]
        codes:
          0: [0, 1, 2, 3]
          1: [330]
          3: [0, 1, 47, 53, 54, 57]
        absinfo:
          0: [0, 1000, 0, 0, 10]
          1: [0, 1000, 0, 0, 10]
          47: [0, 1, 0, 0, 0]
          53: [0, 1000, 0, 0, 10]
          54: [0, 1000, 0, 0, 10]
          57: [0, 65535, 0, 0, 0]
        properties: [1]
      events:
      - evdev:
        - [  0,      0,   3,  57,     1]
        - [  0,      0,   3,  53,   500]
        - [  0,      0,   0,   0]

    """

    static let cases: [Bad] = [
        Bad(name: "a truncated line", content: Array((header + tap + "E: 0.060000 0003 0035\n").utf8),
            message: "trace.evemu:27: expected 4 fields 'E: <sec>.<usec> <type> <code> <value>', found 3"),
        Bad(name: "bad hex", content: Array((header + tap + "E: 0.060000 00zz 0035 0001\n").utf8),
            message: "trace.evemu:27: bad hex '00zz' for the event type: expected hex digits such as '0003'"),
        Bad(name: "an unknown event type", content: Array((header + tap + "E: 0.060000 0042 0035 0001\n").utf8),
            message: "trace.evemu:27: unknown event type 0x0042: expected at most 0x1f (EV_MAX)"),
        Bad(name: "a YAML row with four numbers", content: Array(yaml.utf8),
            message: "trace.yml:24: expected 5 numbers '- [<sec>, <usec>, <type>, <code>, <value>]', found 4"),
        Bad(name: "an empty file", content: [], message: "trace.evemu: the file is empty: expected a trace (evemu, libinput record or debug-events)"),
        Bad(name: "a binary file", content: [0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0xff, 0xfe],
            message: "trace.evemu: the file is binary (it contains NUL bytes): expected a text trace"),
    ]

    @Test("a malformed trace: exit status 2, a message naming file, line and expectation, nothing recognized", arguments: cases)
    func malformed(_ c: Bad) throws {
        let name = c.name.contains("YAML") ? "trace.yml" : "trace.evemu"
        let file = try TempFile(bytes: c.content, name: name)
        defer { file.remove() }
        for json in [false, true] {
            let (status, out, err) = try runTool(["replay", file.path] + (json ? ["--json"] : []))
            #expect(status == 2)
            #expect(out.isEmpty, "nothing is printed as if it had been recognized: \(out)")
            let expected = "gesturekit: \(file.path)" + c.message.dropFirst(name.count) + "\n"
            #expect(err == expected)
        }
    }

    /// The replay reads the recording once and holds its output back until the end of the
    /// file; past 8 MiB the output is spooled to a temporary file. With the holding limit at
    /// one byte every line goes through the spool.
    @Test("output held back in a temporary file: a good replay prints exactly what it prints held in memory, and a malformed trace still prints nothing")
    func spooledOutput() throws {
        let spool = ["GESTUREKIT_HELD_OUTPUT_BYTES": "1"]
        let fixture = Fixtures.path("ts-dell-canvas27-hold2f-drag4f-pinch5f-swipe1f.evemu")
        let inMemory = try runTool(["replay", fixture, "--json"])
        let spooled = try runTool(["replay", fixture, "--json"], environment: spool)
        #expect(inMemory.status == 0 && spooled.status == 0, "both replays succeed: \(spooled.err)")
        #expect(inMemory.out.utf8.count > 30_000, "the recording prints plenty: \(inMemory.out.utf8.count) bytes")
        #expect(spooled.out == inMemory.out, "the spooled output is byte for byte the one held in memory")
        let bad = try TempFile(bytes: Self.cases[0].content, name: "trace.evemu")
        defer { bad.remove() }
        let (status, out, err) = try runTool(["replay", bad.path, "--json"], environment: spool)
        #expect(status == 2 && out.isEmpty, "a malformed trace prints nothing as if recognized, even spooled: \(out)")
        #expect(err.hasPrefix("gesturekit: \(bad.path):27: "), "and names where it is malformed: \(err)")
    }

    @Test("a bad scene: exit status 2 and the offending key")
    func badScene() throws {
        let sceneFile = try TempFile(#"{"recognizers": [{"id": "t", "kind": "tap", "view": "root", "taps": "two"}]}"#, name: "scene.json")
        defer { sceneFile.remove() }
        let (status, out, err) = try runTool(["replay", Fixtures.path("ts-wacom-isdv4-e6-tap-1f.evemu"), "--scene", sceneFile.path, "--json"])
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err == "gesturekit: \(sceneFile.path): recognizers[0] (\"t\").taps: expected a number, found a string\n")

        let broken = try TempFile("{\n\"screen\": [1, 2,]\n}", name: "broken.json")
        defer { broken.remove() }
        let (s2, _, e2) = try runTool(["replay", Fixtures.path("ts-wacom-isdv4-e6-tap-1f.evemu"), "--scene", broken.path])
        #expect(s2 == 2)
        #expect(e2 == "gesturekit: \(broken.path):2:17: expected a value, found ']'\n")
    }

    @Test("a good replay: exit status 0, JSON lines of the contract, and a picture")
    func goodReplay() throws {
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("gesturekit-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: svg) }
        let (status, out, err) = try runTool(["replay", Fixtures.path("ts-wacom-isdv4-e6-tap-1f.evemu"), "--json", "--svg", svg])
        #expect(status == 0, "stderr: \(err)")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"{"time":0.324011,"type":"state","recognizer":"single","from":"possible","to":"ended","location":[457.132565,452.517527],"reason":"1 tap of 1 touch completed"}"#),
                "the single tap, as a JSON line: \(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("{\"time\":") && $0.hasSuffix("}") })
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.hasPrefix("<svg") && picture.contains("single") && picture.contains("view root"))
    }

    @Test("the picture of a mouse recording shows the pointer's path, a ring for each click and an arrow for each wheel turn")
    func pointerPicture() throws {
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("gesturekit-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: svg) }
        let fixture = "synthetic-mouse-saitek-double-click.evemu"
        let (status, _, err) = try runTool(["replay", Fixtures.path(fixture), "--json", "--svg", svg])
        #expect(status == 0, "stderr: \(err)")
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.contains("<g id=\"pointer\">") && picture.contains("<polyline"), "the pointer's path is drawn")
        let rings = picture.components(separatedBy: "<title>click at").count - 1
        #expect(rings == 2, "the double click's two presses are drawn, found \(rings)")
        let wheel = FileManager.default.temporaryDirectory.appendingPathComponent("gesturekit-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: wheel) }
        _ = try runTool(["replay", Fixtures.path("synthetic-mouse-saitek-wheel.evemu"), "--json", "--svg", wheel])
        let arrows = try String(contentsOfFile: wheel, encoding: .utf8).components(separatedBy: "<title>scroll").count - 1
        #expect(arrows == 6, "six wheel detents, six arrows; found \(arrows)")
    }

    @Test("every fixture replays with exit status 0", arguments: Fixtures.all)
    func everyFixture(_ fixture: String) throws {
        let (status, out, err) = try runTool(["replay", Fixtures.path(fixture), "--json"])
        #expect(status == 0, "stderr: \(err)")
        #expect(!out.isEmpty || Fixtures.mice.contains(fixture) || Fixtures.touchpads.contains(fixture),
                "\(fixture) is a touchscreen recording, yet replaying it printed nothing")
    }

    @Test("inspect describes a recording")
    func inspect() throws {
        let (status, out, _) = try runTool(["inspect", Fixtures.path("ts-dell-canvas27-hold2f-drag4f-pinch5f-swipe1f.evemu")])
        #expect(status == 0)
        #expect(out.contains("touchscreen") && out.contains("595") && out.contains("5363"), "\(out)")
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        return components(separatedBy: target).joined(separator: replacement)
    }
}
