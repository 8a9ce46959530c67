import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Synchronization
import Testing

/// `AppStoreConsumptionSender`: a `CONSUMPTION_REQUEST` answered once with the V2 body built from
/// the ledger, against the simulated App Store Server API, which records every body it accepts.
@Suite struct AppStoreConsumptionSenderTests {
    static let gems = AppStoreServerAPILedgerTests.gems

    /// A ledger on the simulated API with a fulfilled 100-gem purchase for p1, 40 gems spent.
    struct Setup {
        let fixture: ServerAPIFixture
        let api: AppStoreSimulatedServerAPI
        let ledger: Ledger
        let purchase: SignedAppStoreTransaction

        init() async throws {
            fixture = try ServerAPIFixture()
            api = fixture.simulatedAPI()
            ledger = try AppStoreServerAPILedgerTests.ledger(fixture, api)
            purchase = try fixture.simulator.purchase(
                productID: AppStoreConsumptionSenderTests.gems, appAccountToken: AppAccountToken.forPlayer("p1"))
            let granted = try await ledger.fulfill(
                AppStoreServerTransactionVerifier.submission(
                    transactionID: purchase.transactionID, storeProductID: AppStoreConsumptionSenderTests.gems,
                    playerID: "p1"))
            #expect(granted.name == "granted")
            _ = try await ledger.apply(.spend(40, of: "gems", player: "p1", operationID: "s1"))
        }

        func sender(
            consent: @escaping AppStoreConsumptionSender.ConsentCheck = { _, _ in true }
        ) throws -> AppStoreConsumptionSender {
            AppStoreConsumptionSender(
                client: try fixture.client(api), ledger: ledger, refundPreference: .grantProrated,
                customerConsented: consent)
        }

        func processor(_ sender: AppStoreConsumptionSender) -> AppStoreNotificationProcessor {
            AppStoreNotificationProcessor(
                signedDataVerifier: fixture.verifier, ledger: ledger, consumptionSender: sender)
        }

        func request(at date: Date? = nil) throws -> String {
            try fixture.simulator.notification(
                type: .consumptionRequest, transactionID: purchase.transactionID, at: date)
        }

        var sentBodies: [[String: Any]] {
            api.consumptionBodies(for: purchase.transactionID).compactMap {
                try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
            }
        }
    }

    static func question(_ outcome: AppStoreNotificationOutcome) -> AppStoreConsumptionQuestion? {
        guard case .consumptionRequest(let question) = outcome else { return nil }
        return question
    }

    @Test func aRequestIsAnsweredOnceAndARepeatOrRedeliverySendsNothing() async throws {
        let setup = try await Setup()
        let processor = setup.processor(try setup.sender())
        let request = try setup.request()
        let first = try #require(Self.question(try await processor.process(request)))
        #expect(first.answer?.name == "sent")
        #expect(first.answer?.answer?.notificationUUID == first.notificationUUID)
        // Apple redelivers the same notification: already processed, nothing sent.
        guard case .alreadyProcessed = try await processor.process(request) else {
            Issue.record("a redelivered notification is already processed")
            return
        }
        // A second CONSUMPTION_REQUEST (a new UUID) for the same transaction: the recorded answer.
        let second = try #require(Self.question(try await processor.process(try setup.request())))
        #expect(second.notificationUUID != first.notificationUUID)
        let firstAnswer = try #require(first.answer?.answer)
        #expect(second.answer == .alreadySent(firstAnswer) && second.body == firstAnswer.body)
        // A sender made afresh reads the record from the ledger's store.
        let again = try await setup.sender().answer(
            transactionID: setup.purchase.transactionID, notificationUUID: nil, signedDate: nil)
        #expect(again.name == "alreadySent")
        #expect(setup.sentBodies.count == 1)
    }

    @Test func theBodyCarriesTheShareOfThePartlySpentGrantAndTheDeliveryStatus() async throws {
        let setup = try await Setup()
        let outcome = try await setup.sender().answer(
            transactionID: setup.purchase.transactionID, notificationUUID: "n1", signedDate: nil)
        let json = try #require(setup.sentBodies.first)
        // 40 of the 100 granted gems spent: 40 % is 40 000 milliunits.
        #expect(json["consumptionPercentage"] as? Int == 40_000)
        #expect(json["deliveryStatus"] as? String == "DELIVERED")
        #expect(json["customerConsented"] as? Bool == true)
        #expect(json["refundPreference"] as? String == "GRANT_PRORATED")
        #expect(json["sampleContentProvided"] as? Bool == false)
        #expect(Set(json.keys).count == 5)
        #expect(outcome.answer?.body.consumptionPercentage == 40_000)
        // The outcome survives a JSON round trip.
        let decoded = try LedgerJSON.decoder().decode(AppStoreConsumptionOutcome.self, from: LedgerJSON.encode(outcome))
        #expect(decoded == outcome)
    }

    @Test func aTransactionTheLedgerNeverGrantedIsUndeliveredWithNothingConsumed() async throws {
        let setup = try await Setup()
        let other = try setup.fixture.simulator.purchase(
            productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p1"))
        let outcome = try await setup.sender().answer(
            transactionID: other.transactionID, notificationUUID: nil, signedDate: nil)
        #expect(outcome.answer?.body.deliveryStatus == .undeliveredOther)
        #expect(outcome.answer?.body.consumptionPercentage == 0)
        let sent = try #require(setup.api.consumptionBodies(for: other.transactionID).first)
        let json = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: Any])
        #expect(json["deliveryStatus"] as? String == "UNDELIVERED_OTHER" && json["consumptionPercentage"] as? Int == 0)
    }

    @Test func aSpentGrantIsFullyConsumedAndAnEntitlementOnlyPurchaseOmitsThePercentage() async throws {
        let setup = try await Setup()
        _ = try await setup.ledger.apply(.spend(60, of: "gems", player: "p1", operationID: "s2"))
        let spent = try await AppStoreConsumptionRequest.build(
            for: TransactionKey(store: .appStore, transactionID: setup.purchase.transactionID), ledger: setup.ledger,
            customerConsented: true, refundPreference: nil, sampleContentProvided: false)
        #expect(spent.consumptionPercentage == AppStoreConsumptionRequest.consumptionPercentageMax)
        let ads = try setup.fixture.simulator.purchase(
            productID: "com.kibblestreet.td.remove_ads", appAccountToken: AppAccountToken.forPlayer("p1"),
            type: .nonConsumable)
        _ = try await setup.ledger.fulfill(
            AppStoreServerTransactionVerifier.submission(
                transactionID: ads.transactionID, storeProductID: "com.kibblestreet.td.remove_ads", playerID: "p1"))
        let outcome = try await setup.sender().answer(
            transactionID: ads.transactionID, notificationUUID: nil, signedDate: nil)
        #expect(outcome.answer?.body.deliveryStatus == .delivered)
        let sent = try #require(setup.api.consumptionBodies(for: ads.transactionID).first)
        let json = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: Any])
        #expect(json["consumptionPercentage"] == nil && json["refundPreference"] as? String == "GRANT_PRORATED")
    }

    @Test func aProcessorLeavesANotificationWhoseSendFailedForRedelivery() async throws {
        let setup = try await Setup()
        let processor = setup.processor(try setup.sender())
        let request = try setup.request()
        for _ in 0..<3 { setup.api.answerNext(ServerAPIFixture.appleError(503, 5_000_001, "Try again.")) }
        await #expect(throws: LedgerError.self) { _ = try await processor.process(request) }
        // Not recorded as processed: Apple's redelivery is answered.
        let redelivered = try #require(Self.question(try await processor.process(request)))
        #expect(redelivered.answer?.name == "sent" && setup.sentBodies.count == 1)
    }

    @Test func aRequestPastItsDeadlineIsRefusedAndSendsNothing() async throws {
        let setup = try await Setup()
        let signedAt = setup.fixture.clock.now()
        let request = try setup.request(at: signedAt)
        setup.fixture.clock.advance(seconds: AppStoreConsumptionSender.answerDeadlineSeconds + 1)
        let question = try #require(Self.question(try await setup.processor(try setup.sender()).process(request)))
        let deadline = signedAt.addingTimeInterval(AppStoreConsumptionSender.answerDeadlineSeconds)
        #expect(question.answer == .pastDeadline(transactionID: setup.purchase.transactionID, deadline: deadline))
        #expect(question.deadline == deadline)
        #expect(setup.sentBodies.isEmpty)
        // At the deadline itself the answer still goes.
        let onTime = try await setup.sender().answer(
            transactionID: setup.purchase.transactionID, notificationUUID: nil,
            signedDate: setup.fixture.clock.now().addingTimeInterval(-AppStoreConsumptionSender.answerDeadlineSeconds))
        #expect(onTime.name == "sent" && setup.sentBodies.count == 1)
    }

    @Test func withoutConsentNothingIsSentOrRecorded() async throws {
        let setup = try await Setup()
        let asked = ConsentLog()
        let refusing = try setup.sender { key, playerID in
            asked.record(key.transactionID, playerID)
            return false
        }
        let outcome = try await refusing.answer(
            transactionID: setup.purchase.transactionID, notificationUUID: nil, signedDate: nil)
        #expect(outcome == .notConsented(transactionID: setup.purchase.transactionID))
        #expect(asked.entries == ["\(setup.purchase.transactionID) p1"])
        #expect(setup.sentBodies.isEmpty)
        #expect(try await refusing.sentAnswer(transactionID: setup.purchase.transactionID) == nil)
        // Consent given later: the answer goes then.
        let consenting = try setup.sender()
        #expect(
            try await consenting.answer(
                transactionID: setup.purchase.transactionID, notificationUUID: nil, signedDate: nil
            ).name == "sent")
    }

    @Test func anOutageThrowsAndRecordsNothingAndAppleRefusingIsAValue() async throws {
        let setup = try await Setup()
        // The fixture's client retries twice: three 503s outlast it.
        for _ in 0..<3 { setup.api.answerNext(ServerAPIFixture.appleError(503, 5_000_001, "Try again.")) }
        let sender = try setup.sender()
        await #expect {
            _ = try await sender.answer(
                transactionID: setup.purchase.transactionID, notificationUUID: nil, signedDate: nil)
        } throws: { error in
            guard case .transactionSourceUnavailable = error as? LedgerError else { return false }
            return true
        }
        #expect(try await sender.sentAnswer(transactionID: setup.purchase.transactionID) == nil)
        // A transaction Apple does not know: 404, not retried, reported as a value.
        let unknown = try await sender.answer(transactionID: "2000000999999999", notificationUUID: nil, signedDate: nil)
        guard case .refused(_, let code, _) = unknown else {
            Issue.record("a 404 is refused, not thrown: \(unknown)")
            return
        }
        #expect(code == 7204)
        #expect(
            try await sender.answer(
                transactionID: setup.purchase.transactionID, notificationUUID: nil, signedDate: nil
            ).name == "sent")
        #expect(setup.sentBodies.count == 1)
    }
}

/// The consent questions a sender asked, in order.
final class ConsentLog: Sendable {
    private let recorded = Mutex<[String]>([])
    func record(_ transactionID: String, _ playerID: String?) {
        recorded.withLock { $0.append("\(transactionID) \(playerID ?? "-")") }
    }
    var entries: [String] { recorded.withLock { $0 } }
}
