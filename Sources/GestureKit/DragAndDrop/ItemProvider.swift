/// What a dragged item's data is: a MIME type, as Wayland's data device and GTK name it
/// (`text/uri-list`, `text/plain;charset=utf-8`), where UIKit names a uniform type identifier.
///
/// A type with parameters conforms to the same type without them (`text/plain;charset=utf-8`
/// is a `text/plain`), and every `text/…` type conforms to `text/plain` only when it is one.
public struct ContentType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The MIME type, as offered (`text/uri-list`).
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ mimeType: String) { self.rawValue = mimeType }

    /// RFC 2483's list of URIs, one a line (CRLF), lines starting with `#` comments: what a
    /// file manager offers for files (UTType's `.fileURL`/`.url`).
    public static let uriList = ContentType("text/uri-list")
    /// Text in UTF-8 (UTType's `.utf8PlainText`), the form Wayland and GTK apps offer first.
    public static let utf8PlainText = ContentType("text/plain;charset=utf-8")
    /// Text (UTType's `.plainText`); X11-era apps offer it without a charset.
    public static let plainText = ContentType("text/plain")

    /// The type without its parameters, in lower case (`text/plain`).
    public var baseType: String {
        let base = rawValue.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(base).trimmingSpaces.lowercased()
    }

    /// Whether data of this type is also data of `other`: the same base type, and every
    /// parameter `other` names has the same value here.
    public func conforms(to other: ContentType) -> Bool {
        guard baseType == other.baseType else { return false }
        let mine = parameters
        return other.parameters.allSatisfy { mine[$0.key] == $0.value }
    }

    var parameters: [String: String] {
        var result: [String: String] = [:]
        for part in rawValue.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            result[String(pair[0]).trimmingSpaces.lowercased()] = String(pair[1]).trimmingSpaces.lowercased()
        }
        return result
    }

    public var description: String { rawValue }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

/// Why an item provider gave no data.
public enum ItemProviderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The provider has no representation of the type.
    case noRepresentation(ContentType, offered: [ContentType])
    /// Loading the data failed (a system drag's source closed its pipe early, …).
    case loadFailed(ContentType, reason: String)

    public var description: String {
        switch self {
        case let .noRepresentation(type, offered):
            "no representation of \(type); offered: \(offered.map(\.rawValue).joined(separator: ", "))"
        case let .loadFailed(type, reason):
            "loading \(type) failed: \(reason)"
        }
    }
}

/// UIKit's (Foundation's) `NSItemProvider`: a dragged item's data, in one or more
/// representations, each a `ContentType` with its bytes or a loader that delivers them later
/// (a drag from another app delivers its data only once it is dropped, over a pipe).
///
/// Representations are kept in the order registered: the first is the richest, as
/// `NSItemProvider` orders them, and it is the order offered to other apps.
public final class ItemProvider {
    /// Delivers the data, or why there is none, once (at once or later).
    public typealias Loader = (@escaping (Result<[UInt8], ItemProviderError>) -> Void) -> Void

    private var representations: [(type: ContentType, load: Loader)] = []

    public init() {}

    /// A provider of `text` as `text/plain;charset=utf-8` and `text/plain`.
    public convenience init(text: String) {
        self.init()
        registerData(Array(text.utf8), for: .utf8PlainText)
        registerData(Array(text.utf8), for: .plainText)
    }

    /// A provider of `uris` as `text/uri-list` (RFC 2483: one a line, CRLF) and as plain
    /// text (one a line, LF), as file managers offer files.
    public convenience init(uris: [String]) {
        self.init()
        registerData(Array(uris.map { $0 + "\r\n" }.joined().utf8), for: .uriList)
        registerData(Array(uris.joined(separator: "\n").utf8), for: .utf8PlainText)
    }

    /// Registers `data` as the representation of `type` (replacing an earlier one of the
    /// same type, in its place).
    public func registerData(_ data: [UInt8], for type: ContentType) {
        registerDataRepresentation(for: type) { completion in completion(.success(data)) }
    }

    /// UIKit's `registerDataRepresentation(forTypeIdentifier:visibility:loadHandler:)`: a
    /// representation whose data is made when it is asked for.
    public func registerDataRepresentation(for type: ContentType, loader: @escaping Loader) {
        if let i = representations.firstIndex(where: { $0.type == type }) {
            representations[i].load = loader
        } else {
            representations.append((type, loader))
        }
    }

    /// UIKit's `registeredTypeIdentifiers`: the types, richest first.
    public var registeredContentTypes: [ContentType] { representations.map(\.type) }

    /// UIKit's `hasItemConformingToTypeIdentifier(_:)`.
    public func hasRepresentation(conformingTo type: ContentType) -> Bool {
        representations.contains { $0.type.conforms(to: type) }
    }

    /// UIKit's `loadDataRepresentation(forTypeIdentifier:completionHandler:)`: the data of
    /// the first representation that conforms to `type`. `completion` runs once: at once for
    /// data registered as bytes, later for data that must travel (a drop from another app).
    public func loadData(for type: ContentType, completion: @escaping (Result<[UInt8], ItemProviderError>) -> Void) {
        guard let r = representations.first(where: { $0.type.conforms(to: type) }) else {
            completion(.failure(.noRepresentation(type, offered: registeredContentTypes)))
            return
        }
        r.load(completion)
    }
}

/// UIKit's `UIDragItem`: one item of a drag, its data in `itemProvider`, and, within the app,
/// any object of yours (`localObject`: a drop in the same app reads it instead of the data).
public final class DragItem {
    public let itemProvider: ItemProvider
    /// UIKit's `localObject`: seen only by drop targets in this app.
    public var localObject: Any?

    public init(itemProvider: ItemProvider, localObject: Any? = nil) {
        self.itemProvider = itemProvider
        self.localObject = localObject
    }
}
