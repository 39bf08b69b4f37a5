// libFuzzer target: the PNG and PPM readers of kept pictures and screenshots (GestureDrive's
// PNG.swift and Screenshot.swift, compiled into this target with zlib: GestureDrive itself
// brings the compositor and the testing library). A picture read is written as PNG and read
// back, and must come back pixel for pixel; a file that is not read must be refused with an
// error naming it. Build and run: `make fuzz`.
import GestureKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let picture = try Screenshot(png: bytes, path: "fuzz.png")
        let again = try Screenshot(png: picture.png, path: "written.png")
        precondition(again == picture, "a picture read from PNG, written as PNG, reads back different")
    } catch let error as DriveError {
        precondition("\(error)".contains("fuzz.png"), "a refused picture's error names the file: \(error)")
    } catch {
        fatalError("the PNG reader threw something other than DriveError: \(error)")
    }
    if let picture = try? Screenshot(ppm: bytes) {
        precondition(picture.rgb.count == picture.width * picture.height * 3, "a PPM's pixels are width × height RGB triples")
    }
    return 0
}
