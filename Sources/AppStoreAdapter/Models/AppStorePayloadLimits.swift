import FulfillmentLedger
import Foundation

/// The adapter's limits on what a signed App Store payload may carry, and the checks every date,
/// quantity and percentage goes through before the ledger sees it.
///
/// `SignedDataVerifier` runs them on every transaction and renewal information it verifies
/// (nested ones included) and on every payload's signing date, so a value out of range is a
/// refused JWS (`AppStoreVerificationError.payloadError`), never a trap further on. An app
/// transaction's other dates are kept as decoded: Xcode signs an `originalPurchaseDate` of
/// 0001-01-01, and the ledger reads none of them.
public enum AppStorePayloadLimits {
    /// Largest `quantity` accepted. StoreKit sells at most 10 units at once; the ledger's own
    /// `quantityMax` applies on top. Keeps `quantity × revocationPercentage` far from overflow.
    public static let quantityMax = 10_000
    /// Largest `revocationPercentage`: 100 % in milliunits.
    public static let revocationPercentageMax: Int32 = 100_000

    /// The date of `timestamp`: nil when absent, else checked against `Date.ledgerMillisecondsRange`.
    static func date(_ timestamp: AppStoreTimestamp?, field: String) throws(AppStorePayloadError) -> Date? {
        guard let timestamp else { return nil }
        guard let date = timestamp.date else {
            throw .dateOutOfRange(field: field, milliseconds: timestamp.milliseconds)
        }
        return date
    }

    /// Checks every date, the quantity and the revocation percentage of a transaction.
    static func check(_ transaction: JWSTransactionDecodedPayload) throws(AppStorePayloadError) {
        try checkDates([
            ("purchaseDate", transaction.purchaseDate), ("originalPurchaseDate", transaction.originalPurchaseDate),
            ("expiresDate", transaction.expiresDate), ("signedDate", transaction.signedDate),
            ("revocationDate", transaction.revocationDate),
        ])
        if let quantity = transaction.quantity, !(1...quantityMax).contains(quantity) {
            throw .quantityOutOfRange(field: "quantity", value: quantity)
        }
        if let percentage = transaction.revocationPercentage, !(0...revocationPercentageMax).contains(percentage) {
            throw .percentageOutOfRange(field: "revocationPercentage", value: percentage)
        }
    }

    /// Checks every date of subscription renewal information.
    static func check(_ renewalInfo: JWSRenewalInfoDecodedPayload) throws(AppStorePayloadError) {
        try checkDates([
            ("gracePeriodExpiresDate", renewalInfo.gracePeriodExpiresDate), ("signedDate", renewalInfo.signedDate),
            ("recentSubscriptionStartDate", renewalInfo.recentSubscriptionStartDate),
            ("renewalDate", renewalInfo.renewalDate),
        ])
    }

    /// `value` when it is at most `byteCountMax` UTF-8 bytes long (nil passes).
    static func checkIdentifier(_ value: String?, field: String, byteCountMax: Int) throws(AppStorePayloadError) {
        guard let value, value.utf8.count > byteCountMax else { return }
        throw .identifierTooLong(field: field, byteCount: value.utf8.count)
    }

    private static func checkDates(_ dates: [(String, AppStoreTimestamp?)]) throws(AppStorePayloadError) {
        for (field, timestamp) in dates { _ = try date(timestamp, field: field) }
    }
}
