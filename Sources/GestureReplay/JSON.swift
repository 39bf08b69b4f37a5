import GestureFormat

/// The scene reader's JSON types, which live in GestureFormat (the package's one JSON reader
/// and writer; input recordings are read with them too).
package typealias JSONValue = GestureFormat.JSONValue
package typealias JSONParser = GestureFormat.JSONParser
package typealias JSONSyntaxError = GestureFormat.JSONSyntaxError
