import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `ONE_TIME_CHARGE`: Apple's word of a one-time purchase, which reaches the server even when
/// the client never comes back. It grants through the pipeline, under the purchase's own key, to
/// the player its `appAccountToken` names; without one it is journaled for an operator and
/// granted to no one.
@Suite struct AppStoreOneTimeChargeTests {
    typealias Setup = AppStoreLedgerTests.Setup
    static let gems = "com.kibblestreet.td.gems.small"

    /// The outcome's charge, or a recorded issue.
    static func charge(_ outcome: AppStoreNotificationOutcome) -> AppStoreOneTimeCharge? {
        guard case .oneTimeCharge(let charge) = outcome else {
            Issue.record("expected a one-time charge, got \(outcome)")
            return nil
        }
        return charge
    }

    @Test("a charge grants to the player a grant bound its token; the client's later delivery is alreadyFulfilled")
    func chargeGrantsToTheLearnedPlayer() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        // The first purchase, delivered by the client, teaches the ledger p1's token.
        #expect(try await setup.fulfill(try setup.buy(Self.gems, for: "p1"), as: "p1").name == "granted")
        let token = AppAccountToken.forPlayer("p1")
        let learned = try #require(try await setup.ledger.accountTokenBinding(store: .appStore, token: token))
        #expect(learned.playerID == "p1" && learned.source == .grant)

        // The second never reaches the client.
        let bought = try setup.buy(Self.gems, for: "p1")
        let notice = try setup.simulator.notification(type: .oneTimeCharge, transactionID: bought.transactionID)
        let outcome = try await processor.process(notice)
        let charge = try #require(Self.charge(outcome))
        #expect(charge.playerID == "p1" && charge.appAccountToken == token && !charge.isUnassigned)
        #expect(charge.fulfillment?.name == "granted")
        #expect(try await setup.ledger.player("p1").balances == ["gems": 200])
        let record = try #require(charge.fulfillment?.receipt?.record)
        #expect(record.key == TransactionKey(store: .appStore, transactionID: bought.transactionID))

        // The client comes back: the same purchase, the same key, nothing more.
        #expect(try await setup.fulfill(bought, as: "p1").name == "alreadyFulfilled")
        #expect(try await processor.process(notice).isAlreadyProcessed)
        #expect(try await setup.ledger.player("p1").balances == ["gems": 200])
        let json = String(decoding: LedgerJSON.encode(outcome), as: UTF8.self)
        #expect(json.contains(#""outcome":"oneTimeCharge""#) && json.contains(#""unassigned":false"#))
    }

    @Test("a registered player's first purchase, made only on Apple's side, is granted to it")
    func registeredPlayerIsGranted() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        let binding = try await setup.ledger.bindAccountToken(store: .appStore, playerID: "p7")
        #expect(binding.token == AppAccountToken.forPlayer("p7") && binding.source == .registration)
        #expect(try await setup.ledger.bindAccountToken(store: .appStore, playerID: "p7") == binding, "a repeat changes nothing")

        let bought = try setup.buy("com.kibblestreet.td.remove_ads", for: "p7", type: .nonConsumable)
        let charge = try #require(
            Self.charge(
                try await processor.process(
                    try setup.simulator.notification(type: .oneTimeCharge, transactionID: bought.transactionID))))
        #expect(charge.playerID == "p7" && charge.fulfillment?.name == "granted")
        #expect(try await setup.ledger.player("p7").entitlements.map(\.entitlementID) == ["remove_ads"])
        #expect(try await setup.fulfill(bought, as: "p7").name == "alreadyFulfilled")
    }

    @Test("a charge whose token names no player is journaled for an operator, granted to no one, and assigned by hand")
    func unassignedChargeIsJournaled() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        // No token at all (an offer code redeemed in the App Store, say).
        let bought = try setup.simulator.purchase(productID: Self.gems)
        let notice = try setup.simulator.notification(type: .oneTimeCharge, transactionID: bought.transactionID)
        let charge = try #require(Self.charge(try await processor.process(notice)))
        #expect(charge.isUnassigned && charge.fulfillment == nil && charge.appAccountToken == nil)
        let report = try await setup.ledger.lookup(bought.transactionID)
        let attempt = try #require(report.attempts.first)
        #expect(attempt.playerID == "" && attempt.code == "accountUnassigned" && attempt.entryPoint == .notification)
        #expect(attempt.isVerified && attempt.summary.contains("for no player"))
        #expect(RejectionReason.accountUnassigned.code == 113)
        #expect(try await processor.process(notice).isAlreadyProcessed, "recorded: Apple need not send it again")

        // The operator assigns it: a delivery for the player the support case names.
        let submission = try #require(AppStoreTransactionVerifier.submission(jws: bought.jws, playerID: "p3"))
        #expect(try await setup.ledger.fulfill(submission, via: .operator).name == "granted")
        #expect(try await setup.ledger.player("p3").balances == ["gems": 100])
    }

    @Test("a token no grant or registration bound is unassigned, and is never granted to another player")
    func unboundTokenIsNeverGuessed() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        let bought = try setup.buy(Self.gems, for: "p9")
        let notice = try setup.simulator.notification(type: .oneTimeCharge, transactionID: bought.transactionID)
        let charge = try #require(Self.charge(try await processor.process(notice)))
        #expect(charge.isUnassigned && charge.appAccountToken == AppAccountToken.forPlayer("p9"))
        let wrong = try #require(AppStoreTransactionVerifier.submission(jws: bought.jws, playerID: "p1"))
        #expect(try await setup.ledger.fulfill(wrong, via: .operator).rejection?.reason == .accountMismatch)
        #expect(try await setup.ledger.player("p1").balances.isEmpty)
        let right = try #require(AppStoreTransactionVerifier.submission(jws: bought.jws, playerID: "p9"))
        #expect(try await setup.ledger.fulfill(right, via: .operator).name == "granted")
    }

    @Test("a charge the pipeline rejects changes nothing, is journaled for its player, and is not recorded")
    func rejectedChargeIsNotRecorded() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        _ = try await setup.ledger.bindAccountToken(store: .appStore, playerID: "p1")
        let bought = try setup.buy("com.kibblestreet.td.not_in_catalog", for: "p1")
        let notice = try setup.simulator.notification(type: .oneTimeCharge, transactionID: bought.transactionID)
        let charge = try #require(Self.charge(try await processor.process(notice)))
        #expect(charge.rejection?.reason == .unknownProduct && charge.playerID == "p1")
        #expect(try await setup.ledger.storeNotification(id: try Self.uuid(notice)) == nil)
        #expect(try await processor.process(notice) == .oneTimeCharge(charge), "judged the same on redelivery")
        let attempts = try await setup.ledger.lookup(bought.transactionID).attempts
        #expect(attempts.first?.playerID == "p1" && attempts.first?.code == "unknownProduct")
        #expect(try await setup.ledger.player("p1").balances.isEmpty)
    }

    @Test("a token the ledger holds for another player is refused when registered again, changing nothing")
    func conflictingRegistrationIsRefused() async throws {
        let setup = try Setup()
        _ = try await setup.ledger.bindAccountToken(store: .appStore, playerID: "p1")
        // A deployment whose binding function changed: p2 would get p1's token.
        var configuration = setup.ledger.configuration
        configuration.accountBinding = { _ in AppAccountToken.forPlayer("p1") }
        let changed = try Ledger(
            catalog: setup.ledger.catalog, store: setup.ledger.store, verifier: setup.ledger.verifier,
            finisher: AppStoreFinisher(), clock: setup.clock, configuration: configuration)
        await #expect(throws: LedgerError.self) { _ = try await changed.bindAccountToken(store: .appStore, playerID: "p2") }
        let kept = try await setup.ledger.accountTokenBinding(store: .appStore, token: AppAccountToken.forPlayer("p1"))
        #expect(kept?.playerID == "p1")
        await #expect(throws: LedgerError.self) { _ = try await setup.ledger.bindAccountToken(store: .appStore, playerID: "") }
        #expect(try await setup.ledger.accountTokenBinding(store: .appStore, token: "") == nil)
    }

    @Test("a charge without its signed transaction is refused, changing nothing")
    func chargeWithoutTransactionIsRefused() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        var notification = ResponseBodyV2DecodedPayload()
        notification.notificationType = .oneTimeCharge
        notification.notificationUUID = "charge-without-data"
        notification.version = "2.0"
        notification.signedDate = AppStoreTimestamp(milliseconds: AppStoreSimulatedTransaction.milliseconds(setup.clock.now()))
        var data = NotificationData()
        data.environment = .sandbox
        data.bundleId = AppStoreLedgerTests.bundleID
        notification.data = data
        guard case .rejected(let error) = try await processor.process(try setup.simulator.signer.sign(notification)) else {
            Issue.record("a charge without a transaction is refused")
            return
        }
        #expect(error.payloadError == .missingField("data.signedTransactionInfo"))
        #expect(try await setup.ledger.storeNotification(id: "charge-without-data") == nil)
    }

    /// The `notificationUUID` of a signed notification.
    static func uuid(_ signedPayload: String) throws -> String {
        let parts = signedPayload.split(separator: ".")
        var base64 = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let object = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: base64))) as? [String: Any]
        return try #require(object?["notificationUUID"] as? String)
    }
}

extension AppStoreNotificationOutcome {
    /// Whether this is `alreadyProcessed`.
    fileprivate var isAlreadyProcessed: Bool {
        if case .alreadyProcessed = self { return true }
        return false
    }
}
