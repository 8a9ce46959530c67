/// The ledger's schema, as migrations by `PRAGMA user_version`. Each migration runs in
/// one transaction. A migration, once released, is never edited: add a new one.
package enum LedgerSchema {
    /// `application_id` stamped in the file header: "FLDG".
    package static let applicationID: Int32 = 0x464C_4447

    /// The schema version this build writes and reads.
    package static var versionSupported: Int { migrations.count }

    /// The first version whose pending finishes are columns of their ledger rows.
    static let pendingFinishOnRecordVersion = 6

    /// Migration N (1-based) brings the schema from version N-1 to N.
    static let migrations: [String] = [
        [
            SQLiteSchemaHistory.TransactionsTable.createSQL,
            SQLiteSchemaHistory.BalancesTable.createSQL,
            SQLiteSchemaHistory.InventoryTable.createSQL,
            SQLiteSchemaHistory.EntitlementsTable.createSQL,
            SQLiteSchemaHistory.PurchaseCountsTable.createSQL,
            SQLiteSchemaHistory.PendingFinishesTable.createSQL,
            SQLiteSchemaHistory.EconomyOperationsTable.createSQL,
            SQLiteSchemaHistory.EventsTable.createSQL,
            "PRAGMA application_id = \(applicationID);",
        ].joined(separator: "\n"),
        // 2: refunds and revocations.
        [
            SQLiteSchemaHistory.RevocationEventsTable.createSQL,
            SQLiteSchemaHistory.RefundStatesTable.createSQL,
            SQLiteSchemaHistory.PlayerFlagsTable.createSQL,
            SQLiteSchemaHistory.EntitlementVersionsTable.createSQL,
            SQLiteSchemaHistory.EventsTable.createTransactionIndexSQL,
        ].joined(separator: "\n"),
        // 3: store server notifications, applied once.
        SQLiteSchemaHistory.StoreNotificationsTable.createSQL,
        // 4: named sync cursors (the voided-purchases watermark).
        SQLiteSchemaHistory.SyncCursorsTable.createSQL,
        // 5: purchase identity (a key per purchase, the granted delivery's ID beside it),
        // entitlements owned by purchase, and per-player values (entitlement version, last reset).
        [
            SQLiteSchemaHistory.TransactionsTable.addDeliveryIDSQL,
            SQLiteSchemaHistory.RevocationEventsTable.addPurchaseSQL,
            SQLiteSchemaHistory.EntitlementsTable.payersSQL,
            SQLiteSchemaHistory.PlayersTable.createSQL,
            SQLiteSchemaHistory.AbsorbedDebtsTable.createSQL,
        ].joined(separator: "\n"),
        // 6: the lean write path: a pending finish is a column of its ledger row, not a row of
        // its own, and the event log appends without an `AUTOINCREMENT` counter.
        [
            SQLiteSchemaHistory.TransactionsTable.addPendingFinishSQL,
            SQLiteSchemaHistory.EventsTable.rebuildSQL,
        ].joined(separator: "\n"),
        // 7: auto-renewable subscriptions: a row per chain and per paid period granted.
        SQLiteSchemaHistory.SubscriptionsTable.createSQL,
        // 8: support: the attempts journal, and the store order ID of each granted delivery.
        [
            SQLiteSchemaHistory.AttemptsTable.createSQL,
            SQLiteSchemaHistory.TransactionsTable.addOrderIDSQL,
        ].joined(separator: "\n"),
        // 9: the balance history: a player's economy operations by time.
        SQLiteSchemaHistory.EconomyOperationsTable.createPlayerIndexSQL,
    ]
}
