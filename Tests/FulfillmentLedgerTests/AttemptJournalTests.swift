import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Every submission that grants nothing is journaled, with its entry point, outside the grant's
/// transaction; grants and replays are not; the journal stays inside its bounds under a flood.
@Suite struct AttemptJournalTests {
    static func attempts(_ ledger: Ledger, player: String) async throws -> [AttemptRecord] {
        try await ledger.store.read { reader throws(LedgerError) in try reader.attempts(playerID: player, limit: 100) }
    }

    @Test(arguments: StoreKind.allCases)
    func eachSupportCaseIsFoundByLookupWithItsReason(_ kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let fixture = try await SupportCaseFixture.write(
            into: harness.ledger, testStore: harness.testStore, faults: harness.faults)
        #expect(fixture.cases.count == 7)
        for supportCase in fixture.cases {
            let report = try await harness.ledger.lookup(supportCase.transactionID)
            #expect(report.found, "\(supportCase.name)")
            #expect(report.playerIDs.contains(supportCase.playerID), "\(supportCase.name): \(report.playerIDs)")
            #expect(report.steps.contains { $0.kind == supportCase.expected || $0.text.contains(supportCase.expected) },
                "\(supportCase.name): \(report.steps.map(\.text))")
        }
        // The finish that failed is still owed, and says so.
        let unfinished = try await harness.ledger.lookup(fixture.cases[0].transactionID)
        #expect(unfinished.pendingFinishes.count == 1)
        #expect(unfinished.steps.last?.kind == "finishPending")
        // The refund is in the timeline after the grant.
        let refunded = try await harness.ledger.lookup(fixture.cases[4].transactionID)
        #expect(refunded.steps.map(\.kind) == ["purchaseGranted", "refundApplied"])
        #expect(refunded.revocations.count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func rejectionsAndFailuresAreJournaledWithTheirEntryPoint(_ kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let unknown = harness.testStore.purchase(storeProductID: "test.gems_mega", playerID: "p1")
        _ = try await harness.ledger.fulfill(unknown, via: .notification)
        harness.faults.arm(.beforeCommit)
        let failing = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        await #expect(throws: LedgerError.self) { try await harness.ledger.fulfill(failing, via: .operator) }
        var forged = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        forged.payload = "not a test-store document"
        _ = try await harness.ledger.fulfill(forged)
        let rows = try await Self.attempts(harness.ledger, player: "p1")
        #expect(rows.map(\.code) == ["unverified", "injectedFault", "unknownProduct"].map { code in
            code == "injectedFault" ? LedgerError.injectedFault(.beforeCommit).codeName : code
        })
        #expect(rows.map(\.entryPoint) == [.client, .operator, .notification])
        #expect(rows.map(\.outcome) == [.rejected, .failed, .rejected])
        #expect(rows.map(\.isVerified) == [false, true, true])
        #expect(rows.allSatisfy { $0.repeatCount == 1 && $0.store == .test })
        // Nothing was granted by any of them.
        #expect(try await harness.ledger.player("p1").history.isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func grantsReplaysAndRefusedInputWriteNoAttempt(_ kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await harness.ledger.fulfill(purchase)
        _ = try await harness.ledger.fulfill(purchase)
        var overlong = purchase
        overlong.playerID = String(repeating: "x", count: 300)
        await #expect(throws: LedgerError.self) { try await harness.ledger.fulfill(overlong) }
        let counts = try await harness.ledger.store.read { reader throws(LedgerError) in
            (try reader.attemptCount(verified: true), try reader.attemptCount(verified: false))
        }
        #expect(counts == (0, 0))
    }

    @Test(arguments: StoreKind.allCases)
    func aClientRetryingAPendingPurchaseFillsOneRow(_ kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let pending = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1", state: .pending)
        for _ in 0..<25 {
            _ = try await harness.ledger.fulfill(pending)
            harness.clock.advance(seconds: 1)
        }
        let rows = try await Self.attempts(harness.ledger, player: "p1")
        #expect(rows.count == 1)
        #expect(rows.first?.repeatCount == 25)
        #expect(rows.first.map { $0.lastAt.timeIntervalSince($0.at) } == 24)
        // Approved later, it grants, and the journal keeps what happened before.
        let approved = try #require(harness.testStore.approve(pending.transactionID))
        #expect(try await harness.ledger.fulfill(approved).name == "granted")
        let report = try await harness.ledger.lookup(pending.transactionID)
        #expect(report.steps.map(\.kind) == ["rejected", "purchaseGranted"])
    }

    /// A flood of hostile submissions (unverified, each with a new 4 KB token) cannot grow the
    /// journal past its unverified budget, and never pushes a verified attempt out.
    @Test(arguments: StoreKind.allCases)
    func aFloodOfHostileSubmissionsStaysInsideItsBudget(_ kind: StoreKind) async throws {
        var configuration = LedgerConfiguration.sandbox
        configuration.attemptRetention = AttemptRetention(
            countMax: 50, unverifiedCountMax: 40, ageSecondsMax: 86_400, reasonByteCountMax: 128)
        let harness = try await LedgerHarness(kind, configuration: configuration)
        let genuine = harness.testStore.purchase(storeProductID: "test.gems_mega", playerID: "victim")
        _ = try await harness.ledger.fulfill(genuine)
        let floodCount = 1_000
        for index in 0..<floodCount {
            let token = String(format: "%06d", index) + String(repeating: "A", count: 4_090)
            let hostile = TransactionSubmission(
                store: .test, transactionID: token, storeProductID: "test.gems_small", playerID: "attacker-\(index)",
                payload: "forged")
            _ = try await harness.ledger.fulfill(hostile)
        }
        let counts = try await harness.ledger.store.read { reader throws(LedgerError) in
            (try reader.attemptCount(verified: true), try reader.attemptCount(verified: false))
        }
        #expect(counts == (1, 40))
        #expect(try await Self.attempts(harness.ledger, player: "victim").map(\.code) == ["unknownProduct"])
        if let path = harness.databasePath {
            // 40 rows of ~4 KB tokens in their table and index: far below what 1,000 would take.
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            #expect(size < 2_000_000, "database \(size) bytes, WAL \(wal) bytes")
        }
    }
}
