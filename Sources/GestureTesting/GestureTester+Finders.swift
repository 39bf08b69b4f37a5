import GestureKit

/// Finders: a view by its id or by a predicate, a recognizer by its name, anywhere in the
/// engine's view tree (every root, every subview, hidden ones too). A finder that finds
/// nothing, or more than one where one is asked for, throws
/// ``GestureTestError/notFound(_:)``, naming the near misses: ids and names that differ by a
/// letter or two, or by case, or that contain what was asked.
extension GestureTester {
    /// Every view of the engine's tree, roots first, each before its subviews.
    public var allViews: [View] {
        var out: [View] = []
        func walk(_ v: View) {
            out.append(v)
            v.subviews.forEach(walk)
        }
        engine.roots.forEach(walk)
        return out
    }

    /// Every recognizer on a view of the engine's tree, in the views' order.
    public var allRecognizers: [GestureRecognizer] { allViews.flatMap(\.gestureRecognizers) }

    /// The one view whose `id` is `id`; throws naming the near misses, or the views that
    /// share the id.
    public func view(id: String) throws -> View {
        let views = allViews
        let found = views.filter { $0.id == id }
        if found.count == 1 { return found[0] }
        if found.count > 1 {
            throw GestureTestError.notFound("\(found.count) views have the id \"\(id)\": \(found.map { "\($0.debugName) at \(describe($0.frame))" }.joined(separator: ", ")); give them ids of their own, or find one with view(where:)")
        }
        let ids = views.compactMap(\.id)
        throw GestureTestError.notFound("no view has the id \"\(id)\"" + nearMisses(id, among: ids, kind: "ids") + " (\(views.count) views in the tree, \(ids.count) with ids)")
    }

    /// The one view of type `V` for which `predicate` holds (`description` names it in the
    /// error); throws if none does or several do.
    public func view(where predicate: (View) -> Bool, description: String = "the predicate") throws -> View {
        try view(View.self, where: predicate, description: description)
    }

    /// The one view of type `V` for which `predicate` holds.
    public func view<V: View>(_ type: V.Type, where predicate: (V) -> Bool, description: String = "the predicate") throws -> V {
        let candidates = allViews.compactMap { $0 as? V }
        let found = candidates.filter(predicate)
        if found.count == 1 { return found[0] }
        if found.count > 1 {
            throw GestureTestError.notFound("\(found.count) views of type \(V.self) match \(description): \(found.prefix(5).map(\.debugName).joined(separator: ", "))\(found.count > 5 ? ", …" : ""); narrow it")
        }
        throw GestureTestError.notFound("no view of type \(V.self) matches \(description) (\(candidates.count) views of that type in the tree\(candidates.isEmpty ? "" : ": " + candidates.prefix(5).map(\.debugName).joined(separator: ", ") + (candidates.count > 5 ? ", …" : "")))")
    }

    /// Every view for which `predicate` holds, in the tree's order.
    public func views(where predicate: (View) -> Bool) -> [View] { allViews.filter(predicate) }

    /// The one recognizer named `name` (its `name`, as the account prints it); throws naming
    /// the near misses, or the views of several with that name.
    public func recognizer(named name: String) throws -> GestureRecognizer {
        try recognizer(named: name, as: GestureRecognizer.self)
    }

    /// The one recognizer of type `R` named `name`.
    public func recognizer<R: GestureRecognizer>(named name: String, as type: R.Type) throws -> R {
        let all = allRecognizers
        let found = all.filter { $0.name == name }
        guard found.count <= 1 else {
            throw GestureTestError.notFound("\(found.count) recognizers are named \"\(name)\", on \(found.map { $0.view?.debugName ?? "no view" }.joined(separator: ", ")); name them apart")
        }
        guard let one = found.first else {
            throw GestureTestError.notFound("no recognizer is named \"\(name)\"" + nearMisses(name, among: all.map(\.name), kind: "names") + " (\(all.count) recognizers on the tree's views)")
        }
        guard let typed = one as? R else {
            throw GestureTestError.notFound("the recognizer named \"\(name)\" is a \(Swift.type(of: one)), not a \(R.self)")
        }
        return typed
    }

    private func nearMisses(_ wanted: String, among names: [String], kind: String) -> String {
        let w = wanted.lowercased()
        let near = Set(names).filter { name in
            let n = name.lowercased()
            return n == w || n.contains(w) || w.contains(n) || editDistance(n, w) <= max(1, w.count / 4)
        }.sorted()
        if !near.isEmpty { return "; near misses: \(near.prefix(8).map { "\"\($0)\"" }.joined(separator: ", "))" }
        let some = Set(names).sorted().prefix(8)
        return some.isEmpty ? "" : "; the \(kind) there are: \(some.map { "\"\($0)\"" }.joined(separator: ", "))\(Set(names).count > 8 ? ", …" : "")"
    }
}

/// The Levenshtein distance of two strings, by characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count), current = previous
    for i in 1...a.count {
        current[0] = i
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
