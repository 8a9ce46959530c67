import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// A refund request's consumption case closes when Apple decides it (`REFUND_DECLINED`, or a
/// `REFUND`): the sender never answers a closed case, whoever asks.
@Suite struct AppStoreConsumptionCaseTests {
    typealias Setup = AppStoreConsumptionSenderTests.Setup

    @Test("REFUND_DECLINED closes the case: a later request, a redelivery or an operator's answer sends nothing")
    func refundDeclinedClosesTheCase() async throws {
        let setup = try await Setup()
        let sender = try setup.sender()
        let processor = setup.processor(sender)
        let declined = try setup.fixture.simulator.notification(type: .refundDeclined, transactionID: setup.purchase.transactionID)
        guard case .logged(let record) = try await processor.process(declined) else {
            Issue.record("a REFUND_DECLINED is logged")
            return
        }
        #expect(record.outcome.hasPrefix("refund declined: consumption case closed"), "\(record.outcome)")
        let closure = try #require(
            try await AppStoreConsumptionSender.closure(transactionID: setup.purchase.transactionID, ledger: setup.ledger))
        #expect(closure.notificationType == "REFUND_DECLINED")
        #expect(closure.notificationUUID == record.notificationID)

        let question = try #require(AppStoreConsumptionSenderTests.question(try await processor.process(try setup.request())))
        #expect(question.answer == .caseClosed(closure))
        let manual = try await sender.answer(transactionID: setup.purchase.transactionID, notificationUUID: nil, signedDate: nil)
        #expect(manual == .caseClosed(closure))
        #expect(setup.sentBodies.isEmpty, "nothing reached Apple")
        // The first closure stands: a second decline changes nothing.
        let again = try setup.fixture.simulator.notification(type: .refundDeclined, transactionID: setup.purchase.transactionID)
        _ = try await processor.process(again)
        #expect(try await AppStoreConsumptionSender.closure(transactionID: setup.purchase.transactionID, ledger: setup.ledger) == closure)
    }

    @Test("a REFUND closes the case as well; a processor without a sender still records the closure")
    func refundClosesTheCase() async throws {
        let setup = try await Setup()
        let withoutSender = AppStoreNotificationProcessor(signedDataVerifier: setup.fixture.verifier, ledger: setup.ledger)
        _ = try setup.fixture.simulator.revoke(transactionID: setup.purchase.transactionID)
        let refund = try setup.fixture.simulator.notification(type: .refund, transactionID: setup.purchase.transactionID)
        guard case .revocation(let outcome) = try await withoutSender.process(refund) else {
            Issue.record("a REFUND is a revocation")
            return
        }
        #expect(outcome.record?.disposition == .applied)
        let closure = try #require(
            try await AppStoreConsumptionSender.closure(transactionID: setup.purchase.transactionID, ledger: setup.ledger))
        #expect(closure.notificationType == "REFUND")
        let answer = try await setup.sender().answer(
            transactionID: setup.purchase.transactionID, notificationUUID: nil, signedDate: nil)
        #expect(answer == .caseClosed(closure))
        #expect(setup.sentBodies.isEmpty)
    }

    @Test("an answer sent before the decision stays the answer on record; the JSON form round-trips a closed case")
    func anAnswerSentBeforeStays() async throws {
        let setup = try await Setup()
        let processor = setup.processor(try setup.sender())
        let first = try #require(AppStoreConsumptionSenderTests.question(try await processor.process(try setup.request())))
        #expect(first.answer?.name == "sent")
        _ = try await processor.process(
            try setup.fixture.simulator.notification(type: .refundDeclined, transactionID: setup.purchase.transactionID))
        let again = try #require(AppStoreConsumptionSenderTests.question(try await processor.process(try setup.request())))
        #expect(again.answer?.name == "alreadySent")
        #expect(setup.sentBodies.count == 1)

        let closure = AppStoreConsumptionOutcome.Closure(
            transactionID: "2000000000000001", notificationType: "REFUND_DECLINED", notificationUUID: "u-1",
            closedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let encoded = LedgerJSON.encode(AppStoreConsumptionOutcome.caseClosed(closure))
        let decoded = try LedgerJSON.decoder().decode(AppStoreConsumptionOutcome.self, from: Data(encoded))
        #expect(decoded == .caseClosed(closure))
        #expect(String(decoding: encoded, as: UTF8.self).contains("\"outcome\":\"caseClosed\""))
    }
}
