import Foundation
import FulfillmentLedger
import LedgerCommandLine
import PostgresLedgerStoreTesting
import Testing

/// Refunds across processes: the same refund twice and its reversal in three processes at once,
/// and a spend in this process racing a clawback in another.
extension PostgresProcessTests {
    /// Purchases each race test makes.
    static let raceCount = 6

    /// The JSON text of a revocation event for `ledger revoke`.
    static func revocation(_ id: String, transaction: String, kind: String, date: String) throws -> String {
        let event: [String: Any] = ["eventID": id, "store": "test", "transactionID": transaction, "kind": kind, "eventDate": date]
        return String(decoding: try JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("a refund delivered twice and its reversal, in three processes at once: each applied once, in store-date order")
    func concurrentRefundsAndReversals() async throws {
        let executable = try #require(CrashAtFaultPointTests.executable, "build the ledger executable first")
        let schema = try PostgresScratchSchema.create(prefix: "ledger_processes")
        defer { try? schema.drop() }
        let url = schema.connectionString
        for index in 0..<Self.raceCount {
            let player = "refund-player-\(index)"
            let bought = try await fulfill(["transactionID": "rr-\(index)", "productID": "test.gems_small", "playerID": player], db: url)
            try #require(bought.code == 0, "\(bought.error)")
            let refund = try Self.revocation("refund-\(index)", transaction: "rr-\(index)", kind: "fullRefund", date: "2026-11-02T10:00:00Z")
            let reversal = try Self.revocation(
                "reversal-\(index)", transaction: "rr-\(index)", kind: "refundReversed", date: "2026-11-03T10:00:00Z")
            // The reversal goes first in every other race, so it often arrives before its refund.
            let inputs = index % 2 == 0 ? [refund, refund, reversal] : [reversal, refund, refund]
            var children: [ChildProcess] = []
            for input in inputs {
                children.append(
                    try await ChildProcess.launch(executable, ["revoke", "--db", url, "--catalog", repoCatalogPath], input: input))
            }
            var outcomes: [String: [String]] = [:]
            for (child, input) in zip(children, inputs) {
                let exit = try await child.exit(timeoutSeconds: Self.childSecondsMax)
                #expect(exit.status == 0, "\(exit.output)")
                let line = try #require(exit.jsonLines.last)
                outcomes[input == refund ? "refund" : "reversal", default: []].append(line["outcome"] as? String ?? "?")
            }
            #expect(outcomes["refund"]?.sorted() == ["alreadyRecorded", "recorded"], "race \(index): \(outcomes)")
            #expect(outcomes["reversal"] == ["recorded"], "race \(index): \(outcomes)")
            // In store-date order the refund came first and its reversal gave the gems back.
            #expect(try await balances(player, db: url)["gems"] == 100, "race \(index)")
        }
    }

    @Test("a spend in this process racing a clawback in another: neither is lost")
    func spendRacingClawback() async throws {
        let executable = try #require(CrashAtFaultPointTests.executable, "build the ledger executable first")
        let schema = try PostgresScratchSchema.create(prefix: "ledger_processes")
        defer { try? schema.drop() }
        let url = schema.connectionString
        let game = try await LedgerSetup.ledger(database: LedgerDatabase(url), catalogPath: repoCatalogPath)
        for index in 0..<Self.raceCount {
            let player = "spend-player-\(index)"
            let bought = try await fulfill(["transactionID": "sc-\(index)", "productID": "test.gems_large", "playerID": player], db: url)
            try #require(bought.code == 0, "\(bought.error)")
            let refund = try Self.revocation("clawback-\(index)", transaction: "sc-\(index)", kind: "fullRefund", date: "2026-11-02T10:00:00Z")
            let child = try await ChildProcess.launch(executable, ["revoke", "--db", url, "--catalog", repoCatalogPath], input: refund)
            try await Task.sleep(for: .milliseconds(10 * index))
            let spend = try await game.apply(.spend(700, of: "gems", player: player, operationID: "spend-\(index)"))
            let exit = try await child.exit(timeoutSeconds: Self.childSecondsMax)
            #expect(exit.status == 0 && exit.jsonLines.last?["outcome"] as? String == "recorded", "\(exit.output)")
            let spent: Bool
            switch spend {
            case .applied: spent = true
            case .rejected(let reason, _): spent = false; #expect(reason == .insufficientFunds, "race \(index)")
            case .alreadyApplied: Issue.record("race \(index): a new operation cannot be already applied"); continue
            }
            // 1,200 granted, 1,200 clawed back, and 700 spent only if the spend came first: a
            // clawback past the balance leaves a debt, so both count whatever their order.
            let snapshot = try await playerSnapshot(player, db: url)
            let balance = (snapshot["balances"] as? [String: Int])?["gems"] ?? 0
            let debt = (snapshot["debts"] as? [String: Int])?["gems"] ?? 0
            #expect((balance > 0 ? balance : -debt) == (spent ? -700 : 0), "race \(index): balance \(balance), debt \(debt)")
        }
        await game.store.close()
    }
}
