import AppStoreAdapter
import Foundation
import FulfillmentLedger

extension AppStoreSimulator {
    /// The `appTransactionId` of the customer who owns `transaction`: the one its payload names,
    /// else one derived from its customer (the `appAccountToken`, or for a purchase without one
    /// its `originalTransactionId`), so every transaction of a customer names the same account.
    public static func appTransactionID(of transaction: AppStoreSimulatedTransaction) -> String {
        if let id = transaction.appTransactionID { return id }
        let customer = transaction.appAccountToken.map { "token:" + $0 } ?? "purchase:" + transaction.originalTransactionID
        let digest = SHA256.hash(Array(customer.utf8))
        let number = digest.prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 1_000_000_000_000
        return String(700_000_000_000_000 + number)
    }

    /// Get App Transaction Info: the signed app transaction of the customer of `transactionID`,
    /// at `date` (default: the clock's now); nil when this store never sold the transaction.
    public func signedAppTransaction(ofCustomerOf transactionID: String, at date: Date? = nil) throws -> String? {
        guard let transaction = transaction(transactionID) else { return nil }
        let appTransaction = appTransaction(
            id: Self.appTransactionID(of: transaction), downloadedAt: transaction.originalPurchaseDate, at: date)
        return try signer.sign(appTransaction)
    }

    /// The app transaction of the account `id`, which first downloaded the app at
    /// `downloadedAt` (default: `date`), as Apple signs it at `date` (default: the clock's now).
    func appTransaction(id: String, downloadedAt: Date? = nil, at date: Date? = nil) -> AppTransaction {
        let now = date ?? clock.now()
        var appTransaction = AppTransaction()
        appTransaction.receiptType = environment
        appTransaction.appAppleId = appAppleID
        appTransaction.bundleId = bundleID
        appTransaction.applicationVersion = bundleVersion
        appTransaction.receiptCreationDate = AppStoreTimestamp(milliseconds: AppStoreSimulatedTransaction.milliseconds(now))
        appTransaction.originalPurchaseDate = AppStoreTimestamp(
            milliseconds: AppStoreSimulatedTransaction.milliseconds(downloadedAt ?? now))
        appTransaction.appTransactionId = id
        return appTransaction
    }
}
