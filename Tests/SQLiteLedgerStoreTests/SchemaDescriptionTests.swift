import FulfillmentLedger
import FulfillmentLedgerTesting
import Foundation
import Testing

@testable import SQLiteLedgerStore

/// A new file is created from the schema's one description; a file of an old version upgrades
/// through SQLite's history. Both must end in the same schema, or a fulfillment would run
/// against two different ledgers depending on the file's age.
@Suite("the SQLite schema described once")
struct SchemaDescriptionTests {
    /// What the history's `ALTER TABLE ADD COLUMN` steps could not give an old file: a NOT
    /// NULL without a default, and the 0-or-1 checks of booleans added later. A new file has them.
    static let historyOnlyDifferences: Set<String> = [
        "revocation_events.purchase_id notnull=0",
        "revocation_events.purchase_id notnull=1",
        "ledger_transactions check entitlements_listed IN (0, 1)",
        "revocation_events check quantity_is_cumulative IN (0, 1)",
    ]

    @Test("a new file and a file of schema 1 upgraded through every later step have the same tables, columns, keys, checks, indexes and triggers")
    func newAndUpgradedFilesMatch() async throws {
        let directory = try ScratchDirectory()
        let newPath = directory.path("new.sqlite")
        await (try SQLiteLedgerStore(path: newPath)).close()
        let oldPath = directory.path("history.sqlite")
        // A file of the first release's schema, which the store then upgrades through every
        // later step of SQLite's history and every shared migration.
        let history = try SQLiteConnection(path: oldPath, mode: .readWriteCreate)
        try history.execute("BEGIN; \(LedgerSchema.migrations[0]) PRAGMA user_version = 1; COMMIT;")
        history.close()
        await (try SQLiteLedgerStore(path: oldPath)).close()
        let described = try Self.schema(newPath)
        let upgraded = try Self.schema(oldPath)
        #expect(described.count > 100)
        #expect(described.symmetricDifference(upgraded) == Self.historyOnlyDifferences)
        #expect(described.contains("revocation_events.purchase_id notnull=1"))
        #expect(upgraded.contains("revocation_events.purchase_id notnull=0"))
        let version = try SQLiteConnection(path: newPath, mode: .readOnly)
        defer { version.close() }
        #expect(try version.integer("PRAGMA user_version") == Int64(LedgerSchema.versionSupported))
        #expect(try version.integer("PRAGMA application_id") == Int64(LedgerSchema.applicationID))
    }

    /// A shared migration's changes as SQLite runs them.
    static let sampleChanges: [SQLSchemaChange] = [
        .createTable(
            SQLTable(
                "sample_consents", columns: [SQLColumn("player_id", .key), SQLColumn("rescinded", .boolean)],
                primaryKey: ["player_id"], indexes: [SQLIndex("sample_consents_by_state", on: ["rescinded", "player_id"])])),
        .addColumn(table: "sample_consents", SQLColumn("rescinded_at_ms", .integer, isNullable: true)),
        .createIndex(table: "balances", SQLIndex("balances_sample", on: ["currency_id"], where: "amount < 0")),
        .createIndex(table: "balances", SQLIndex("balances_elsewhere", on: ["amount"], engines: ["postgresql"])),
    ]

    @Test("a shared migration's changes render into SQL SQLite runs: a table, a column, an index, and no index of another engine")
    func sharedChangesRun() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        await (try SQLiteLedgerStore(path: path)).close()
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute(SQLDialect.script(Self.sampleChanges.flatMap(SQLDialect.sqlite.statements)))
        connection.close()
        let facts = try Self.schema(path)
        #expect(facts.contains("sample_consents.rescinded_at_ms #2 INTEGER default= pk=0"))
        #expect(facts.contains("sample_consents check rescinded IN (0, 1)"))
        #expect(facts.contains("index sample_consents_by_state on sample_consents (rescinded, player_id) where "))
        #expect(facts.contains("index balances_sample on balances (currency_id) where amount < 0"))
        #expect(!facts.contains { $0.contains("balances_elsewhere") })
    }

    /// Every fact of a file's schema as a line: columns (type, NOT NULL, default, key position),
    /// how each table stores its rows, its checks and foreign keys, indexes with their columns
    /// and conditions, and triggers.
    static func schema(_ path: String) throws -> Set<String> {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        defer { connection.close() }
        var facts: Set<String> = []
        let objects = try connection.statement("SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema")
            .query(rowCountMax: 1_000) { row in (row.text(0), row.text(1), row.text(2), row.text(3)) }
        for (type, name, table, sql) in objects {
            switch type {
            case "table":
                facts.insert("table \(name) autoincrement=\(sql.contains("AUTOINCREMENT")) withoutRowID=\(sql.contains("WITHOUT ROWID"))")
                let columns = try connection.statement("SELECT name, type, \"notnull\", coalesce(dflt_value, ''), pk FROM pragma_table_info(?)")
                    .query([.text(name)], rowCountMax: 100) { row in (row.text(0), row.text(1), row.int64(2), row.text(3), row.int64(4)) }
                for (offset, column) in columns.enumerated() {
                    // A key column is NOT NULL whether or not it says so.
                    let notNull = column.2 != 0 || column.4 > 0 ? 1 : 0
                    facts.insert("\(name).\(column.0) #\(offset) \(column.1) default=\(column.3) pk=\(column.4)")
                    facts.insert("\(name).\(column.0) notnull=\(notNull)")
                }
                for check in Self.checks(sql) { facts.insert("\(name) check \(check)") }
                let keys = try connection.statement("SELECT \"table\", \"from\", \"to\", seq FROM pragma_foreign_key_list(?)")
                    .query([.text(name)], rowCountMax: 100) { row in "\(row.text(1))->\(row.text(0)).\(row.text(2))#\(row.int64(3))" }
                for key in keys { facts.insert("\(name) foreign key \(key) deferred=\(sql.contains("DEFERRABLE INITIALLY DEFERRED"))") }
            case "index":
                let columns = try connection.statement("SELECT name FROM pragma_index_info(?) ORDER BY seqno")
                    .query([.text(name)], rowCountMax: 100) { row in row.text(0) }
                let condition = sql.range(of: " WHERE ").map { sql[$0.upperBound...] }.map(Self.normalized) ?? ""
                facts.insert("index \(name) on \(table) (\(columns.joined(separator: ", "))) where \(condition)")
            case "trigger":
                facts.insert("trigger \(name) on \(table)")
            default:
                facts.insert("\(type) \(name)")
            }
        }
        return facts
    }

    /// The `CHECK (...)` conditions of a table's SQL, whitespace normalized.
    static func checks(_ sql: String) -> [String] {
        var found: [String] = []
        var rest = Substring(sql)
        while let start = rest.range(of: "CHECK (") {
            var depth = 1
            var index = start.upperBound
            while index < rest.endIndex, depth > 0 {
                if rest[index] == "(" { depth += 1 }
                if rest[index] == ")" { depth -= 1 }
                index = rest.index(after: index)
            }
            found.append(normalized(rest[start.upperBound..<rest.index(before: index)]))
            rest = rest[index...]
        }
        return found
    }

    static func normalized(_ text: Substring) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
}
