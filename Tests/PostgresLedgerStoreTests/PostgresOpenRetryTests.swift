import FulfillmentLedger
import Foundation
import PostgresLedgerStoreTesting
import Testing

@testable import PostgresLedgerStore

extension PostgresServerTests {
    /// Opening a store runs its schema check as any transaction body runs: a connection lost
    /// before COMMIT runs the check again on a fresh connection, so the caller never sees it.
    @Suite struct OpenRetryTests {
        /// Most polls for the blocked backend, 10 ms apart: two minutes, for a loaded machine.
        static let pollCountMax = 12_000

        @Test func aConnectionCutDuringTheOpeningSchemaCheckIsRetried() async throws {
            let schema = try PostgresScratchSchema.create(prefix: "ledger_cut")
            defer { try? schema.drop() }
            await (try await schema.openStore()).close()

            // Another session holds ledger_meta, so the next open blocks in its check, inside its
            // transaction, with its statement sent.
            let connectionString = PostgresConnectionString(schema.connectionString)
            let holder = try PostgresConnection(connectionString: connectionString)
            defer { holder.close() }
            _ = try holder.execute("BEGIN")
            _ = try holder.execute("LOCK TABLE ledger_meta IN ACCESS EXCLUSIVE MODE")
            let opening = Task { try await schema.openStore() }

            let watcher = try PostgresConnection(connectionString: connectionString)
            defer { watcher.close() }
            var blocked: Int64?
            for _ in 0..<Self.pollCountMax {
                blocked = try watcher.queryOne(
                    """
                    SELECT pid FROM pg_locks WHERE NOT granted AND relation = to_regclass('ledger_meta') LIMIT 1
                    """
                )?.optionalInt64(0)
                if blocked != nil { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            let pid = try #require(blocked, "the open never waited on ledger_meta")
            _ = try watcher.queryOne("SELECT pg_terminate_backend(\(pid))")
            _ = try holder.execute("COMMIT")

            let store = try await opening.value
            #expect(store.poolStatistics.transactionRetryCount >= 1)
            #expect(store.poolStatistics.connectionDiscardCount >= 1)
            let version = try await store.read { reader throws(LedgerError) in try reader.entitlementVersion(playerID: "p1") }
            #expect(version == 0)
            await store.close()
        }
    }
}
