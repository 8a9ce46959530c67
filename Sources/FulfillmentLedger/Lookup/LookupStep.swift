import Foundation

/// One thing that happened to a purchase, in words: a line of a lookup's timeline.
public struct LookupStep: Hashable, Sendable, Codable {
    /// What kind of row it comes from.
    public enum Source: String, Hashable, Sendable, Codable, CaseIterable {
        /// An event of the ledger's log (a grant, a finish, a refund applied, a transfer).
        case event
        /// An attempt that granted nothing (rejected or failed).
        case attempt
        /// A store's refund or revocation as received (it may await its purchase, or be stale).
        case revocation
        /// A finish still owed to the store.
        case pendingFinish
    }

    /// When it happened.
    public var at: Date
    /// Where the step was read from.
    public var source: Source
    /// The player it concerns.
    public var playerID: String
    /// The short name: an event kind, `rejected`, `failed`, a revocation disposition, `finishPending`.
    public var kind: String
    /// What happened, in words.
    public var text: String

    /// Creates a step.
    public init(at: Date, source: Source, playerID: String, kind: String, text: String) {
        self.at = at
        self.source = source
        self.playerID = playerID
        self.kind = kind
        self.text = text
    }
}
