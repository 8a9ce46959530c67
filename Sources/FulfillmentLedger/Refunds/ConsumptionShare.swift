import Foundation

/// How much of a granted purchase the player has used up, as the stores' refund reviews ask it
/// (Apple's `consumptionPercentage`, Google's `consumptionPercentageMilliunits`): one rule for
/// every store, measured from what the ledger granted and what the player still holds.
public enum ConsumptionShare {
    /// 100 % in milliunits, the most a share can be.
    public static let milliunitsMax = 100_000

    /// The share of the record's granted currency and item units the player no longer holds,
    /// in milliunits, rounded down: `(granted - held) * 100 000 / granted`, where `granted` sums
    /// the record's currency and item lines and `held` sums, per line, the player's current
    /// balance or stack clamped to 0...the line's quantity. Units bought elsewhere can make the
    /// player look as if they still hold this grant, so the share is a lower bound. Nil when
    /// the record grants no units (entitlements only), which the ledger cannot measure.
    public static func milliunits(
        of record: TransactionRecord, balances: [String: Int64], inventory: [String: Int64]
    ) -> Int? {
        var granted: Int64 = 0
        var held: Int64 = 0
        for line in record.grants where line.kind != .entitlement && line.quantity > 0 {
            let current = (line.kind == .currency ? balances[line.id] : inventory[line.id]) ?? 0
            let (sum, overflow) = granted.addingReportingOverflow(line.quantity)
            guard !overflow else { return nil }
            granted = sum
            held += max(0, min(current, line.quantity))
        }
        guard granted > 0 else { return nil }
        // Full width, so the product never overflows; held <= granted keeps the quotient <= 100 000.
        let product = (granted - held).multipliedFullWidth(by: Int64(milliunitsMax))
        return Int(granted.dividingFullWidth(product).quotient)
    }
}
