import Foundation

/// A ledger row as every store adapter reads it back: the stored columns in their stored forms
/// (milliseconds, raw values, `StoredForm` text), turned into a `TransactionRecord` in one place
/// so that SQLite and PostgreSQL cannot decode the same row differently.
package struct StoredTransactionRow: Sendable {
    package var store, transactionID, playerID, productID, storeProductID, kind: String
    package var quantity: Int64
    package var environment: String
    package var purchaseMilliseconds, fulfilledMilliseconds: Int64
    package var catalogVersion, grants: String
    package var finishedMilliseconds: Int64?
    package var storeTransactionID: String?
    package var entitlementsListed: Bool
    package var storeOrderID: String?

    /// Takes every column, in the order of the transactions table.
    package init(
        store: String, transactionID: String, playerID: String, productID: String, storeProductID: String,
        kind: String, quantity: Int64, environment: String, purchaseMilliseconds: Int64,
        fulfilledMilliseconds: Int64, catalogVersion: String, grants: String, finishedMilliseconds: Int64?,
        storeTransactionID: String?, entitlementsListed: Bool, storeOrderID: String?
    ) {
        self.storeOrderID = storeOrderID
        self.store = store
        self.transactionID = transactionID
        self.playerID = playerID
        self.productID = productID
        self.storeProductID = storeProductID
        self.kind = kind
        self.quantity = quantity
        self.environment = environment
        self.purchaseMilliseconds = purchaseMilliseconds
        self.fulfilledMilliseconds = fulfilledMilliseconds
        self.catalogVersion = catalogVersion
        self.grants = grants
        self.finishedMilliseconds = finishedMilliseconds
        self.storeTransactionID = storeTransactionID
        self.entitlementsListed = entitlementsListed
    }

    /// The record; `corrupt` names the adapter's error for a value the ledger never writes (the
    /// database was changed outside it).
    package func record(corrupt: (String) -> LedgerError) throws(LedgerError) -> TransactionRecord {
        guard let productKind = ProductKind(rawValue: kind) else { throw corrupt("product kind \(kind)") }
        guard let grantLines = StoredForm.grants(grants) else { throw corrupt("grant lines \(grants)") }
        return TransactionRecord(
            key: TransactionKey(store: PlatformStore(rawValue: store), transactionID: transactionID),
            playerID: playerID, productID: productID, storeProductID: storeProductID, productKind: productKind,
            quantity: Int(quantity), environment: StoreEnvironment(rawValue: environment),
            purchaseDate: Date(ledgerMilliseconds: purchaseMilliseconds),
            fulfilledAt: Date(ledgerMilliseconds: fulfilledMilliseconds), catalogVersion: catalogVersion,
            grants: grantLines, finishedAt: finishedMilliseconds.map(Date.init(ledgerMilliseconds:)),
            storeTransactionID: storeTransactionID, entitlementsListed: entitlementsListed,
            storeOrderID: storeOrderID)
    }
}
