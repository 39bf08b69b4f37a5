import GestureKit
import Testing

/// Durations are `Duration`s in the public API, and millimetre is spelled one way; the old
/// forms still work, deprecated, for one release.
@Suite("Durations as Duration, millimetres spelled one way")
struct DurationAndSpellingTests {
    @Test("a display link's frameDuration is 1/frameRate as a Duration")
    func displayLinkFrameDuration() {
        let engine = GestureEngine()
        let link = engine.addDisplayLink(frameRate: 60) { _ in }
        #expect(link.frameDuration == .seconds(1) / 60)
        #expect(link.frameDuration.nanosecondCount == 16_666_666)
        link.frameRate = 120
        #expect(link.frameDuration == .milliseconds(1000) / 120)
    }

    @Test("Instant and Duration: an instant plus a duration, the duration between two instants")
    func instantArithmetic() {
        let start = Instant(seconds: 2)
        #expect(start + Duration(seconds: 0.3) == Instant(seconds: 2.3))
        #expect((Instant(seconds: 2.3) - start) == .milliseconds(300))
        #expect((Instant(seconds: 2.3) - start).inSeconds == 0.3)
    }

    @Test("InputDeviceInfo spells it sizeMillimetres, as pointsPerMillimetre")
    func sizeMillimetres() {
        var info = InputDeviceInfo(id: InputDeviceID(1), name: "panel", systemName: "event1", kind: .touchscreen,
                                   capabilities: [.touch], sizeMillimetres: Size(width: 200, height: 120))
        #expect(info.sizeMillimetres == Size(width: 200, height: 120))
        info.sizeMillimetres = nil
        #expect(info.sizeMillimetres == nil)
    }

    @Test("the deprecated forms still work and mean the same", .tags(.deprecatedForms))
    @available(*, deprecated, message: "exercises the deprecated forms")
    func deprecatedForms() {
        // Instant's Double seconds.
        let start = Instant(seconds: 2)
        #expect(start.advanced(bySeconds: 0.3) == start + Duration(seconds: 0.3))
        #expect(Instant(seconds: 2.3).seconds(since: start) == (Instant(seconds: 2.3) - start).inSeconds)
        // DisplayLink.duration.
        let link = GestureEngine().addDisplayLink(frameRate: 60) { _ in }
        #expect(link.duration == 1.0 / 60)
        // sizeMillimeters, the property and the initializer's label.
        var info = InputDeviceInfo(id: InputDeviceID(1), name: "panel", systemName: "event1", kind: .touchscreen,
                                   capabilities: [.touch], sizeMillimeters: Size(width: 200, height: 120))
        #expect(info.sizeMillimetres == Size(width: 200, height: 120))
        #expect(info.sizeMillimeters == Size(width: 200, height: 120))
        info.sizeMillimeters = Size(width: 1, height: 2)
        #expect(info.sizeMillimetres == Size(width: 1, height: 2))
    }
}

extension Tag {
    @Tag static var deprecatedForms: Self
}
