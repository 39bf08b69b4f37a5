import Foundation
import GestureKit
import Testing
import GestureTestSupport

/// The pen recordings read by real libinput (its tablet tool events, under umockdev) and by
/// the built-in decoder (PenDecoder): the same pen lines and the same recognitions, as
/// REPLAY.md's "Pens" asks.
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct PenAgreementTests {
    typealias Line = LibinputRecognitionTests.Line

    static let pens: [String] = Fixtures.pens

    /// A canvas with what a drawing app puts on it: a tap and a double tap for the pen, a pan
    /// that draws, a hover that shows the brush, and a finger-only pan that must see nothing.
    static let scene = """
    { "screen": [1000, 600], "views": [ {"id": "canvas", "frame": [0, 0, 1000, 600]},
        {"id": "palette", "frame": [800, 0, 200, 600], "parent": "canvas"} ],
      "recognizers": [
        {"id": "tap", "kind": "tap", "view": "canvas", "allowedTouchTypes": ["pencil"], "requireToFail": ["doubleTap"]},
        {"id": "doubleTap", "kind": "tap", "view": "canvas", "taps": 2, "allowedTouchTypes": ["pencil"]},
        {"id": "draw", "kind": "pan", "view": "canvas", "allowedTouchTypes": ["pencil"]},
        {"id": "fingerPan", "kind": "pan", "view": "canvas", "allowedTouchTypes": ["direct"]},
        {"id": "brush", "kind": "hover", "view": "canvas"},
        {"id": "paletteHover", "kind": "hover", "view": "palette"} ],
      "simultaneous": [["draw", "brush"], ["tap", "draw"], ["doubleTap", "draw"]] }
    """

    static func replay(_ fixture: String, backend: String) throws -> [Line] {
        try PointerAgreementTests.replay(Fixtures.path(fixture), scene: scene, backend: backend)
    }

    static func number(_ line: Line, _ key: String) -> Double? { (line.object[key] as? NSNumber)?.doubleValue }

    @Test("every pen recording gives the same pen lines through libinput's tablet tool events and the built-in decoder (the same phases and tools in order, the same force, altitude, azimuth and zOffset, the location within 0.05 pt) and the same recognitions; a finger-only pan never sees the pen",
          arguments: pens)
    func agree(_ fixture: String) throws {
        let (throughLibinput, offBy) = try PointerAgreementTests.timedReplay(Fixtures.path(fixture), scene: Self.scene, backend: "libinput")
        let throughBuiltin = try Self.replay(fixture, backend: "builtin")
        // libinput's tablet code has timers of its own (a pen that sends no proximity out is
        // taken out of proximity after a pause): a reading whose input never kept the
        // recording's timing (`MockDeviceTiming`, every reading off by 30 ms or more) is not
        // compared with the decoder, and says so.
        guard offBy < MockDeviceTiming.tolerance else {
            print("*** \(fixture): libinput's input was \(Int((offBy * 1000).rounded())) ms off the recording's timing in every reading: not compared with the built-in decoder ***")
            #expect(!throughBuiltin.filter { $0.type == "pen" }.isEmpty, "\(fixture) is a pen recording: expected pen lines")
            return
        }
        samePenLines(throughLibinput.filter { $0.type == "pen" }, throughBuiltin.filter { $0.type == "pen" }, fixture)
        sameRecognitions(throughLibinput, throughBuiltin)
    }

    func samePenLines(_ libinput: [Line], _ builtin: [Line], _ fixture: String) {
        #expect(!builtin.isEmpty, "\(fixture) is a pen recording: expected pen lines")
        #expect(libinput.map { "\($0.object["phase"]!) \($0.object["tool"]!)" } == builtin.map { "\($0.object["phase"]!) \($0.object["tool"]!)" },
                "expected the pen to hover, touch, move, lift and leave at the same frames through both")
        guard libinput.count == builtin.count else { return }
        var worst: [String: Double] = [:]
        for (a, b) in zip(libinput, builtin) {
            for key in ["force", "altitude", "azimuth", "zOffset"] {
                let x = Self.number(a, key), y = Self.number(b, key)
                #expect((x == nil) == (y == nil), "\(key) present in one and not the other at \(a.time) s")
                if let x, let y { worst[key] = max(worst[key] ?? 0, abs(x - y)) }
            }
            let la = a.object["location"] as? [NSNumber], lb = b.object["location"] as? [NSNumber]
            if let la, let lb {
                worst["location"] = max(worst["location"] ?? 0, abs(la[0].doubleValue - lb[0].doubleValue),
                                        abs(la[1].doubleValue - lb[1].doubleValue))
            }
        }
        for key in ["force", "altitude", "azimuth", "zOffset"] {
            #expect((worst[key] ?? 0) <= 1e-6, "\(key) should be libinput's to the printed digit; differs by up to \(worst[key] ?? 0)")
        }
        // libinput maps an axis onto [0, range) by dividing by range + 1, the decoder by the range.
        #expect((worst["location"] ?? 0) <= 0.05, "the pen's location within 0.05 pt of libinput's; differs by up to \(worst["location"] ?? 0) pt")
    }

    func sameRecognitions(_ libinput: [Line], _ builtin: [Line]) {
        let a = LibinputRecognitionTests.recognized(libinput), b = LibinputRecognitionTests.recognized(builtin)
        #expect(a == b, "expected the same recognitions: libinput \(a), built-in \(b)")
        #expect(!builtin.contains { $0.recognizer == "fingerPan" }, "a pan that allows only fingers ignores a pen's touches")
        #expect(builtin.contains { $0.recognizer == "brush" && $0.to == "began" }, "the pen's hover drives the hover recognizer")
    }
}
