import BenchSupport

// Records two-finger frames of the recording benchmark (the count from the argument: default
// 100,000) to a file in /dev/shm, for a profiler:
// `valgrind --tool=callgrind .build/release/profile-recording 20000`; the difference of two
// counts divided by the difference of frames is the cost of one frame.
let frames = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000
let scene = RecordingScene()
for _ in 0..<frames { scene.recordFrame() }
scene.writer.flush()
print("\(frames) frames, \(scene.writer.size) bytes")
