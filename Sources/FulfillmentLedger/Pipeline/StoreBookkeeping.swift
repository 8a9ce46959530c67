/// Bookkeeping the store adapters need: which store notifications were processed, and where
/// each periodic sync stopped. Behind the ledger's own API, so adapters never touch the store.
extension Ledger {
    /// Most bytes of a notification ID or a sync cursor's name and value: an adapter's keys.
    static var bookkeepingByteCountMax: Int { 4_608 }

    /// A processed store notification (App Store `notificationUUID`, Pub/Sub `messageId`), if
    /// its ID was seen.
    public func storeNotification(id: String) async throws(LedgerError) -> StoreNotificationRecord? {
        try checkLength(id, "notification ID", max: Self.bookkeepingByteCountMax)
        return try await store.read { reader throws(LedgerError) in try reader.storeNotification(id: id) }
    }

    /// Records a processed store notification, once: returns false, changing nothing, when its
    /// ID was recorded already (by a concurrent delivery, say).
    @discardableResult
    public func recordStoreNotification(_ record: StoreNotificationRecord) async throws(LedgerError) -> Bool {
        try checkLength(record.notificationID, "notification ID", max: Self.bookkeepingByteCountMax)
        try checkStore(record.store)
        return try await commit { writer throws(LedgerError) in
            guard try writer.storeNotification(id: record.notificationID) == nil else { return false }
            try writer.insertStoreNotification(record)
            return true
        }
    }

    /// A named sync cursor (such as the voided-purchases watermark), if one was saved.
    public func syncCursor(name: String) async throws(LedgerError) -> String? {
        try checkLength(name, "sync cursor name", max: Self.bookkeepingByteCountMax)
        return try await store.read { reader throws(LedgerError) in try reader.syncCursor(name: name) }
    }

    /// Saves a named sync cursor, replacing the previous value.
    public func saveSyncCursor(name: String, value: String) async throws(LedgerError) {
        try checkLength(name, "sync cursor name", max: Self.bookkeepingByteCountMax)
        try checkLength(value, "sync cursor value", max: Self.bookkeepingByteCountMax)
        try await commit { writer throws(LedgerError) in try writer.setSyncCursor(name: name, value: value) }
    }
}

/// Withdrawals of consent: an account's purchases are refused from the moment one is recorded.
extension Ledger {
    /// The store's withdrawal of consent for `accountID` (App Store `appTransactionId`), if one
    /// was recorded.
    public func consentRescission(store: PlatformStore, accountID: String) async throws(LedgerError) -> ConsentRescission? {
        try checkStore(store)
        try checkIdentifier(accountID, "accountID")
        return try await self.store.read { reader throws(LedgerError) in
            try reader.consentRescission(store: store, accountID: accountID)
        }
    }

    /// Records that the store withdrew consent for an account, once: the first word stays, and
    /// a later one (a redelivery, another notification) returns the recorded one and changes
    /// nothing. From then on a purchase naming the account (`VerifiedTransaction.storeAccountID`)
    /// is refused `consentRescinded`; what it was granted before stays.
    public func recordConsentRescission(_ rescission: ConsentRescission) async throws(LedgerError) -> ConsentRescission {
        try checkStore(rescission.store)
        try checkIdentifier(rescission.accountID, "accountID")
        try checkLength(rescission.notificationID, "notification ID", max: Self.bookkeepingByteCountMax)
        return try await commit { writer throws(LedgerError) in
            if let recorded = try writer.consentRescission(store: rescission.store, accountID: rescission.accountID) {
                return recorded
            }
            try writer.insertConsentRescission(rescission)
            return rescission
        }
    }
}

/// What adapters read of a purchase, and the flags they raise for support.
extension Ledger {
    /// The ledger record of a purchase, by its ledger key, with its refund state (nil when no
    /// event has touched it).
    public func purchaseRecord(_ key: TransactionKey) async throws(LedgerError) -> (TransactionRecord, RefundState?)? {
        try checkStore(key.store)
        try checkTransactionID(key.transactionID)
        return try await store.read { reader throws(LedgerError) -> (TransactionRecord, RefundState?)? in
            guard let record = try reader.transaction(key) else { return nil }
            return (record, try reader.refundState(key))
        }
    }

    /// The ledger record a store's order ID names: the record keyed by it (a Play subscription
    /// period), else the record that carries it as its `storeOrderID` (a Play one-time purchase).
    public func purchaseRecord(store: PlatformStore, orderID: String) async throws(LedgerError) -> TransactionRecord? {
        try checkStore(store)
        try checkTransactionID(orderID)
        return try await self.store.read { reader throws(LedgerError) -> TransactionRecord? in
            if let keyed = try reader.transaction(TransactionKey(store: store, transactionID: orderID)) { return keyed }
            return try reader.transaction(store: store, orderID: orderID)
        }
    }

    /// Flags a player for support (such as a store's refund count that disagrees with the ledger).
    public func flagPlayer(_ playerID: String, _ flag: PlayerFlag) async throws(LedgerError) {
        try checkIdentifier(playerID, "playerID")
        try await commit { writer throws(LedgerError) in try writer.insertPlayerFlag(flag, playerID: playerID) }
    }
}
