/// The ledger's schema as it stands, described once for every SQL engine, and the migrations
/// both engines share from here on.
///
/// A new database is created from `tables`, rendered by its engine's dialect, and stamped with
/// the engine's current version. A database of an older version upgrades through its engine's
/// own history (SQLite's `LedgerSchema` 1–9, PostgreSQL's `PostgresLedgerSchema` 1–4), then
/// through `migrations`, and ends in this same schema; the schema tests check that a new
/// database and an upgraded one have the same tables, columns, keys, checks, indexes and triggers.
///
/// From version 10 on, one number means one schema on every engine: each entry of `migrations`
/// is a list of changes that every engine applies in one transaction, and a table added by one is
/// added to `tables` as well (a new table is one table file, one entry here, and one
/// conformance case).
public enum LedgerSchemaDescription {
    /// Every table, in an order in which each references only tables before it.
    public static let tables: [SQLTable] = [
        TransactionsTable.schema, BalancesTable.schema, InventoryTable.schema, EntitlementsTable.schema,
        PurchaseCountsTable.schema, EconomyOperationsTable.schema, EventsTable.schema, RevocationEventsTable.schema,
        RefundStatesTable.schema, PlayerFlagsTable.schema, PlayersTable.schema, AbsorbedDebtsTable.schema,
        StoreNotificationsTable.schema, SyncCursorsTable.schema, SubscriptionsTable.schema, SubscriptionsTable.periodsSchema,
        AttemptsTable.schema, AttemptsTable.countsSchema, ConsentRescissionsTable.schema,
        AccountTokensTable.schema,
    ]

    /// The version of the first migration both engines share. SQLite's history ends at 9 and
    /// PostgreSQL's at 4, in the same schema; PostgreSQL goes from 4 to 10.
    public static let firstSharedVersion = 10

    /// The shared migrations: entry N (from 1) brings the schema to version
    /// `firstSharedVersion + N - 1`, from the end of an engine's own history or the entry before.
    public static let migrations: [[SQLSchemaChange]] = [
        // 10: withdrawals of consent (App Store RESCIND_CONSENT).
        [.createTable(ConsentRescissionsTable.schema)],
        // 11: which player each account token names (App Store ONE_TIME_CHARGE).
        [.createTable(AccountTokensTable.schema)],
    ]

    /// The statements that create every table in `dialect`, one per element.
    public static func createStatements(_ dialect: SQLDialect) -> [String] {
        tables.flatMap { dialect.createStatements($0) }
    }

    /// The version after the shared migrations, given the version at which an engine's own
    /// history ends.
    public static func versionSupported(historyVersion: Int) -> Int {
        migrations.isEmpty ? historyVersion : firstSharedVersion + migrations.count - 1
    }

    /// The steps that bring a database of `version` to the version after the shared
    /// migrations, each a script of one transaction with the version it stamps: `create` (the
    /// whole schema at once, with what the engine adds to it) for a new database (version 0);
    /// else the steps of the engine's own `history` after `version` (step N brings version N-1
    /// to N), then the shared migrations after it, in `dialect`'s form.
    public static func steps(
        from version: Int, history: [String], dialect: SQLDialect, create: [String]
    ) -> [(version: Int, sql: String)] {
        guard version > 0 else { return [(versionSupported(historyVersion: history.count), SQLDialect.script(create))] }
        var steps: [(version: Int, sql: String)] = []
        for (index, sql) in history.enumerated() where index + 1 > version { steps.append((index + 1, sql)) }
        for (index, changes) in migrations.enumerated() where firstSharedVersion + index > version {
            steps.append((firstSharedVersion + index, SQLDialect.script(changes.flatMap(dialect.statements))))
        }
        return steps
    }

    /// Refuses, with `.newerSchema`, a database at `location` whose schema `version` is newer
    /// than `supported`: this build must not read it, let alone write it.
    public static func checkNotNewer(_ version: Int, supported: Int, location: String) throws(LedgerError) {
        guard version <= supported else { throw LedgerError.newerSchema(location: location, found: version, supported: supported) }
    }
}

/// One change of a shared migration, rendered by each engine's dialect.
public enum SQLSchemaChange: Sendable {
    /// Creates a table with its indexes.
    case createTable(SQLTable)
    /// Adds a nullable column to a table (a NOT NULL column needs a default every engine reads).
    case addColumn(table: String, SQLColumn)
    /// Adds an index to a table.
    case createIndex(table: String, SQLIndex)
}

extension SQLDialect {
    /// The statements of one shared change in this engine's form.
    public func statements(_ change: SQLSchemaChange) -> [String] {
        switch change {
        case .createTable(let table):
            return createStatements(table)
        case .addColumn(let table, let column):
            return ["ALTER TABLE \(table) ADD COLUMN " + columnDefinition(column, isPrimaryKey: false)]
        case .createIndex(let table, let index):
            return createIndexStatement(index, on: table).map { [$0] } ?? []
        }
    }
}
