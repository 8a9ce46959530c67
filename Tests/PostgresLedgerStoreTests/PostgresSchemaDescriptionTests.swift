import FulfillmentLedger
import Foundation
import PostgresLedgerStoreTesting
import Testing

@testable import PostgresLedgerStore

extension PostgresServerTests {
    /// A new database is created from the schema's one description; an old one upgrades through
    /// PostgreSQL's history. Both must end in the same schema.
    @Suite struct SchemaDescriptionTests {
        @Test("a new database and one of schema 1 upgraded through every later step have the same columns, constraints, indexes and triggers")
        func newAndUpgradedDatabasesMatch() async throws {
            let described = try PostgresScratchSchema.create(prefix: "ledger_described")
            defer { try? described.drop() }
            let upgraded = try PostgresScratchSchema.create(prefix: "ledger_history")
            defer { try? upgraded.drop() }
            await (try described.openStore()).close()
            // A database of PostgreSQL's first schema, which the store then upgrades through every
            // later step of its history and every shared migration.
            try upgraded.execute(
                PostgresLedgerSchema.migrations[0]
                    + "\nINSERT INTO ledger_meta (name, value) VALUES ('application', '\(PostgresLedgerSchema.application)'), ('schema_version', '1');")
            await (try upgraded.openStore()).close()
            let new = try Self.schema(described)
            let old = try Self.schema(upgraded)
            #expect(new.count > 100)
            #expect(new.subtracting(old).sorted() == [], "only in a new database")
            #expect(old.subtracting(new).sorted() == [], "only in an upgraded one")
        }

        @Test("a shared migration's changes render into SQL PostgreSQL runs: a table, a column, an index, and an index of its own")
        func sharedChangesRun() async throws {
            let schema = try PostgresScratchSchema.create(prefix: "ledger_shared")
            defer { try? schema.drop() }
            await (try schema.openStore()).close()
            let changes: [SQLSchemaChange] = [
                .createTable(
                    SQLTable(
                        "sample_consents", columns: [SQLColumn("player_id", .key), SQLColumn("rescinded", .boolean)],
                        primaryKey: ["player_id"], indexes: [SQLIndex("sample_consents_by_state", on: ["rescinded", "player_id"])])),
                .addColumn(table: "sample_consents", SQLColumn("rescinded_at_ms", .integer, isNullable: true)),
                .createIndex(table: "balances", SQLIndex("balances_sample", on: ["currency_id"], where: "amount < 0")),
                .createIndex(table: "balances", SQLIndex("balances_elsewhere", on: ["amount"], engines: ["sqlite"])),
            ]
            try schema.execute(SQLDialect.script(changes.flatMap(SQLDialect.postgresql.statements)))
            let facts = try Self.schema(schema)
            #expect(facts.contains("sample_consents.rescinded #2 boolean nullable=NO default= collation= identity=NO"))
            #expect(facts.contains("sample_consents.rescinded_at_ms #3 bigint nullable=YES default= collation= identity=NO"))
            #expect(facts.contains("sample_consents.player_id #1 text nullable=NO default= collation=C identity=NO"))
            #expect(facts.contains { $0.hasPrefix("balances_sample CREATE INDEX balances_sample ON balances") && $0.hasSuffix("WHERE (amount < 0)") })
            #expect(!facts.contains { $0.contains("balances_elsewhere") })
        }

        /// Every fact of a schema as a line, with the schema's own name taken out.
        static func schema(_ schema: PostgresScratchSchema) throws -> Set<String> {
            let connection = try PostgresConnection(connectionString: PostgresConnectionString(schema.connectionString))
            defer { connection.close() }
            let queries = [
                """
                SELECT table_name || '.' || column_name || ' #' || ordinal_position || ' ' || data_type || ' nullable='
                    || is_nullable || ' default=' || coalesce(column_default, '') || ' collation='
                    || coalesce(collation_name, '') || ' identity=' || is_identity
                FROM information_schema.columns WHERE table_schema = current_schema()
                """,
                """
                SELECT c.conrelid::regclass::text || ' ' || c.contype::text || ' ' || pg_get_constraintdef(c.oid)
                FROM pg_constraint c WHERE c.connamespace = current_schema()::regnamespace
                """,
                "SELECT indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()",
                """
                SELECT t.tgname || ' on ' || t.tgrelid::regclass::text FROM pg_trigger t JOIN pg_class r ON r.oid = t.tgrelid
                WHERE NOT t.tgisinternal AND r.relnamespace = current_schema()::regnamespace
                """,
                "SELECT 'function ' || proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace",
            ]
            var facts: Set<String> = []
            for query in queries {
                for row in try connection.query(query, rowCountMax: 1_000).rows {
                    facts.insert(try row.text(0).replacingOccurrences(of: schema.name + ".", with: ""))
                }
            }
            return facts
        }
    }
}
