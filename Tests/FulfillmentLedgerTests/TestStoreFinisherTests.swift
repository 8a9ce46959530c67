import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import TestStoreAdapter
import Testing

/// The test store's own ports, wired as the `ledger` CLI wires them: `TestStoreVerifier` and
/// the finisher that has no server to tell.
@Suite struct TestStoreFinisherTests {
    @Test func aGrantThroughTheTestStoresPortsIsFinishedAndLeavesNoPendingFinish() async throws {
        let store = InMemoryLedgerStore()
        let ledger = try Ledger(
            catalog: try LedgerHarness.sampleCatalog(), store: store, verifier: TestStoreVerifier(),
            finisher: TestStoreFinisher(), configuration: .sandbox)
        let document = TestStoreTransaction(
            transactionID: "t-1", storeProductID: "test.gems_small", playerID: "p1", purchaseDate: Date())
        let receipt = try #require(try await ledger.fulfill(document.submission()).receipt)
        #expect(receipt.finished && receipt.finishError == nil)
        let key = TransactionKey(store: .test, transactionID: "t-1")
        let (record, pending) = try await store.read { reader throws(LedgerError) in
            (try reader.transaction(key), try reader.pendingFinishes(limit: 10))
        }
        #expect(record?.finishedAt != nil)
        #expect(pending.isEmpty)
        #expect(try await ledger.fulfill(document.submission()).name == "alreadyFulfilled")
        #expect(try await ledger.recover().isClean)
    }
}
