import Foundation
import GestureKit
import Testing
import GestureTraces
import GestureTestSupport

/// A small valid evemu header (single-touch-free Wacom-like touchscreen with 2 slots).
let evemuHeader = """
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

let yamlHeader = """
# libinput record
version: 1
ndevices: 1
libinput:
  version: "1.25.0"
devices:
- node: /dev/input/event5
  evdev:
    name: "Test Touchscreen"
    id: [3, 1386, 230, 313]
    codes:
      0: [0, 1, 2, 3] # EV_SYN
      1: [330] # EV_KEY
      3: [0, 1, 47, 53, 54, 57] # EV_ABS
    absinfo:
      0: [0, 1000, 0, 0, 10]
      1: [0, 1000, 0, 0, 10]
      47: [0, 1, 0, 0, 0]
      53: [0, 1000, 0, 0, 10]
      54: [0, 1000, 0, 0, 10]
      57: [0, 65535, 0, 0, 0]
    properties: [1]
  events:

"""

@Suite("Malformed traces are rejected with file, line and expectation")
struct ErrorTests {
    /// The error reading `content` produces (nil when there is none).
    func error(for content: String, name: String = "trace.evemu") throws -> TraceError? {
        let file = try TempFile(content, name: name)
        defer { file.remove() }
        return TraceError.catching { try decodeAll(file.path) }
    }

    func expectError(_ content: String, line: Int, kind: TraceError.Kind, contains text: String,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = try TempFile(content, name: "trace.txt")
        defer { file.remove() }
        let e = TraceError.catching { try decodeAll(file.path) }
        #expect(e != nil, "expected the trace to be rejected with \(quoted(text))", sourceLocation: sourceLocation)
        guard let e else { return }
        #expect(e.kind == kind, "expected a \(kind) error, got \(e.kind): \(e)", sourceLocation: sourceLocation)
        #expect(e.line == line, "expected the error on line \(line), got \(e.line): \(e)", sourceLocation: sourceLocation)
        let prefix = line > 0 ? "\(file.path):\(line): " : "\(file.path): "
        #expect(e.description.hasPrefix(prefix), "the message should start with 'file:line: ', got \(e)", sourceLocation: sourceLocation)
        #expect(e.message.contains(text), "the message should say \(quoted(text)), got \(e)", sourceLocation: sourceLocation)
    }

    var headerLines: Int { evemuHeader.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }

    @Test("an evemu event line with 3 fields")
    func truncatedEvemuLine() throws {
        try expectError(evemuHeader + "E: 0.000000 0003 0039 1\nE: 0.000001 0003 0035\n", line: headerLines + 2,
                        kind: .malformedLine, contains: "expected 4 fields 'E: <sec>.<usec> <type> <code> <value>', found 3")
    }

    @Test("an evemu line cut off at the end of the file (no newline)")
    func truncatedAtEOF() throws {
        try expectError(evemuHeader + "E: 0.000000 0003 0039 1\nE: 0.0000", line: headerLines + 2,
                        kind: .malformedLine, contains: "expected 4 fields")
    }

    @Test("bad hex in an evemu event type")
    func badHex() throws {
        try expectError(evemuHeader + "E: 0.000000 00zz 0039 1\n", line: headerLines + 1,
                        kind: .malformedLine, contains: "bad hex '00zz' for the event type")
        try expectError(evemuHeader + "E: 0.000000 0003 00g9 1\n", line: headerLines + 1,
                        kind: .malformedLine, contains: "bad hex '00g9' for the event code")
    }

    @Test("bad hex in the description")
    func badHexDescription() throws {
        try expectError("# EVEMU 1.3\nN: x\nI: 0003 05zz 00e6 0139\n", line: 3,
                        kind: .malformedLine, contains: "expected 4 hex numbers 'I: <bus> <vendor> <product> <version>'")
        try expectError("# EVEMU 1.3\nN: x\nB: 03 0x 00\n", line: 3, kind: .malformedLine, contains: "bad hex in 'B: <type> <byte> ...'")
    }

    @Test("an event type above EV_MAX")
    func unknownType() throws {
        try expectError(evemuHeader + "E: 0.000000 0020 0000 0\n", line: headerLines + 1,
                        kind: .outOfRange, contains: "unknown event type 0x0020: expected at most 0x1f (EV_MAX)")
        try expectError(yamlHeader + "  - evdev:\n    - [0, 0, 32, 0, 0]\n", line: 25,
                        kind: .outOfRange, contains: "unknown event type 32: expected at most 31 (EV_MAX)")
    }

    @Test("an evemu time that is not <sec>.<usec>, and a value beyond 32 bits")
    func badTimeAndValue() throws {
        try expectError(evemuHeader + "E: 0,5 0003 0039 1\n", line: headerLines + 1, kind: .malformedLine, contains: "expected a time '<sec>.<usec>'")
        try expectError(evemuHeader + "E: 0.000000 0003 0039 99999999999\n", line: headerLines + 1, kind: .outOfRange, contains: "does not fit in 32 bits")
    }

    @Test("a YAML event row with four numbers")
    func yamlFourNumbers() throws {
        try expectError(yamlHeader + "  - evdev:\n    - [0, 0, 3, 57, 1]\n    - [0, 0, 0, 0]\n", line: 26,
                        kind: .malformedLine, contains: "expected 5 numbers '- [<sec>, <usec>, <type>, <code>, <value>]', found 4")
    }

    @Test("a YAML event row without its closing bracket, and a bad number")
    func yamlTruncated() throws {
        try expectError(yamlHeader + "  - evdev:\n    - [0, 0, 3, 57\n", line: 25,
                        kind: .malformedLine, contains: "expected ']' closing the event row")
        try expectError(yamlHeader + "  - evdev:\n    - [0, 0, 3, x, 1]\n", line: 25,
                        kind: .malformedLine, contains: "expected a decimal event code, found 'x'")
    }

    @Test("an empty file, and one with only blank lines")
    func empty() throws {
        try expectError("", line: 0, kind: .empty, contains: "the file is empty")
        try expectError("\n\n  \n", line: 0, kind: .empty, contains: "the file is empty")
    }

    @Test("a binary file")
    func binary() throws {
        let file = try TempFile(bytes: [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00] + Array(repeating: 0, count: 100))
        defer { file.remove() }
        let e = TraceError.catching { try decodeAll(file.path) }
        #expect(e?.kind == .binary, "an ELF file is rejected as binary, got \(String(describing: e))")
        #expect(e?.description == "\(file.path): the file is binary (it contains NUL bytes): expected a text trace")
        let control = try TempFile(bytes: Array(repeating: 0x01, count: 64) + Array("abc\n".utf8))
        defer { control.remove() }
        #expect(TraceError.catching { try decodeAll(control.path) }?.kind == .binary, "control bytes make a file binary")
    }

    @Test("a missing device description")
    func missingDescription() throws {
        try expectError("# EVEMU 1.3\nE: 0.000000 0003 0039 1\n", line: 2, kind: .missingDescription,
                        contains: "expected a device description (N:, I:, B:, A: lines) before the first event")
        try expectError("# EVEMU 1.3\n# nothing else\n", line: 2, kind: .missingDescription, contains: "expected a device description")
        try expectError("version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event1\n  events:\n  - evdev:\n    - [0, 0, 0, 0, 0]\n",
                        line: 4, kind: .missingDescription, contains: "expected an 'evdev:' block")
        try expectError("version: 1\nndevices: 0\n", line: 2, kind: .missingDescription, contains: "expected 'devices:' with at least one device")
    }

    @Test("an unknown format and an unsupported YAML version")
    func unknownFormat() throws {
        try expectError("hello world\n", line: 1, kind: .unknownFormat, contains: "expected '# EVEMU 1.x' (evemu), 'version: 1' (libinput record)")
        try expectError("version: 2\nndevices: 1\n", line: 1, kind: .unsupported, contains: "expected 'version: 1'")
    }

    @Test("a garbage line among evemu events")
    func garbageLine() throws {
        try expectError(evemuHeader + "E: 0.000000 0003 0039 1\nhello\n", line: headerLines + 2,
                        kind: .malformedLine, contains: "expected an event line 'E: <sec>.<usec> <type> <code> <value>', found 'hello'")
    }

    @Test("malformed debug-events lines")
    func debugEvents() throws {
        try expectError(" event4   TOUCH_DOWN   +0.000s\t0 (0) 58.64/44.04 (148.16/73.74mm)\n event4   TOUCH_DOWN   +0.010s\t1 (1) 58.64\n", line: 2,
                        kind: .malformedLine, contains: "expected '<slot> (<seat slot>) <x>/<y> (<x>/<y>mm)' after the time")
        try expectError(" event4   TOUCH_FRAME   soon\n", line: 1, kind: .malformedLine, contains: "expected a time such as '+0.079s'")
        try expectError(" event7   GESTURE_PINCH_UPDATE  +0.100s\t2  1.00/ 2.00 ( 1.00/ 2.00 unaccelerated)\n", line: 1,
                        kind: .malformedLine, contains: "<scale> @ <angle>")
    }

    @Test("a nonexistent file")
    func missingFile() throws {
        let e = TraceError.catching { _ = try TraceReader(path: "/nonexistent/trace.evemu") }
        #expect(e?.kind == .unreadable && e?.description.hasPrefix("/nonexistent/trace.evemu: cannot open the file") == true,
                "a missing file is reported by name, got \(String(describing: e))")
    }

    @Test("a line longer than 1 MiB")
    func longLine() throws {
        try expectError(evemuHeader + "# " + String(repeating: "x", count: 1 << 20) + "\n", line: headerLines + 1,
                        kind: .lineTooLong, contains: "expected a line shorter than")
    }

    @Test("random bytes never crash or hang", arguments: 0..<40)
    func fuzz(_ seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15)
        // Mutate a valid trace: flip, insert and delete bytes.
        let base = Array((seed % 2 == 0 ? evemuHeader + "E: 0.000000 0003 0039 1\nE: 0.000000 0003 0035 10\nE: 0.000000 0000 0000 0\nE: 0.010000 0003 0039 -1\nE: 0.010000 0000 0000 0\n"
                          : yamlHeader + "  - evdev:\n    - [0, 0, 3, 57, 1]\n    - [0, 0, 0, 0, 0]\n  - evdev:\n    - [0, 10, 3, 57, -1]\n    - [0, 10, 0, 0, 0]\n").utf8)
        var bytes = base
        for _ in 0..<(1 + seed % 8) {
            let i = Int(rng.next() % UInt64(max(bytes.count, 1)))
            switch rng.next() % 3 {
            case 0: if i < bytes.count { bytes[i] = UInt8(truncatingIfNeeded: rng.next() % 128) }
            case 1: bytes.insert(UInt8(truncatingIfNeeded: 0x20 + rng.next() % 90), at: min(i, bytes.count))
            default: if i < bytes.count { bytes.remove(at: i) }
            }
        }
        let file = try TempFile(bytes: bytes)
        defer { file.remove() }
        do { try decodeAll(file.path); _ = try TraceSummary(path: file.path) } catch let e as TraceError {
            #expect(!e.message.isEmpty, "a rejected trace says why")
        }
    }
}
