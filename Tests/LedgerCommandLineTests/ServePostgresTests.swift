import Foundation
import FulfillmentLedgerTesting
import PostgresLedgerStoreTesting
import Testing

/// `ledger serve` on a `postgresql://` ledger: a purchase, its duplicate and the change feed
/// through curl, then a clean stop on SIGTERM that closes the pool.
@Suite(.enabled(if: PostgresScratchSchema.shouldRun, "no PostgreSQL test server (set LEDGER_TEST_POSTGRES_URL)"))
struct ServePostgresTests {
    @Test func servesAPostgresLedgerAndStopsCleanly() async throws {
        let schema = try PostgresScratchSchema.create(prefix: "ledger_serve")
        defer { try? schema.drop() }
        let url = schema.connectionString
        try await onOwnThread { try Self.serve(url) }
    }

    static func serve(_ url: String) throws {
        let served = try ServeCommandTests.Served(db: url)
        let base = "http://127.0.0.1:\(served.port)"
        let post = ["-s", "-X", "POST", "--data-binary", ServeCommandTests.purchase, "\(base)/purchases"]
        #expect(try ServeCommandTests.tool("curl", post).contains(#""outcome":"granted""#))
        #expect(try ServeCommandTests.tool("curl", post).contains(#""outcome":"alreadyFulfilled""#))
        let changes = try ServeCommandTests.tool("curl", ["-s", "\(base)/changes?after=0"])
        let page = try #require(try JSONSerialization.jsonObject(with: Data(changes.utf8)) as? [String: Any], "\(changes)")
        let kinds = (page["changes"] as? [[String: Any]])?.map { $0["kind"] as? String }
        #expect(kinds == ["purchaseGranted"], "\(changes)")
        let stopped = served.terminate()
        #expect(stopped.status == 0 && stopped.error.contains("ledger serve: stopped"), "\(stopped)")
    }
}
