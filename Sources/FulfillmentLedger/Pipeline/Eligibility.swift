import Foundation

/// Whether a player may start a purchase now. Checked before payment only: a payment
/// that already happened is always fulfilled, whatever the limit says since.
public enum Eligibility: Hashable, Sendable {
    /// The purchase may start.
    case eligible
    /// The product's limit is used up for the current period.
    case limitReached(limit: PurchaseLimit, count: Int, resetsAt: Date?)
    /// A non-consumable the player already owns.
    case alreadyOwned
    /// No such catalog product.
    case unknownProduct
}

extension Ledger {
    /// Whether `playerID` may buy catalog product `productID` now.
    public func eligibility(playerID: String, productID: String) throws(LedgerError) -> Eligibility {
        try checkIdentifier(playerID, "playerID")
        guard let product = catalog.product(id: productID) else { return .unknownProduct }
        let now = clock.now()
        return try store.read { reader throws(LedgerError) -> Eligibility in
            if product.kind == .nonConsumable {
                let owned = Set(try reader.entitlements(playerID: playerID).map(\.entitlementID))
                let granted = product.rewards.lines.filter { $0.kind == .entitlement }.map(\.id)
                if !granted.isEmpty, granted.allSatisfy(owned.contains) { return .alreadyOwned }
            }
            guard let limit = product.limit else { return .eligible }
            let period = PurchasePeriod.key(for: limit.period, at: now)
            let count = try reader.purchaseCount(playerID: playerID, productID: product.id, period: period)
            guard count >= limit.count else { return .eligible }
            let resetsAt = limit.period == .week ? PurchasePeriod.nextWeekStart(after: now) : nil
            return .limitReached(limit: limit, count: count, resetsAt: resetsAt)
        }
    }
}
