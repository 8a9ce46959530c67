import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// JWS-level rules (header, signature, identifiers, environments) and the simulator's
/// purchase, refund and notification round trips, against the real `SignedDataVerifier`.
@Suite("App Store JWS and simulator")
struct AppStoreJWSTests {
    static let bundleID = "com.example.game"
    static let appAppleID: Int64 = 1_234_567_890
    /// 2026-01-05 00:00 UTC, with a millisecond part to check dates keep it.
    static let start = Date(timeIntervalSince1970: 1_767_571_200.123)

    // MARK: - Round trips

    @Test("a purchase verifies and decodes field by field")
    func purchaseRoundTrip() throws {
        let (store, verifier) = try Self.sandbox()
        let token = AppStoreSimulator.accountToken(for: "player-42")
        let signed = try store.purchase(productID: "gems.500", quantity: 3, appAccountToken: token, price: 4_990)
        let payload = try verifier.verifyTransaction(signed.jws).get()
        let when = AppStoreTimestamp(milliseconds: 1_767_571_200_123)
        #expect(payload.transactionId == "2000000000000001")
        #expect(payload.transactionId == signed.transactionID)
        #expect(payload.originalTransactionId == "2000000000000001")
        #expect(payload.bundleId == Self.bundleID)
        #expect(payload.productId == "gems.500")
        #expect(signed.productID == "gems.500")
        #expect(payload.purchaseDate == when)
        #expect(payload.originalPurchaseDate == when)
        #expect(payload.signedDate == when)
        #expect(payload.quantity == 3)
        #expect(payload.type == .consumable)
        #expect(payload.appAccountToken == token)
        #expect(payload.inAppOwnershipType == .purchased)
        #expect(payload.environment == .sandbox)
        #expect(payload.storefront == "USA")
        #expect(payload.storefrontId == "143441")
        #expect(payload.transactionReason == .purchase)
        #expect(payload.currency == "USD")
        #expect(payload.price == 4_990)
        #expect(payload.revocationDate == nil)
        #expect(payload.revocationReason == nil)
        #expect(payload.expiresDate == nil)
        #expect(payload.webOrderLineItemId == nil)
        // IDs are sequential.
        let next = try store.purchase(productID: "gems.500")
        #expect(next.transactionID == "2000000000000002")
        #expect(store.transaction(signed.transactionID)?.quantity == 3)
    }

    @Test("a refund re-signs the transaction with its revocation, and a REFUND notification carries it")
    func refundRoundTrip() throws {
        let (store, verifier) = try Self.sandbox()
        let bought = try store.purchase(productID: "sword", type: .nonConsumable)
        let refundDate = Self.start.addingTimeInterval(3_600)
        let revoked = try store.revoke(transactionID: bought.transactionID, reason: .refundedDueToIssue, at: refundDate)
        let payload = try verifier.verifyTransaction(revoked.jws).get()
        #expect(payload.transactionId == bought.transactionID)
        #expect(payload.type == .nonConsumable)
        #expect(payload.revocationReason == .refundedDueToIssue)
        #expect(payload.revocationDate == AppStoreTimestamp(date: refundDate))
        #expect(payload.signedDate == AppStoreTimestamp(date: refundDate))
        #expect(payload.purchaseDate == AppStoreTimestamp(date: Self.start))

        let notification = try verifier.verifyNotification(
            store.notification(type: .refund, transactionID: bought.transactionID, at: refundDate)
        ).get()
        #expect(notification.notificationType == .refund)
        #expect(notification.subtype == nil)
        #expect(notification.transaction?.revocationReason == .refundedDueToIssue)
        #expect(notification.transaction?.revocationDate == AppStoreTimestamp(date: refundDate))
        #expect(throws: AppStoreSimulatorError.self) { try store.revoke(transactionID: "404") }
    }

    @Test("a notification verifies and decodes field by field, nested transaction included")
    func notificationRoundTrip() throws {
        let (store, verifier) = try Self.production()
        let token = AppStoreSimulator.accountToken(for: "player-7")
        let bought = try store.purchase(productID: "gems.100", appAccountToken: token)
        let sentAt = Self.start.addingTimeInterval(5)
        let jws = try store.notification(type: .oneTimeCharge, transactionID: bought.transactionID, at: sentAt)
        let notification = try verifier.verifyNotification(jws).get()
        #expect(notification.notificationType == .oneTimeCharge)
        #expect(notification.subtype == nil)
        let uuid = try #require(notification.notificationUUID)
        #expect(UUID(uuidString: uuid) != nil)
        #expect(uuid == uuid.lowercased())
        #expect(notification.version == "2.0")
        #expect(notification.signedDate == AppStoreTimestamp(date: sentAt))
        let data = try #require(notification.data)
        #expect(data.environment == .production)
        #expect(data.appAppleId == Self.appAppleID)
        #expect(data.bundleId == Self.bundleID)
        #expect(data.bundleVersion == "1")
        #expect(data.status == nil)
        let transaction = try #require(notification.transaction)
        #expect(transaction.transactionId == bought.transactionID)
        #expect(transaction.productId == "gems.100")
        #expect(transaction.appAccountToken == token)
        #expect(transaction.environment == .production)
        #expect(transaction.signedDate == AppStoreTimestamp(date: sentAt))
        // The raw nested JWS verifies on its own too.
        let nested = try #require(data.signedTransactionInfo)
        #expect(try verifier.verifyTransaction(nested).get() == transaction)
        // Each notification has its own UUID.
        let again = try verifier.verifyNotification(
            store.notification(type: .oneTimeCharge, transactionID: bought.transactionID)
        ).get()
        #expect(again.notificationUUID != notification.notificationUUID)
    }

    @Test("a subscription renews under its original transaction, with status in notifications")
    func subscriptionRoundTrip() throws {
        let (store, verifier) = try Self.sandbox()
        let first = try store.purchase(productID: "vip.monthly", type: .autoRenewableSubscription)
        let renewedAt = Self.start.addingTimeInterval(30 * 86_400)
        let renewal = try store.renew(transactionID: first.transactionID, at: renewedAt)
        let payload = try verifier.verifyTransaction(renewal.jws).get()
        #expect(payload.originalTransactionId == first.transactionID)
        #expect(payload.transactionId != first.transactionID)
        #expect(payload.transactionReason == .renewal)
        #expect(payload.type == .autoRenewableSubscription)
        #expect(payload.purchaseDate == AppStoreTimestamp(date: renewedAt))
        #expect(payload.originalPurchaseDate == AppStoreTimestamp(date: Self.start))
        #expect(payload.expiresDate == AppStoreTimestamp(date: renewedAt.addingTimeInterval(30 * 86_400)))
        #expect(payload.subscriptionGroupIdentifier != nil)
        #expect(payload.webOrderLineItemId != nil)
        let notification = try verifier.verifyNotification(
            store.notification(type: .didRenew, transactionID: renewal.transactionID, at: renewedAt)
        ).get()
        #expect(notification.data?.status == .active)
        let renewalInfo = try #require(notification.renewalInfo)
        #expect(renewalInfo.originalTransactionId == first.transactionID)
        #expect(renewalInfo.productId == "vip.monthly")
        #expect(renewalInfo.autoRenewProductId == "vip.monthly")
        #expect(renewalInfo.autoRenewStatus == .on)
        #expect(renewalInfo.environment == .sandbox)
        #expect(renewalInfo.signedDate == AppStoreTimestamp(date: renewedAt))
        #expect(renewalInfo.renewalDate == payload.expiresDate)
        #expect(renewalInfo.recentSubscriptionStartDate == AppStoreTimestamp(date: Self.start))
        #expect(renewalInfo.renewalPrice == 990)
        #expect(renewalInfo.currency == "USD")
        let direct = try verifier.verifyRenewalInfo(store.renewalInfo(transactionID: first.transactionID)).get()
        #expect(direct.originalTransactionId == first.transactionID)
        let expired = try verifier.verifyNotification(
            store.notification(
                type: .expired, subtype: .voluntary, transactionID: renewal.transactionID,
                at: renewedAt.addingTimeInterval(31 * 86_400))
        ).get()
        #expect(expired.subtype == .voluntary)
        #expect(expired.data?.status == .expired)
        let consumable = try store.purchase(productID: "gems.100")
        #expect(throws: AppStoreSimulatorError.self) { try store.renew(transactionID: consumable.transactionID) }
        #expect(throws: AppStoreSimulatorError.self) { try store.renewalInfo(transactionID: consumable.transactionID) }
        let oneTime = try verifier.verifyNotification(
            store.notification(type: .oneTimeCharge, transactionID: consumable.transactionID)
        ).get()
        #expect(oneTime.data?.signedRenewalInfo == nil)
        #expect(oneTime.renewalInfo == nil)
    }

    @Test("concurrent purchases get distinct sequential IDs")
    func concurrentPurchases() async throws {
        let (store, verifier) = try Self.sandbox()
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<40 {
                group.addTask { try store.purchase(productID: "gems.100").transactionID }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(ids).count == 40)
        #expect(Set(ids) == Set((1...40).map { String(2_000_000_000_000_000 + $0) }))
        let last = try store.signedTransaction("2000000000000040")
        #expect(throws: Never.self) { try verifier.verifyTransaction(last.jws).get() }
    }

    // MARK: - Tampering and JWS rules

    @Test("a payload changed after signing is refused")
    func tamperedPayload() throws {
        let (store, verifier) = try Self.sandbox()
        let jws = try #require(AppStoreCompactJWS(store.purchase(productID: "gems.100").jws))
        let more = try #require(jws.editingPayload { $0["quantity"] = 100 })
        #expect(Self.status(verifier.verifyTransaction(more.compact)) == .verificationFailure)
        let other = try #require(jws.editingPayload { $0["productId"] = "gems.10000" })
        #expect(Self.status(verifier.verifyTransaction(other.compact)) == .verificationFailure)
        // The unchanged original still verifies: the refusal is the edit's doing.
        #expect(throws: Never.self) { try verifier.verifyTransaction(jws.compact).get() }
    }

    @Test("a header changed after signing is refused")
    func tamperedHeader() throws {
        let (store, verifier) = try Self.sandbox()
        let jws = try #require(AppStoreCompactJWS(store.purchase(productID: "gems.100").jws))
        let header = try #require(jws.headerBytes)
        // Same alg and x5c, one extra member: a different signing input.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(header)) as? [String: Any])
        object["kid"] = "extra"
        let edited = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        let reheadered = jws.replacingHeader(with: Array(edited)).compact
        #expect(Self.status(verifier.verifyTransaction(reheadered)) == .verificationFailure)
        // A flipped bit in the signature.
        var signature = try #require(jws.signatureBytes)
        signature[10] ^= 0x01
        let flipped = jws.replacingSignature(with: signature).compact
        #expect(Self.status(verifier.verifyTransaction(flipped)) == .verificationFailure)
        // Not three segments.
        #expect(Self.status(verifier.verifyTransaction(jws.header + "." + jws.payload)) == .verificationFailure)
        #expect(Self.status(verifier.verifyTransaction(jws.compact + ".")) == .verificationFailure)
    }

    @Test(
        "an alg other than ES256 is refused",
        arguments: ["none", "HS256", "ES384", "RS256", "es256", nil] as [String?])
    func wrongAlgorithm(algorithm: String?) throws {
        let (store, verifier) = try Self.sandbox(options: .init(algorithm: algorithm))
        let signed = try store.purchase(productID: "gems.100")
        #expect(Self.status(verifier.verifyTransaction(signed.jws)) == .verificationFailure)
        // The classic `none` attack: no signature at all.
        let unsigned = try #require(AppStoreCompactJWS(signed.jws)).replacingSignature(with: [])
        #expect(Self.status(verifier.verifyTransaction(unsigned.compact)) == .verificationFailure)
    }

    @Test("a DER-encoded signature instead of r‖s is refused")
    func derSignature() throws {
        let (store, verifier) = try Self.sandbox(options: .init(signatureEncoding: .der))
        let signed = try store.purchase(productID: "gems.100")
        let signature = try #require(AppStoreCompactJWS(signed.jws)?.signatureBytes)
        #expect(signature.first == 0x30)
        #expect(Self.status(verifier.verifyTransaction(signed.jws)) == .verificationFailure)
        // Converted to r‖s, the same signature verifies.
        let raw = try AppStoreJWSSigner.rawSignature(fromDER: signature)
        #expect(raw.count == 64)
        let fixed = try #require(AppStoreCompactJWS(signed.jws)).replacingSignature(with: raw)
        #expect(throws: Never.self) { try verifier.verifyTransaction(fixed.compact).get() }
    }

    @Test("a forged transaction nested inside a validly signed notification is refused")
    func forgedNestedTransaction() throws {
        let (store, verifier) = try Self.sandbox()
        let bought = try store.purchase(productID: "gems.100")
        let jws = try store.forgedNotification(type: .oneTimeCharge, transactionID: bought.transactionID) {
            $0.productID = "gems.10000"
            $0.quantity = 50
        }
        let error = try #require(Self.failure(verifier.verifyNotification(jws)))
        #expect(error.status == .verificationFailure)
        #expect(error.detail.contains("signedTransactionInfo"))
        // The forgery is well-formed: a verifier trusting the forger's root accepts it.
        let nested = try #require(Self.nestedTransaction(of: jws))
        let forgerVerifier = try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [store.untrustedCertificateAuthority.rootCertificateDER], bundleID: Self.bundleID,
                environment: .sandbox))
        #expect(try forgerVerifier.verifyTransaction(nested).get().quantity == 50)
        #expect(Self.status(verifier.verifyTransaction(nested)) == .verificationFailure)
        // The same notification without the forgery verifies.
        #expect(throws: Never.self) {
            let genuine = try store.notification(type: .oneTimeCharge, transactionID: bought.transactionID)
            return try verifier.verifyNotification(genuine).get()
        }
    }

    // MARK: - Identifiers and environments

    @Test("a payload for another bundle ID is invalidAppIdentifier")
    func wrongBundleID() throws {
        let (store, _) = try Self.sandbox()
        let verifier = try Self.verifier(for: store, bundleID: "com.example.other")
        let bought = try store.purchase(productID: "gems.100")
        #expect(Self.status(verifier.verifyTransaction(bought.jws)) == .invalidAppIdentifier)
        let notification = try store.notification(type: .oneTimeCharge, transactionID: bought.transactionID)
        #expect(Self.status(verifier.verifyNotification(notification)) == .invalidAppIdentifier)
    }

    @Test("a production notification for another app Apple ID is invalidAppIdentifier")
    func wrongAppAppleID() throws {
        let (store, _) = try Self.production()
        let verifier = try Self.verifier(for: store, environment: .production, appAppleID: 42)
        let bought = try store.purchase(productID: "gems.100")
        #expect(throws: Never.self) { try verifier.verifyTransaction(bought.jws).get() }
        let notification = try store.notification(type: .oneTimeCharge, transactionID: bought.transactionID)
        #expect(Self.status(verifier.verifyNotification(notification)) == .invalidAppIdentifier)
    }

    @Test("a payload from another environment is invalidEnvironment")
    func wrongEnvironment() throws {
        let (sandboxStore, _) = try Self.sandbox()
        let production = try Self.verifier(for: sandboxStore, environment: .production, appAppleID: Self.appAppleID)
        let sandboxPurchase = try sandboxStore.purchase(productID: "gems.100")
        #expect(Self.status(production.verifyTransaction(sandboxPurchase.jws)) == .invalidEnvironment)

        let (productionStore, _) = try Self.production()
        let sandbox = try Self.verifier(for: productionStore, environment: .sandbox)
        let productionPurchase = try productionStore.purchase(productID: "gems.100")
        #expect(Self.status(sandbox.verifyTransaction(productionPurchase.jws)) == .invalidEnvironment)
        let notification = try productionStore.notification(
            type: .oneTimeCharge, transactionID: productionPurchase.transactionID)
        #expect(Self.status(sandbox.verifyNotification(notification)) == .invalidEnvironment)
    }

    @Test("Xcode-environment payloads are refused by production and sandbox verifiers")
    func xcodePayloads() throws {
        let clock = ManualClock(start: Self.start)
        let store = try AppStoreSimulator(
            bundleID: Self.bundleID, environment: .xcode, appAppleID: Self.appAppleID, clock: clock)
        let production = try Self.verifier(for: store, environment: .production, appAppleID: Self.appAppleID)
        let sandbox = try Self.verifier(for: store, environment: .sandbox)
        // Even signed by a trusted chain, an Xcode payload is not a real purchase.
        let bought = try store.purchase(productID: "gems.100")
        #expect(Self.status(production.verifyTransaction(bought.jws)) == .invalidEnvironment)
        #expect(Self.status(sandbox.verifyTransaction(bought.jws)) == .invalidEnvironment)
        let notification = try store.notification(type: .oneTimeCharge, transactionID: bought.transactionID)
        #expect(Self.status(production.verifyNotification(notification)) == .invalidEnvironment)
        // As Xcode signs them, with its single local certificate, the chain is refused first.
        let local = try AppStoreTestCertificateAuthority()
        let xcodeStyle = try AppStoreSimulator(
            bundleID: Self.bundleID, environment: .xcode, clock: clock, certificateAuthority: local,
            signingOptions: .init(certificates: .custom([local.leafCertificateDER])))
        let xcodePurchase = try xcodeStyle.purchase(productID: "gems.100")
        #expect(Self.status(production.verifyTransaction(xcodePurchase.jws)) == .invalidChainLength)
        #expect(Self.status(sandbox.verifyTransaction(xcodePurchase.jws)) == .invalidChainLength)
    }

    // MARK: - Account tokens

    @Test("account tokens are deterministic lowercase UUIDs, one per player")
    func accountTokens() throws {
        let token = AppStoreSimulator.accountToken(for: "player-42")
        #expect(token == AppAccountToken.forPlayer("player-42"))
        #expect(token == AppStoreSimulator.accountToken(for: "player-42"))
        #expect(token != AppStoreSimulator.accountToken(for: "player-43"))
        #expect(token == token.lowercased())
        let uuid = try #require(UUID(uuidString: token))
        #expect(uuid.uuidString.lowercased() == token)
        let characters = Array(token)
        #expect(characters[14] == "8")
        #expect("89ab".contains(characters[19]))
        // SHA-256("abc") starts ba7816bf 8f01cfea 414140de 5dae2223.
        #expect(AppAccountToken.forPlayer("abc") == "ba7816bf-8f01-8fea-8141-40de5dae2223")
        #expect(AppAccountToken.canonical(uuid.uuidString) == token)
        #expect(AppAccountToken.canonical("not-a-uuid") == nil)
        #expect(AppAccountToken.canonical("ba7816bf-8f01-8fea-8141-40de5dae222g") == nil)
        #expect(AppAccountToken.canonical("ba7816bf08f01-8fea-8141-40de5dae2223") == nil)
        // The ledger side binds accounts with the same function.
        var configuration = LedgerConfiguration.sandbox
        configuration.accountBinding = AppAccountToken.forPlayer
        #expect(configuration.accountBinding("player-42") == token)
    }

    // MARK: - Helpers

    static func sandbox(
        options: AppStoreJWSSigner.Options = .init()
    ) throws -> (AppStoreSimulator, SignedDataVerifier) {
        let store = try AppStoreSimulator(
            bundleID: bundleID, clock: ManualClock(start: start), signingOptions: options)
        return (store, try verifier(for: store))
    }

    static func production() throws -> (AppStoreSimulator, SignedDataVerifier) {
        let store = try AppStoreSimulator(
            bundleID: bundleID, environment: .production, appAppleID: appAppleID, clock: ManualClock(start: start))
        return (store, try verifier(for: store, environment: .production, appAppleID: appAppleID))
    }

    static func verifier(
        for store: AppStoreSimulator, bundleID: String = bundleID, environment: AppStoreEnvironment = .sandbox,
        appAppleID: Int64? = nil
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [store.rootCertificateDER], bundleID: bundleID, environment: environment,
                appAppleID: appAppleID))
    }

    static func failure<Value>(_ result: Result<Value, AppStoreVerificationError>) -> AppStoreVerificationError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    static func status<Value>(_ result: Result<Value, AppStoreVerificationError>) -> AppStoreVerificationError.Status? {
        failure(result)?.status
    }

    /// The raw `data.signedTransactionInfo` of a notification JWS, read without verifying.
    static func nestedTransaction(of notification: String) -> String? {
        guard let payload = AppStoreCompactJWS(notification)?.payloadBytes,
            let object = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any],
            let data = object["data"] as? [String: Any]
        else { return nil }
        return data["signedTransactionInfo"] as? String
    }
}
