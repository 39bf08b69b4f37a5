import Foundation
import Testing
import GestureTestSupport

/// Runs the built `photowall` tool; returns its exit status, standard output and error.
func runPhotoWall(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let r = try runProcess(builtProduct("photowall"), arguments)
    return (r.status, r.output, r.errors)
}

func scratchDirectory(_ name: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory
        .appendingPathComponent("photowall-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
    try? FileManager.default.removeItem(at: dir)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.path
}

/// `photowall` as a person runs it: PNG frames of a replay, and exit status 2 with a
/// message for bad input.
@Suite("photowall tool")
struct PhotoWallToolTests {
    /// PNG files start with these 8 bytes; width and height follow in the IHDR chunk.
    static func pngSize(_ path: String) -> (Int, Int)? {
        guard let data = FileManager.default.contents(atPath: path), data.count > 24,
              Array(data.prefix(8)) == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] else { return nil }
        func be32(_ i: Int) -> Int { data[i...(i + 3)].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    @Test("--replay --frames writes a PNG per recognized gesture and of the last frame")
    func framesOfAReplay() throws {
        let dir = try scratchDirectory("frames")
        let r = try runPhotoWall(["--replay", Traces.longPressDrag, "--frames", dir])
        #expect(r.status == 0, "\(r.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files == ["01-pickedUp.png", "02-reordered.png", "last.png"])
        for f in files { #expect(Self.pngSize("\(dir)/\(f)")! == (1280, 800)) }
        #expect(r.out.contains("longPress: picked up"))
        #expect(r.out.contains("longPress: moved"))
    }

    @Test("--frame-at writes a picture of the wall mid-fling: the replay runs the display link's frames on virtual time")
    func frameMidFling() throws {
        let dir = try scratchDirectory("fling")
        let r = try runPhotoWall(["--replay", Traces.fixture("synthetic-ts-wacom-flick-up-1f.evemu"), "--frames", dir,
                                  "--frame-at", "0.25"])
        #expect(r.status == 0, "\(r.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files == ["01-scrolled.png", "02-cameToRest.png", "at-0.250s.png", "last.png"])
        #expect(Self.pngSize("\(dir)/at-0.250s.png")! == (1280, 800))
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("pan: let go at") == true, "\(r.out)")
        #expect(lines.contains { $0.hasPrefix("0.250 s  frame: decelerating at ") }, "mid-fling at 0.25 s: \(r.out)")
        #expect(lines.contains { $0.contains("scroll: came to rest at 1040 pt") }, "the fling runs to the bottom: \(r.out)")
        // Without --frames there is nowhere to write it.
        let bad = try runPhotoWall(["--replay", Traces.tap, "--frame-at", "0.3"])
        #expect(bad.status == 2 && bad.err.contains("--frame-at needs --frames"))
    }

    @Test("--screen sets the size of the wall and of its frames")
    func screenSize() throws {
        let dir = try scratchDirectory("screen")
        let r = try runPhotoWall(["--replay", Traces.tap, "--frames", dir, "--screen", "960x600"])
        #expect(r.status == 0, "\(r.err)")
        #expect(Self.pngSize("\(dir)/last.png")! == (960, 600))
    }

    @Test("bad input stops with exit status 2 and says what is wrong", arguments: [
        (["--replay", "/nonexistent.evemu"], "/nonexistent.evemu"),
        (["--replay", "Package.swift"], "Package.swift:1"),
        (["--replay", "Fixtures/ts-wacom-isdv4-e6-tap-1f.evemu", "--screen", "wide"], "--screen"),
        (["--replay", "Fixtures/ts-surface-pro3-pinch-out-3f.debug-events.txt", "--backend", "libinput"], "debug-events"),
        (["--replay", "Fixtures/ts-wacom-isdv4-e6-tap-1f.evemu", "--device", "/dev/input/event0"], "--device"),
        (["--headless", "--device", "/nonexistent-device", "--duration", "0.1"], "/nonexistent-device"),
    ])
    func badInput(arguments: [String], mentions: String) throws {
        let resolved = arguments.map { $0.hasPrefix("Fixtures/") || $0 == "Package.swift" ? packageRoot.appendingPathComponent($0).path : $0 }
        let r = try runPhotoWall(resolved)
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("photowall: "))
        #expect(r.err.contains(mentions), "\(r.err)")
        #expect(r.out.isEmpty)
    }
}

/// The same recording through real libinput: umockdev-run plays it into a mock device and
/// photowall runs again inside, live and headless, in real time.
@Suite("photowall --backend libinput")
struct PhotoWallLibinputTests {
    static let umockdev = FileManager.default.isExecutableFile(atPath: "/usr/bin/umockdev-run")

    @Test("a double tap through libinput zooms the same tile as through the built-in decoder",
          .enabled(if: umockdev, "umockdev-run is not installed"))
    func doubleTapThroughLibinput() throws {
        let dir = try scratchDirectory("libinput")
        let builtin = try runPhotoWall(["--replay", Traces.doubleTap])
        let libinput = try runPhotoWall(["--replay", Traces.doubleTap, "--backend", "libinput", "--frames", dir])
        #expect(libinput.status == 0, "\(libinput.err)")
        let zoomed = builtin.out.split(separator: "\n").first { $0.contains("doubleTap: zoomed") }
        #expect(zoomed != nil)
        #expect(libinput.out.contains("doubleTap: zoomed Sunrise 11"))
        #expect(builtin.out.contains("doubleTap: zoomed Sunrise 11"))
        #expect(FileManager.default.fileExists(atPath: "\(dir)/01-zoomed.png"))
        #expect(FileManager.default.fileExists(atPath: "\(dir)/last.png"))
    }

    @Test("a one-finger fling through libinput, live and headless on the real clock: the wall is drawn frame by frame while the content moves on, and it comes to rest where the built-in replay's does",
          .enabled(if: umockdev, "umockdev-run is not installed"))
    func flingThroughLibinput() throws {
        let trace = Traces.fixture("synthetic-ts-wacom-flick-up-1f.evemu")
        let builtin = try runPhotoWall(["--replay", trace])
        let libinput = try runPhotoWall(["--replay", trace, "--backend", "libinput"])
        #expect(libinput.status == 0, "\(libinput.err)")
        let rest = "scroll: came to rest at 1040 pt"
        #expect(builtin.out.contains(rest) && libinput.out.contains(rest), "\(libinput.out)")
        // "drew 82 frames, 55 while the content moved on its own": the display link's frames
        // (60 a second for about 0.9 s) were drawn as they came, not only at the end.
        let drew = libinput.out.split(separator: "\n").first { $0.hasPrefix("drew ") }
        let animated = drew.flatMap { $0.split(separator: " ").dropFirst(3).first.flatMap { Int($0) } }
        #expect((animated ?? 0) >= 10, "frames drawn while the content moved on: \(drew.map(String.init) ?? "none")")
    }
}

/// A wall live on libinput, recorded (`--record`), replayed on virtual time: it ends where it
/// ended live.
@Suite(.serialized)
struct PhotoWallRecordingTests {
    static let umockdev = FileManager.default.isExecutableFile(atPath: "/usr/bin/umockdev-run")

    @Test("a fling live through libinput, recorded, then replayed from the recording: every event of the wall the same, coming to rest at the same offset",
          .enabled(if: umockdev, "umockdev-run is not installed"))
    func recordedLiveWallReplays() throws {
        let recording = NSTemporaryDirectory() + "photowall-\(UUID().uuidString).input.jsonl"
        defer { unlink(recording) }
        let live = try runPhotoWall(["--replay", Traces.fixture("synthetic-ts-wacom-flick-up-1f.evemu"), "--backend", "libinput",
                                     "--record", recording])
        #expect(live.status == 0, "\(live.err)")
        let replayed = try runPhotoWall(["--replay", recording])
        #expect(replayed.status == 0, "\(replayed.err)")
        // The wall's events (times, gestures, where the scroll came to rest), not the drawing
        // statistics, which differ between a window loop and a replay.
        func events(_ out: String) -> [String] { out.split(separator: "\n").map(String.init).filter { $0.contains(" s  ") } }
        #expect(!events(live.out).isEmpty && events(replayed.out) == events(live.out),
                "live:\n\(live.out)\nreplayed:\n\(replayed.out)")
        #expect(replayed.out.contains("scroll: came to rest at"))
    }
}
