import GestureKit

/// A picture of the compositor's output, as grim took it (its PPM: 8-bit RGB, rows top to
/// bottom), in output pixels (at scale 1, output points).
public struct Screenshot: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// RGB triples, row after row.
    public let rgb: [UInt8]

    public struct Color: Hashable, Sendable, CustomStringConvertible {
        public var red: UInt8, green: UInt8, blue: UInt8
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
        public var description: String { "rgb(\(red), \(green), \(blue))" }

        /// Whether each channel is within `tolerance` of `other`'s.
        public func isClose(to other: Color, tolerance: UInt8) -> Bool {
            abs(Int(red) - Int(other.red)) <= Int(tolerance) && abs(Int(green) - Int(other.green)) <= Int(tolerance)
                && abs(Int(blue) - Int(other.blue)) <= Int(tolerance)
        }
    }

    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3, "a screenshot's pixels are width × height RGB triples")
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// Reads a binary PPM (P6, maxval 255), as `grim -t ppm` writes it.
    public init(ppm bytes: [UInt8]) throws {
        var i = 0
        func token() -> String? {
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "#") {
                    while i < bytes.count && bytes[i] != 0x0a { i += 1 }
                } else if bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x0d || bytes[i] == 0x09 {
                    i += 1
                } else { break }
            }
            let start = i
            while i < bytes.count && !(bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x0d || bytes[i] == 0x09) { i += 1 }
            return start < i ? String(decoding: bytes[start..<i], as: UTF8.self) : nil
        }
        guard token() == "P6", let w = token().flatMap(Int.init), let h = token().flatMap(Int.init),
              token() == "255", w > 0, h > 0, w <= 1 << 15, h <= 1 << 15 else {
            throw DriveError.screenshotFailed(why: "not a binary PPM of 8-bit RGB (grim -t ppm)")
        }
        i += 1 // the one whitespace after maxval
        guard bytes.count - i >= w * h * 3 else {
            throw DriveError.screenshotFailed(why: "the PPM is cut short (\(bytes.count - i) bytes of pixels, \(w * h * 3) expected)")
        }
        self.init(width: w, height: h, rgb: Array(bytes[i..<(i + w * h * 3)]))
    }

    /// The colour at pixel (x, y).
    public func color(x: Int, y: Int) -> Color {
        let o = (y * width + x) * 3
        return Color(red: rgb[o], green: rgb[o + 1], blue: rgb[o + 2])
    }

    /// The colour at point `p` (output points at scale 1), clamped to the picture.
    public func color(at p: Point) -> Color {
        color(x: min(width - 1, max(0, Int(p.x))), y: min(height - 1, max(0, Int(p.y))))
    }

    /// How many pixels within `rect` (the whole picture by default) are within `tolerance` of
    /// `color`.
    public func count(of color: Color, tolerance: UInt8 = 0, in rect: Rect? = nil) -> Int {
        let (x0, y0, x1, y1) = bounds(rect)
        var n = 0
        for y in y0..<y1 {
            for x in x0..<x1 where self.color(x: x, y: y).isClose(to: color, tolerance: tolerance) { n += 1 }
        }
        return n
    }

    /// The smallest rectangle holding every pixel within `tolerance` of `color`, or nil.
    public func bounds(of color: Color, tolerance: UInt8 = 0) -> Rect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where self.color(x: x, y: y).isClose(to: color, tolerance: tolerance) {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return Rect(x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }

    /// The share of pixels (0…1) that differ from `other`'s by more than `tolerance` in any
    /// channel, within `rect`: a comparison against a kept picture. Pictures of different sizes
    /// differ everywhere (1).
    public func difference(from other: Screenshot, tolerance: UInt8 = 0, in rect: Rect? = nil) -> Double {
        guard other.width == width, other.height == height else { return 1 }
        let (x0, y0, x1, y1) = bounds(rect)
        let total = (x1 - x0) * (y1 - y0)
        guard total > 0 else { return 0 }
        let t = Int(tolerance)
        var n = 0
        // Over the raw bytes: a 1280 × 800 comparison stays well under a tenth of a second in a
        // debug build, as a comparison that polls the screen needs.
        rgb.withUnsafeBufferPointer { a in
            other.rgb.withUnsafeBufferPointer { b in
                for y in y0..<y1 {
                    var o = (y * width + x0) * 3
                    for _ in x0..<x1 {
                        if abs(Int(a[o]) - Int(b[o])) > t || abs(Int(a[o + 1]) - Int(b[o + 1])) > t
                            || abs(Int(a[o + 2]) - Int(b[o + 2])) > t { n += 1 }
                        o += 3
                    }
                }
            }
        }
        return Double(n) / Double(total)
    }

    /// The PPM bytes (to keep a screenshot, or compare with one later).
    public var ppm: [UInt8] { Array("P6\n\(width) \(height)\n255\n".utf8) + rgb }

    private func bounds(_ rect: Rect?) -> (Int, Int, Int, Int) {
        guard let rect else { return (0, 0, width, height) }
        return (max(0, Int(rect.minX.rounded(.down))), max(0, Int(rect.minY.rounded(.down))),
                min(width, Int(rect.maxX.rounded(.up))), min(height, Int(rect.maxY.rounded(.up))))
    }
}
