import GestureFormat

/// The scene reader's JSON types, which live in GestureFormat (the package's one JSON reader
/// and writer; input recordings are read with them too).
public typealias JSONValue = GestureFormat.JSONValue
public typealias JSONParser = GestureFormat.JSONParser
public typealias JSONSyntaxError = GestureFormat.JSONSyntaxError
