import CSDL2
import GestureSDL
import CSDL2Image
import CSDL2TTF
import GestureKit
import PhotoWallApp
#if canImport(Glibc)
import Glibc
#endif

/// An SDL call failed; `message` is `SDL_GetError()`.
public struct RenderError: Error, CustomStringConvertible {
    public var call: String
    public var message: String

    public var description: String { "\(call) failed: \(message)" }

    static func sdl(_ call: String) -> RenderError {
        RenderError(call: call, message: SDL_GetError().map { String(cString: $0) } ?? "unknown error")
    }
}

/// Pixels read back from a canvas: `0xRRGGBB` per pixel, row by row.
public struct PixelImage: Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt32]

    /// The colour at pixel (x, y); nil outside the image.
    public func color(x: Int, y: Int) -> Color? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return Color(rgb: pixels[y * width + x] & 0xff_ffff)
    }

    /// The colour at a point (the pixel that contains it).
    public func color(at point: Point) -> Color? {
        color(x: Int(point.x.rounded(.down)), y: Int(point.y.rounded(.down)))
    }
}

/// Draws `DisplayList`s with SDL2's software renderer onto an RGB888 `SDL_Surface`: with no
/// display at all (`init(width:height:)`), or shown in a window (`init(windowTitle:...)`: the
/// surface is copied to the window by `present()`, through the window's own renderer,
/// `WindowPresenter`). Either way the same pixels.
///
/// **HiDPI.** The canvas's `width` and `height` are points (what the wall lays out and input
/// arrives in); its surface has `pixelScale` pixels a point, rectangles, discs and text (its
/// font at the scaled size) drawn at those pixels. Without a display it is what the caller
/// asks (2 draws the wall at twice the pixels, sharp); in a window it is the window's
/// drawable pixels over its points (2 at `output * scale 2` where SDL renders through GL; 1
/// with SDL's software renderer: `WindowPresenter` says why), so the wall is shown pixel for
/// pixel, not scaled up by the compositor.
///
/// SDL's state is process-wide: use one canvas at a time, from one thread.
public final class Canvas {
    public let width: Int
    public let height: Int
    /// Pixels a point: what the caller asks without a display; the window's drawable pixels
    /// over its points in a window.
    public let pixelScale: Double
    private let surface: UnsafeMutablePointer<SDL_Surface>
    private let renderer: OpaquePointer
    private let presenter: WindowPresenter?
    private var window: OpaquePointer? { presenter?.window }
    private let text: TextCache

    /// A canvas with no display: a software renderer drawing into a surface in memory, of
    /// `pixelScale` pixels a point.
    public convenience init(width: Int, height: Int, pixelScale: Double = 1) throws {
        try self.init(width: width, height: height, pixelScale: pixelScale, presenter: nil)
    }

    /// A canvas shown in a window (`fullscreen`: the desktop's size, and the canvas takes it).
    /// Needs a display (X11 or Wayland; SDL_VIDEODRIVER picks another driver).
    public convenience init(windowTitle: String, width: Int, height: Int, fullscreen: Bool) throws {
        SDLInputAdapter.configureSDL()
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { throw RenderError.sdl("SDL_InitSubSystem(VIDEO)") }
        let presenter: WindowPresenter
        do {
            presenter = try WindowPresenter(title: windowTitle, width: width, height: height, fullscreen: fullscreen)
        } catch {
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
            throw error
        }
        do {
            try self.init(width: presenter.width, height: presenter.height, pixelScale: presenter.pixelScale,
                          presenter: presenter)
        } catch {
            presenter.destroy()
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
            throw error
        }
    }

    private init(width: Int, height: Int, pixelScale: Double, presenter: WindowPresenter?) throws {
        guard width > 0, height > 0 else { throw RenderError(call: "Canvas", message: "size \(width)×\(height)") }
        guard pixelScale.isFinite, pixelScale > 0 else { throw RenderError(call: "Canvas", message: "pixel scale \(pixelScale)") }
        let pixelWidth = Int((Double(width) * pixelScale).rounded()), pixelHeight = Int((Double(height) * pixelScale).rounded())
        guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(pixelWidth), Int32(pixelHeight), 32,
                                                           SDL_PIXELFORMAT_RGB888.rawValue) else {
            throw RenderError.sdl("SDL_CreateRGBSurfaceWithFormat")
        }
        guard let renderer = SDL_CreateSoftwareRenderer(surface) else {
            let error = RenderError.sdl("SDL_CreateSoftwareRenderer")
            SDL_FreeSurface(surface)
            throw error
        }
        do {
            text = try TextCache(renderer: renderer)
        } catch {
            SDL_DestroyRenderer(renderer)
            SDL_FreeSurface(surface)
            throw error
        }
        self.width = width
        self.height = height
        self.pixelScale = pixelScale
        self.surface = surface
        self.renderer = renderer
        self.presenter = presenter
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    deinit {
        text.close()
        SDL_DestroyRenderer(renderer)
        SDL_FreeSurface(surface)
        if let presenter {
            presenter.destroy()
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
        }
    }

    public var hasWindow: Bool { window != nil }

    /// Where the last `draw` put text: the box of each rendered line, in pixels of the surface (glyphs are
    /// anti-aliased, so tests checking colours keep out of these).
    public private(set) var textBounds: [Rect] = []

    /// The SDL video driver showing the window ("x11", "wayland", "KMSDRM"; "offscreen" or
    /// "dummy" show nothing), nil without a window.
    public var videoDriver: String? {
        guard window != nil, let name = SDL_GetCurrentVideoDriver() else { return nil }
        return String(cString: name)
    }

    /// The refresh rate of the display the window is on, frames a second (SDL's display
    /// mode); nil without a window or when SDL does not know it (0 Hz, as some drivers say).
    public var refreshRate: Int? {
        guard let window else { return nil }
        var mode = SDL_DisplayMode()
        guard SDL_GetWindowDisplayMode(window, &mode) == 0, mode.refresh_rate > 0 else { return nil }
        return Int(mode.refresh_rate)
    }

    // MARK: Drawing

    /// Draws the list over the whole canvas (cleared to its background first).
    public func draw(_ list: DisplayList) {
        setColor(list.background)
        SDL_RenderClear(renderer)
        textBounds.removeAll(keepingCapacity: true)
        for command in list.commands {
            switch command {
            case let .fill(rect, color):
                fill(rect, color)
            case let .ring(rect, width, color):
                let w = width
                fill(Rect(x: rect.minX, y: rect.minY, width: rect.width, height: w), color)
                fill(Rect(x: rect.minX, y: rect.maxY - w, width: rect.width, height: w), color)
                fill(Rect(x: rect.minX, y: rect.minY + w, width: w, height: rect.height - 2 * w), color)
                fill(Rect(x: rect.maxX - w, y: rect.minY + w, width: w, height: rect.height - 2 * w), color)
            case let .disc(center, radius, color):
                disc(center, radius, color)
            case let .text(string, rect, size, style, alignment, color):
                if let r = text.draw(string, in: pixelRect(rect), size: size * pixelScale, bold: style == .bold,
                                     alignment: alignment, color: color) {
                    textBounds.append(Rect(x: Double(r.x), y: Double(r.y), width: Double(r.w), height: Double(r.h)))
                }
            }
        }
        SDL_RenderPresent(renderer)
    }

    /// Shows the canvas in its window, pixel for pixel (nothing without one).
    public func present() {
        presenter?.present(surface)
    }

    /// The SDL renderer presenting the window ("opengl", "opengles2", "software"), nil without one.
    public var windowRenderer: String? { presenter?.rendererName }

    /// Handles the window's events; true when the user asked to quit (closed the window,
    /// pressed Escape or Q).
    public func pollQuit() -> Bool {
        var ignored = SDLInputAdapter(windowSize: Size(width: Double(width), height: Double(height)))
        return pollEvents(into: &ignored, input: false)
    }

    /// Handles the window's events, handing its touches, mouse and wheel to `adapter` (read
    /// them with `adapter.take()`); true when the user asked to quit.
    public func pollEvents(into adapter: inout SDLInputAdapter) -> Bool {
        pollEvents(into: &adapter, input: true)
    }

    /// Sleeps until the window has an event or `milliseconds` pass (nil: until an event).
    public func waitForEvent(milliseconds: Int?) {
        guard window != nil else { return }
        SDL_WaitEventTimeout(nil, Int32(clamping: milliseconds ?? Int(Int32.max)))
    }

    /// The window's Wayland display connection when SDL draws it through Wayland, or nil (X11,
    /// KMSDRM, no window): the app may read the window's touches from the compositor itself,
    /// with the compositor's times (`WaylandConnection(sharing:)`), which SDL2 drops.
    public var waylandDisplay: OpaquePointer? {
        guard let window else { return nil }
        var info = SDL_SysWMinfo()
        info.version = SDL_version(major: UInt8(SDL_MAJOR_VERSION), minor: UInt8(SDL_MINOR_VERSION),
                                   patch: UInt8(SDL_PATCHLEVEL))
        guard SDL_GetWindowWMInfo(window, &info) == SDL_TRUE, info.subsystem == SDL_SYSWM_WAYLAND else { return nil }
        return info.info.wl.display
    }

    private func pollEvents(into adapter: inout SDLInputAdapter, input: Bool) -> Bool {
        guard window != nil else { return false }
        var event = SDL_Event()
        var quit = false
        while SDL_PollEvent(&event) != 0 {
            if input { adapter.convert(event) }
            if event.type == SDL_QUIT.rawValue { quit = true }
            if event.type == SDL_KEYDOWN.rawValue {
                let key = event.key.keysym.sym
                if key == SDL_Keycode(SDLK_ESCAPE.rawValue) || key == SDL_Keycode(SDLK_q.rawValue) { quit = true }
            }
        }
        return quit
    }

    // MARK: Reading back

    /// The canvas's pixels (`SDL_RenderReadPixels`, RGB888), `pixelScale` of them a point.
    public func readPixels() throws -> PixelImage {
        let w = Int(surface.pointee.w), h = Int(surface.pointee.h)
        var pixels = [UInt32](repeating: 0, count: w * h)
        let status = pixels.withUnsafeMutableBytes {
            SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_RGB888.rawValue, $0.baseAddress, Int32(w * 4))
        }
        guard status == 0 else { throw RenderError.sdl("SDL_RenderReadPixels") }
        return PixelImage(width: w, height: h, pixels: pixels)
    }

    /// Writes the canvas as a PNG (`IMG_SavePNG`).
    public func savePNG(to path: String) throws {
        guard IMG_SavePNG(surface, path) == 0 else { throw RenderError.sdl("IMG_SavePNG(\(path))") }
    }

    // MARK: Primitives

    private func setColor(_ c: Color) {
        SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, c.a)
    }

    /// Points to whole pixels (`pixelScale` a point): edges are rounded, so adjacent
    /// rectangles neither overlap nor leave a seam, and a test knows which pixel is whose.
    private func pixelRect(_ r: Rect) -> SDL_Rect {
        let k = pixelScale
        let x0 = Int32((r.minX * k).rounded()), y0 = Int32((r.minY * k).rounded())
        let x1 = Int32((r.maxX * k).rounded()), y1 = Int32((r.maxY * k).rounded())
        return SDL_Rect(x: x0, y: y0, w: max(0, x1 - x0), h: max(0, y1 - y0))
    }

    private func fill(_ rect: Rect, _ color: Color) {
        var r = pixelRect(rect)
        guard r.w > 0, r.h > 0 else { return }
        setColor(color)
        SDL_RenderFillRect(renderer, &r)
    }

    private func disc(_ center: Point, _ radius: Double, _ c: Color) {
        let segments = 40
        let color = SDL_Color(r: c.r, g: c.g, b: c.b, a: c.a)
        var vertices: [SDL_Vertex] = []
        vertices.reserveCapacity(segments * 3)
        func vertex(_ x: Double, _ y: Double) -> SDL_Vertex {
            SDL_Vertex(position: SDL_FPoint(x: Float(x), y: Float(y)), color: color, tex_coord: SDL_FPoint(x: 0, y: 0))
        }
        for i in 0..<segments {
            let a0 = Double(i) / Double(segments) * 2 * Double.pi
            let a1 = Double(i + 1) / Double(segments) * 2 * Double.pi
            let c = Point(x: center.x * pixelScale, y: center.y * pixelScale), r = radius * pixelScale
            vertices.append(vertex(c.x, c.y))
            vertices.append(vertex(c.x + r * cos(a0), c.y + r * sin(a0)))
            vertices.append(vertex(c.x + r * cos(a1), c.y + r * sin(a1)))
        }
        SDL_RenderGeometry(renderer, nil, vertices, Int32(vertices.count), nil, 0)
    }
}
