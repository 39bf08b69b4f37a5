import BenchSupport

// Runs display-link frames of the scrolling benchmark's decelerating collection view (items
// and frames from the arguments: default 1,000,000 and 100,000), for a profiler:
// `valgrind --tool=callgrind .build/release/profile-scroll` or `heaptrack`.
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let items = arguments.first ?? 1_000_000
let frames = arguments.dropFirst().first ?? 100_000
let scene = ScrollScene(items: items)
for _ in 0..<frames { scene.frame() }
print("\(scene.frames) frames, offset \(scene.collectionView.contentOffset.y)")
