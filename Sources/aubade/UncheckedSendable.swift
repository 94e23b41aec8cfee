/// Carries a value that is not Sendable across a queue hop whose ordering makes it safe: the
/// value is created on one queue and used only on another, never on both at once.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }
}
