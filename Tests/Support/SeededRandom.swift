import GestureMockDevice

/// The seeded generator of the random tests (SplitMix64, GestureMockDevice's, which seeds
/// `gesturekit soak`): the same seed gives the same cases on every machine and every run.
package typealias SeededRandom = SplitMix64
