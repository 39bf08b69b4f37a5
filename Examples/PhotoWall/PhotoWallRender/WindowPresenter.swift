import CSDL2
import GestureSDL

/// A window that shows a canvas's pixels at the output's scale: created HiDPI-aware
/// (`SDL_WINDOW_ALLOW_HIGHDPI`), presented through an SDL renderer whose output (its drawable)
/// has the output's pixels, the canvas copied into a streaming texture of that size.
///
/// **Why a renderer.** SDL2's window surface (`SDL_GetWindowSurface`) has one pixel a point
/// whatever the output's scale, so a wall copied to it is scaled up by the compositor. A
/// renderer's drawable has the window's points times the output's scale where the renderer
/// draws through EGL/GL (SDL's OpenGL and OpenGL ES renderers; Mesa's llvmpipe without a GPU).
/// Measured with SDL 2.26.5 under sway 1.7 at `output * scale 2` (a 1000-point window):
/// `SDL_GetRendererOutputSize` 2000 × 2000 with the opengl and opengles2 renderers, 1000 × 1000
/// with the software renderer (which draws into the window surface). SDL picks the first
/// renderer that works (OpenGL first on Linux), so without GL the window falls back to one
/// pixel a point, as before.
///
/// **Full screen.** A window created with `SDL_WINDOW_FULLSCREEN_DESKTOP` and presented by the
/// opengles2 renderer ends up, under sway, in SDL 2.26's emulated full-screen mode (the flags
/// say `SDL_WINDOW_FULLSCREEN` alone), whose drawable is the desktop mode's size in points:
/// 1000 × 1000 at scale 2 (the opengl renderer kept 2000 × 2000). Made full screen once
/// created (`SDL_SetWindowFullscreen`), it stays at the desktop's size with the output's
/// pixels (2000 × 2000) with either, so that is how it is made full screen here; and it is
/// created at the desktop's size (`SDL_GetDesktopDisplayMode`: points under Wayland), because
/// a window that changes size has a stale drawable until the compositor's configure arrives
/// (asked for at 1280 × 800 and made full screen: 1000 × 1000 pt, drawable still 2560 × 1600).
///
/// The scale is read once, when the window and its renderer exist. The texture keeps that
/// size: if the drawable changes later (the window moved to an output of another scale) the
/// renderer stretches it over the whole drawable.
final class WindowPresenter {
    let window: OpaquePointer
    /// The window's size in points (what input arrives in).
    let width: Int
    let height: Int
    /// The drawable's pixels over the window's points (2 at `output * scale 2` with a GL renderer).
    let pixelScale: Double
    /// The renderer SDL chose ("opengl", "opengles2", "software").
    let rendererName: String
    private let renderer: OpaquePointer
    private var texture: OpaquePointer?
    private var textureSize: (width: Int32, height: Int32) = (0, 0)

    /// Creates the window (`fullscreen`: the desktop's size) and its renderer; SDL's video
    /// subsystem must be initialised.
    init(title: String, width: Int, height: Int, fullscreen: Bool) throws {
        let centered = Int32(bitPattern: 0x2FFF_0000)    // SDL_WINDOWPOS_CENTERED
        let flags = SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        var size = (width: Int32(width), height: Int32(height))
        var desktop = SDL_DisplayMode()
        if fullscreen, SDL_GetDesktopDisplayMode(0, &desktop) == 0, desktop.w > 0, desktop.h > 0 {
            size = (desktop.w, desktop.h)
        }
        guard let window = SDL_CreateWindow(title, centered, centered, size.width, size.height, flags) else {
            throw RenderError.sdl("SDL_CreateWindow")
        }
        if fullscreen && SDL_SetWindowFullscreen(window, SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue) != 0 {
            let error = RenderError.sdl("SDL_SetWindowFullscreen")
            SDL_DestroyWindow(window)
            throw error
        }
        guard let renderer = SDL_CreateRenderer(window, -1, 0) else {
            let error = RenderError.sdl("SDL_CreateRenderer")
            SDL_DestroyWindow(window)
            throw error
        }
        SDL_PumpEvents()
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        var w: Int32 = 0, h: Int32 = 0, pw: Int32 = 0, ph: Int32 = 0
        SDL_GetWindowSize(window, &w, &h)
        SDL_GetRendererOutputSize(renderer, &pw, &ph)
        self.window = window
        self.renderer = renderer
        self.width = Int(w)
        self.height = Int(h)
        self.pixelScale = w > 0 && pw > 0 ? Double(pw) / Double(w) : 1
        self.rendererName = info.name.map { String(cString: $0) } ?? "unknown"
    }

    /// Copies `surface` (RGB888, the canvas's pixels) to the window and shows it.
    func present(_ surface: UnsafeMutablePointer<SDL_Surface>) {
        let size = (surface.pointee.w, surface.pointee.h)
        if texture == nil || textureSize != size {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGB888.rawValue,
                                        Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), size.0, size.1)
            textureSize = size
        }
        guard let texture else { return }
        SDL_UpdateTexture(texture, nil, surface.pointee.pixels, surface.pointee.pitch)
        SDL_RenderCopy(renderer, texture, nil, nil)
        SDL_RenderPresent(renderer)
    }

    func destroy() {
        if let texture { SDL_DestroyTexture(texture) }
        texture = nil
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
    }
}
