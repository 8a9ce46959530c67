import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

/// Purchase tokens far longer than the game's own IDs: the ledger's transaction ID limit fits them.
@Suite struct PlayLedgerIdentifierLimitTests {
    @Test func aTokenOfGooglesSampleLengthIsAppliedLikeAnyOther() async throws {
        let setup = try PlayLedgerSetup()
        let long = String(repeating: "t", count: 1_950)
        #expect(long.utf8.count > LedgerConfiguration.sandbox.identifierByteCountMax)
        var notification = DeveloperNotification()
        notification.voidedPurchaseNotification = .init(purchaseToken: long, orderId: nil, productType: 2, refundType: 1)
        var record = VoidedPurchase()
        record.purchaseToken = long
        record.voidedTimeMillis = String(setup.clock.now().ledgerMilliseconds)
        let api = AlteredPlayAPI(play: setup.play, voided: [record])
        let processor = PlayNotificationProcessor(
            api: api, packageName: PlayLedgerSetup.packageName, ledger: setup.ledger,
            authenticator: setup.signer.authenticator(), playerResolver: { $0 })
        let outcome = try await processor.process(
            headers: try setup.signer.headers(), body: setup.play.envelope(notification, messageID: "m-long"))
        guard case .revocation(let revocation, _) = outcome else {
            Issue.record("the confirmed void of a long token is applied, got \(outcome)")
            return
        }
        #expect(revocation.record?.disposition == .awaitingPurchase, "no purchase of it is in the ledger yet")
        await #expect(try setup.isRecorded("m-long"))
        let report = try await VoidedPurchasesSync(api: api, packageName: PlayLedgerSetup.packageName, ledger: setup.ledger).run()
        #expect(report.rejected.isEmpty, "the sync finds the same event already recorded")
    }
}
