import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Signed App Store transactions and notifications driving a ledger, end to end.
@Suite struct AppStoreLedgerTests {
    static let bundleID = "com.kibblestreet.td"

    struct Setup {
        let simulator: AppStoreSimulator
        let verifier: SignedDataVerifier
        let ledger: Ledger
        let clock: ManualClock

        init() throws {
            clock = ManualClock()
            simulator = try AppStoreSimulator(bundleID: AppStoreLedgerTests.bundleID, environment: .sandbox, clock: clock)
            verifier = try SignedDataVerifier(
                AppStoreVerifierConfiguration(
                    rootCertificates: [simulator.rootCertificateDER], bundleID: AppStoreLedgerTests.bundleID,
                    environment: .sandbox))
            ledger = try Self.ledger(verifier: verifier, clock: clock)
        }

        /// A sandbox ledger in memory that verifies signed transactions offline with `verifier`
        /// and binds each to `AppAccountToken.forPlayer`.
        static func ledger(verifier: SignedDataVerifier, clock: ManualClock) throws -> Ledger {
            var configuration = LedgerConfiguration.sandbox
            configuration.accountBinding = { AppAccountToken.forPlayer($0) }
            return try Ledger(
                catalog: try CatalogLoader.load(path: catalogPath), store: InMemoryLedgerStore(),
                verifier: AppStoreTransactionVerifier(signedDataVerifier: verifier),
                finisher: AppStoreFinisher(), clock: clock, configuration: configuration)
        }

        static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("ProductCatalog.json").path

        func buy(_ productID: String, for player: String, type: TransactionType = .consumable) throws -> SignedAppStoreTransaction {
            try simulator.purchase(
                productID: productID, appAccountToken: AppAccountToken.forPlayer(player), type: type)
        }

        func fulfill(_ signed: SignedAppStoreTransaction, as player: String) async throws -> FulfillmentOutcome {
            let submission = try #require(AppStoreTransactionVerifier.submission(jws: signed.jws, playerID: player))
            return try await ledger.fulfill(submission)
        }
    }

    @Test func aSignedPurchaseGrantsOnceAndBindsToItsPlayer() async throws {
        let setup = try Setup()
        let purchase = try setup.buy("com.kibblestreet.td.gems.small", for: "p1")
        let outcome = try await setup.fulfill(purchase, as: "p1")
        #expect(outcome.name == "granted" && outcome.receipt?.finished == true)
        #expect(outcome.receipt?.record.key == TransactionKey(store: .appStore, transactionID: purchase.transactionID))
        #expect(try await setup.fulfill(purchase, as: "p1").name == "alreadyFulfilled")
        await #expect(try setup.ledger.player("p1").balances == ["gems": 100])
        #expect(try await setup.fulfill(purchase, as: "p2").rejection?.reason == .accountMismatch)
    }

    @Test func aRevokedOrTamperedTransactionNeverGrants() async throws {
        let setup = try Setup()
        let purchase = try setup.buy("com.kibblestreet.td.gems.large", for: "p1")
        let revoked = try setup.simulator.revoke(transactionID: purchase.transactionID)
        #expect(try await setup.fulfill(revoked, as: "p1").rejection?.reason == .revoked)
        var tampered = try #require(AppStoreTransactionVerifier.submission(jws: purchase.jws, playerID: "p1"))
        var segments = tampered.payload.split(separator: ".").map(String.init)
        segments[2] = String(segments[2].reversed())
        tampered.payload = segments.joined(separator: ".")
        #expect(try await setup.ledger.fulfill(tampered).rejection?.reason == .unverified)
        await #expect(try setup.ledger.player("p1").balances.isEmpty)
    }

    @Test func refundNotificationsRevokeOnceAndReversalsRestore() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        let purchase = try setup.buy("com.kibblestreet.td.remove_ads", for: "p1", type: .nonConsumable)
        _ = try await setup.fulfill(purchase, as: "p1")
        await #expect(try !setup.ledger.adsAllowed("p1", consent: true))
        setup.clock.advance(seconds: 60)
        _ = try setup.simulator.revoke(transactionID: purchase.transactionID)
        let refund = try setup.simulator.notification(type: .refund, transactionID: purchase.transactionID)
        guard case .revocation(let outcome) = try await processor.process(refund) else {
            Issue.record("a REFUND must become a revocation event")
            return
        }
        #expect(outcome.record?.disposition == .applied)
        await #expect(try setup.ledger.adsAllowed("p1", consent: true))
        guard case .alreadyProcessed = try await processor.process(refund) else {
            Issue.record("the same notificationUUID must apply once")
            return
        }
        setup.clock.advance(seconds: 60)
        let reversal = try setup.simulator.notification(type: .refundReversed, transactionID: purchase.transactionID)
        guard case .revocation(let reversed) = try await processor.process(reversal) else {
            Issue.record("a REFUND_REVERSED must become a revocation event")
            return
        }
        #expect(reversed.record?.disposition == .applied)
        await #expect(try setup.ledger.entitlements("p1").statuses["remove_ads"] == .owned)
    }

    /// A notification whose revocation the ledger rejects is not recorded as processed, so
    /// Apple's redelivery is tried again rather than answered alreadyProcessed.
    @Test func aRejectedRevocationIsNotRecordedAsProcessed() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        let purchase = try setup.buy("com.kibblestreet.td.remove_ads", for: "p1", type: .nonConsumable)
        _ = try await setup.fulfill(purchase, as: "p1")
        setup.clock.advance(seconds: 60)
        _ = try setup.simulator.revoke(transactionID: purchase.transactionID)
        let payload = try setup.simulator.notificationPayload(type: .refund, transactionID: purchase.transactionID)
        // An event already recorded under the notification's UUID with other content.
        let taken = RevocationEvent(
            eventID: payload.notificationUUID, store: .appStore, transactionID: purchase.transactionID,
            kind: .refundReversed, eventDate: setup.clock.now())
        _ = try await setup.ledger.applyRevocation(taken)
        let refund = try setup.simulator.sign(payload)
        guard case .revocation(let outcome) = try await processor.process(refund) else {
            Issue.record("a REFUND must become a revocation event")
            return
        }
        #expect(outcome.rejection?.reason == .conflictEvent)
        await #expect(try setup.ledger.storeNotification(id: payload.notificationUUID) == nil)
        guard case .revocation = try await processor.process(refund) else {
            Issue.record("the redelivery must be tried again, not answered alreadyProcessed")
            return
        }
    }

    /// Apple delivers a restored non-consumable, or one on a new device, with a new
    /// `transactionId` and the purchase's `originalTransactionId`: one purchase, one grant.
    @Test func aRestoredNonConsumableIsAlreadyFulfilledAndGrantsNothing() async throws {
        let setup = try Setup()
        let purchase = try setup.buy("com.kibblestreet.td.founders_pack", for: "p1", type: .nonConsumable)
        let first = try await setup.fulfill(purchase, as: "p1")
        #expect(first.name == "granted")
        #expect(first.receipt?.record.key == TransactionKey(store: .appStore, transactionID: purchase.transactionID))
        await #expect(try setup.ledger.player("p1").balances == ["gems": 1000])
        let restored = try setup.simulator.restore(transactionID: purchase.transactionID)
        #expect(restored.transactionID != purchase.transactionID)
        #expect(restored.payload.originalTransactionID == purchase.transactionID)
        let again = try await setup.fulfill(restored, as: "p1")
        #expect(again.name == "alreadyFulfilled", "\(again)")
        #expect(again.receipt?.record.key == first.receipt?.record.key)
        let newDevice = try setup.simulator.restore(transactionID: restored.transactionID)
        #expect(try await setup.fulfill(newDevice, as: "p1").name == "alreadyFulfilled")
        await #expect(try setup.ledger.player("p1").balances == ["gems": 1000], "every new device would mint 1,000 gems")
        await #expect(try setup.ledger.player("p1").history.count == 1)
    }

    /// A purchase first reaches the ledger through a restore: keyed by its original, the
    /// delivery's ID kept beside it, and the original delivery later grants nothing.
    @Test func aPurchaseFirstSeenThroughARestoreIsKeyedByItsOriginal() async throws {
        let setup = try Setup()
        let purchase = try setup.buy("com.kibblestreet.td.founders_pack", for: "p1", type: .nonConsumable)
        let restored = try setup.simulator.restore(transactionID: purchase.transactionID)
        let first = try await setup.fulfill(restored, as: "p1")
        let record = try #require(first.receipt?.record)
        #expect(first.name == "granted")
        #expect(record.key.transactionID == purchase.transactionID)
        #expect(record.storeTransactionID == restored.transactionID)
        #expect(try await setup.fulfill(purchase, as: "p1").name == "alreadyFulfilled")
        await #expect(try setup.ledger.player("p1").balances == ["gems": 1000])
    }

    /// A refund naming the restored delivery's `transactionId` takes back the original
    /// grant, once; another refund of the same purchase changes nothing more.
    @Test func aRefundOfTheRestoredDeliveryTakesBackTheOriginalGrantOnce() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        let purchase = try setup.buy("com.kibblestreet.td.founders_pack", for: "p1", type: .nonConsumable)
        _ = try await setup.fulfill(purchase, as: "p1")
        let restored = try setup.simulator.restore(transactionID: purchase.transactionID)
        _ = try await setup.fulfill(restored, as: "p1")
        setup.clock.advance(seconds: 60)
        _ = try setup.simulator.revoke(transactionID: restored.transactionID)
        let refund = try setup.simulator.notification(type: .refund, transactionID: restored.transactionID)
        guard case .revocation(let outcome) = try await processor.process(refund) else {
            Issue.record("a REFUND must become a revocation event")
            return
        }
        #expect(outcome.record?.disposition == .applied)
        #expect(outcome.record?.purchase == TransactionKey(store: .appStore, transactionID: purchase.transactionID))
        await #expect(try setup.ledger.player("p1").balances.isEmpty)
        await #expect(try setup.ledger.entitlements("p1").statuses["remove_ads"] == .notOwned)
        setup.clock.advance(seconds: 60)
        _ = try setup.simulator.revoke(transactionID: purchase.transactionID)
        let second = try setup.simulator.notification(type: .refund, transactionID: purchase.transactionID)
        guard case .revocation(let repeated) = try await processor.process(second) else {
            Issue.record("a second REFUND is still a revocation event")
            return
        }
        #expect(repeated.record?.disposition == .noChange)
        await #expect(try setup.ledger.player("p1").balances.isEmpty, "taken back once, not twice")
    }

    @Test func aForgedNestedTransactionIsRejectedAndChangesNothing() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        let purchase = try setup.buy("com.kibblestreet.td.remove_ads", for: "p1", type: .nonConsumable)
        _ = try await setup.fulfill(purchase, as: "p1")
        let forged = try setup.simulator.forgedNotification(type: .refund, transactionID: purchase.transactionID)
        guard case .rejected(let error) = try await processor.process(forged) else {
            Issue.record("a forged nested transaction must be rejected")
            return
        }
        #expect(error.status == .verificationFailure)
        await #expect(try setup.ledger.entitlements("p1").statuses["remove_ads"] == .owned)
    }

    @Test func consumptionRequestsAreAnsweredFromTheLedgerAndOtherTypesLoggedOnce() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        let purchase = try setup.buy("com.kibblestreet.td.gems.small", for: "p1")
        _ = try await setup.fulfill(purchase, as: "p1")
        _ = try await setup.ledger.apply(.spend(40, of: "gems", player: "p1", operationID: "s1"))
        let request = try setup.simulator.notification(type: .consumptionRequest, transactionID: purchase.transactionID)
        guard case .consumptionRequest(let answer) = try await processor.process(request) else {
            Issue.record("a CONSUMPTION_REQUEST must be answered")
            return
        }
        // 40 of the 100 granted gems spent: 40 % in milliunits; nothing sent without a sender.
        #expect(answer.body.deliveryStatus == .delivered && answer.body.consumptionPercentage == 40_000)
        #expect(answer.transactionID == purchase.transactionID && answer.answer == nil)
        let test = try setup.simulator.notification(type: .test, transactionID: purchase.transactionID)
        guard case .logged(let record) = try await processor.process(test) else {
            Issue.record("a TEST notification is logged")
            return
        }
        #expect(record.type == "TEST")
        guard case .alreadyProcessed = try await processor.process(test) else {
            Issue.record("logged once")
            return
        }
    }

    @Test func aProductionLedgerRefusesASandboxVerifier() throws {
        let setup = try Setup()
        #expect(throws: LedgerError.self) {
            _ = try Ledger(
                catalog: setup.ledger.catalog, store: InMemoryLedgerStore(),
                verifier: AppStoreTransactionVerifier(signedDataVerifier: setup.verifier),
                finisher: AppStoreFinisher(), configuration: .production)
        }
    }

    /// A restore answered by the test store lists only test-store purchases; authoritative, it
    /// still never revokes an App Store purchase, nor one fulfilled after its list was read.
    @Test func anAuthoritativeRestoreRevokesOnlyItsOwnStoresPurchasesReadBeforeIt() async throws {
        let setup = try Setup()
        let testStore = TestStore(clock: setup.clock)
        var configuration = LedgerConfiguration.sandbox
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }
        let ledger = try Ledger(
            catalog: setup.ledger.catalog, store: InMemoryLedgerStore(),
            verifier: StoreRoutingVerifier([
                .appStore: AppStoreTransactionVerifier(signedDataVerifier: setup.verifier), .test: testStore.verifier,
            ]),
            finisher: StoreRoutingFinisher([.appStore: AppStoreFinisher(), .test: testStore]), clock: setup.clock,
            configuration: configuration)
        let apple = try setup.buy("com.kibblestreet.td.remove_ads", for: "p1", type: .nonConsumable)
        let submission = try #require(AppStoreTransactionVerifier.submission(jws: apple.jws, playerID: "p1"))
        #expect(try await ledger.fulfill(submission).name == "granted")
        let listReadAt = setup.clock.now()
        setup.clock.advance(seconds: 60)
        let pack = testStore.purchase(storeProductID: "test.founders_pack", playerID: "p1")
        #expect(try await ledger.fulfill(pack).name == "granted")
        let report = try await ledger.restore(
            playerID: "p1", query: .answered(store: .test, transactions: [], authoritativeAsOf: listReadAt))
        #expect(report.revoked.isEmpty, "the App Store purchase is another store's; the pack came after the list")
        await #expect(try ledger.entitlements("p1").paidBy["remove_ads"]?.count == 2)
        let current = try await ledger.restore(
            playerID: "p1", query: .answered(store: .test, transactions: [], authoritativeAsOf: setup.clock.now()))
        #expect(current.revoked == [pack.key], "only the test store's own purchase, read after it")
        await #expect(try ledger.entitlements("p1").statuses["remove_ads"] == .owned, "the App Store purchase still pays")
    }
}
