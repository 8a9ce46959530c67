import Foundation

/// `consent_rescissions`: accounts whose consent to use the app a store withdrew (App Store
/// `RESCIND_CONSENT`), the first word per account, kept for good; a purchase naming one is
/// refused.
enum ConsentRescissionsTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`); added by the
    /// first shared migration (version 10).
    static let schema = SQLTable(
        "consent_rescissions",
        columns: [
            SQLColumn("store", .key), SQLColumn("account_id", .key), SQLColumn("rescinded_at_ms", .integer),
            SQLColumn("notification_id", .key), SQLColumn("recorded_at_ms", .integer),
        ],
        primaryKey: ["store", "account_id"])

    static let columns = "store, account_id, rescinded_at_ms, notification_id, recorded_at_ms"
    static let selectOneSQL = "SELECT \(columns) FROM consent_rescissions WHERE store = ? AND account_id = ?"
    static let insertSQL = "INSERT INTO consent_rescissions (\(columns)) VALUES (?, ?, ?, ?, ?)"
}

extension LedgerReader {
    /// The store's withdrawal of consent for an account (App Store `appTransactionId`), if any.
    public func consentRescission(store: PlatformStore, accountID: String) throws(LedgerError) -> ConsentRescission? {
        try one(ConsentRescissionsTable.selectOneSQL, [.text(store.rawValue), .text(accountID)]) { (row) throws(LedgerError) in
            ConsentRescission(
                store: PlatformStore(rawValue: try row.text(0)), accountID: try row.text(1),
                rescindedAt: Date(ledgerMilliseconds: try row.int64(2)), notificationID: try row.text(3),
                recordedAt: Date(ledgerMilliseconds: try row.int64(4)))
        }
    }
}

extension LedgerWriter {
    /// Records a withdrawal of consent; one already recorded for the account is a constraint failure.
    public func insertConsentRescission(_ rescission: ConsentRescission) throws(LedgerError) {
        try run(
            ConsentRescissionsTable.insertSQL,
            [
                .text(rescission.store.rawValue), .text(rescission.accountID), .milliseconds(rescission.rescindedAt),
                .text(rescission.notificationID), .milliseconds(rescission.recordedAt),
            ])
    }
}
