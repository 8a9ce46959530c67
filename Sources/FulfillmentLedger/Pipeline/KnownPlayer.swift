extension LedgerReader {
    /// Whether the ledger holds anything at all for `playerID`: an event, an attempt (a
    /// submission that granted nothing), a purchase record, a balance (debt included), an item, an entitlement, a flag, a subscription chain, an
    /// entitlement change or a reset.
    ///
    /// Support tools tell "this player ID is unknown" (a typo, another game's ID) apart from
    /// "a known player with no purchases". Every grant, spend, refund and reset appends an
    /// event, so the first read answers almost every known player; the others cover rows an
    /// older ledger may hold without an event. Each read is bounded (`limit: 1`, or one
    /// player's own small maps).
    public func isKnownPlayer(_ playerID: String) throws(LedgerError) -> Bool {
        if try !events(playerID: playerID, limit: 1).isEmpty { return true }
        if try !attempts(playerID: playerID, limit: 1).isEmpty { return true }
        if try !transactions(playerID: playerID, limit: 1).isEmpty { return true }
        if try !balances(playerID: playerID).isEmpty { return true }
        if try !inventory(playerID: playerID).isEmpty { return true }
        if try !entitlements(playerID: playerID).isEmpty { return true }
        if try !playerFlags(playerID: playerID, limit: 1).isEmpty { return true }
        if try !subscriptions(playerID: playerID, limit: 1).isEmpty { return true }
        if try entitlementVersion(playerID: playerID) > 0 { return true }
        return try lastReset(playerID: playerID) != nil
    }
}

extension Ledger {
    /// Whether the ledger holds anything at all for `playerID` (see
    /// `LedgerReader.isKnownPlayer(_:)`), in one read. An ID longer than a player ID can be
    /// is unknown, not an error, so a search box can ask with any text.
    public func isKnownPlayer(_ playerID: String) async throws(LedgerError) -> Bool {
        guard !playerID.isEmpty, playerID.utf8.count <= configuration.identifierByteCountMax else { return false }
        return try await store.read { reader throws(LedgerError) in try reader.isKnownPlayer(playerID) }
    }
}
