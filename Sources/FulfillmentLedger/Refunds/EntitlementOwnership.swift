import Foundation

/// Entitlement ownership by purchase: a player owns an entitlement while at least one
/// unrefunded, unrevoked purchase pays for it, whichever product that purchase was.
///
/// The store keeps one `EntitlementRecord` per paying purchase. A refund, revoke or transfer
/// releases the purchase's records; the entitlement goes only with the last one. Reversals
/// and transfers add them back. Every change bumps the player's entitlement version.
enum EntitlementOwnership {
    /// Most of a player's records searched for a purchase written before schema 5 that pays
    /// for an entitlement without listing it.
    static let legacySearchCountMax = 1_000

    /// What releasing one purchase's payment for an entitlement did.
    enum Release: Equatable {
        /// The purchase did not pay for it; nothing changed.
        case notPaying
        /// The player keeps it: another purchase still pays for it.
        case kept(paidBy: TransactionKey)
        /// No purchase pays for it any more: the player lost it.
        case lost
    }

    /// The entitlements `record` pays for: its listed lines, the ones its payments stand for in
    /// the store (a hand-over made before schema 5), and for a record written before schema 5,
    /// what its catalog product grants now.
    static func paidFor(
        by record: TransactionRecord, catalog: ProductCatalog, writer: LedgerReader
    ) throws(LedgerError) -> [String] {
        var ids = record.entitlementIDs
        for payment in try writer.entitlements(playerID: record.playerID)
        where payment.source == record.key && !ids.contains(payment.entitlementID) {
            ids.append(payment.entitlementID)
        }
        if !record.entitlementsListed, let product = catalog.product(id: record.productID) {
            for line in product.rewards.lines where line.kind == .entitlement && !ids.contains(line.id) {
                ids.append(line.id)
            }
        }
        return ids
    }

    /// Records that `source` pays for `entitlementID`. Returns whether the player gained it
    /// (no other purchase paid for it before).
    @discardableResult
    static func pay(
        _ entitlementID: String, by source: TransactionKey, playerID: String, now: Date, writer: LedgerWriter
    ) throws(LedgerError) -> Bool {
        let ownedBefore = try isOwned(entitlementID, playerID: playerID, reader: writer)
        let record = EntitlementRecord(entitlementID: entitlementID, grantedAt: now, source: source)
        guard try writer.grantEntitlement(record, playerID: playerID) else { return false }
        _ = try writer.bumpEntitlementVersion(playerID: playerID)
        return !ownedBefore
    }

    /// Releases `record`'s payment for `entitlementID`. When it was the last payment, a
    /// purchase written before schema 5 whose product grants the entitlement takes over, if
    /// one is in force.
    static func release(
        _ entitlementID: String, of record: TransactionRecord, catalog: ProductCatalog, now: Date,
        writer: LedgerWriter
    ) throws(LedgerError) -> Release {
        let player = record.playerID
        guard try writer.releaseEntitlement(playerID: player, entitlementID: entitlementID, source: record.key) else {
            return .notPaying
        }
        _ = try writer.bumpEntitlementVersion(playerID: player)
        if let other = try writer.entitlements(playerID: player).first(where: { $0.entitlementID == entitlementID }) {
            return .kept(paidBy: other.source)
        }
        if let legacy = try legacyPayer(of: entitlementID, besides: record, catalog: catalog, reader: writer) {
            try pay(entitlementID, by: legacy, playerID: player, now: now, writer: writer)
            return .kept(paidBy: legacy)
        }
        return .lost
    }

    /// Whether the player owns `entitlementID`: some purchase pays for it.
    static func isOwned(_ entitlementID: String, playerID: String, reader: LedgerReader) throws(LedgerError) -> Bool {
        try reader.entitlements(playerID: playerID).contains { $0.entitlementID == entitlementID }
    }

    /// Whether a purchase is in force: not refunded in full and not revoked.
    static func isInForce(_ key: TransactionKey, reader: LedgerReader) throws(LedgerError) -> Bool {
        let status = try reader.refundState(key)?.status ?? .active
        return status == .active || status == .partiallyRefunded
    }

    /// A record of the same player written before schema 5, in force, whose catalog product
    /// grants `entitlementID` though its grants did not list it (the player owned it already).
    private static func legacyPayer(
        of entitlementID: String, besides record: TransactionRecord, catalog: ProductCatalog, reader: LedgerReader
    ) throws(LedgerError) -> TransactionKey? {
        for other in try reader.transactions(playerID: record.playerID, limit: legacySearchCountMax)
        where other.key != record.key && !other.entitlementsListed {
            let grants = catalog.product(id: other.productID)?.rewards.lines
                .contains { $0.kind == .entitlement && $0.id == entitlementID } ?? false
            if grants, try isInForce(other.key, reader: reader) { return other.key }
        }
        return nil
    }

    /// One record per owned entitlement, the earliest payment first: what a player owns,
    /// without the other purchases that pay for the same entitlement.
    static func owned(_ payments: [EntitlementRecord]) -> [EntitlementRecord] {
        var seen = Set<String>()
        var owned: [EntitlementRecord] = []
        for payment in payments.sorted(by: { ($0.entitlementID, $0.grantedAt, $0.source) < ($1.entitlementID, $1.grantedAt, $1.source) })
        where seen.insert(payment.entitlementID).inserted {
            owned.append(payment)
        }
        return owned
    }
}
