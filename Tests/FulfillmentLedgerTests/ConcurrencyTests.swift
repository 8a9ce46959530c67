import Foundation
import Synchronization
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Many concurrent deliveries, one grant.
@Suite struct ConcurrencyTests {
    static let concurrentSubmissionCount = 16

    @Test(arguments: StoreKind.allCases)
    func concurrentSubmissionsOfOneTransactionGrantOnce(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        let ledger = harness.ledger
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<Self.concurrentSubmissionCount {
                group.addTask { try await ledger.fulfill(purchase).name }
            }
            var names: [String] = []
            for try await name in group { names.append(name) }
            return names
        }
        #expect(names.filter { $0 == "granted" }.count == 1)
        #expect(names.filter { $0 == "alreadyFulfilled" }.count == Self.concurrentSubmissionCount - 1)
        await #expect(try harness.balance("p1", "gems") == 500)
        await #expect(try harness.purchaseCount("p1", "starter_bundle") == 1)
        _ = try await ledger.recover()
        await #expect(try harness.pendingFinishCount() == 0)
        #expect(harness.testStore.isFinished(purchase.transactionID))
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentDistinctPurchasesAllGrant(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchases = (0..<32).map { harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p\($0 % 4)") }
        let ledger = harness.ledger
        try await withThrowingTaskGroup(of: Void.self) { group in
            for purchase in purchases { group.addTask { _ = try await ledger.fulfill(purchase) } }
            try await group.waitForAll()
        }
        for player in 0..<4 { await #expect(try harness.balance("p\(player)", "gems") == 800) }
    }

    /// Group commit: 64 callers, some of whose grants fail inside the (possibly shared)
    /// transaction. Only those roll back; a retry grants them; nothing is granted twice.
    @Test(arguments: StoreKind.allCases)
    func failuresInsideConcurrentGrantsRollBackOnlyTheirOwn(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchases = (0..<64).map { harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p\($0 % 8)") }
        harness.faults.arm(.beforeCommit, count: 5, skipCount: 10)
        let ledger = harness.ledger
        let failed = try await withThrowingTaskGroup(of: TransactionSubmission?.self) { group in
            for purchase in purchases {
                group.addTask {
                    do throws(LedgerError) {
                        #expect(try await ledger.fulfill(purchase).name == "granted")
                        return nil
                    } catch {
                        #expect(error == .injectedFault(.beforeCommit))
                        return purchase
                    }
                }
            }
            var failed: [TransactionSubmission] = []
            for try await purchase in group { if let purchase { failed.append(purchase) } }
            return failed
        }
        #expect(failed.count == 5)
        for submission in failed {
            let record = try await harness.ledger.store.read { reader throws(LedgerError) in try reader.transaction(submission.key) }
            #expect(record == nil, "the failed grant left nothing behind")
        }
        for purchase in failed { #expect(try await ledger.fulfill(purchase).name == "granted") }
        for purchase in purchases { #expect(try await ledger.fulfill(purchase).name == "alreadyFulfilled") }
        for player in 0..<8 { await #expect(try harness.balance("p\(player)", "gems") == 800) }
        await #expect(try harness.pendingFinishCount() == 0)
    }
}

/// A finisher whose first call waits until the test opens the gate, so a second delivery of
/// the same purchase arrives while the first call is still finishing it.
private final class GatedFinisher: PlatformFinisher, Sendable {
    private let state = Mutex<(callCount: Int, entered: Bool, gate: CheckedContinuation<Void, Never>?, isOpen: Bool)>(
        (0, false, nil, false))

    var callCount: Int { state.withLock { $0.callCount } }
    var hasEntered: Bool { state.withLock { $0.entered } }

    func finish(_ request: FinishRequest) async throws(LedgerError) {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                state.callCount += 1
                state.entered = true
                if state.isOpen { return true }
                state.gate = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let gate = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isOpen = true
            defer { state.gate = nil }
            return state.gate
        }
        gate?.resume()
    }
}

@Suite struct FinishInProgressTests {
    /// Most 1 ms polls for the first delivery to reach the platform finish.
    static let enterPollCountMax = 5_000

    @Test("a duplicate arriving while the first delivery finishes is reported as a finish in progress, not a failed one")
    func concurrentDuplicateReportsFinishInProgress() async throws {
        let clock = ManualClock()
        let testStore = TestStore(clock: clock)
        let finisher = GatedFinisher()
        let ledger = try Ledger(
            catalog: try LedgerHarness.sampleCatalog(), store: InMemoryLedgerStore(), verifier: testStore.verifier,
            finisher: finisher, source: testStore, clock: clock, configuration: .sandbox)
        let purchase = testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        let first = Task { try await ledger.fulfill(purchase) }
        for _ in 0..<Self.enterPollCountMax where !finisher.hasEntered { try await Task.sleep(for: .milliseconds(1)) }
        try #require(finisher.hasEntered, "the first delivery never reached the platform finish")

        let duplicate = try await ledger.fulfill(purchase)
        let receipt = try #require(duplicate.receipt)
        #expect(duplicate.name == "alreadyFulfilled")
        #expect(receipt.finishInProgressElsewhere)
        #expect(!receipt.finished)
        #expect(receipt.finishError == nil)

        finisher.open()
        let granted = try #require(try await first.value.receipt)
        #expect(granted.finished && !granted.finishInProgressElsewhere && granted.finishError == nil)
        #expect(finisher.callCount == 1, "the duplicate called the platform again")
        let again = try #require(try await ledger.fulfill(purchase).receipt)
        #expect(again.finished && !again.finishInProgressElsewhere)
    }
}
