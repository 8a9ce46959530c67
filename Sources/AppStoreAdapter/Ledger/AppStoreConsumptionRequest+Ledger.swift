import Foundation
import FulfillmentLedger

/// The V2 `ConsumptionRequest` for a transaction, built from what the ledger holds.
extension AppStoreConsumptionRequest {
    /// Builds the body for the transaction keyed `key`.
    ///
    /// - `deliveryStatus`: `DELIVERED` when the ledger granted the transaction, else
    ///   `UNDELIVERED_OTHER` (the ledger has no record of it, so it knows no finer reason).
    /// - `consumptionPercentage`: `ConsumptionShare.milliunits(of:balances:inventory:)` of the record
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
            consumptionPercentage: ConsumptionShare.milliunits(
                of: record, balances: snapshot.balances, inventory: snapshot.inventory),
            deliveryStatus: .delivered, refundPreference: refundPreference,
            sampleContentProvided: sampleContentProvided)
    }
}
