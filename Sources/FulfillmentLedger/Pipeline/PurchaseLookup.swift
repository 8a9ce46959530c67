/// Finding the ledger record of a purchase from the IDs a delivery or an event names.
///
/// A record holds two store IDs: its key (the purchase) and the ID of the delivery that was
/// granted. A store names a purchase by either: an App Store restore or new device brings a
/// new `transactionId` with the purchase's `originalTransactionId`, and a refund names the
/// transaction it refunds together with its original.
extension LedgerReader {
    /// The record a delivery of a product of `kind` belongs to, if the ledger holds one.
    ///
    /// Looks up the purchase's ledger key first, then the delivery's own ID (as key, which
    /// finds records keyed by delivery before purchase keys existed, and as the granted
    /// delivery of another record).
    func fulfilledPurchase(_ verified: VerifiedTransaction, kind: ProductKind) throws(LedgerError) -> TransactionRecord? {
        let key = verified.ledgerKey(for: kind)
        if let record = try transaction(key) { return record }
        // A subscription period is found by its period ID alone: a Play purchase token is the
        // delivery ID of every period of its chain, so it would find an earlier period.
        guard kind != .autoRenewable else { return nil }
        if key != verified.key, let record = try transaction(verified.key) { return record }
        return try transaction(store: verified.store, deliveryID: verified.transactionID)
    }

    /// The record a refund, revoke or reversal names, by its transaction ID or the original's.
    ///
    /// The original ID finds only a non-consumable: a consumable is keyed by its own ID.
    func purchase(
        store: PlatformStore, transactionID: String, originalTransactionID: String?
    ) throws(LedgerError) -> TransactionRecord? {
        let key = TransactionKey(store: store, transactionID: transactionID)
        if let record = try transaction(key) { return record }
        if let original = originalTransactionID, original != transactionID, !original.isEmpty,
            let record = try transaction(TransactionKey(store: store, transactionID: original)),
            record.productKind == .nonConsumable
        {
            return record
        }
        return try transaction(store: store, deliveryID: transactionID)
    }
}
