/// How a submission that granted nothing ended.
public enum AttemptOutcome: String, Hashable, Sendable, Codable, CaseIterable {
    /// The pipeline answered `.rejected`: nothing changed, and the reason says why.
    case rejected
    /// An infrastructure failure was thrown (storage, verifier, an injected fault): nothing
    /// was finished, and a retry decides.
    case failed
}
