import Testing

/// The issues `body` records (and the error it throws, as an issue), taken as known so that
/// they do not fail the test: for tests of how the tester reports failures.
func recordedIssues(_ body: () throws -> Void) -> [Issue] {
    final class Box: @unchecked Sendable { var issues: [Issue] = [] }
    let box = Box()
    _ = try? withKnownIssue(isIntermittent: true) {
        try body()
    } matching: { issue in
        box.issues.append(issue)
        return true
    }
    return box.issues
}
