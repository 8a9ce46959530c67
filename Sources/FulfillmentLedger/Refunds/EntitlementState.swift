import Foundation

/// Whether a player owns an entitlement, as far as the ledger can tell.
public enum EntitlementStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// The ledger says the player owns it.
    case owned
    /// The ledger says the player does not own it.
    case notOwned
    /// The ledger could not be read: an error, never the same as `notOwned`.
    case unknown
}

/// A versioned view of a player's entitlements. A client keeps the snapshot with the
/// highest version and discards older ones, so a late answer never overwrites a newer one.
public struct EntitlementSnapshot: Hashable, Sendable, Codable {
    /// The player.
    public var playerID: String
    /// Strictly increases with every change of the player's entitlements; nil when unknown.
    public var version: Int64?
    /// Every catalog entitlement with its status (all `unknown` when the ledger could not be read).
    public var statuses: [String: EntitlementStatus]
    /// Owned entitlements, one per entitlement with the earliest purchase that pays for it
    /// as its source (empty when unknown).
    public var owned: [EntitlementRecord]
    /// Every purchase that pays for each owned entitlement, earliest first: the entitlement
    /// stays owned until all of them are refunded or revoked.
    public var paidBy: [String: [TransactionKey]] = [:]
    /// Why the ledger could not be read, when it could not.
    public var error: String?

    /// Whether the state is known.
    public var isKnown: Bool { error == nil }
}

extension Ledger {
    /// The player's owned entitlements and version. Throws when the ledger cannot be read:
    /// an unreadable ledger is never reported as "owns nothing".
    ///
    /// A subscription's entitlements count while its chain entitles the player at `date` (the
    /// ledger clock's now when nil), with the chain's latest period as their source: a lapsed
    /// subscription reads as not owned without any write.
    public func entitlements(_ playerID: String, at date: Date? = nil) async throws(LedgerError) -> EntitlementSnapshot {
        try checkIdentifier(playerID, "playerID")
        let catalog = self.catalog
        let readAt = date ?? clock.now()
        let (purchased, chains, version) = try await store.read { reader throws(LedgerError) in
            (
                try reader.entitlements(playerID: playerID),
                try reader.subscriptions(playerID: playerID, limit: SubscriptionChains.playerChainCountMax),
                try reader.entitlementVersion(playerID: playerID)
            )
        }
        var payments = purchased
        for chain in chains where chain.isEntitled(at: readAt) {
            let source = TransactionKey(store: chain.chain.store, transactionID: chain.latestPeriodID)
            for id in chain.entitlementIDs {
                payments.append(EntitlementRecord(entitlementID: id, grantedAt: chain.stateSignedAt, source: source))
            }
        }
        let owned = EntitlementOwnership.owned(payments)
        var paidBy: [String: [TransactionKey]] = [:]
        for payment in payments.sorted(by: { ($0.grantedAt, $0.source) < ($1.grantedAt, $1.source) }) {
            paidBy[payment.entitlementID, default: []].append(payment.source)
        }
        let ownedIDs = Set(owned.map(\.entitlementID))
        var statuses: [String: EntitlementStatus] = [:]
        for definition in catalog.entitlements { statuses[definition.id] = ownedIDs.contains(definition.id) ? .owned : .notOwned }
        for id in ownedIDs { statuses[id] = .owned }
        return EntitlementSnapshot(
            playerID: playerID, version: version, statuses: statuses, owned: owned, paidBy: paidBy, error: nil)
    }

    /// Like `entitlements(_:)`, but a ledger that cannot be read is an answer, not a throw:
    /// every status is `unknown` and the error is kept in the snapshot. Throws only
    /// `invalidArgument` for a player ID that is empty or too long, which no ledger state
    /// could answer: an invalid ID is refused, never reported as `unknown` (a fail-open
    /// entitlement would then read as owned on a healthy ledger).
    public func entitlementSnapshot(_ playerID: String) async throws(LedgerError) -> EntitlementSnapshot {
        try checkIdentifier(playerID, "playerID")
        do {
            return try await entitlements(playerID)
        } catch {
            var statuses: [String: EntitlementStatus] = [:]
            for definition in catalog.entitlements { statuses[definition.id] = .unknown }
            return EntitlementSnapshot(
                playerID: playerID, version: nil, statuses: statuses, owned: [], error: error.description)
        }
    }

    /// Whether to act as if the player owns `entitlementID`, applying the catalog's
    /// `unknownPolicy` when the status is unknown (fail closed unless declared fail open).
    public func treatsAsOwned(_ entitlementID: String, in snapshot: EntitlementSnapshot) -> Bool {
        switch snapshot.statuses[entitlementID] ?? .notOwned {
        case .owned: return true
        case .notOwned: return false
        case .unknown: return catalog.entitlement(id: entitlementID)?.unknownPolicy == .failOpen
        }
    }

    /// Whether ads may be shown: the state is known, no owned entitlement removes ads, and
    /// the player consented. Never true while the state is unknown. Throws only
    /// `invalidArgument` for an invalid player ID.
    public func adsAllowed(_ playerID: String, consent: Bool) async throws(LedgerError) -> Bool {
        let snapshot = try await entitlementSnapshot(playerID)
        guard snapshot.isKnown, consent else { return false }
        let catalog = self.catalog
        let adFree = snapshot.owned.contains { catalog.entitlement(id: $0.entitlementID)?.removesAds == true }
        return !adFree
    }

    /// Pending finishes older than `ageSeconds` (default: the configured warning age),
    /// oldest first. Google Play refunds a purchase not acknowledged within 3 days.
    public func overdueFinishes(olderThanSeconds ageSeconds: Int64? = nil) async throws(LedgerError) -> [PendingFinish] {
        let threshold = ageSeconds ?? configuration.finishWarningAgeSeconds
        let cutoff = clock.now().ledgerMilliseconds - threshold * 1000
        let limit = configuration.recoveryFinishCountMax
        return try await store.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: limit) }
            .filter { $0.enqueuedAt.ledgerMilliseconds <= cutoff }
    }
}
