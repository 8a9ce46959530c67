import Testing

@testable import FulfillmentLedger

@Suite("SQL dialects")
struct SQLDialectTests {
    @Test("SQLite keeps the ledger's SQL as written")
    func sqliteKeepsTheText() {
        let sql = "SELECT a FROM t INDEXED BY t_by_a WHERE a = ? AND b = ?"
        #expect(SQLDialect.sqlite.render(sql) == sql)
    }

    @Test(
        "PostgreSQL numbers bare placeholders in order, keeps numbered ones, and drops index hints",
        arguments: [
            ("SELECT a FROM t WHERE a = ? AND b = ? LIMIT ?", "SELECT a FROM t WHERE a = $1 AND b = $2 LIMIT $3"),
            ("UPDATE t SET a = a - ?1 WHERE b = ?2 AND a >= ?1", "UPDATE t SET a = a - $1 WHERE b = $2 AND a >= $1"),
            ("SELECT a FROM t INDEXED BY t_by_b WHERE b = ?", "SELECT a FROM t WHERE b = $1"),
            ("SELECT a FROM t\n    INDEXED BY t_by_b2 WHERE b = ?", "SELECT a FROM t\n    WHERE b = $1"),
            ("SELECT '?', \"a?b\" FROM t WHERE c = ?", "SELECT '?', \"a?b\" FROM t WHERE c = $1"),
            ("INSERT INTO t (a) VALUES (?10)", "INSERT INTO t (a) VALUES ($10)"),
        ])
    func postgresRenders(sql: String, expected: String) {
        #expect(SQLDialect.postgresql.render(sql) == expected)
    }

    @Test("every statement of the data layer renders for PostgreSQL without a question mark or an index hint")
    func everyStatementRenders() {
        let statements = [
            TransactionsTable.selectOneSQL, TransactionsTable.selectByDeliverySQL, TransactionsTable.selectByOrderSQL,
            TransactionsTable.insertSQL, BalancesTable.creditSQL, BalancesTable.spendSQL, InventoryTable.creditSQL,
            AttemptsTable.addToCountSQL, AttemptsTable.selectMatchingSQL, PendingFinishesQueries.current.selectAfterSQL,
            PendingFinishesQueries.current.countsSQL, EventsTable.changesSQL, RevocationEventsTable.insertSQL,
            SubscriptionsTable.upsertSQL,
        ]
        for sql in statements {
            let rendered = SQLDialect.postgresql.render(sql)
            #expect(!rendered.contains("?"), "\(rendered)")
            #expect(!rendered.contains("INDEXED BY"), "\(rendered)")
            #expect(rendered.contains("$1") || !sql.contains("?"), "\(rendered)")
        }
    }
}

@Suite("SQL rows")
struct SQLRowTests {
    static let row = SQLRow(
        values: [.integer(7), .text("42"), .text("t"), .integer(0), .null, .text("x"), .text("1.5")], location: "ledger.sqlite")

    @Test("typed reads accept the engine's forms of a value")
    func typedReads() throws {
        let row = Self.row
        #expect(try row.int64(0) == 7)
        #expect(try row.int64(1) == 42)
        #expect(try row.bool(2))
        #expect(try !row.bool(3))
        #expect(try row.optionalInt64(4) == nil)
        #expect(try row.optionalText(4) == nil)
        #expect(row.isNull(4))
        #expect(row.isNull(99))
        #expect(try row.text(5) == "x")
    }

    @Test("a value of the wrong type, a NULL where one is required, or a missing column is an integrity failure naming the column")
    func wrongTypes() {
        let row = Self.row
        for read in [{ _ = try row.int64(6) }, { _ = try row.int64(4) }, { _ = try row.bool(5) }, { _ = try row.text(9) }] {
            do {
                try read()
                Issue.record("read succeeded")
            } catch {
                guard case .integrityCheckFailed(let location, let detail) = error as? LedgerError else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(location == "ledger.sqlite")
                #expect(detail.contains("column"))
            }
        }
    }
}
