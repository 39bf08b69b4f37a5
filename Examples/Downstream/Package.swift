// swift-tools-version:6.0
// A package outside GestureKit that uses it as an app would: by path, through the
// `GestureKit` and `GestureLayout` products only. It builds with nothing but Swift
// installed (no libinput, no SDL); `scripts/check-downstream.sh` checks that, and the
// documentation's samples are its source files, so they compile.
import PackageDescription

let package = Package(
    name: "Downstream",
    dependencies: [
        .package(name: "GestureKit", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "downstream",
            dependencies: [
                .product(name: "GestureKit", package: "GestureKit"),
                .product(name: "GestureLayout", package: "GestureKit"),
            ]
        ),
    ]
)
