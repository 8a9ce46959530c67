import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// The shared JSON form of the outcomes (Docs/Integration.md, "JSON shapes"): the keys each
/// case writes, and a round trip where the type decodes.
struct LedgerJSONTests {
    struct Setup {
        let clock = ManualClock()
        let testStore: TestStore
        let ledger: Ledger

        init() throws {
            testStore = TestStore(clock: clock)
            ledger = try Ledger(
                catalog: try LedgerHarness.sampleCatalog(), store: InMemoryLedgerStore(), verifier: testStore.verifier,
                finisher: testStore, source: testStore, clock: clock, configuration: .sandbox)
        }
    }

    static func object<T: Encodable>(_ value: T) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: LedgerJSON.encode(value)) as? [String: Any])
    }

    static func record() -> TransactionRecord {
        TransactionRecord(
            key: TransactionKey(store: .test, transactionID: "t1"), playerID: "p1", productID: "gems_small",
            storeProductID: "test.gems_small", productKind: .consumable, quantity: 1, environment: .sandbox,
            purchaseDate: Date(ledgerMilliseconds: 1_000), fulfilledAt: Date(ledgerMilliseconds: 2_000),
            catalogVersion: "1", grants: [], finishedAt: nil)
    }

    static func roundTrip(_ outcome: FulfillmentOutcome) throws -> FulfillmentOutcome {
        try LedgerJSON.decoder().decode(FulfillmentOutcome.self, from: LedgerJSON.encode(outcome))
    }

    @Test("granted, alreadyFulfilled and rejected write their documented keys and decode back equal")
    func fulfillmentOutcomes() async throws {
        let setup = try Setup()
        let purchase = setup.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        let granted = try await setup.ledger.fulfill(purchase)
        let duplicate = try await setup.ledger.fulfill(purchase)
        let unknown = setup.testStore.purchase(storeProductID: "test.no_such_product", playerID: "p1")
        let rejected = try await setup.ledger.fulfill(unknown)

        let grantedObject = try Self.object(granted)
        #expect(Set(grantedObject.keys) == ["outcome", "granted", "record", "finished", "finishInProgressElsewhere"])
        #expect(grantedObject["outcome"] as? String == "granted")
        #expect((grantedObject["granted"] as? [[String: Any]])?.first?["id"] as? String == "gems")
        #expect(grantedObject["finished"] as? Bool == true)
        let record = try #require(grantedObject["record"] as? [String: Any])
        #expect(record["playerID"] as? String == "p1")
        let duplicateObject = try Self.object(duplicate)
        #expect(duplicateObject["outcome"] as? String == "alreadyFulfilled")
        #expect((duplicateObject["granted"] as? [Any])?.isEmpty == true, "a duplicate grants nothing now")
        let rejectedObject = try Self.object(rejected)
        #expect(Set(rejectedObject.keys) == ["outcome", "reason", "reasonCode", "message"])
        #expect(rejectedObject["reason"] as? String == "unknownProduct")
        #expect(rejectedObject["reasonCode"] as? Int == RejectionReason.unknownProduct.code)

        for outcome in [granted, duplicate, rejected] {
            #expect(try Self.roundTrip(outcome) == outcome)
        }
    }

    @Test("a failed finish writes its error; a finish left to another call decodes back")
    func finishStates() throws {
        let record = Self.record()
        let failed = FulfillmentOutcome.granted(FulfillmentReceipt(record: record, finished: false, finishError: "down"))
        #expect(try Self.object(failed)["finishError"] as? String == "down")
        #expect(try Self.roundTrip(failed) == failed)
        let elsewhere = FulfillmentOutcome.alreadyFulfilled(
            FulfillmentReceipt(record: record, finished: false, finishInProgressElsewhere: true))
        #expect(try Self.object(elsewhere)["finishInProgressElsewhere"] as? Bool == true)
        #expect(try Self.roundTrip(elsewhere) == elsewhere)
    }

    @Test("an unknown outcome, an unknown reason and a contradictory receipt are decoding errors")
    func refusedDecodes() throws {
        let decoder = LedgerJSON.decoder()
        #expect(throws: DecodingError.self) {
            try decoder.decode(FulfillmentOutcome.self, from: Data(#"{"outcome":"maybe"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(
                FulfillmentOutcome.self, from: Data(#"{"outcome":"rejected","reason":"bored","message":"m"}"#.utf8))
        }
        let record = Self.record()
        var object = try Self.object(FulfillmentOutcome.granted(FulfillmentReceipt(record: record, finished: true)))
        object["finishInProgressElsewhere"] = true
        let contradictory = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try decoder.decode(FulfillmentOutcome.self, from: contradictory) }
    }

    @Test("a recovery report lists keys as objects, failures with their error, and the source's error as a code")
    func recoveryReport() async throws {
        let setup = try Setup()
        setup.testStore.failNext(.finish)
        _ = try await setup.ledger.fulfill(setup.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1"))
        setup.testStore.failNext(.finish)
        setup.testStore.failNext(.source)
        let report = try await setup.ledger.recover()
        let object = try Self.object(report)
        #expect(object["clean"] as? Bool == false)
        let pending = try #require(object["stillPending"] as? [[String: Any]])
        #expect(pending.count == 1 && pending.first?["store"] as? String == "test")
        #expect(pending.first?["transactionID"] is String && pending.first?["error"] is String)
        let source = try #require(object["sourceError"] as? [String: Any])
        #expect(source["code"] as? Int == 4003 && source["name"] as? String == "port.transactionSourceUnavailable")
        #expect((object["finished"] as? [Any])?.isEmpty == true)

        let clean = try Self.object(try await setup.ledger.recover())
        #expect(clean["clean"] as? Bool == true)
        #expect((clean["finished"] as? [[String: String]])?.first?["store"] == "test")
    }

    @Test("a restore report nests each listed transaction's outcome beside its key")
    func restoreReport() async throws {
        let setup = try Setup()
        let purchase = setup.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        let report = try await setup.ledger.restore(
            playerID: "p1", query: .answered(store: .test, transactions: [purchase], authoritativeAsOf: nil))
        let object = try Self.object(report)
        #expect(object["playerID"] as? String == "p1")
        let outcomes = try #require(object["outcomes"] as? [[String: Any]])
        #expect(outcomes.first?["transactionID"] as? String == purchase.transactionID)
        #expect((outcomes.first?["outcome"] as? [String: Any])?["outcome"] as? String == "granted")
        #expect(object["queryError"] == nil && (object["errors"] as? [Any])?.isEmpty == true)
    }

    @Test("a revocation outcome writes its record or its rejection and decodes back equal")
    func revocationOutcomes() async throws {
        let setup = try Setup()
        let purchase = setup.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await setup.ledger.fulfill(purchase)
        let event = RevocationEvent(
            eventID: "e1", store: .test, transactionID: purchase.transactionID, kind: .fullRefund,
            eventDate: setup.clock.now())
        let recorded = try await setup.ledger.applyRevocation(event)
        let object = try Self.object(recorded)
        #expect(object["outcome"] as? String == "recorded")
        #expect((object["record"] as? [String: Any])?["disposition"] as? String == "applied")
        let decoded = try LedgerJSON.decoder().decode(RevocationOutcome.self, from: LedgerJSON.encode(recorded))
        #expect(decoded == recorded)
    }

    @Test("a ledger error writes the one error body's members: stable code, name, message, retryable, outcomeUnknown")
    func ledgerError() throws {
        let object = try Self.object(LedgerError.finishFailed("store down"))
        #expect(object["code"] as? Int == 4002 && object["name"] as? String == "port.finishFailed")
        #expect(object["retryable"] as? Bool == true && object["outcomeUnknown"] as? Bool == false)
        let detail = try LedgerJSON.decoder().decode(
            LedgerErrorBody.Detail.self, from: LedgerJSON.encode(LedgerError.finishFailed("x")))
        #expect(detail == LedgerErrorBody(LedgerError.finishFailed("x")).error)
    }
}
