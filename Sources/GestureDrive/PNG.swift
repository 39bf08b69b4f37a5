import CZlib

/// Screenshots as PNG files, for kept pictures a CI job compares with (`DriveSession.compare`).
///
/// Read: 8- and 16-bit grey, grey with alpha, RGB, RGBA and 8-bit-or-less palette pictures,
/// not interlaced (what grim, GIMP, ImageMagick and browsers write by default); alpha is
/// dropped (a screenshot is opaque). Written: 8-bit RGB, every row unfiltered, zlib's default
/// compression. zlib (inflate, deflate, CRC-32) is the only C this file touches.
extension Screenshot {
    /// The PNG file signature.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The most pixel data (bytes, filter bytes included) a PNG may hold to be read.
    static let pngMaximumBytes = 256 << 20
    /// The most a deflate stream grows when inflated (bytes out for a byte in): zlib's own
    /// bound is 1032:1 (a stored length of 258 in under 2 bits); a header whose pixels need more
    /// than this from the file's IDAT bytes is refused before its room is made.
    static let deflateMaximumRatio = 1032

    /// Reads a PNG picture; throws `DriveError.badPicture` naming what is wrong with it.
    public init(png bytes: [UInt8], path: String = "the picture") throws {
        func fail(_ why: String) -> DriveError { .badPicture(path: path, why: why) }
        guard bytes.count > 8, Array(bytes[0..<8]) == Self.pngSignature else { throw fail("it is not a PNG file (no PNG signature)") }
        func be32(_ i: Int) -> UInt32 {
            UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
        }
        var i = 8
        var header: (width: Int, height: Int, depth: Int, colour: Int)?
        var palette: [UInt8] = []
        var data: [UInt8] = []
        var ended = false
        while i + 12 <= bytes.count {
            let length = Int(be32(i))
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            guard length <= bytes.count - i - 12 else { throw fail("its \(type) chunk at byte \(i) is cut short") }
            let body = i + 8
            let crc = bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress! + i + 4, uInt(length + 4)) }
            guard crc == uLong(be32(body + length)) else { throw fail("its \(type) chunk at byte \(i) is damaged (CRC mismatch)") }
            switch type {
            case "IHDR":
                guard length == 13 else { throw fail("its IHDR chunk is \(length) bytes, not 13") }
                let (w, h) = (Int(be32(body)), Int(be32(body + 4)))
                let (depth, colour, interlace) = (Int(bytes[body + 8]), Int(bytes[body + 9]), Int(bytes[body + 12]))
                guard w > 0, h > 0, w <= 1 << 15, h <= 1 << 15 else { throw fail("its size \(w) × \(h) is out of range (1 to 32768 a side)") }
                guard interlace == 0 else { throw fail("it is interlaced (Adam7): save it without interlacing") }
                let allowed: [Int: [Int]] = [0: [8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
                guard allowed[colour]?.contains(depth) == true else {
                    throw fail("colour type \(colour) at \(depth) bits is not read here (8 or 16-bit grey, RGB, RGBA; palettes)")
                }
                header = (w, h, depth, colour)
            case "PLTE": palette = Array(bytes[body..<(body + length)])
            case "IDAT": data += bytes[body..<(body + length)]
            case "IEND": ended = true
            default: break
            }
            i = body + length + 4
            if ended { break }
        }
        guard let header else { throw fail("it has no IHDR chunk") }
        guard ended else { throw fail("it is cut short (no IEND chunk)") }
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][header.colour]!
        let bitsPerPixel = channels * header.depth
        let rowBytes = (header.width * bitsPerPixel + 7) / 8
        let stride = max(1, bitsPerPixel / 8)
        // A picture this reader keeps whole: at most 256 MiB of pixel data (a 8192 × 8192 RGBA
        // picture), so that a hostile header cannot ask for gigabytes.
        guard header.height * (rowBytes + 1) <= Self.pngMaximumBytes else {
            throw fail("its \(header.width) × \(header.height) pixels at \(bitsPerPixel) bits are more than this reader keeps (256 MiB)")
        }
        // A few bytes of IDAT cannot hold a picture that large: refused before its room is made,
        // so a 100-byte file cannot make the reader zero 256 MiB.
        guard header.height * (rowBytes + 1) <= data.count * Self.deflateMaximumRatio + 64 else {
            throw fail("its pixel data (\(data.count) bytes) cannot hold \(header.width) × \(header.height) pixels at \(bitsPerPixel) bits, even at zlib's greatest compression")
        }
        var raw = [UInt8](repeating: 0, count: header.height * (rowBytes + 1))
        var rawLength = uLongf(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { uncompress(out.baseAddress, &rawLength, $0.baseAddress, uLong($0.count)) }
        }
        guard status == Z_OK, rawLength == uLongf(raw.count) else {
            throw fail(status == Z_OK ? "its pixel data is \(rawLength) bytes, \(raw.count) expected" : "its pixel data does not inflate (zlib error \(status))")
        }
        // Unfilter in place, row by row (PNG's five filters), over the raw bytes: a 1280 × 800
        // picture reads in a fraction of a second in a debug build.
        let width = header.width, height = header.height, depth = header.depth, colour = header.colour
        var badFilter: (row: Int, filter: UInt8)?
        raw.withUnsafeMutableBufferPointer { r in
            for y in 0..<height {
                let start = y * (rowBytes + 1) + 1
                let above = start - (rowBytes + 1)
                let filter = r[start - 1]
                switch filter {
                case 0: break
                case 1:
                    for x in stride..<rowBytes { r[start + x] &+= r[start + x - stride] }
                case 2 where y > 0:
                    for x in 0..<rowBytes { r[start + x] &+= r[above + x] }
                case 2: break
                case 3:
                    for x in 0..<rowBytes {
                        let a = x >= stride ? Int(r[start + x - stride]) : 0
                        let b = y > 0 ? Int(r[above + x]) : 0
                        r[start + x] &+= UInt8((a + b) / 2)
                    }
                case 4:
                    for x in 0..<rowBytes {
                        let a = x >= stride ? Int(r[start + x - stride]) : 0
                        let b = y > 0 ? Int(r[above + x]) : 0
                        let c = x >= stride && y > 0 ? Int(r[above + x - stride]) : 0
                        let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                        r[start + x] &+= UInt8(pa <= pb && pa <= pc ? a : (pb <= pc ? b : c))
                    }
                default:
                    badFilter = (y, filter)
                    return
                }
            }
        }
        if let badFilter { throw fail("row \(badFilter.row) has an unknown filter \(badFilter.filter)") }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let bytesPerSample = depth == 16 ? 2 : 1
        var badIndex: (x: Int, y: Int, index: Int)?
        raw.withUnsafeBufferPointer { r in
            rgb.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let row = y * (rowBytes + 1) + 1
                    for x in 0..<width {
                        let o = (y * width + x) * 3
                        if colour == 3 {
                            let bit = x * depth
                            let index = Int(r[row + bit / 8] >> UInt8(8 - depth - bit % 8)) & ((1 << depth) - 1)
                            guard index * 3 + 2 < palette.count else { badIndex = (x, y, index); return }
                            out[o] = palette[index * 3]; out[o + 1] = palette[index * 3 + 1]; out[o + 2] = palette[index * 3 + 2]
                            continue
                        }
                        // A 16-bit sample's high byte comes first.
                        let p = row + x * channels * bytesPerSample
                        if colour == 0 || colour == 4 {
                            out[o] = r[p]; out[o + 1] = r[p]; out[o + 2] = r[p]
                        } else {
                            out[o] = r[p]; out[o + 1] = r[p + bytesPerSample]; out[o + 2] = r[p + 2 * bytesPerSample]
                        }
                    }
                }
            }
        }
        if let badIndex { throw fail("pixel \(badIndex.x),\(badIndex.y) names palette entry \(badIndex.index), which it does not have") }
        self.init(width: width, height: height, rgb: rgb)
    }

    /// The picture as a PNG file (8-bit RGB).
    public var png: [UInt8] {
        var raw = [UInt8]()
        raw.reserveCapacity(height * (width * 3 + 1))
        for y in 0..<height {
            raw.append(0)
            raw += rgb[(y * width * 3)..<((y + 1) * width * 3)]
        }
        var compressed = [UInt8](repeating: 0, count: Int(compressBound(uLong(raw.count))))
        var length = uLongf(compressed.count)
        let status = compressed.withUnsafeMutableBufferPointer { out in
            raw.withUnsafeBufferPointer { compress2(out.baseAddress, &length, $0.baseAddress, uLong($0.count), Z_DEFAULT_COMPRESSION) }
        }
        precondition(status == Z_OK, "zlib's compress2 has room for its own bound")
        compressed.removeSubrange(Int(length)...)
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
            return be32(UInt32(body.count)) + typed + be32(UInt32(crc))
        }
        return Self.pngSignature
            + chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0])
            + chunk("IDAT", compressed)
            + chunk("IEND", [])
    }
}
