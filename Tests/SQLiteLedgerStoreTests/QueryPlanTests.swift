import CSQLite
import Foundation
import FulfillmentLedgerTesting
import Testing

@testable import FulfillmentLedger
@testable import SQLiteLedgerStore

/// The statements a fulfillment runs search an index for exactly the rows they want: a plan
/// that settles for a key prefix costs a scan of a whole store's records per purchase, which
/// a small test ledger hides and a ten-million-purchase ledger does not.
@Suite("query plans of the fulfillment path")
struct QueryPlanTests {
    /// Each statement, with the index its plan must search by its whole condition.
    static let lookups: [(name: String, sql: String, plan: String)] = [
        ("a record by key", TransactionsTable.selectOneSQL, "USING PRIMARY KEY (store=? AND transaction_id=?)"),
        (
            "a record by delivery ID", TransactionsTable.selectByDeliverySQL,
            "USING INDEX ledger_transactions_by_delivery (store=? AND store_transaction_id=?)"
        ),
        (
            "refunds waiting for a purchase", RevocationEventsTable.selectByPurchaseSQL,
            "(store=? AND purchase_id=?"
        ),
        ("a transaction's events", EventsTable.byTransactionSQL, "USING INDEX events_by_transaction (store=? AND transaction_id=?"),
        ("a spend of a balance", BalancesTable.spendSQL, "(player_id=? AND currency_id=?)"),
    ]

    @Test("each lookup searches its index by the whole condition and scans nothing")
    func lookupsSearchTheirIndex() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        await (try SQLiteLedgerStore(path: path)).close()
        let raw = try RawDatabase(path: path, readOnly: true)
        for lookup in Self.lookups {
            let plan = try Self.plan(lookup.sql, on: raw.handle)
            #expect(plan.contains { $0.hasPrefix("SEARCH") && $0.contains(lookup.plan) }, "\(lookup.name): \(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(lookup.name): \(plan)")
        }
    }

    /// The detail column of `EXPLAIN QUERY PLAN`, one line per step.
    static func plan(_ sql: String, on handle: OpaquePointer) throws -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "EXPLAIN QUERY PLAN " + sql, -1, &statement, nil) == SQLITE_OK, let statement
        else {
            throw RawDatabase.Failure(code: sqlite3_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var details: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            details.append(sqlite3_column_text(statement, 3).map { String(cString: $0) } ?? "")
        }
        return details
    }
}
