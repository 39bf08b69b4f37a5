/// GestureKit's version, as `gesturekit --version` and `photowall --version` print it.
public enum GestureKitVersion {
    /// Semantic version of this source tree.
    public static let string = "0.3.0"
}
