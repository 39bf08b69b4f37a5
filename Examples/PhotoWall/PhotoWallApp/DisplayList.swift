import GestureKit

/// An sRGB colour with alpha (255 opaque).
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// `0xRRGGBB`, opaque.
    public init(rgb: UInt32) {
        self.init(r: UInt8((rgb >> 16) & 0xff), g: UInt8((rgb >> 8) & 0xff), b: UInt8(rgb & 0xff))
    }

    /// Hue in degrees, saturation and value in 0...1.
    public init(hue: Double, saturation: Double, value: Double) {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let c = value * saturation
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let m = value - c
        let (r, g, b): (Double, Double, Double)
        switch Int(h) {
        case 0: (r, g, b) = (c, x, 0)
        case 1: (r, g, b) = (x, c, 0)
        case 2: (r, g, b) = (0, c, x)
        case 3: (r, g, b) = (0, x, c)
        case 4: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, ((v + m) * 255).rounded()))) }
        self.init(r: byte(r), g: byte(g), b: byte(b))
    }

    /// The same colour with alpha `a`.
    public func withAlpha(_ a: UInt8) -> Color { Color(r: r, g: g, b: b, a: a) }

    /// Each channel × `k` (0...1 darkens).
    public func scaled(_ k: Double) -> Color {
        func s(_ v: UInt8) -> UInt8 { UInt8(max(0, min(255, (Double(v) * k).rounded()))) }
        return Color(r: s(r), g: s(g), b: s(b), a: a)
    }

    /// `self` drawn with its alpha over an opaque `background` (what a renderer shows).
    public func composited(over background: Color) -> Color {
        let k = Double(a) / 255
        func mix(_ f: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(f) * k + Double(b) * (1 - k)).rounded()) }
        return Color(r: mix(r, background.r), g: mix(g, background.g), b: mix(b, background.b))
    }

    /// The largest difference of one channel (alpha ignored).
    public func distance(to other: Color) -> Int {
        max(abs(Int(r) - Int(other.r)), abs(Int(g) - Int(other.g)), abs(Int(b) - Int(other.b)))
    }

    public var description: String {
        func hex(_ v: UInt8) -> String { let s = String(v, radix: 16); return s.count == 1 ? "0" + s : s }
        return "#" + hex(r) + hex(g) + hex(b) + (a == 255 ? "" : hex(a))
    }
}

/// What to draw for one frame, in screen points (1 point = 1 pixel), back to front. The
/// renderer (PhotoWallRender) draws it with SDL; tests read it without SDL.
public struct DisplayList: Sendable {
    public enum TextStyle: Hashable, Sendable {
        case regular, bold
    }

    public enum Alignment: Hashable, Sendable {
        case left, center, right
    }

    public enum Command: Hashable, Sendable {
        /// A filled rectangle, blended by the colour's alpha.
        case fill(Rect, Color)
        /// A rectangular outline `width` points thick, inside `rect`.
        case ring(Rect, width: Double, Color)
        /// A filled disc.
        case disc(center: Point, radius: Double, Color)
        /// One line of text in `rect`, vertically centred, aligned as asked, clipped to the rect.
        case text(String, in: Rect, size: Double, style: TextStyle, alignment: Alignment, Color)
    }

    public var size: Size
    public var background: Color
    public private(set) var commands: [Command] = []

    public init(size: Size, background: Color) {
        self.size = size
        self.background = background
    }

    public mutating func fill(_ rect: Rect, _ color: Color) { commands.append(.fill(rect, color)) }
    public mutating func ring(_ rect: Rect, width: Double, _ color: Color) {
        commands.append(.ring(rect, width: width, color))
    }
    public mutating func disc(center: Point, radius: Double, _ color: Color) {
        commands.append(.disc(center: center, radius: radius, color))
    }
    public mutating func text(_ string: String, in rect: Rect, size: Double, style: TextStyle = .regular,
                              alignment: Alignment = .left, _ color: Color) {
        commands.append(.text(string, in: rect, size: size, style: style, alignment: alignment, color))
    }

    /// The rectangles of text commands (tests keep their pixel probes out of them).
    public var textRects: [Rect] {
        commands.compactMap { if case let .text(_, rect, _, _, _, _) = $0 { rect } else { nil } }
    }
}
