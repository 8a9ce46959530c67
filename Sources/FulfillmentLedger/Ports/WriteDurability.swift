/// How soon a committed write must survive power loss. Every write is atomic and visible
/// to the next read as soon as its call returns; durability is the only difference.
public enum WriteDurability: String, Hashable, Sendable, CaseIterable {
    /// On disk (synced, at the store's configured level) before the call returns. Grants,
    /// refunds and everything a caller reports to a player use this.
    case durable
    /// Committed, but not synced on its own: it becomes durable with the next durable
    /// commit. A power loss or OS crash before that may lose it; a process crash does not.
    /// Used only for bookkeeping whose loss is repaired by redoing idempotent work, such as
    /// marking a platform finish done (a lost mark means the finish is sent again).
    case deferred
}
