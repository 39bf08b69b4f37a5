import Foundation
import GestureInput
import GestureKit
import GestureRecording
import GestureTestSupport
import GestureTesting
import GestureTestingTraces
import GestureTraces
import Testing

/// What a recording leaves out (docs/RECORDING.md, "Before you attach a recording"): touches on
/// the views an app marks private, fine positions, a pen's force and tilt, devices' names.
@Suite("Recording privacy: private views, coarse positions, no pen force, devices by kind")
struct RecordingPrivacyTests {
    /// An app: a PIN pad (with a key in it) and a canvas beside it, each with a tap and a pan.
    final class App {
        let engine = GestureEngine()
        let root = View(id: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let pad = View(id: "pad", frame: Rect(x: 100, y: 100, width: 200, height: 300))
        let key = View(id: "key", frame: Rect(x: 10, y: 10, width: 60, height: 60))
        let canvas = View(id: "canvas", frame: Rect(x: 400, y: 100, width: 300, height: 300))
        let padTap = TapGestureRecognizer(name: "padTap"), padPan = PanGestureRecognizer(name: "padPan")
        let canvasTap = TapGestureRecognizer(name: "canvasTap"), canvasPan = PanGestureRecognizer(name: "canvasPan")

        init() {
            engine.addRoot(root)
            root.addSubview(pad)
            pad.addSubview(key)
            root.addSubview(canvas)
            pad.addGestureRecognizer(padTap)
            pad.addGestureRecognizer(padPan)
            canvas.addGestureRecognizer(canvasTap)
            canvas.addGestureRecognizer(canvasPan)
        }
    }

    static let touchscreen = InputDeviceID(1)
    static func frame(_ ms: Int, _ changes: [(Int, TouchPhase, Double, Double)], device: InputDeviceID = touchscreen) -> InputEvent {
        .touchFrame(TouchFrame(time: Instant(nanoseconds: Int64(ms) * 1_000_000), device: device,
                               changes: changes.map { TouchChange(sourceID: $0.0, phase: $0.1, location: Point(x: $0.2, y: $0.3)) }))
    }

    /// A tap on the pad's key, a drag across the pad, a tap on the canvas, a tap on the pad
    /// with a tap on the canvas in the same frames, then a drag on the canvas.
    static let input: [InputEvent] = [
        .deviceAdded(InputDeviceInfo(id: touchscreen, name: "Alice's ELAN touchscreen", systemName: "event7", kind: .touchscreen,
                                     capabilities: [.touch], sizeMillimetres: nil)),
        frame(0, [(1, .began, 140.5, 140.25)]),
        frame(80, [(1, .ended, 141.5, 140.75)]),
        frame(1000, [(2, .began, 150, 300)]),
        frame(1050, [(2, .moved, 190, 310)]),
        frame(1100, [(2, .moved, 240, 320)]),
        frame(1150, [(2, .ended, 260, 330)]),
        frame(1500, [(3, .began, 500.3, 200.7)]),
        frame(1550, [(3, .ended, 500.3, 200.7)]),
        frame(2000, [(4, .began, 420.4, 150.6)]),
        frame(2050, [(4, .moved, 470.4, 170.6)]),
        frame(2100, [(4, .moved, 530.4, 190.6)]),
        frame(2150, [(4, .ended, 560.4, 200.6)]),
    ]

    /// Records `input` through a GestureRecorder with `privacy` (the pad marked private when
    /// `padPrivate`), returning the app (which received everything) and the file's touch changes.
    static func record(_ privacy: RecordingPrivacy, padPrivate: Bool = true) throws -> (App, [TouchChange], String) {
        let app = App()
        let path = scratchRecording("private")
        defer { unlink(path) }
        let recorder = try GestureRecorder(recordingTo: path, source: .app, screen: Size(width: 800, height: 600),
                                           privacy: privacy, passingTo: app.engine)
        if padPrivate { recorder.markPrivate(app.pad) }
        for event in input { recorder.handle(event) }
        recorder.finish()
        var changes: [TouchChange] = []
        try TraceReader(path: path).run { if case let .touchFrame(f) = $0 { changes += f.changes } }
        return (app, changes, try String(contentsOfFile: path, encoding: .utf8))
    }

    @Test("Touches that begin on a private view (or a view in it) are recorded at its centre, every change; the others exactly")
    func privateCentred() throws {
        let (app, changes, _) = try Self.record(RecordingPrivacy())
        let centre = Point(x: 200, y: 250)
        #expect(changes.filter { $0.sourceID == 1 || $0.sourceID == 2 }.allSatisfy { $0.location == centre },
                "the tap on the pad's key and the drag on the pad are at the pad's centre: \(changes)")
        #expect(changes.filter { $0.sourceID == 3 || $0.sourceID == 4 }.map(\.location)
                == [Point(x: 500.3, y: 200.7), Point(x: 500.3, y: 200.7), Point(x: 420.4, y: 150.6), Point(x: 470.4, y: 170.6),
                    Point(x: 530.4, y: 190.6), Point(x: 560.4, y: 200.6)], "the canvas's touches are exact")
        #expect(app.padPan.state == .possible && app.canvasPan.state == .possible, "the app received everything")
    }

    @Test("Replayed, a private tap is a tap on the private view and a private drag is not a pan; gestures elsewhere are as live")
    func privateReplay() throws {
        let live = App()
        let liveTester = GestureTester(engine: live.engine)
        for event in Self.input { live.engine.send(event) }
        live.engine.finish()
        let path = scratchRecording("private-replay")
        defer { unlink(path) }
        let app = App()
        let recorder = try GestureRecorder(recordingTo: path, source: .app, screen: Size(width: 800, height: 600), passingTo: app.engine)
        recorder.markPrivate(app.pad)
        for event in Self.input { recorder.handle(event) }
        recorder.finish()
        let replayed = App()
        let tester = GestureTester(engine: replayed.engine)
        try tester.replay(recording: path)
        func recognized(_ t: GestureTester, _ name: String) -> Bool {
            t.account.contains("\(name): possible → ended") || t.account.contains("\(name): possible → began")
        }
        #expect(recognized(liveTester, "padTap") && recognized(tester, "padTap"), "the tap on the pad is a tap, live and replayed")
        #expect(recognized(liveTester, "padPan") && !recognized(tester, "padPan"), "the drag on the pad is a pan live, not replayed")
        for name in ["canvasTap", "canvasPan"] {
            #expect(recognized(liveTester, name) && recognized(tester, name), "\(name) as live")
        }
    }

    @Test("Dropped: touches on a private view are not recorded; a frame with another touch keeps only that one")
    func privateDropped() throws {
        let (_, changes, _) = try Self.record(RecordingPrivacy(privateTouches: .dropped))
        #expect(Set(changes.map(\.sourceID)) == [3, 4], "\(changes)")
        #expect(changes.count == 6)
        let app = App()
        var privacy = RecordingPrivacy(privateTouches: .dropped)
        privacy.markPrivate(app.pad)
        let filter = PrivacyFilter(privacy)
        #expect(filter.filter(Self.frame(0, [(7, .began, 140, 140), (8, .began, 500, 200)])) == Self.frame(0, [(8, .began, 500, 200)]))
        #expect(filter.filter(Self.frame(10, [(7, .moved, 150, 150)])) == nil, "a frame of only private touches is no line")
    }

    @Test("A private view that is hidden, or covered by a view in front of it, keeps no touch private")
    func privateOnlyWhereTheViewTakesTheTouch() throws {
        let app = App()
        var privacy = RecordingPrivacy()
        privacy.markPrivate(app.pad)
        let filter = PrivacyFilter(privacy)
        let tap = Self.frame(0, [(9, .began, 140, 140)])
        #expect(filter.filter(tap) != tap, "on the pad: private")
        app.pad.isHidden = true
        #expect(filter.filter(Self.frame(0, [(10, .began, 140, 140)])) == Self.frame(0, [(10, .began, 140, 140)]), "hidden: not private")
        app.pad.isHidden = false
        let cover = View(id: "cover", frame: Rect(x: 100, y: 100, width: 100, height: 100))
        app.root.addSubview(cover)
        #expect(filter.filter(Self.frame(0, [(11, .began, 140, 140)])) == Self.frame(0, [(11, .began, 140, 140)]), "covered: not private")
    }

    @Test("Coarse positions: every location on a grid of the given points; movements (a scroll's delta) kept")
    func coarse() throws {
        let (_, changes, _) = try Self.record(RecordingPrivacy(positionGrid: 20), padPrivate: false)
        #expect(changes.allSatisfy { $0.location.x.truncatingRemainder(dividingBy: 20) == 0 && $0.location.y.truncatingRemainder(dividingBy: 20) == 0 },
                "\(changes.map(\.location))")
        #expect(changes.first?.location == Point(x: 140, y: 140))
        let filter = PrivacyFilter(RecordingPrivacy(positionGrid: 20))
        let scroll = InputEvent.pointer(.scroll(Point(x: 0, y: -13.5), .continuous, at: Point(x: 31, y: 49), time: .zero))
        guard case let .pointer(p)? = filter.filter(scroll) else { Issue.record("the scroll is kept"); return }
        #expect(p.location == Point(x: 40, y: 40) && p.delta == Point(x: 0, y: -13.5))
    }

    @Test("Without pen force and tilt: a touching pen has force 1 and a hovering one 0, upright, with no height; on a private view, too")
    func penForceDropped() throws {
        let pen = InputDeviceID(5)
        let sample = PenSample(force: 0.37, altitudeAngle: 0.9, azimuthAngle: 2.1, zOffset: 0.2, tool: .eraser)
        let events: [InputEvent] = [
            .pen(PenEvent(phase: .hover, time: .zero, device: pen, location: Point(x: 600, y: 300), sample: sample)),
            .pen(PenEvent(phase: .down, time: Instant(seconds: 0.1), device: pen, location: Point(x: 600, y: 300), sample: sample)),
            .touchFrame(TouchFrame(time: Instant(seconds: 0.1), device: pen, deviceKind: .pen,
                                   changes: [TouchChange(sourceID: 0, phase: .began, location: Point(x: 600, y: 300))], pen: sample)),
        ]
        let filter = PrivacyFilter(RecordingPrivacy(keepsPenForceAndTilt: false))
        let out = events.compactMap(filter.filter)
        let samples = out.compactMap { e -> PenSample? in
            switch e {
            case let .pen(p): p.sample
            case let .touchFrame(f): f.pen
            default: nil
            }
        }
        #expect(samples == [PenSample(force: 0, altitudeAngle: .pi / 2, azimuthAngle: 0, zOffset: nil, tool: .eraser),
                            PenSample(force: 1, altitudeAngle: .pi / 2, azimuthAngle: 0, zOffset: nil, tool: .eraser),
                            PenSample(force: 1, altitudeAngle: .pi / 2, azimuthAngle: 0, zOffset: nil, tool: .eraser)])
        // A signature on a private view: centred and at rest, even with force and tilt kept.
        let app = App()
        var privacy = RecordingPrivacy()
        privacy.markPrivate(app.canvas)
        let signature = PrivacyFilter(privacy)
        guard case let .pen(p)? = signature.filter(events[1]) else { Issue.record("the pen's down is kept"); return }
        #expect(p.location == Point(x: 550, y: 250) && p.sample.force == 1 && p.sample.altitudeAngle == .pi / 2)
    }

    @Test("Devices by kind: \"touchscreen 1\", \"touchpad 1\", \"touchscreen 2\", no system names, and their names taken out of notes")
    func devicesByKind() throws {
        let filter = PrivacyFilter(RecordingPrivacy(namesDevicesByKind: true))
        func added(_ id: Int, _ name: String, _ kind: InputDeviceKind?) -> InputEvent {
            .deviceAdded(InputDeviceInfo(id: InputDeviceID(id), name: name, systemName: "/dev/input/by-id/usb-\(name)", kind: kind,
                                         capabilities: kind == nil ? [.keyboard] : [.touch], sizeMillimetres: nil))
        }
        let names = [added(3, "Alice's ELAN", .touchscreen), added(4, "Alice's Magic Trackpad", .touchpad),
                     added(8, "Wacom", .touchscreen), added(9, "Alice's keyboard", nil)].compactMap { event -> String? in
            guard case let .deviceAdded(info)? = filter.filter(event) else { return nil }
            #expect(info.systemName == "")
            return info.name
        }
        #expect(names == ["touchscreen 1", "touchpad 1", "touchscreen 2", "keyboard 1"])
        let note = filter.filter(.note(time: .zero, device: InputDeviceID(4), "Alice's Magic Trackpad: palm detected"))
        #expect(note == .note(time: .zero, device: InputDeviceID(4), "touchpad 1: palm detected"))
    }

    @Test("gesturekit replay --record with --private-view, --coarsen, --devices-by-kind writes them so; an unknown view is an error")
    func throughTheTool() throws {
        let dir = NSTemporaryDirectory() + "gesturekit-privacy-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let trace = Fixtures.path("ts-wacom-isdv4-e6-double-tap-1f.evemu")
        let run = try runProcess(builtProduct("gesturekit"), ["replay", trace, "--record", dir + "/r.jsonl", "--coarsen", "25",
                                                             "--devices-by-kind", "--private-view", "root", "--private-touches", "dropped"])
        #expect(run.status == 0, "\(run.errors)")
        let text = try String(contentsOfFile: dir + "/r.jsonl", encoding: .utf8)
        #expect(text.contains("\"name\":\"touchscreen 1\",\"system\":\"\"") && !text.contains("\"e\":\"touch\""), "\(text)")
        let bad = try runProcess(builtProduct("gesturekit"), ["replay", trace, "--record", dir + "/s.jsonl", "--private-view", "nope"])
        #expect(bad.status == 2 && bad.errors.contains("--private-view: the scene has no view \"nope\""), "\(bad.errors)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/s.jsonl"))
    }
}
