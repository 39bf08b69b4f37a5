// swift-tools-version:6.0
// Packages outside GestureKit that use it inside a toolkit, as apps would: by path, through
// the `GestureKit` product and `GestureGTK` (a GTK 4 app) or `GestureSDL` (an SDL2 app).
// `scripts/check-downstream-toolkits.sh` builds both, runs the SDL one (it needs no display),
// and checks that each links its toolkit and nothing else of GestureKit's (no libinput, no
// libwayland, no other toolkit). The documentation's GTK and SDL samples are these files.
import PackageDescription

let package = Package(
    name: "DownstreamToolkits",
    dependencies: [
        .package(name: "GestureKit", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "downstream-gtk",
            dependencies: [
                .product(name: "GestureKit", package: "GestureKit"),
                .product(name: "GestureGTK", package: "GestureKit"),
            ]
        ),
        .executableTarget(
            name: "downstream-sdl",
            dependencies: [
                .product(name: "GestureKit", package: "GestureKit"),
                .product(name: "GestureSDL", package: "GestureKit"),
            ]
        ),
    ]
)
