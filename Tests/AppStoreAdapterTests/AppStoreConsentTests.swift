import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `RESCIND_CONSENT`: a parent withdrew consent for a minor's account. The ledger records it for
/// the account (`appTransactionId`), refuses the account's later purchases with
/// `consentRescinded`, and keeps what it granted before.
@Suite struct AppStoreConsentTests {
    typealias Setup = AppStoreLedgerTests.Setup
    static let gems = "com.kibblestreet.td.gems.small"

    /// A purchase for `player` whose signed transaction names the account `appTransactionID`.
    static func purchase(_ setup: Setup, for player: String, account appTransactionID: String) throws -> TransactionSubmission {
        var payload = try setup.buy(gems, for: player).payload
        payload.appTransactionID = appTransactionID
        return try #require(AppStoreTransactionVerifier.submission(jws: try setup.simulator.sign(payload), playerID: player))
    }

    /// A `RESCIND_CONSENT` whose `appData` is `appData`, signed by the simulator's chain.
    static func notification(_ setup: Setup, appData: NotificationAppData?, uuid: String = "rescind-1") throws -> String {
        var notification = ResponseBodyV2DecodedPayload()
        notification.notificationType = .rescindConsent
        notification.notificationUUID = uuid
        notification.version = "2.0"
        notification.signedDate = AppStoreTimestamp(milliseconds: AppStoreSimulatedTransaction.milliseconds(setup.clock.now()))
        notification.appData = appData
        return try setup.simulator.signer.sign(notification)
    }

    /// `appData` for the simulator's app, with `appTransaction` signed as its app transaction.
    static func appData(_ setup: Setup, _ appTransaction: AppTransaction?) throws -> NotificationAppData {
        var appData = NotificationAppData()
        appData.environment = .sandbox
        appData.bundleId = AppStoreLedgerTests.bundleID
        appData.signedAppTransactionInfo = try appTransaction.map { try setup.simulator.signer.sign($0) }
        return appData
    }

    static func appTransaction(_ setup: Setup, id: String?) -> AppTransaction {
        var transaction = AppTransaction()
        transaction.receiptType = .sandbox
        transaction.bundleId = AppStoreLedgerTests.bundleID
        transaction.receiptCreationDate = AppStoreTimestamp(
            milliseconds: AppStoreSimulatedTransaction.milliseconds(setup.clock.now()))
        transaction.appTransactionId = id
        return transaction
    }

    @Test("a withdrawal refuses the account's later purchases; its earlier grants and other accounts' purchases stand")
    func withdrawalRefusesLaterPurchases() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        let before = try Self.purchase(setup, for: "p1", account: "705001")
        #expect(try await setup.ledger.fulfill(before).name == "granted")

        let uuid = "7f1c2b9a-rescind"
        let notice = try setup.simulator.rescindConsentNotification(appTransactionID: "705001", notificationUUID: uuid)
        guard case .consentRescinded(let rescission) = try await processor.process(notice) else {
            Issue.record("a RESCIND_CONSENT records the withdrawal")
            return
        }
        #expect(rescission.store == .appStore && rescission.accountID == "705001" && rescission.notificationID == uuid)
        #expect(rescission.rescindedAt == setup.clock.now())
        #expect(try await setup.ledger.consentRescission(store: .appStore, accountID: "705001") == rescission)
        #expect(try await setup.ledger.storeNotification(id: uuid)?.outcome == "consent rescinded for account 705001 (by \(uuid))")

        let after = try Self.purchase(setup, for: "p1", account: "705001")
        guard case .rejected(let rejection) = try await setup.ledger.fulfill(after) else {
            Issue.record("a purchase of a withdrawn account is refused")
            return
        }
        #expect(rejection.reason == .consentRescinded && rejection.reason.code == 112)
        #expect(try await setup.ledger.fulfill(before).name == "alreadyFulfilled", "what was granted stays")
        #expect(try await setup.ledger.player("p1").balances == ["gems": 100])
        #expect(try await setup.ledger.fulfill(try Self.purchase(setup, for: "p2", account: "705002")).name == "granted")

        // A redelivery is processed once; a second withdrawal for the account leaves the first.
        guard case .alreadyProcessed = try await processor.process(notice) else {
            Issue.record("a redelivered RESCIND_CONSENT is alreadyProcessed")
            return
        }
        setup.clock.advance(seconds: 60)
        let second = try setup.simulator.rescindConsentNotification(appTransactionID: "705001")
        #expect(try await processor.process(second) == .consentRescinded(rescission))
    }

    @Test("a RESCIND_CONSENT without an app transaction, without its ID, with one too long or forged is refused and records nothing")
    func malformedWithdrawalsAreRefused() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        let tooLong = String(repeating: "7", count: setup.ledger.configuration.identifierByteCountMax + 1)
        let forger = AppStoreJWSSigner(certificateAuthority: setup.simulator.untrustedCertificateAuthority)
        var forged = try Self.appData(setup, nil)
        forged.signedAppTransactionInfo = try forger.sign(Self.appTransaction(setup, id: "705009"))
        let cases: [(String, NotificationAppData?, Int)] = [
            // Without `data` or `appData` the notification names no app: refused as any such.
            ("no appData", nil, -1),
            ("no signedAppTransactionInfo", try Self.appData(setup, nil), AppStorePayloadError.missingField("").code),
            ("no appTransactionId", try Self.appData(setup, Self.appTransaction(setup, id: nil)), AppStorePayloadError.missingField("").code),
            ("an appTransactionId too long", try Self.appData(setup, Self.appTransaction(setup, id: tooLong)), 7105),
            ("a forged app transaction", forged, 0),
        ]
        for (index, (name, appData, payloadCode)) in cases.enumerated() {
            let uuid = "rescind-bad-\(index)"
            guard case .rejected(let error) = try await processor.process(try Self.notification(setup, appData: appData, uuid: uuid)) else {
                Issue.record("\(name): expected a rejection")
                continue
            }
            if payloadCode > 0 {
                #expect(error.payloadError?.code == payloadCode, "\(name): \(error)")
            } else if payloadCode == -1 {
                #expect(error.status == .invalidAppIdentifier, "\(name): \(error)")
            } else {
                #expect(error.payloadError == nil && error.detail.hasPrefix("signedAppTransactionInfo"), "\(name): \(error)")
            }
            #expect(try await setup.ledger.storeNotification(id: uuid) == nil, "\(name): recorded")
        }
        #expect(try await setup.ledger.consentRescission(store: .appStore, accountID: "705009") == nil)
    }

    @Test("Apple's documented shape decodes: appData in place of data, with the signed app transaction")
    func documentedShapeDecodes() throws {
        let json = #"{"notificationType":"RESCIND_CONSENT","notificationUUID":"0c4e8f2a-1b3d-4e5f-8a9b-0c1d2e3f4a5b","#
            + #""appData":{"appAppleId":987654,"bundleId":"com.example.game","environment":"LocalTesting","#
            + #""signedAppTransactionInfo":"a.b.c"},"version":"2.0","signedDate":1767225600000}"#
        let decoded = try JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: Data(json.utf8))
        #expect(decoded.notificationType == .rescindConsent)
        #expect(decoded.data == nil)
        #expect(decoded.appData?.appAppleId == 987654 && decoded.appData?.bundleId == "com.example.game")
        #expect(decoded.appData?.environment == .localTesting && decoded.appData?.signedAppTransactionInfo == "a.b.c")
        #expect(decoded.appTransaction == nil, "the app transaction comes from verification only")
    }

    @Test("the outcome's JSON names the case and carries the withdrawal")
    func outcomeJSON() throws {
        let rescission = ConsentRescission(
            store: .appStore, accountID: "705001", rescindedAt: Date(timeIntervalSince1970: 1_800_000_000),
            notificationID: "u-1", recordedAt: Date(timeIntervalSince1970: 1_800_000_001))
        let text = String(decoding: LedgerJSON.encode(AppStoreNotificationOutcome.consentRescinded(rescission)), as: UTF8.self)
        #expect(text.contains(#""outcome":"consentRescinded""#), "\(text)")
        #expect(text.contains(#""accountID":"705001""#) && text.contains(#""notificationID":"u-1""#), "\(text)")
    }
}
