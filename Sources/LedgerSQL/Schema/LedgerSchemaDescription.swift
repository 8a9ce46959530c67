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
