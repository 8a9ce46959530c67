import Foundation
import FulfillmentLedger

/// The V2 `ConsumptionRequest` for a transaction, built from what the ledger holds.
extension AppStoreConsumptionRequest {
    /// Builds the body for the transaction keyed `key`.
    ///
    /// - `deliveryStatus`: `DELIVERED` when the ledger granted the transaction, else
    ///   `UNDELIVERED_OTHER` (the ledger has no record of it, so it knows no finer reason).
    /// - `consumptionPercentage`: `consumptionPercentage(of:balances:inventory:)` of the record
    ///   and the player's current holdings; 0 when not delivered, as Apple requires; nil
    ///   (omitted) when the purchase granted only entitlements, which the ledger cannot measure.
    /// - `customerConsented`, `refundPreference` and `sampleContentProvided`: as given; the
    ///   ledger knows none of them.
    public static func build(
        for key: TransactionKey, ledger: Ledger, customerConsented: Bool, refundPreference: RefundPreference?,
        sampleContentProvided: Bool
    ) async throws(LedgerError) -> AppStoreConsumptionRequest {
        guard let record = try await ledger.purchaseRecord(key)?.0 else {
            return AppStoreConsumptionRequest(
                customerConsented: customerConsented, consumptionPercentage: 0, deliveryStatus: .undeliveredOther,
                refundPreference: refundPreference, sampleContentProvided: sampleContentProvided)
        }
        let snapshot = try await ledger.player(record.playerID)
        return AppStoreConsumptionRequest(
            customerConsented: customerConsented,
            consumptionPercentage: consumptionPercentage(
                of: record, balances: snapshot.balances, inventory: snapshot.inventory),
            deliveryStatus: .delivered, refundPreference: refundPreference,
            sampleContentProvided: sampleContentProvided)
    }

    /// The share of the record's granted currency and item units the player no longer holds,
    /// in milliunits, rounded down: `(granted - held) * 100 000 / granted`, where `granted` sums
    /// the record's currency and item lines and `held` sums, per line, the player's current
    /// balance or stack clamped to 0...the line's quantity. Units bought elsewhere can make the
    /// player look as if they still hold this grant, so the share is a lower bound. Nil when
    /// the record grants no units (entitlements only).
    static func consumptionPercentage(
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
        let product = (granted - held).multipliedFullWidth(by: Int64(consumptionPercentageMax))
        return Int(granted.dividingFullWidth(product).quotient)
    }
}
