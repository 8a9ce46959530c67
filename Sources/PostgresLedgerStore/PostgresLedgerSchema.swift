import FulfillmentLedger

/// The ledger's PostgreSQL schema, versioned in `ledger_meta`, the counterpart of SQLite's
/// `user_version`. A new database is created from the one description
/// (`LedgerSchemaDescription`); an older one upgrades through PostgreSQL's own history
/// (`migrations`, 1 to 4), then through the migrations both engines share (10 on: PostgreSQL's
/// version goes from 4 to 10). Each runs in one transaction, under an advisory lock, so servers
/// starting together migrate once. A step, once released, is never edited: add a new one.
///
/// Version 1 is the lean shape of SQLite's schema 6: a pending finish is a column of its ledger
/// row, one event per fulfillment, purchase counts only for limited products.
enum PostgresLedgerSchema {
    /// The application name stamped in `ledger_meta`; another value is another application's data.
    static let application = "FulfillmentLedger"
    /// The advisory lock every migration takes: "FLDGMIGR".
    static let migrationLockKey: Int64 = 0x464C_4447_4D49_4752

    /// The schema version this build writes and reads.
    static var versionSupported: Int { LedgerSchemaDescription.versionSupported(historyVersion: migrations.count) }

    /// PostgreSQL's history: migration N (1-based) brings the schema from version N-1 to N.
    /// Only databases older than version 4 run these; the shared migrations take version 4 on.
    static let migrations: [String] = [
        [
            MetaTable.createSQL,
            PostgresSchemaHistory.TransactionsTable.createSQL,
            PostgresSchemaHistory.BalancesTable.createSQL,
            PostgresSchemaHistory.InventoryTable.createSQL,
            PostgresSchemaHistory.EntitlementsTable.createSQL,
            PostgresSchemaHistory.PurchaseCountsTable.createSQL,
            PostgresSchemaHistory.EconomyOperationsTable.createSQL,
            PostgresSchemaHistory.EventsTable.createSQL,
            PostgresSchemaHistory.RevocationEventsTable.createSQL,
            PostgresSchemaHistory.RefundStatesTable.createSQL,
            PostgresSchemaHistory.PlayerFlagsTable.createSQL,
            PostgresSchemaHistory.PlayersTable.createSQL,
            PostgresSchemaHistory.AbsorbedDebtsTable.createSQL,
            PostgresSchemaHistory.StoreNotificationsTable.createSQL,
            PostgresSchemaHistory.SyncCursorsTable.createSQL,
        ].joined(separator: "\n"),
        // 2: auto-renewable subscriptions: a row per chain and per paid period granted.
        PostgresSchemaHistory.SubscriptionsTable.createSQL,
        // 3: support: the attempts journal, and the store order ID of each granted delivery.
        [
            PostgresSchemaHistory.AttemptsTable.createSQL,
            PostgresSchemaHistory.TransactionsTable.addOrderIDSQL,
        ].joined(separator: "\n"),
        // 4: the balance history: a player's economy operations by time.
        PostgresSchemaHistory.EconomyOperationsTable.createPlayerIndexSQL,
    ]

    /// Every table the schema creates, for the check that a database without `ledger_meta`
    /// holds none of them (else it is not ours to initialise).
    static var tableNames: [String] { LedgerSchemaDescription.tables.map(\.name) }

    /// The schema version the database holds, or nil for a database without a ledger. Throws,
    /// reading only, `.newerSchema` for a version this build does not know and `.notALedger`
    /// for another application's data or a half-made ledger.
    static func versionFound(in session: PostgresLedgerSession) throws(LedgerError) -> Int? {
        switch try MetaTable.stamp(in: session) {
        case .stamped(let application, let version):
            guard application == Self.application else {
                throw LedgerError.notALedger(location: session.location, detail: "ledger_meta names the application \(application)")
            }
            try LedgerSchemaDescription.checkNotNewer(version, supported: versionSupported, location: session.location)
            return version
        case .absent:
            let existing = try session.query(
                "SELECT count(*) FROM unnest(?::text[]) AS t(name) WHERE to_regclass(t.name) IS NOT NULL",
                [.text("{" + tableNames.joined(separator: ",") + "}")], rowCountMax: 1
            ).first?.int64(0) ?? 0
            guard existing == 0 else {
                throw LedgerError.notALedger(
                    location: session.location, detail: "\(existing) of the ledger's tables exist without ledger_meta")
            }
            // Another application's tables (none named like the ledger's): a ledger created
            // beside them would mix two applications' data in one schema.
            let foreign = try session.query(
                """
                SELECT count(*), min(c.relname::text) FROM pg_catalog.pg_class c
                WHERE c.relnamespace = to_regnamespace(current_schema()) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                """, [], rowCountMax: 1
            ).first.map { (row) throws(LedgerError) in (try row.int64(0), try row.optionalText(1)) }
            if let foreign, foreign.0 > 0 {
                throw LedgerError.notALedger(
                    location: session.location,
                    detail: "the schema holds \(foreign.0) table(s) of another application (such as \(foreign.1 ?? "?")) and no ledger")
            }
            return nil
        }
    }

    /// On a connection inside the migration transaction (holding the lock): checks what the
    /// database holds and brings it to `versionSupported`. Refuses, changing nothing, a newer
    /// schema, another application's data, a half-made ledger, or a missing ledger when
    /// `createIfMissing` is false. Returns the version found.
    static func migrate(_ session: PostgresLedgerSession, createIfMissing: Bool) throws(LedgerError) -> Int {
        let connection = session.connection
        let location = session.location
        let version: Int
        if let found = try versionFound(in: session) {
            version = found
        } else {
            guard createIfMissing else { throw LedgerError.ledgerMissing(location: location) }
            version = 0
        }
        guard version < versionSupported else { return version }
        // A new database gets `ledger_meta` with its tables, in the one step.
        let steps = LedgerSchemaDescription.steps(
            from: version, history: migrations, dialect: .postgresql,
            create: [MetaTable.createSQL] + LedgerSchemaDescription.createStatements(.postgresql))
        for step in steps {
            try session.sql { () throws(PostgresError) in _ = try connection.execute(step.sql) }
        }
        try MetaTable.setVersion(versionSupported, application: application, in: session)
        return version
    }
}
