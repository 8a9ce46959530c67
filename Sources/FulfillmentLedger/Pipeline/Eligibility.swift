import Foundation

/// Whether a player may start a purchase now. Checked before payment only: a payment
/// that already happened is always fulfilled, whatever the limit says since.
public enum Eligibility: Hashable, Sendable {
    /// The purchase may start.
    case eligible
    /// The units already bought in the current period plus the quantity asked for exceed the
    /// product's limit: `limit.count - count` units (possibly 0) may still be bought.
    case limitReached(limit: PurchaseLimit, count: Int, resetsAt: Date?)
    /// A non-consumable the player already owns.
    case alreadyOwned
    /// No such catalog product.
    case unknownProduct
    /// The quantity cannot be bought in one purchase: it is below 1, above
    /// `LedgerConfiguration.quantityMax`, or above 1 for a non-consumable. `quantityMax` is the
    /// most this product allows (1 for a non-consumable). `fulfill` would reject it `invalidQuantity`.
    case invalidQuantity(quantity: Int, quantityMax: Int)
}

extension Ledger {
    /// Whether `playerID` may buy `quantity` units (default 1) of catalog product `productID`
    /// now. Ask with the quantity the game will request from the store: the limit is checked
    /// against the units already bought in the period plus `quantity`.
    public func eligibility(playerID: String, productID: String, quantity: Int = 1) async throws(LedgerError) -> Eligibility {
        try checkIdentifier(playerID, "playerID")
        guard let product = catalog.product(id: productID) else { return .unknownProduct }
        // The same bounds `fulfill` enforces, so "eligible" never leads to an invalidQuantity rejection.
        let quantityMax = product.kind == .consumable ? configuration.quantityMax : 1
        guard quantity >= 1, quantity <= quantityMax else {
            return .invalidQuantity(quantity: quantity, quantityMax: quantityMax)
        }
        let now = clock.now()
        return try await store.read { reader throws(LedgerError) -> Eligibility in
            if product.kind == .nonConsumable, try Self.owns(product, playerID: playerID, reader: reader) {
                return .alreadyOwned
            }
            guard let limit = product.limit else { return .eligible }
            let period = PurchasePeriod.key(for: limit.period, at: now)
            let count = try reader.purchaseCount(playerID: playerID, productID: product.id, period: period)
            // count + quantity > limit.count, written so a count read from a damaged file cannot overflow.
            guard count > limit.count - quantity else { return .eligible }
            let resetsAt = limit.period == .week ? PurchasePeriod.nextWeekStart(after: now) : nil
            return .limitReached(limit: limit, count: count, resetsAt: resetsAt)
        }
    }

    /// Most of a player's records searched for a purchase of a non-consumable.
    static let ownedSearchCountMax = 1_000

    /// Whether the player owns non-consumable `product`: a purchase of it is in force, or it
    /// grants only entitlements and the player owns them all (buying it would give nothing).
    /// Owning its entitlements through another product is not owning this one: the Founder's
    /// Pack still sells gems to a player who bought Remove Ads.
    static func owns(_ product: Product, playerID: String, reader: LedgerReader) throws(LedgerError) -> Bool {
        for record in try reader.transactions(playerID: playerID, limit: ownedSearchCountMax)
        where record.productID == product.id {
            if try EntitlementOwnership.isInForce(record.key, reader: reader) { return true }
        }
        let lines = product.rewards.lines
        guard !lines.isEmpty, lines.allSatisfy({ $0.kind == .entitlement }) else { return false }
        let owned = Set(try reader.entitlements(playerID: playerID).map(\.entitlementID))
        return lines.allSatisfy { owned.contains($0.id) }
    }
}
