import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// The observer port: every fulfillment, finish attempt, revocation, recovery and thrown error
/// reaches it once, with a stable code, a level and a duration.
struct ObserverTests {
    struct Setup {
        let clock = ManualClock()
        let testStore: TestStore
        let faults = ScriptedFaultInjector()
        let observer = InMemoryLedgerObserver()
        let ledger: Ledger

        init() throws {
            testStore = TestStore(clock: clock)
            ledger = try Ledger(
                catalog: try LedgerHarness.sampleCatalog(), store: InMemoryLedgerStore(), verifier: testStore.verifier,
                finisher: testStore, source: testStore, clock: clock, faults: faults, observer: observer,
                configuration: .sandbox)
        }
    }

    @Test("a grant, a duplicate and a rejection each reach the observer once, with the finish attempt between")
    func fulfillments() async throws {
        let setup = try Setup()
        let purchase = setup.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await setup.ledger.fulfill(purchase)
        _ = try await setup.ledger.fulfill(purchase)
        var unknown = purchase
        unknown.transactionID = "other"
        unknown.storeProductID = "test.no_such_product"
        _ = try await setup.ledger.fulfill(unknown)
        #expect(setup.observer.codes.count == 4)
        let observations = setup.observer.observations
        #expect(observations.map(\.code).prefix(3) == ["finish.finished", "fulfillment.granted", "fulfillment.alreadyFulfilled"])
        let last = try #require(observations.last)
        #expect(last.code.hasPrefix("fulfillment.rejected."))
        #expect(last.level == .warning)
        #expect(observations.prefix(3).allSatisfy { $0.level == .info && $0.durationMicroseconds >= 0 })
        let granted = observations[1]
        #expect(granted.metadata["transaction"] == purchase.key.description)
        #expect(granted.metadata["playerID"] == "p1")
        #expect(granted.metadata["code"] == "fulfillment.granted")
        #expect(granted.message.contains("granted"))
    }

    @Test("a failed finish is a warning; recover's retry and its report follow")
    func finishFailureAndRecovery() async throws {
        let setup = try Setup()
        setup.testStore.failNext(.finish)
        let purchase = setup.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await setup.ledger.fulfill(purchase)
        _ = try await setup.ledger.recover()
        #expect(
            setup.observer.codes == ["finish.failed", "fulfillment.granted", "finish.finished", "recovery.clean"])
        #expect(setup.observer.observations[0].level == .warning)
        #expect(setup.observer.observations[0].message.contains("failed"))
    }

    @Test("a revocation and its redelivery")
    func revocations() async throws {
        let setup = try Setup()
        let purchase = setup.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await setup.ledger.fulfill(purchase)
        setup.observer.removeAll()
        let refund = RevocationEvent(
            eventID: "r1", store: .test, transactionID: purchase.transactionID, kind: .fullRefund,
            eventDate: setup.clock.now())
        _ = try await setup.ledger.applyRevocation(refund)
        _ = try await setup.ledger.applyRevocation(refund)
        #expect(setup.observer.codes == ["revocation.recorded", "revocation.alreadyRecorded"])
        #expect(setup.observer.observations[0].metadata["eventID"] == "r1")
    }

    @Test("an error the ledger throws is observed as a failure with its stable code, then rethrown")
    func failures() async throws {
        let setup = try Setup()
        var bad = setup.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        bad.transactionID = ""
        await #expect(throws: LedgerError.self) { try await setup.ledger.fulfill(bad) }
        setup.faults.arm(.beforeCommit)
        let purchase = setup.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        await #expect(throws: LedgerError.injectedFault(.beforeCommit)) { try await setup.ledger.fulfill(purchase) }
        #expect(setup.observer.codes == ["failure.fulfill.argument.invalid", "failure.fulfill.fault.injected"])
        #expect(setup.observer.observations.allSatisfy { $0.level == .error })
        #expect(setup.observer.observations[1].metadata["errorCode"] == "5001")
    }

    @Test("the in-memory observer keeps at most its limit, dropping the oldest")
    func inMemoryLimit() {
        let observer = InMemoryLedgerObserver(observationCountMax: 2)
        for index in 0..<5 {
            observer.observe(
                LedgerObservation(.failure(operation: "op\(index)", error: .invalidArgument("x")), durationMicroseconds: 1))
        }
        #expect(observer.codes == ["failure.op3.argument.invalid", "failure.op4.argument.invalid"])
        #expect(observer.droppedCount == 3)
    }
}
