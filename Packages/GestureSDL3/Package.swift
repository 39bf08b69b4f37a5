// swift-tools-version:6.0
// GestureSDL3: SDL3's input into GestureKit's engine, with SDL3's nanosecond event times and
// its pen events. A package of its own beside GestureKit (which it depends on by path):
// SDL3 is in Debian 13 and later (libsdl3-dev) but not in Debian 12, so it cannot be a
// target of GestureKit's own package, which must build everywhere. GestureKit's tests build
// and test it where pkg-config finds SDL3 (make test-debian13), and say so where it does not.
import PackageDescription

let package = Package(
    name: "GestureSDL3",
    products: [
        .library(name: "GestureSDL3", targets: ["GestureSDL3"]),
    ],
    dependencies: [
        .package(name: "GestureKit", path: "../.."),
    ],
    targets: [
        // SDL3 (a system library), touched only by GestureSDL3.
        .systemLibrary(name: "CSDL3", pkgConfig: "sdl3", providers: [.apt(["libsdl3-dev"])]),
        .target(name: "GestureSDL3", dependencies: [
            "CSDL3",
            .product(name: "GestureKit", package: "GestureKit"),
            .product(name: "GestureInput", package: "GestureKit"),
        ]),
        .testTarget(name: "GestureSDL3Tests", dependencies: ["GestureSDL3", "CSDL3",
                                                             .product(name: "GestureKit", package: "GestureKit")]),
    ]
)
