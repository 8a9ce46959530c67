import Foundation

/// Which player a store's account token names (`AccountTokenBinding`): learned from grants and
/// registrations, read when a purchase reaches the server without its player.
extension Ledger {
    /// Registers `playerID`'s account token for `store`, computed with the configured account
    /// binding (`LedgerConfiguration.accountBinding(for:playerID:)`), so that a purchase the
    /// store delivers to the server alone (App Store `ONE_TIME_CHARGE`) is granted to the
    /// player. A game calls it before a player's first purchase (at sign-in, or as it starts a
    /// purchase); a repeat returns the recorded binding and changes nothing.
    ///
    /// Throws `invalidArgument`, changing nothing, for a player ID the ledger refuses, a binding
    /// that writes an empty or over-long token, or a token the ledger already holds for another
    /// player (the binding function changed, or two players share a token).
    public func bindAccountToken(store: PlatformStore, playerID: String) async throws(LedgerError) -> AccountTokenBinding {
        try checkStore(store)
        try checkIdentifier(playerID, "playerID")
        let token = configuration.accountBinding(for: store, playerID: playerID)
        try checkIdentifier(token, "account token")
        let binding = AccountTokenBinding(
            store: store, token: token, playerID: playerID, boundAt: clock.now(), source: .registration)
        let recorded = try await commit { writer throws(LedgerError) -> AccountTokenBinding in
            if let recorded = try writer.accountTokenBinding(store: store, token: token) { return recorded }
            try writer.insertAccountTokenBinding(binding)
            return binding
        }
        guard recorded.playerID == playerID else {
            throw .invalidArgument(
                "the \(store) account token \(token) already names player \(recorded.playerID), not \(playerID)")
        }
        return recorded
    }

    /// The binding the ledger holds for `store`'s account token `token`, if any. A token the
    /// ledger could never hold (empty, too long) answers nil, so any text can be asked about.
    public func accountTokenBinding(store: PlatformStore, token: String) async throws(LedgerError) -> AccountTokenBinding? {
        try checkStore(store)
        guard !token.isEmpty, token.utf8.count <= configuration.identifierByteCountMax else { return nil }
        return try await self.store.read { reader throws(LedgerError) in
            try reader.accountTokenBinding(store: store, token: token)
        }
    }

    /// Inside a grant: records the binding its verified token proved (the verifier's token
    /// matched the player's), unless the token is bound already; the first binding stays.
    func learnAccountToken(
        _ verified: VerifiedTransaction, playerID: String, now: Date, writer: LedgerWriter
    ) throws(LedgerError) {
        guard let token = verified.accountBinding, !token.isEmpty,
            token.utf8.count <= configuration.identifierByteCountMax,
            try writer.accountTokenBinding(store: verified.store, token: token) == nil
        else { return }
        try writer.insertAccountTokenBinding(
            AccountTokenBinding(store: verified.store, token: token, playerID: playerID, boundAt: now, source: .grant))
    }
}
