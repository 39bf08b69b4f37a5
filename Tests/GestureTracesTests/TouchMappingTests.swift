import GestureKit
import Testing
import GestureTraces

@Suite struct TouchMappingTests {
    @Test("libinput's clockwise rotations take the corners where the panel's corners are mounted")
    func rotations() {
        // The panel's top-left corner (0, 0) lands at the screen's top-right after 90° clockwise.
        let corner = Point(x: 0, y: 0)
        #expect(TouchMapping.apply(TouchMapping.rotationMatrix(90), corner) == Point(x: 1, y: 0))
        #expect(TouchMapping.apply(TouchMapping.rotationMatrix(180), corner) == Point(x: 1, y: 1))
        #expect(TouchMapping.apply(TouchMapping.rotationMatrix(270), corner) == Point(x: 0, y: 1))
        #expect(TouchMapping.apply(TouchMapping.rotationMatrix(0), corner) == corner)
    }

    @Test("the rotation applies after the calibration")
    func order() {
        let m = TouchMapping(rotation: 90, calibration: [1, 0, 0.1, 0, 1, 0]).matrix()
        // Calibration moves x by 0.1, then 90° takes (x, y) to (1 − y, x).
        #expect(TouchMapping.apply(m, Point(x: 0.2, y: 0.3)) == Point(x: 0.7, y: 0.30000000000000004))
    }

    @Test("the device's LIBINPUT_CALIBRATION_MATRIX is its calibration unless one is given, as in libinput")
    func udevProperty() {
        var description = EvdevDeviceDescription(name: "panel")
        description.codes[.abs] = [.absMTSlot, .absMTPositionX, .absMTPositionY, .absMTTrackingID]
        description.absInfo[.absMTSlot] = AbsInfo(minimum: 0, maximum: 1)
        description.absInfo[.absMTPositionX] = AbsInfo(minimum: 0, maximum: 1000)
        description.absInfo[.absMTPositionY] = AbsInfo(minimum: 0, maximum: 1000)
        description.udevProperties["LIBINPUT_CALIBRATION_MATRIX"] = "0.5 0 0 0 0.5 0"
        let own = MultitouchDecoder(description: description, kind: .touchscreen, screen: Size(width: 1000, height: 1000))
        #expect(own.map(400, 600) == Point(x: 200, y: 300), "expected the device's matrix to halve the coordinates")
        let given = MultitouchDecoder(description: description, kind: .touchscreen, screen: Size(width: 1000, height: 1000),
                                      mapping: TouchMapping(calibration: TouchMapping.identityMatrix))
        #expect(given.map(400, 600) == Point(x: 400, y: 600), "expected a given matrix to replace the device's")
    }

    @Test("the command line's forms parse, and bad ones say what was expected")
    func parsing() throws {
        #expect(try TouchMapping.parseRotation("270") == 270)
        #expect(throws: TouchMapping.ParseError.self) { try TouchMapping.parseRotation("45") }
        #expect(try TouchMapping.parseMatrix("1 0 0, 0 1 0") == [1, 0, 0, 0, 1, 0])
        #expect(throws: TouchMapping.ParseError.self) { try TouchMapping.parseMatrix("1 0 0 0 1") }
        #expect(try TouchMapping.parseRegion("1920x1080+1920+0") == Rect(x: 1920, y: 0, width: 1920, height: 1080))
        #expect(try TouchMapping.parseRegion("0,0,800,480") == Rect(x: 0, y: 0, width: 800, height: 480))
        #expect(throws: TouchMapping.ParseError.self) { try TouchMapping.parseRegion("0x0+0+0") }
    }

    @Test("points per millimetre follow the region, and a quarter turn swaps the device's axes")
    func scale() {
        let size = Size(width: 200, height: 100)
        #expect(TouchMapping().pointsPerMillimetre(deviceSize: size, screen: Size(width: 1000, height: 500)) == 5)
        #expect(TouchMapping(rotation: 90).pointsPerMillimetre(deviceSize: size, screen: Size(width: 500, height: 1000)) == 5)
        #expect(TouchMapping(region: Rect(x: 0, y: 0, width: 400, height: 200)).pointsPerMillimetre(deviceSize: size, screen: Size(width: 1000, height: 500)) == 2)
    }
}
