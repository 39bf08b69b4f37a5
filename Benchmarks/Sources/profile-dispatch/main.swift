// profile-dispatch TOUCHES COPIES panning|undecided FRAMES: sends FRAMES frames through the
// dispatch benchmark's scene, for a profiler (perf record, valgrind --tool=callgrind).
import BenchSupport

let a = CommandLine.arguments
let touches = a.count > 1 ? Int(a[1])! : 2
let copies = a.count > 2 ? Int(a[2])! : 1
let mode: DispatchScene.Mode = a.count > 3 && a[3] == "undecided" ? .undecided : .panning
let frames = a.count > 4 ? Int(a[4])! : 1_000_000
let scene = DispatchScene(touches: touches, copies: copies, mode: mode)
scene.check(mode: mode, copies: copies)
let clock = ContinuousClock()
let start = clock.now
for _ in 0..<frames { scene.sendNext() }
let elapsed = clock.now - start
print("\(frames) frames, \(elapsed / frames) per frame, actions \(scene.counter.value)")
