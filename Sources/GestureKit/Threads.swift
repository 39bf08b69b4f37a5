// The one-thread rule, stated where the compiler checks it (the "Threads" article).
//
// An engine, its views, its recognizers and its display links belong to one thread: the one
// that feeds the engine input and time. Nothing in them is locked, and none is needed: the
// engine runs one step at a time on the time it is given, so the same input always gives the
// same output. These classes are not Sendable, and say so explicitly: under Swift 6, code that
// would share one with another thread (capture it in a `@Sendable` closure, pass it where
// `Sendable` is required) does not compile, the message names the rule, and a subclass or a
// retroactive `@unchecked Sendable` cannot make them Sendable. What crosses threads is values:
// `TouchFrame`, `InputEvent`, `Instant`, `Point` and the rest of the input types are Sendable.

@available(*, unavailable, message: "a GestureEngine belongs to the one thread that feeds it input and time (the Threads article)")
extension GestureEngine: Sendable {}

@available(*, unavailable, message: "a View belongs to its engine's thread (the Threads article)")
extension View: Sendable {}

@available(*, unavailable, message: "a GestureRecognizer belongs to its engine's thread (the Threads article)")
extension GestureRecognizer: Sendable {}

@available(*, unavailable, message: "a DisplayLink belongs to its engine's thread (the Threads article)")
extension DisplayLink: Sendable {}
