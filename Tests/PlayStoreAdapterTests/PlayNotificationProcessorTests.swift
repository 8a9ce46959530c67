import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

/// Real-time developer notifications, each applied once by its Pub/Sub message ID.
@Suite struct PlayNotificationProcessorTests {
    @Test func aPurchasedNotificationFulfillsOncePerMessage() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        let body = setup.play.rtdnBody(for: token, type: 1, messageID: "m-1")
        guard case .fulfillment(let outcome) = try await setup.push(body) else {
            Issue.record("ONE_TIME_PRODUCT_PURCHASED must go through the pipeline")
            return
        }
        #expect(outcome.name == "granted" && setup.play.isConsumed(token))
        guard case .alreadyProcessed(let record) = try await setup.push(body) else {
            Issue.record("a redelivered message must not be applied again")
            return
        }
        #expect(record.type == "ONE_TIME_PRODUCT_PURCHASED" && record.transaction == setup.key(token))
        #expect(record.outcome == "fulfillment granted")
        let another = setup.play.rtdnBody(for: token, type: 1)
        guard case .fulfillment(let replay) = try await setup.push(another) else {
            Issue.record("a new message for a known purchase goes through the pipeline")
            return
        }
        #expect(replay.name == "alreadyFulfilled")
        await #expect(try setup.gems("p1") == 100)
    }

    @Test func aCanceledNotificationGrantsNothing() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1", state: 1)
        let outcome = try await setup.push(setup.play.rtdnBody(for: token, type: 2))
        #expect(outcome == .fulfillment(.rejected(Rejection(.cancelled, "playStore/\(token) is cancelled, not purchased"))))
        await #expect(try setup.gems("p1") == 0)
    }

    @Test func anUnresolvablePlayerIsReportedNotGuessed() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "stranger")
        let processor = setup.processor(resolver: { $0 == "stranger" ? nil : $0 })
        let body = setup.play.rtdnBody(for: token, type: 1)
        guard case .unresolved(let record) = try await processor.process(headers: try setup.signer.headers(), body: body) else {
            Issue.record("an unknown account must be reported")
            return
        }
        #expect(record.outcome.contains("no player for account stranger"))
        await #expect(try setup.ledger.store.read { reader throws(LedgerError) in try reader.transaction(setup.key(token)) } == nil)
    }

    @Test func aRetryableLookupIsNotRecordedSoPubSubRedelivers() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        let body = setup.play.rtdnBody(for: token, type: 1, messageID: "m-r")
        setup.play.fail(.get, with: .retryable("503"))
        await #expect(throws: LedgerError.self) { _ = try await setup.push(body) }
        await #expect(try !setup.isRecorded("m-r"))
        #expect(try await setup.push(body).isFulfillmentGranted)
    }

    @Test func aFullVoidTakesBackAndTheSyncDoesNotRepeatIt() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("remove_ads", for: "p1")
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token)
        guard case .revocation(let outcome, let check) = try await setup.push(setup.play.voidedBody(for: token, refundType: 1))
        else {
            Issue.record("a voided purchase must become a revocation event")
            return
        }
        let record = try #require(outcome.record)
        #expect(record.disposition == .applied && record.event.kind == .fullRefund)
        #expect(record.event.eventID.hasPrefix("play-voided:\(token):"))
        await #expect(try setup.ledger.player("p1").entitlements.isEmpty)
        #expect(check == .agrees(refundedQuantity: 1))
        let report = try await setup.sync().run()
        #expect(report.alreadyRecorded == 1 && report.recorded == 0)
    }

    @Test func aPartialVoidTakesBackTheVoidedUnits() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 3)
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token, quantity: 1)
        let outcome = try await setup.push(setup.play.voidedBody(for: token, refundType: 2))
        guard case .revocation(let revocation, let check) = outcome, let record = revocation.record else {
            Issue.record("a listed partial refund must apply")
            return
        }
        #expect(record.event.kind == .partialRefund && record.event.quantity == 1)
        #expect(check == .agrees(refundedQuantity: 1))
        await #expect(try setup.gems("p1") == 200)
        #expect(try await setup.sync().run().alreadyRecorded == 1)
        await #expect(try setup.gems("p1") == 200)
    }

    @Test func anUnlistedFullVoidAppliesOnlyWhenProductsGetShowsItRefunded() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 2)
        guard case .unconfirmed(let notVoided) = try await setup.push(setup.play.voidedBody(for: token, refundType: 1, messageID: "m-8"))
        else {
            Issue.record("a void Google neither lists nor shows is unconfirmed")
            return
        }
        #expect(notVoided.outcome.hasPrefix("unconfirmed:") && notVoided.notificationID == "m-8")
        await #expect(try setup.gems("p1") == 200)
        setup.play.void(token: token, listed: false)
        guard case .revocation(let full, let check) = try await setup.push(setup.play.voidedBody(for: token, refundType: 1, messageID: "m-9"))
        else {
            Issue.record("refundableQuantity 0 from purchases.products.get confirms a full refund")
            return
        }
        #expect(full.record?.event.eventID == "play-voided:m-9" && full.record?.disposition == .applied)
        #expect(check == .agrees(refundedQuantity: 2))
        await #expect(try setup.gems("p1") == 0)
        setup.play.listUnlistedVoids()
        let report = try await setup.sync().run()
        #expect(report.recorded == 1 && report.alreadyRecorded == 0)
        await #expect(try setup.gems("p1") == 0, "the listed void finds nothing left to take back")
    }

    /// Only Google's list names the units of a partial refund: an unlisted partial void stays
    /// unconfirmed even when purchases.products.get shows nothing left to refund, and the sync
    /// applies it once Google lists it.
    @Test func anUnlistedPartialVoidWaitsForTheListEvenWhenNothingIsRefundable() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 2)
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token, quantity: 2, listed: false)
        guard case .unconfirmed(let waiting) = try await setup.push(setup.play.voidedBody(for: token, refundType: 2, messageID: "m-p"))
        else {
            Issue.record("an unlisted partial void must be left to the sync")
            return
        }
        #expect(waiting.outcome.hasPrefix("unconfirmed:"))
        await #expect(try setup.gems("p1") == 200)
        setup.play.listUnlistedVoids()
        let report = try await setup.sync().run()
        #expect(report.recorded == 1)
        await #expect(try setup.gems("p1") == 0)
    }

    @Test func aCanceledPurchaseStateConfirmsAnUnlistedFullVoid() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("remove_ads", for: "p1")
        setup.play.setState(token, to: ProductPurchase.State.canceled.rawValue)
        let outcome = try await setup.push(setup.play.voidedBody(for: token, refundType: 1))
        #expect(outcome.revocationDisposition == .applied)
        await #expect(try setup.ledger.player("p1").entitlements.isEmpty)
    }

    @Test func testNotificationsAreLoggedAndBadBodiesRejected() async throws {
        let setup = try PlayLedgerSetup()
        guard case .logged(let record) = try await setup.push(setup.play.testBody(messageID: "t-1")) else {
            Issue.record("a test notification is logged")
            return
        }
        #expect(record.type == "TEST" && record.notificationID == "t-1" && record.store == .playStore)
        guard case .alreadyProcessed = try await setup.push(setup.play.testBody(messageID: "t-1")) else {
            Issue.record("a duplicate message is applied once")
            return
        }
        var other = DeveloperNotification()
        other.packageName = "com.other.app"
        other.testNotification = DeveloperNotification.TestNotification()
        #expect(try await setup.push(setup.play.envelope(other)).rejectionReason == .wrongPackage)
        #expect(try await setup.push(Data("not json".utf8)).rejectionReason == .notAnEnvelope)
        #expect(try await setup.push(Data(#"{"message":{"data":"!!!","messageId":"x"}}"#.utf8)).rejectionReason == .notANotification)
        #expect(try await setup.push(setup.play.testBody(messageID: "")).rejectionReason == .invalidMessageID)
    }

    @Test func thePushEnvelopeDecodesGooglesShape() throws {
        let data = Data(
            #"{"version":"1.0","packageName":"com.kibblestreet.td","eventTimeMillis":"1767571200000","oneTimeProductNotification":{"version":"1.0","notificationType":9,"purchaseToken":"tok","sku":"gems_small"}}"#
                .utf8)
        let body = #"{"message":{"data":"\#(data.base64EncodedString())","messageId":"136969346945","publishTime":"2026-01-05T00:00:00.000Z"},"subscription":"projects/p/subscriptions/s"}"#
        let envelope = try JSONDecoder().decode(PubSubPushEnvelope.self, from: Data(body.utf8))
        let notification = try JSONDecoder().decode(
            DeveloperNotification.self, from: try #require(envelope.message?.decodedData))
        #expect(envelope.message?.messageId == "136969346945")
        #expect(notification.eventDate == Date(ledgerMilliseconds: 1_767_571_200_000))
        #expect(notification.oneTimeProductNotification?.notificationType == 9)
        #expect(notification.oneTimeProductNotification?.kind == nil)
    }
}

extension PlayNotificationOutcome {
    var rejectionReason: PlayPushRejection.Reason? {
        if case .rejected(let rejection) = self { return rejection.reason }
        return nil
    }

    var authenticationFailure: PubSubPushAuthenticationError.Reason? {
        if case .unauthenticated(let failure) = self { return failure.reason }
        return nil
    }

    var revocationDisposition: RevocationDisposition? {
        if case .revocation(let outcome, _) = self { return outcome.record?.disposition }
        return nil
    }

    var isUnconfirmed: Bool {
        if case .unconfirmed = self { return true }
        return false
    }

    var isFulfillmentGranted: Bool {
        if case .fulfillment(.granted) = self { return true }
        return false
    }
}
