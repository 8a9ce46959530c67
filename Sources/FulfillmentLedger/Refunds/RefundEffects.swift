import Foundation

/// The balance, inventory and entitlement changes of refunds and reversals, computed
/// from the ledger record of what the purchase granted.
enum RefundEffects {
    /// What taking back part of a purchase changed.
    struct TakeBack {
        /// Per line: negative for what was taken, 0 for an entitlement the purchase no longer
        /// pays for while another purchase keeps it owned.
        var effect: [GrantLine] = []
        /// Debt per currency the refund left (the balance below zero because of it).
        var debt: [String: Int64] = [:]
        /// How the refund changed the absorbed debt, per currency (`RevocationRecord.absorbedChange`).
        var absorbed: [String: Int64] = [:]
    }

    /// Takes back `units` units' worth of what `transaction` granted, `unitsBefore` having
    /// been refunded by earlier events.
    ///
    /// Debt is owed by the player, not by a product: the part of a currency grant that repaid
    /// debt (`GrantLine.debtRepaid`) is owed again, whatever the refund policy. The rest
    /// follows the product's policy: `clawback` debits exactly, into a negative balance whose
    /// shortfall is debt; `floor` stops at zero and flags the player. Items are removed while
    /// the player still holds them, and any shortfall is flagged. With `removeEntitlements`,
    /// the purchase stops paying for its entitlements; each goes only if no other purchase
    /// pays for it.
    static func takeBack(
        _ transaction: TransactionRecord, units: Int, unitsBefore: Int, removeEntitlements: Bool,
        policy: RefundPolicy, catalog: ProductCatalog, now: Date, writer: LedgerWriter
    ) throws(LedgerError) -> TakeBack {
        var result = TakeBack()
        let player = transaction.playerID
        for line in transaction.grants {
            switch line.kind {
            case .currency:
                try takeCurrency(
                    line, of: transaction, units: units, unitsBefore: unitsBefore, policy: policy, now: now,
                    writer: writer, into: &result)
            case .item:
                let amount = share(of: line, units: units, of: transaction.quantity)
                let held = try writer.inventory(playerID: player)[line.id] ?? 0
                let taken = max(0, min(amount, held))
                if taken > 0 {
                    _ = try writer.addToInventory(playerID: player, itemID: line.id, delta: -taken)
                    result.effect.append(GrantLine(kind: .item, id: line.id, quantity: -taken))
                }
                if taken < amount {
                    try flagShortfall(transaction, taken: taken, of: amount, line.id, now: now, writer: writer)
                }
            case .entitlement:
                continue
            }
        }
        guard removeEntitlements else { return result }
        for entitlementID in try EntitlementOwnership.paidFor(by: transaction, catalog: catalog, writer: writer) {
            switch try EntitlementOwnership.release(entitlementID, of: transaction, catalog: catalog, now: now, writer: writer) {
            case .notPaying:
                continue
            case .lost:
                result.effect.append(GrantLine(kind: .entitlement, id: entitlementID, quantity: -1))
            case .kept(let payer):
                result.effect.append(GrantLine(kind: .entitlement, id: entitlementID, quantity: 0))
                try writer.appendEvent(
                    LedgerEvent(
                        kind: .entitlementKept, playerID: player, transaction: transaction.key, at: now,
                        detail: "\(entitlementID) stays owned: \(payer) still pays for it"))
            }
        }
        return result
    }

    /// One currency line: the debt it repaid is owed again, the rest by policy.
    ///
    /// Gems are fungible, so restored debt is netted against a positive balance at once:
    /// other purchases' gems pay it. That amount is absorbed debt (`LedgerReader.absorbedDebt`),
    /// and a floor refund may take up to it beyond the balance, because those gems went to the
    /// debt, not to the player. So refunds in any order leave at least the debt there was.
    private static func takeCurrency(
        _ line: GrantLine, of transaction: TransactionRecord, units: Int, unitsBefore: Int, policy: RefundPolicy,
        now: Date, writer: LedgerWriter, into result: inout TakeBack
    ) throws(LedgerError) {
        let player = transaction.playerID
        let amount = share(of: line, units: units, of: transaction.quantity)
        // The repaid debt is spread over the units, so partial refunds restore it in step.
        let repaid = line.debtRepaid ?? 0
        let debtPart = proportion(repaid, units: unitsBefore + units, of: transaction.quantity)
            - proportion(repaid, units: unitsBefore, of: transaction.quantity)
        let rest = amount - debtPart
        let balance = try writer.balances(playerID: player)[line.id] ?? 0
        let restTaken: Int64
        var reclaimed: Int64 = 0
        switch policy {
        case .clawback:
            restTaken = rest
        case .floor:
            let absorbed = try writer.absorbedDebt(playerID: player, currencyID: line.id)
            restTaken = max(0, min(rest, max(0, balance) + absorbed))
            reclaimed = max(0, restTaken - max(0, balance))
        }
        // What of the restored debt part the remaining positive balance covers at once.
        let covered = min(debtPart, max(0, balance - restTaken))
        let absorbedChange = covered - reclaimed
        if absorbedChange != 0 {
            _ = try writer.addToAbsorbedDebt(playerID: player, currencyID: line.id, delta: absorbedChange)
            result.absorbed[line.id] = absorbedChange
        }
        let taken = restTaken + debtPart
        guard taken > 0 || rest > 0 else { return }
        let after = taken > 0 ? try writer.addToBalance(playerID: player, currencyID: line.id, delta: -taken) : balance
        if after < 0 { result.debt[line.id] = min(taken, -after) }
        if taken > 0 { result.effect.append(GrantLine(kind: .currency, id: line.id, quantity: -taken)) }
        if restTaken < rest {
            try flagShortfall(transaction, taken: taken, of: amount, line.id, now: now, writer: writer)
        }
    }

    /// Flags what a refund could not take back because the player no longer had it.
    private static func flagShortfall(
        _ transaction: TransactionRecord, taken: Int64, of amount: Int64, _ assetID: String, now: Date,
        writer: LedgerWriter
    ) throws(LedgerError) {
        try writer.insertPlayerFlag(
            PlayerFlag(
                flag: "refundFloored",
                detail: "refund of \(transaction.key) took \(taken) of \(amount) \(assetID); the other \(amount - taken) had already been spent or used",
                transaction: transaction.key, at: now), playerID: transaction.playerID)
    }

    /// Gives back exactly what the not-yet-reversed take-back events of `transaction` took,
    /// and marks them reversed.
    ///
    /// After a Reset Game that followed the refund, the reset's rule wins over the reversal:
    /// currencies and items the refund took from progress the reset has since cleared are not
    /// given back (the player would have lost them to the reset anyway); debt the refund left
    /// is cancelled, and entitlements come back, since a reset keeps both.
    static func giveBack(
        _ transaction: TransactionRecord, catalog: ProductCatalog, now: Date, writer: LedgerWriter,
        eventCountMax: Int
    ) throws(LedgerError) -> [GrantLine] {
        let player = transaction.playerID
        let lastReset = try writer.lastReset(playerID: player)
        var given: [GrantLine] = []
        let events = try writer.revocationEvents(for: transaction.key, limit: eventCountMax)
        for var stored in events where stored.event.kind.takesBack && stored.disposition == .applied && !stored.reversed {
            let afterReset = lastReset.map { $0 > stored.receivedAt } ?? false
            var withheld: [GrantLine] = []
            for line in stored.effect {
                switch line.kind {
                case .currency:
                    let amount = -line.quantity
                    var give = amount
                    if afterReset {
                        let owed = max(0, -(try writer.balances(playerID: player)[line.id] ?? 0))
                        give = min(amount, stored.debtCreated[line.id] ?? 0, owed)
                        if give < amount { withheld.append(GrantLine(kind: .currency, id: line.id, quantity: amount - give)) }
                    }
                    guard give > 0 else { continue }
                    let after = try writer.addToBalance(playerID: player, currencyID: line.id, delta: give)
                    try Ledger.noteDebtRepaid(
                        before: after - give, granted: give, currencyID: line.id, playerID: player,
                        source: transaction.key, now: now, writer: writer)
                    given.append(GrantLine(kind: .currency, id: line.id, quantity: give))
                case .item:
                    let amount = -line.quantity
                    if afterReset {
                        withheld.append(GrantLine(kind: .item, id: line.id, quantity: amount))
                        continue
                    }
                    _ = try writer.addToInventory(playerID: player, itemID: line.id, delta: amount)
                    given.append(GrantLine(kind: .item, id: line.id, quantity: amount))
                case .entitlement:
                    // A subscription's entitlements follow its chain (`SubscriptionChains.periodGivenBack`).
                    if transaction.productKind == .autoRenewable { continue }
                    let gained = try EntitlementOwnership.pay(
                        line.id, by: transaction.key, playerID: player, now: now, writer: writer)
                    given.append(GrantLine(kind: .entitlement, id: line.id, quantity: gained ? 1 : 0))
                }
            }
            for (currencyID, change) in stored.absorbedChange.sorted(by: { $0.key < $1.key }) {
                _ = try writer.addToAbsorbedDebt(playerID: player, currencyID: currencyID, delta: -change)
            }
            if !withheld.isEmpty {
                try writer.appendEvent(
                    LedgerEvent(
                        kind: .reversalAfterReset, playerID: player, transaction: transaction.key, at: now,
                        detail: "reset after the refund cleared \(withheld.map(\.description).joined(separator: ", ")); not given back"))
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

    /// `total × units / quantity`, rounded down, without overflow.
    static func proportion(_ total: Int64, units: Int, of quantity: Int) -> Int64 {
        precondition(quantity >= 1 && units >= 0 && units <= quantity && total >= 0, "proportion out of range")
        let product = total.multipliedFullWidth(by: Int64(units))
        return Int64.init(Int64(quantity).dividingFullWidth(product).quotient)
    }
}
