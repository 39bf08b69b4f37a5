import CSDL2
import CSDL2TTF
import PhotoWallApp
#if canImport(Glibc)
import Glibc
#endif

/// Text through SDL_ttf with the DejaVu fonts (Debian's fonts-dejavu-core): fonts opened
/// once per size, each string rendered once into a texture and reused.
final class TextCache {
    /// Where the fonts are looked for; PHOTOWALL_FONT_DIR comes first when set.
    static var fontDirectories: [String] {
        var dirs: [String] = []
        if let env = getenv("PHOTOWALL_FONT_DIR") { dirs.append(String(cString: env)) }
        dirs += ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF"]
        return dirs
    }

    /// Textures kept before the cache is emptied (a live wall shows a few dozen strings).
    static let maximumTextures = 512

    private struct Key: Hashable {
        var text: String
        var size: Int
        var bold: Bool
        var color: Color
    }

    private let renderer: OpaquePointer
    private let regularPath: String
    private let boldPath: String
    private var fonts: [Int: OpaquePointer] = [:]       // size × 2 + bold
    private var textures: [Key: (texture: OpaquePointer, width: Int32, height: Int32)] = [:]
    private var closed = false

    init(renderer: OpaquePointer) throws {
        self.renderer = renderer
        func find(_ name: String) -> String? {
            for dir in TextCache.fontDirectories where access(dir + "/" + name, R_OK) == 0 { return dir + "/" + name }
            return nil
        }
        guard let regular = find("DejaVuSans.ttf"), let bold = find("DejaVuSans-Bold.ttf") else {
            throw RenderError(call: "font lookup",
                              message: "DejaVuSans.ttf and DejaVuSans-Bold.ttf not found in \(TextCache.fontDirectories.joined(separator: ", ")) (Debian: apt-get install fonts-dejavu-core, or set PHOTOWALL_FONT_DIR)")
        }
        regularPath = regular
        boldPath = bold
        guard TTF_Init() == 0 else { throw RenderError.sdl("TTF_Init") }
    }

    func close() {
        guard !closed else { return }
        closed = true
        for entry in textures.values { SDL_DestroyTexture(entry.texture) }
        textures.removeAll()
        for font in fonts.values { TTF_CloseFont(font) }
        fonts.removeAll()
        TTF_Quit()
    }

    private func font(size: Int, bold: Bool) -> OpaquePointer? {
        let key = size * 2 + (bold ? 1 : 0)
        if let f = fonts[key] { return f }
        guard let f = TTF_OpenFont(bold ? boldPath : regularPath, Int32(size)) else { return nil }
        fonts[key] = f
        return f
    }

    /// Draws one line of text in `rect`, vertically centred, clipped to the rect; returns the
    /// pixels it may have touched (the rendered line's box, clipped). Text that cannot be
    /// drawn (no font, an SDL failure) is left out: a missing label is no reason to stop the app.
    @discardableResult
    func draw(_ string: String, in rect: SDL_Rect, size: Double, bold: Bool,
              alignment: DisplayList.Alignment, color: Color) -> SDL_Rect? {
        guard !string.isEmpty, rect.w > 0, rect.h > 0 else { return nil }
        let key = Key(text: string, size: max(1, Int(size.rounded())), bold: bold, color: color)
        if textures[key] == nil {
            if textures.count >= TextCache.maximumTextures {
                for entry in textures.values { SDL_DestroyTexture(entry.texture) }
                textures.removeAll()
            }
            guard let font = font(size: key.size, bold: bold),
                  let surface = TTF_RenderUTF8_Blended(font, string, SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a))
            else { return nil }
            defer { SDL_FreeSurface(surface) }
            guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
            SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
            textures[key] = (texture, surface.pointee.w, surface.pointee.h)
        }
        guard let entry = textures[key] else { return nil }
        let x: Int32
        switch alignment {
        case .left: x = rect.x
        case .center: x = rect.x + (rect.w - entry.width) / 2
        case .right: x = rect.x + rect.w - entry.width
        }
        var destination = SDL_Rect(x: x, y: rect.y + (rect.h - entry.height) / 2, w: entry.width, h: entry.height)
        var clip = rect
        SDL_RenderSetClipRect(renderer, &clip)
        SDL_RenderCopy(renderer, entry.texture, nil, &destination)
        SDL_RenderSetClipRect(renderer, nil)
        var drawn = SDL_Rect()
        return SDL_IntersectRect(&destination, &clip, &drawn) == SDL_TRUE ? drawn : nil
    }
}
