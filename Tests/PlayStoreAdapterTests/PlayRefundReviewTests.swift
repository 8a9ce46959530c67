import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// Collaborative chargebacks: a `pendingRefundReviewNotification` is answered once with
/// `orders.reviewrefund`, within Google's 24 hours, with the ledger's evidence; an outage is
/// retried (the push is redelivered) until the deadline and never after.
@Suite struct PlayRefundReviewTests {
    /// A ledger with a 100-gem purchase for p1, 40 gems spent, and its order ID.
    static func deliveredOrder(_ engine: LedgerTestEngine = .memory) async throws -> (PlayLedgerSetup, String) {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = try await setup.buyAndFulfill("gems_small", for: "p1")
        _ = try await setup.ledger.apply(.spend(40, of: "gems", player: "p1", operationID: "s1"))
        return (setup, try #require(setup.play.storedPurchase(token)?.orderId))
    }

    /// A processor that answers reviews with `sender`'s defaults.
    static func processor(_ setup: PlayLedgerSetup) -> PlayNotificationProcessor {
        var processor = setup.processor()
        processor.refundReviewSender = PlayRefundReviewSender(
            api: setup.play, packageName: PlayLedgerSetup.packageName, ledger: setup.ledger)
        return processor
    }

    static func push(_ setup: PlayLedgerSetup, _ body: Data) async throws -> PlayNotificationOutcome {
        try await processor(setup).process(headers: try setup.signer.headers(), body: body)
    }

    @Test(arguments: LedgerTestEngine.allCases)
    func aDeliveredOrdersReviewIsAnsweredOnceWithTheShareUsedUpAndTheDelivery(_ engine: LedgerTestEngine) async throws {
        let (setup, orderID) = try await Self.deliveredOrder(engine)
        let (body, token) = setup.play.requestRefundReview(orderID: orderID, accountID: "p1", messageID: "r-1")
        guard case .refundReview(.sent(let answer), let record) = try await Self.push(setup, body) else {
            Issue.record("the review must be answered")
            return
        }
        #expect(record.type == "PENDING_REFUND_REVIEW" && record.outcome.contains("refund review sent (NEUTRAL, 40000"))
        #expect(answer.playerID == "p1" && answer.messageID == "r-1" && answer.deliveredAt != nil)
        let sent = try #require(setup.play.refundReviewAnswer(orderID: orderID))
        #expect(sent.pendingRefundToken == token && sent.refundPreference == .neutral && !sent.sampleContentProvided)
        // 40 of the 100 granted gems spent: 40 % is 40 000 milliunits.
        #expect(sent.consumptionPercentageMilliunits == 40_000)
        let delivery = try #require(sent.consumptionUsageEvents?.first)
        #expect(delivery.consumptionItemDescription == "delivered gems_small x1: 100 gems")
        #expect(delivery.obfuscatedAccountId == "p1" && delivery.consumptionTime != nil)
        // The redelivered push, another message for the same order, and a fresh sender send nothing.
        guard case .alreadyProcessed = try await Self.push(setup, body) else {
            Issue.record("a redelivered message is not applied again")
            return
        }
        let again = setup.play.requestRefundReviewPush(orderID: orderID, pendingRefundToken: token, messageID: "r-2")
        guard case .refundReview(.alreadySent(let recorded), _) = try await Self.push(setup, again) else {
            Issue.record("a second message for the order must find the recorded answer")
            return
        }
        #expect(recorded == answer)
        #expect(setup.play.refundReviewAnswerCount(orderID: orderID) == 1)
        // The ledger still holds what it held: a review changes no balance.
        await #expect(try setup.gems("p1") == 60)
    }

    @Test func anOrderTheLedgerNeverDeliveredIsAnsweredApproveWithNothingUsed() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        let orderID = try #require(setup.play.storedPurchase(token)?.orderId)
        let (body, _) = setup.play.requestRefundReview(orderID: orderID)
        guard case .refundReview(.sent(let answer), _) = try await Self.push(setup, body) else {
            Issue.record("the review must be answered")
            return
        }
        #expect(answer.playerID == nil && answer.deliveredAt == nil && answer.refundPreference == .approve)
        let sent = try #require(setup.play.refundReviewAnswer(orderID: orderID))
        #expect(sent.consumptionPercentageMilliunits == 0 && sent.consumptionUsageEvents == nil)
    }

    @Test func aSubscriptionPeriodIsFoundByItsOrderIDAndAnEntitlementOnlyGrantSendsNoShare() async throws {
        let setup = try PlayLedgerSetup()
        let subscription = setup.play.subscribe(productID: "vip_monthly", accountID: "p1")
        #expect(try await setup.fulfill(subscription, "vip_monthly", as: "p1").name == "granted")
        let orderID = try #require(setup.play.storedSubscription(subscription)?.lineItems?.first?.latestSuccessfulOrderId)
        let sender = PlayRefundReviewSender(
            api: setup.play, packageName: PlayLedgerSetup.packageName, ledger: setup.ledger, deliveredPreference: .decline,
            sampleContentProvided: true)
        let (_, token) = setup.play.requestRefundReview(orderID: orderID)
        let outcome = try await sender.answer(orderID: orderID, pendingRefundToken: token, requestedAt: nil)
        #expect(outcome.answer?.playerID == "p1" && outcome.answer?.refundPreference == .decline)
        let sent = try #require(setup.play.refundReviewAnswer(orderID: orderID))
        #expect(sent.sampleContentProvided)
        // vip_monthly grants 300 gems and the VIP entitlement: the gems are measured.
        #expect(sent.consumptionPercentageMilliunits == 0)
    }

    @Test func anOutageIsRetriedByRedeliveryUntilTheDeadlineAndNeverAfter() async throws {
        let (setup, orderID) = try await Self.deliveredOrder()
        let (body, _) = setup.play.requestRefundReview(orderID: orderID, messageID: "r-1")
        setup.play.fail(.reviewRefund, with: .retryable("HTTP 503"), times: 2)
        for _ in 0..<2 {
            await #expect(throws: LedgerError.self) { try await Self.push(setup, body) }
            #expect(try await setup.isRecorded("r-1") == false, "an outage records nothing: Pub/Sub redelivers")
            setup.clock.advance(seconds: 3_600)
        }
        guard case .refundReview(.sent, _) = try await Self.push(setup, body) else {
            Issue.record("the third delivery, inside the 24 hours, must answer")
            return
        }
        // Past the deadline: nothing is sent, whatever Google's state.
        let (late, _) = setup.play.requestRefundReview(orderID: "GPA.late", messageID: "r-late")
        setup.clock.advance(seconds: PlayRefundReviewSender.answerDeadlineSeconds + 1)
        setup.play.fail(.reviewRefund, with: .retryable("HTTP 503"), times: 1)
        guard case .refundReview(.pastDeadline(let lateOrder, _), let record) = try await Self.push(setup, late) else {
            Issue.record("a review past its deadline is recorded, not retried")
            return
        }
        #expect(lateOrder == "GPA.late" && record.outcome.hasPrefix("refund review pastDeadline"))
        #expect(setup.play.refundReviewAnswerCount(orderID: "GPA.late") == 0)
    }

    @Test func aRefusalIsReportedAndRecordedNothingSoACorrectedAnswerCanFollow() async throws {
        let (setup, orderID) = try await Self.deliveredOrder()
        _ = setup.play.requestRefundReview(orderID: orderID)
        let sender = PlayRefundReviewSender(api: setup.play, packageName: PlayLedgerSetup.packageName, ledger: setup.ledger)
        let wrong = try await sender.answer(orderID: orderID, pendingRefundToken: "not-the-token", requestedAt: nil)
        guard case .refused(_, let code, _) = wrong else {
            Issue.record("a wrong token is refused: \(wrong)")
            return
        }
        #expect(code == 8301)
        #expect(try await sender.sentAnswer(orderID: orderID) == nil)
        await #expect(throws: LedgerError.self) {
            try await sender.answer(orderID: "", pendingRefundToken: "t", requestedAt: nil)
        }
        await #expect(throws: LedgerError.self) {
            try await sender.answer(
                orderID: String(repeating: "9", count: PlayPayloadLimits.orderIDByteCountMax + 1), pendingRefundToken: "t",
                requestedAt: nil)
        }
    }

    @Test func withoutASenderTheReviewIsLoggedWithItsDeadlineAndMalformedOnesAreRefused() async throws {
        let (setup, orderID) = try await Self.deliveredOrder()
        let (body, _) = setup.play.requestRefundReview(orderID: orderID)
        guard case .logged(let record) = try await setup.push(body) else {
            Issue.record("a review with no sender is logged")
            return
        }
        #expect(record.outcome.contains("refund review of order \(orderID) requested, to answer by"))
        #expect(setup.play.refundReviewAnswerCount(orderID: orderID) == 0)
        // A token or order ID over the limits: refused before anything is read or recorded.
        for review in [
            DeveloperNotification.PendingRefundReviewNotification(
                pendingRefundToken: String(repeating: "t", count: PlayPayloadLimits.purchaseTokenByteCountMax + 1),
                orderId: orderID),
            .init(pendingRefundToken: "t", orderId: String(repeating: "9", count: PlayPayloadLimits.orderIDByteCountMax + 1)),
        ] {
            var notification = DeveloperNotification()
            notification.pendingRefundReviewNotification = review
            guard case .rejected = try await Self.push(setup, setup.play.envelope(notification)) else {
                Issue.record("an out-of-range review must be rejected")
                return
            }
        }
        // One without a token is recorded as unresolved: no redelivery can complete it.
        var missing = DeveloperNotification()
        missing.pendingRefundReviewNotification = .init(pendingRefundToken: nil, orderId: orderID)
        guard case .unresolved = try await Self.push(setup, setup.play.envelope(missing)) else {
            Issue.record("a review without a token is unresolved")
            return
        }
    }

    @Test func theClientPostsTheAnswerToTheOrdersReviewRefundResource() async throws {
        let fixture = try PlayClientFixture { _, _ in .json(200, "{}") }
        let request = PlayRefundReviewRequest(
            pendingRefundToken: "prt-1", sampleContentProvided: false, refundPreference: .decline,
            consumptionPercentageMilliunits: 45_200,
            consumptionUsageEvents: [.init(consumptionTime: "2026-12-01T10:00:00.000Z", consumptionItemDescription: "x")])
        try await fixture.client.reviewRefund(packageName: "com.game", orderID: "GPA.1/2", request: request)
        let sent = try #require(fixture.server.apiRequests.first)
        #expect(sent.method == "POST" && sent.target == "/androidpublisher/v3/applications/com.game/orders/GPA.1%2F2:reviewrefund")
        #expect(
            String(decoding: sent.body, as: UTF8.self)
                == #"{"consumptionPercentageMilliunits":45200,"consumptionUsageEvents":[{"consumptionItemDescription":"x","consumptionTime":"2026-12-01T10:00:00.000Z"}],"pendingRefundToken":"prt-1","refundPreference":"DECLINE","sampleContentProvided":false}"#)
        // Over Google's 1,000 usage events: refused before any request.
        var tooMany = request
        tooMany.consumptionUsageEvents = Array(
            repeating: .init(consumptionTime: nil, consumptionItemDescription: nil),
            count: PlayRefundReviewRequest.usageEventCountMax + 1)
        await #expect(throws: PlayAPIError.self) {
            try await fixture.client.reviewRefund(packageName: "com.game", orderID: "GPA.1", request: tooMany)
        }
        #expect(fixture.server.apiRequests.count == 1)
        // A notification decodes with its informative fields of unexpected types left out.
        let json = #"{"pendingRefundToken":"prt","orderId":"GPA.9","refundReason":"seven","obfuscatedAccountId":7}"#
        let review = try JSONDecoder().decode(DeveloperNotification.PendingRefundReviewNotification.self, from: Data(json.utf8))
        #expect(review.pendingRefundToken == "prt" && review.orderId == "GPA.9")
        #expect(review.refundReason == nil && review.obfuscatedAccountId == nil)
    }
}
