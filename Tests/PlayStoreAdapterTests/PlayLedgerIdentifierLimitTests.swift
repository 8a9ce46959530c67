import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

/// A token within the adapter's limit but over the ledger's identifier limit.
@Suite struct PlayLedgerIdentifierLimitTests {
    @Test func aTokenOverTheLedgersLimitIsRecordedUnresolvedNotRedeliveredForever() async throws {
        let setup = try PlayLedgerSetup()
        let long = String(repeating: "t", count: LedgerConfiguration.sandbox.identifierByteCountMax + 1)
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
        guard case .unresolved(let stored) = outcome else {
            Issue.record("the ledger's refusal is recorded, got \(outcome)")
            return
        }
        #expect(stored.outcome.contains("refused an identifier"))
        #expect(try setup.isRecorded("m-long"))
        let report = try await VoidedPurchasesSync(api: api, packageName: PlayLedgerSetup.packageName, ledger: setup.ledger).run()
        #expect(report.rejected.count == 1 && report.recorded == 0, "the sync goes on past it")
    }
}
