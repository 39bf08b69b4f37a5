import Foundation
import Testing

#if canImport(Glibc)
import Glibc
import GestureTestSupport
#endif

/// HiDPI for PhotoWall in a window: full screen under sway on an output at scale 2, the wall is
/// drawn at the output's pixels (its canvas at 2 pixels a point, presented through SDL's GL
/// renderer), checked on grim's screenshot: its edges are sharp and its text has detail finer
/// than a point. The same wall through SDL's software renderer (SDL2's window surface, one
/// pixel a point) is the wall drawn at 1 and scaled up by the compositor: every point a 2 × 2
/// block of one colour.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct PhotoWallWindowHiDPITests {
    /// The output: 2000 × 2000 pixels at scale 2, so the full-screen wall is 1000 × 1000 pt.
    static let outputConfig = "output HEADLESS-1 mode 2000x2000 scale 2"
    static let outputScale = 2
    /// The section header bar at the top of the wall: 48 pt high (PhotoWallStyle.headerHeight),
    /// a swatch 6 pt wide at its left edge, its title's text from 20 pt.
    static let headerHeight = 48 /* pt */
    static let swatchWidth = 6 /* pt */
    static let textInset = 20 /* pt */
    /// A wall drawn at 2 pixels a point shows at least this many 2 × 2 pixel blocks of more
    /// than one colour in its header (its text's anti-aliased edges: 842 measured); a wall
    /// drawn at 1 and scaled up by the compositor shows none.
    static let minimumFineBlocks = 200

    struct Run {
        let output: String
        let errors: String
        let status: Int32?
        let picture: HiDPITests.Picture?
    }

    /// Runs photowall full screen under sway on the scaled output (`environment`: variables
    /// for it, such as SDL's renderer), and takes grim's screenshot once the wall is drawn;
    /// with `corner`, also a PNG of the wall's top left corner, 240 × 160 pt at the output's
    /// pixels, into out/ (Examples/PhotoWall/README.md's picture).
    static func run(environment: String = "", corner: String? = nil) throws -> Run {
        // The wall says when its first frame is presented (its ready file); the recording (a
        // tap below the header) starts then, and the wall runs `seconds` from then. A fixed
        // lead-in was not enough on a loaded machine: OpenGL in software had drawn nothing of
        // 2000 × 2000 pixels 7 s after the wall started (measured once).
        let seconds = 5.0
        let session = try Compositor.start(trace: Compositor.fixture("ts-wacom-isdv4-e6-tap-1f.evemu"),
                                           client: "\(environment) SDL_VIDEODRIVER=wayland CLIENT_DIR/photowall --ready-file CLIENT_DIR/ready --duration \(seconds)",
                                           copy: [PhotoWallDesktopTests.photowall], swayConfig: outputConfig,
                                           readiness: .file)
        defer { session.remove() }
        // The recording's gate opens on the ready file. After the recorded tap, before the wall
        // stops; again, a quarter second apart, while the screen is still the compositor's
        // background alone (the header's swatch and bar one colour: a presented frame the
        // compositor has not shown yet). The last screenshot is the one judged.
        guard session.waitForRecording(thenSeconds: 1.5) else {
            session.finish(timeout: 10)
            return Run(output: session.output, errors: "the wall never presented its first frame (no ready file, so the recording's gate never opened): " + session.errors,
                       status: session.clientStatus, picture: nil)
        }
        let shot = session.directory + "/wall.ppm"
        let lastTry = Date().addingTimeInterval(Self.drawnWithin)
        repeat {
            try session.grim(["-t", "ppm", shot])
            let picture = (try? Data(contentsOf: URL(fileURLWithPath: shot))).flatMap(HiDPITests.Picture.init(ppm:))
            if let picture, picture.width > textInset * outputScale, !Self.isBackgroundOnly(picture) { break }
            usleep(250_000)
        } while Date() < lastTry
        if let corner {
            let png = session.directory + "/" + corner
            try session.grim(["-g", "0,0 240x160", png])
            try? FileManager.default.createDirectory(atPath: packageRoot.path + "/out", withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: packageRoot.path + "/out/" + corner)
            try? FileManager.default.copyItem(atPath: png, toPath: packageRoot.path + "/out/" + corner)
        }
        let picture = (try? Data(contentsOf: URL(fileURLWithPath: shot))).flatMap(HiDPITests.Picture.init(ppm:))
        session.finish(timeout: seconds + 30)
        return Run(output: session.output, errors: session.errors, status: session.clientStatus, picture: picture)
    }

    /// Seconds after the first screenshot in which the wall must have drawn.
    static let drawnWithin = 2.5

    /// Whether the header's row shows one colour only: the wall has not drawn yet.
    static func isBackgroundOnly(_ p: HiDPITests.Picture) -> Bool {
        let y = headerHeight * outputScale / 2
        let first = p.pixel(0, y)
        return (0..<(textInset * outputScale)).allSatisfy { p.pixel($0, y) == first } && p.pixel(textInset * outputScale - 1, 2) == first
    }

    /// How many aligned 2 × 2 pixel blocks of the header bar have more than one colour.
    static func fineBlocks(_ p: HiDPITests.Picture) -> Int {
        var count = 0
        for y in stride(from: 0, to: headerHeight * outputScale, by: 2) {
            for x in stride(from: 0, to: p.width - 1, by: 2) {
                let a = p.pixel(x, y)
                if p.pixel(x + 1, y) != a || p.pixel(x, y + 1) != a || p.pixel(x + 1, y + 1) != a { count += 1 }
            }
        }
        return count
    }

    /// The swatch's right edge along a row of the header: whether the swatch is exactly
    /// `swatchWidth × scale` pixels of one colour, followed up to the text by the bar's colour,
    /// with no pixel of a blend between them.
    static func swatchEdge(_ p: HiDPITests.Picture) -> (sharp: Bool, row: [String]) {
        let y = headerHeight * outputScale / 2, edge = swatchWidth * outputScale
        let swatch = p.pixel(0, y), bar = p.pixel(textInset * outputScale - 1, 2)
        let row = (0..<(textInset * outputScale)).map { p.pixel($0, y) }
        let sharp = swatch != bar && row[..<edge].allSatisfy { $0 == swatch } && row[edge...].allSatisfy { $0 == bar }
        return (sharp, row[(edge - 3)..<(edge + 3)].map { String($0, radix: 16) })
    }

    @Test("PhotoWall full screen on an output at scale 2: the wall is drawn at 2 pixels a point, its edges are sharp (a 6-point swatch is 12 screen pixels of its colour, then the bar's, no blend) and its text has detail finer than a point; with the renderer SDL picks (OpenGL) and with OpenGL ES",
          arguments: [nil, "opengles2"])
    func wallAtScaleTwo(renderer: String?) throws {
        let run = try Self.run(environment: renderer.map { "SDL_RENDER_DRIVER=\($0)" } ?? "",
                               corner: renderer == nil ? "photowall-hidpi-scale2-sway.png" : nil)
        #expect(run.status == 0, "photowall exits with status 0 after --duration: \(run.errors)")
        #expect(run.output.contains("window: 1000 × 1000 pt, drawn at 2 pixels a point (SDL's \(renderer ?? "")"),
                "the window is the output's 1000 × 1000 points, drawn at its 2 pixels a point: \(run.output) \(run.errors)")
        let p = try #require(run.picture, "grim took a screenshot: \(run.errors)")
        #expect(p.width == 2000 && p.height == 2000, "the output is 2000 × 2000 pixels: \(p.width) × \(p.height)")
        let (sharp, row) = Self.swatchEdge(p)
        #expect(sharp, "the swatch's edge is sharp, at 12 pixels: \(row)")
        let fine = Self.fineBlocks(p)
        #expect(fine >= Self.minimumFineBlocks, "the header's text is drawn at the output's pixels: \(fine) of its 2 × 2 blocks have more than one colour")
    }

    /// SDL's version, from pkg-config ("2.26.5"), or nil.
    static func sdlVersion() -> [Int]? {
        guard let text = (try? runProcess("/usr/bin/env", ["pkg-config", "--modversion", "sdl2"], errors: .discard))?.output else { return nil }
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").compactMap { Int($0) }
        return parts.isEmpty ? nil : parts
    }

    /// SDL 2.26 (Debian 12) draws its software renderer into the window surface at one pixel a
    /// point, and the compositor scales it up; SDL 2.32 (Debian 13) draws it at the output's
    /// scale (both measured under sway at scale 2). Either way, what the wall says of its pixels
    /// is what grim's screenshot shows.
    @Test("the same wall through SDL's software renderer: drawn at 1 pixel a point and scaled up by the compositor on SDL 2.26 (sharp edges, but every point a 2 × 2 block of one colour), at 2 on SDL 2.32; what the wall says of its pixels is what the screenshot shows")
    func softwareRenderer() throws {
        let run = try Self.run(environment: "SDL_RENDER_DRIVER=software")
        #expect(run.status == 0, "photowall exits with status 0 after --duration: \(run.errors)")
        let one = run.output.contains("window: 1000 × 1000 pt, drawn at 1 pixel a point (SDL's software renderer)")
        let two = run.output.contains("window: 1000 × 1000 pt, drawn at 2 pixels a point (SDL's software renderer)")
        #expect(one || two, "the wall says how many pixels a point it draws at: \(run.output) \(run.errors)")
        let version = Self.sdlVersion()
        if let version, version.starts(with: [2, 26]) {
            #expect(one, "SDL 2.26's software renderer draws into the window surface, one pixel a point: \(run.output)")
        }
        let p = try #require(run.picture, "grim took a screenshot: \(run.errors)")
        let (sharp, row) = Self.swatchEdge(p)
        #expect(sharp, "the swatch's edge is sharp at 12 pixels (sway scales a 1× window up pixel by pixel): \(row)")
        let fine = Self.fineBlocks(p)
        if one {
            #expect(fine == 0, "a wall drawn at 1 and scaled up has no detail finer than a point: \(fine) blocks")
        } else {
            #expect(fine >= Self.minimumFineBlocks, "a wall drawn at 2 has text detail finer than a point: \(fine) blocks (SDL \(version ?? []))")
        }
    }
}
