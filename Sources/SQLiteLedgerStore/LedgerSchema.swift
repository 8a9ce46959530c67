import FulfillmentLedger

/// The ledger's schema in SQLite, versioned by `PRAGMA user_version`: a new file is created from
/// the one description (`LedgerSchemaDescription`); an older file upgrades through SQLite's own
/// history (`migrations`, 1 to 9), then through the migrations both engines share (10 on). Each
/// step runs in one transaction. A step, once released, is never edited: add a new one.
package enum LedgerSchema {
    /// `application_id` stamped in the file header: "FLDG".
    package static let applicationID: Int32 = 0x464C_4447

    /// The schema version this build writes and reads.
    package static var versionSupported: Int { LedgerSchemaDescription.versionSupported(historyVersion: migrations.count) }

    /// The steps that bring a file of `version` to `versionSupported`, each with the version it
    /// stamps: the whole schema at once, with the file's application ID, for an empty file.
    package static func steps(from version: Int) -> [(version: Int, sql: String)] {
        LedgerSchemaDescription.steps(
            from: version, history: migrations, dialect: .sqlite,
            create: LedgerSchemaDescription.createStatements(.sqlite) + ["PRAGMA application_id = \(applicationID)"])
    }

    /// The first version whose pending finishes are columns of their ledger rows.
    static let pendingFinishOnRecordVersion = 6
    /// The first version with the `revocation_events` table (migration 2).
    static let revocationEventsVersion = 2

    /// SQLite's history: migration N (1-based) brings the schema from version N-1 to N. Only
    /// files older than version 9 run these; the shared migrations take version 9 on.
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
