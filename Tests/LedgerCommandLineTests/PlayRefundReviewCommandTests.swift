import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `ledger playstore refund-review`, and `ledger playstore rtdn` answering a pushed chargeback
/// review, against a purchases file (an offline trial: the answer is accepted and recorded).
@Suite struct PlayRefundReviewCommandTests {
    typealias Fixture = PlayCommandFixture

    @Test func aPushedReviewIsAnsweredOnceWithTheLedgersEvidence() async throws {
        let fixture = try await Fixture()
        let purchases = try fixture.purchasesFile(["tok-1": Fixture.gems(quantity: 2)])
        let purchased = try Fixture.purchasedBody(messageID: "m-1", token: "tok-1", sku: "gems_small")
        #expect(try await fixture.rtdn(purchased, purchases: purchases).code == 0)
        let review = try Fixture.pushBody(
            messageID: "m-2",
            ["pendingRefundReviewNotification": ["version": "1.0", "pendingRefundToken": "prt-1", "orderId": "GPA.1", "refundReason": 7]])
        let answered = try await fixture.rtdn(
            review, purchases: purchases, arguments: ["--refund-preference-delivered", "DECLINE", "--sample-content-provided"])
        #expect(answered.code == 0, "\(answered.output)\(answered.error)")
        let json = try answered.json()
        #expect(json["outcome"] as? String == "refundReview")
        let outcome = try #require(json["review"] as? [String: Any])
        #expect(outcome["outcome"] as? String == "sent")
        let answer = try #require(outcome["answer"] as? [String: Any])
        #expect(answer["playerID"] as? String == "p1" && answer["refundPreference"] as? String == "DECLINE")
        #expect(answer["consumptionPercentageMilliunits"] as? Int == 0)
        #expect((json["notification"] as? [String: Any])?["type"] as? String == "PENDING_REFUND_REVIEW")
        // The operator command finds the recorded answer and sends nothing.
        let again = await ledger(
            ["playstore", "refund-review"] + fixture.common(purchases) + [
                "--order-id", "GPA.1", "--pending-refund-token", "prt-1",
            ])
        #expect(again.code == 0, "\(again.output)\(again.error)")
        #expect(try again.json()["outcome"] as? String == "alreadySent")
    }

    @Test func anOrderTheLedgerNeverDeliveredIsAnsweredApproveAndBadOptionsAreUsageErrors() async throws {
        let fixture = try await Fixture()
        let purchases = try fixture.purchasesFile([:])
        let sent = await ledger(
            ["playstore", "refund-review"] + fixture.common(purchases) + [
                "--order-id", "GPA.9", "--pending-refund-token", "prt-9",
            ])
        #expect(sent.code == 0, "\(sent.output)\(sent.error)")
        let answer = try #require(try sent.json()["answer"] as? [String: Any])
        #expect(answer["refundPreference"] as? String == "APPROVE" && answer["playerID"] == nil)
        let bad = await ledger(
            ["playstore", "refund-review"] + fixture.common(purchases) + [
                "--order-id", "GPA.9", "--pending-refund-token", "prt-9", "--refund-preference-delivered", "MAYBE",
            ])
        #expect(bad.code == 64 && bad.error.contains("expected one of DECLINE, APPROVE, NEUTRAL"), "\(bad.error)")
        let missing = await ledger(["playstore", "refund-review"] + fixture.common(purchases) + ["--order-id", "GPA.9"])
        #expect(missing.code == 64)
    }
}
