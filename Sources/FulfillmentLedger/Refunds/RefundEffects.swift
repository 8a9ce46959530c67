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
        for line in transaction.grants {
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
                if try writer.revokeEntitlement(playerID: player, entitlementID: line.id) {
                    _ = try writer.bumpEntitlementVersion(playerID: player)
                    effect.append(GrantLine(kind: .entitlement, id: line.id, quantity: -1))
                }
            }
        }
        return (effect, debt)
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
                    _ = try writer.addToBalance(playerID: player, currencyID: line.id, delta: amount)
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
