import Foundation

/// The balance, inventory and entitlement changes of refunds and reversals, computed
/// from the ledger record of what the purchase granted.
enum RefundEffects {
    /// Takes back `units` units' worth of what `transaction` granted.
    ///
    /// Currencies follow the product's policy: `clawback` debits exactly, into a negative
    /// balance whose shortfall is debt; `floor` stops at zero and flags the player. Items
    /// are removed while the player still holds them. Entitlements go when every unit is refunded.
    static func takeBack(
        _ transaction: TransactionRecord, units: Int, removeEntitlements: Bool, policy: RefundPolicy, now: Date,
        writer: any LedgerWriter
    ) throws(LedgerError) -> (effect: [GrantLine], debt: [String: Int64]) {
        var effect: [GrantLine] = []
        var debt: [String: Int64] = [:]
        let player = transaction.playerID
        var lines = transaction.grants
        if removeEntitlements {
            // An entitlement this purchase came to hold after its grant (handed over when another
            // purchase was refunded) goes with it too.
            let granted = Set(lines.filter { $0.kind == .entitlement }.map(\.id))
            for held in try writer.entitlements(playerID: player)
            where held.source == transaction.key && !granted.contains(held.entitlementID) {
                lines.append(GrantLine(kind: .entitlement, id: held.entitlementID, quantity: 1))
            }
        }
        for line in lines {
            switch line.kind {
            case .currency:
                let amount = share(of: line, units: units, of: transaction.quantity)
                let balance = try writer.balances(playerID: player)[line.id] ?? 0
                let taken: Int64
                switch policy {
                case .clawback:
                    taken = amount
                    let after = try writer.addToBalance(playerID: player, currencyID: line.id, delta: -amount)
                    if after < 0 { debt[line.id] = min(amount, -after) }
                case .floor:
                    taken = max(0, min(amount, balance))
                    if taken > 0 { _ = try writer.addToBalance(playerID: player, currencyID: line.id, delta: -taken) }
                    if taken < amount {
                        try writer.insertPlayerFlag(
                            PlayerFlag(
                                flag: "refundFloored",
                                detail: "refund of \(transaction.key) took \(taken) of \(amount) \(line.id); the rest was already spent",
                                transaction: transaction.key, at: now), playerID: player)
                    }
                }
                if taken > 0 { effect.append(GrantLine(kind: .currency, id: line.id, quantity: -taken)) }
            case .item:
                let amount = share(of: line, units: units, of: transaction.quantity)
                let held = try writer.inventory(playerID: player)[line.id] ?? 0
                let taken = max(0, min(amount, held))
                if taken > 0 {
                    _ = try writer.addToInventory(playerID: player, itemID: line.id, delta: -taken)
                    effect.append(GrantLine(kind: .item, id: line.id, quantity: -taken))
                }
            case .entitlement:
                guard removeEntitlements else { continue }
                if try takeBackEntitlement(line.id, of: transaction, now: now, writer: writer) {
                    effect.append(GrantLine(kind: .entitlement, id: line.id, quantity: -1))
                }
            }
        }
        return (effect, debt)
    }

    /// Most of a player's records searched for another purchase that still pays for an entitlement.
    static let ownerSearchCountMax = 1_000

    /// Removes an entitlement this transaction holds, unless another unrefunded purchase of
    /// the same product pays for it too, in which case ownership moves to that purchase.
    /// Returns whether the player lost it.
    private static func takeBackEntitlement(
        _ entitlementID: String, of transaction: TransactionRecord, now: Date, writer: any LedgerWriter
    ) throws(LedgerError) -> Bool {
        let player = transaction.playerID
        let held = try writer.entitlements(playerID: player).first { $0.entitlementID == entitlementID }
        // Another transaction holds it: refunding this one takes nothing away.
        guard let held, held.source == transaction.key else { return false }
        _ = try writer.revokeEntitlement(playerID: player, entitlementID: entitlementID)
        for other in try writer.transactions(playerID: player, limit: ownerSearchCountMax)
        where other.key != transaction.key && other.productID == transaction.productID {
            let status = try writer.refundState(other.key)?.status ?? .active
            guard status == .active || status == .partiallyRefunded else { continue }
            let record = EntitlementRecord(entitlementID: entitlementID, grantedAt: now, source: other.key)
            _ = try writer.grantEntitlement(record, playerID: player)
            _ = try writer.bumpEntitlementVersion(playerID: player)
            return false
        }
        _ = try writer.bumpEntitlementVersion(playerID: player)
        return true
    }

    /// Gives back exactly what the not-yet-reversed take-back events of `transaction` took,
    /// and marks them reversed.
    static func giveBack(
        _ transaction: TransactionRecord, now: Date, writer: any LedgerWriter, eventCountMax: Int
    ) throws(LedgerError) -> [GrantLine] {
        let player = transaction.playerID
        var given: [GrantLine] = []
        let events = try writer.revocationEvents(for: transaction.key, limit: eventCountMax)
        for var stored in events where stored.event.kind.takesBack && stored.disposition == .applied && !stored.reversed {
            for line in stored.effect {
                let amount = -line.quantity
                switch line.kind {
                case .currency:
                    let after = try writer.addToBalance(playerID: player, currencyID: line.id, delta: amount)
                    try Ledger.noteDebtRepaid(
                        before: after - amount, granted: amount, currencyID: line.id, playerID: player,
                        source: transaction.key, now: now, writer: writer)
                case .item:
                    _ = try writer.addToInventory(playerID: player, itemID: line.id, delta: amount)
                case .entitlement:
                    let record = EntitlementRecord(entitlementID: line.id, grantedAt: now, source: transaction.key)
                    if try writer.grantEntitlement(record, playerID: player) {
                        _ = try writer.bumpEntitlementVersion(playerID: player)
                    }
                }
                given.append(GrantLine(kind: line.kind, id: line.id, quantity: amount))
            }
            stored.reversed = true
            try writer.updateRevocationEvent(stored)
        }
        return given
    }

    /// `units` units' share of a line granted for `quantity` units.
    private static func share(of line: GrantLine, units: Int, of quantity: Int) -> Int64 {
        precondition(quantity >= 1 && units >= 0 && units <= quantity, "refund units out of range")
        // Lines were granted as per-unit amount x quantity, so the division is exact.
        return line.quantity / Int64(quantity) * Int64(units)
    }
}
