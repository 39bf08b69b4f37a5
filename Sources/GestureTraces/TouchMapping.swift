import GestureFormat
import GestureKit

/// How a touchscreen's coordinates land on the screen: a rotation, a calibration matrix and a
/// region of the screen, in libinput's terms, so the built-in decoder and libinput give the
/// same points for the same recording.
///
/// - **Normalized coordinates**: the device's axis minimum is 0, its maximum 1 (libinput
///   divides by the range + 1, the decoder by the range: they differ by at most one device
///   unit).
/// - **Calibration** (`libinput_device_config_calibration_set_matrix`, udev's
///   `LIBINPUT_CALIBRATION_MATRIX`): six numbers `a b c d e f` taking a normalized point (x, y)
///   to (a x + b y + c, d x + e y + f). Nil: the device's own (its
///   `LIBINPUT_CALIBRATION_MATRIX`, identity without one).
/// - **Rotation**: 0, 90, 180 or 270 degrees clockwise, as libinput's documented matrices
///   (90: `0 -1 1 1 0 0`, 180: `-1 0 1 0 -1 1`, 270: `0 1 0 -1 0 1`). It is applied after the
///   calibration: the matrix libinput is given is rotation × calibration.
/// - **Region**: the rectangle of the screen, in points, that the normalized square [0, 1]²
///   covers (one touch panel per output of a multi-display kiosk); nil: the whole screen.
/// - **Touchpad tapping**: whether a touchpad's taps click (libinput's tap-to-click,
///   `libinput_device_config_tap_set_enabled`); nil: libinput's default for the device, on only
///   for a pad without a left button (`tp_tap_default`). It is not part of the coordinates: a
///   mapping that only sets it is still `isIdentity`.
public struct TouchMapping: Hashable, Sendable, CustomStringConvertible {
    package static let identityMatrix: [Double] = [1, 0, 0, 0, 1, 0]

    /// Degrees clockwise: 0, 90, 180 or 270.
    public var rotation: Int
    /// Six numbers, or nil for the device's own.
    public var calibration: [Double]?
    /// Points of the screen, or nil for the whole screen.
    public var region: Rect?
    /// Touchpads' tap-to-click on or off; nil: libinput's default for each pad.
    public var touchpadTapping: Bool?

    public init(rotation: Int = 0, calibration: [Double]? = nil, region: Rect? = nil, touchpadTapping: Bool? = nil) {
        self.rotation = rotation
        self.calibration = calibration
        self.region = region
        self.touchpadTapping = touchpadTapping
    }

    public static let identity = TouchMapping()

    /// Nothing to do beyond the plain mapping onto the screen (and no device matrix to honour).
    public var isIdentity: Bool { rotation == 0 && calibration == nil && region == nil }

    /// libinput's clockwise rotation matrix for `degrees`.
    package static func rotationMatrix(_ degrees: Int) -> [Double] {
        switch ((degrees % 360) + 360) % 360 {
        case 90: [0, -1, 1, 1, 0, 0]
        case 180: [-1, 0, 1, 0, -1, 1]
        case 270: [0, 1, 0, -1, 0, 1]
        default: identityMatrix
        }
    }

    /// `a` × `b` as 3×3 matrices with the last row 0 0 1 (`b` applies first).
    package static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        [a[0] * b[0] + a[1] * b[3], a[0] * b[1] + a[1] * b[4], a[0] * b[2] + a[1] * b[5] + a[2],
         a[3] * b[0] + a[4] * b[3], a[3] * b[1] + a[4] * b[4], a[3] * b[2] + a[4] * b[5] + a[5]]
    }

    /// The matrix libinput is given for a device whose own matrix is `deviceMatrix`.
    package func matrix(deviceMatrix: [Double] = TouchMapping.identityMatrix) -> [Double] {
        TouchMapping.multiply(TouchMapping.rotationMatrix(rotation), calibration ?? deviceMatrix)
    }

    /// `matrix` applied to a normalized point.
    package static func apply(_ m: [Double], _ p: Point) -> Point {
        Point(x: m[0] * p.x + m[1] * p.y + m[2], y: m[3] * p.x + m[4] * p.y + m[5])
    }

    /// A point of the normalized square (after the matrix) on the screen, in points.
    package func screenPoint(normalized p: Point, screen: Size) -> Point {
        let r = region ?? Rect(origin: .zero, size: screen)
        return Point(x: r.origin.x + p.x * r.size.width, y: r.origin.y + p.y * r.size.height)
    }

    /// Screen points per millimetre of a device `size` millimetres large (the mean of the two
    /// axes, which a rotation of 90 or 270 swaps).
    package func pointsPerMillimetre(deviceSize size: Size, screen: Size) -> Double? {
        guard size.width > 0, size.height > 0 else { return nil }
        let r = region?.size ?? screen
        let turned = rotation % 180 != 0
        let across = turned ? size.height : size.width
        let down = turned ? size.width : size.height
        return (r.width / across + r.height / down) / 2
    }

    public var description: String {
        var parts: [String] = []
        if rotation != 0 { parts.append("rotated \(rotation)°") }
        if let c = calibration { parts.append("calibration \(c.map { DecimalText.trimmed($0, digits: 6) }.joined(separator: " "))") }
        if let r = region {
            parts.append("region \(DecimalText.trimmed(r.size.width, digits: 6))x\(DecimalText.trimmed(r.size.height, digits: 6))+\(DecimalText.trimmed(r.origin.x, digits: 6))+\(DecimalText.trimmed(r.origin.y, digits: 6))")
        }
        if let tapping = touchpadTapping { parts.append("touchpad tapping \(tapping ? "on" : "off")") }
        return parts.isEmpty ? "identity" : parts.joined(separator: ", ")
    }

    // MARK: Parsing (the command line, udev)

    package struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// 0, 90, 180 or 270.
    package static func parseRotation(_ text: String) throws -> Int {
        guard let n = Int(text.trimmingWhitespace), [0, 90, 180, 270].contains(n) else {
            throw ParseError(description: "rotation \"\(text)\": expected 0, 90, 180 or 270 (degrees clockwise)")
        }
        return n
    }

    /// Six numbers separated by spaces or commas (`LIBINPUT_CALIBRATION_MATRIX`'s form).
    package static func parseMatrix(_ text: String) throws -> [Double] {
        let fields = text.split { $0 == " " || $0 == "," || $0 == "\t" }
        let numbers = fields.compactMap { Double($0) }
        guard fields.count == 6, numbers.count == 6, numbers.allSatisfy(\.isFinite) else {
            throw ParseError(description: "calibration \"\(text)\": expected six numbers a b c d e f (libinput's matrix, normalized coordinates)")
        }
        return numbers
    }

    /// `WIDTHxHEIGHT+X+Y` (X11's geometry) or `X,Y,WIDTH,HEIGHT`, in points.
    package static func parseRegion(_ text: String) throws -> Rect {
        let bad = ParseError(description: "region \"\(text)\": expected WIDTHxHEIGHT+X+Y or X,Y,WIDTH,HEIGHT in points, with a positive size")
        var numbers: [Double]
        if text.contains("x") {
            let sizeAndRest = text.split(separator: "+", omittingEmptySubsequences: false)
            let size = sizeAndRest[0].split(separator: "x")
            guard size.count == 2, sizeAndRest.count == 3 else { throw bad }
            numbers = [String(sizeAndRest[1]), String(sizeAndRest[2]), String(size[0]), String(size[1])].compactMap { Double($0) }
        } else {
            numbers = text.split(separator: ",").compactMap { Double($0.trimmingWhitespace) }
            guard text.split(separator: ",").count == 4 else { throw bad }
        }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite), numbers[2] > 0, numbers[3] > 0 else { throw bad }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
