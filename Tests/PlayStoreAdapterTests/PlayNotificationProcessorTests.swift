import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

/// Real-time developer notifications, each applied once by its Pub/Sub message ID.
@Suite struct PlayNotificationProcessorTests {
    @Test func aPurchasedNotificationFulfillsOncePerMessage() async throws {
        let setup = try PlayLedgerSetup()
        let processor = setup.processor()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        let body = setup.play.rtdnBody(for: token, type: 1, messageID: "m-1")
        guard case .fulfillment(let outcome) = try await processor.process(body) else {
            Issue.record("ONE_TIME_PRODUCT_PURCHASED must go through the pipeline")
            return
        }
        #expect(outcome.name == "granted" && setup.play.isConsumed(token))
        guard case .alreadyProcessed(let record) = try await processor.process(body) else {
            Issue.record("a redelivered message must not be applied again")
            return
        }
        #expect(record.type == "ONE_TIME_PRODUCT_PURCHASED" && record.transaction == setup.key(token))
        #expect(record.outcome == "fulfillment granted")
        let another = setup.play.rtdnBody(for: token, type: 1)
        guard case .fulfillment(let replay) = try await processor.process(another) else {
            Issue.record("a new message for a known purchase goes through the pipeline")
            return
        }
        #expect(replay.name == "alreadyFulfilled")
        #expect(try setup.gems("p1") == 100)
    }

    @Test func aCanceledNotificationGrantsNothing() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1", state: 1)
        let outcome = try await setup.processor().process(setup.play.rtdnBody(for: token, type: 2))
        #expect(outcome == .fulfillment(.rejected(Rejection(.cancelled, "playStore/\(token) is cancelled, not purchased"))))
        #expect(try setup.gems("p1") == 0)
    }

    @Test func anUnresolvablePlayerIsReportedNotGuessed() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "stranger")
        let processor = setup.processor(resolver: { $0 == "stranger" ? nil : $0 })
        guard case .unresolved(let record) = try await processor.process(setup.play.rtdnBody(for: token, type: 1)) else {
            Issue.record("an unknown account must be reported")
            return
        }
        #expect(record.outcome.contains("no player for account stranger"))
        #expect(try setup.ledger.store.read { reader throws(LedgerError) in try reader.transaction(setup.key(token)) } == nil)
    }

    @Test func aRetryableLookupIsNotRecordedSoPubSubRedelivers() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        let body = setup.play.rtdnBody(for: token, type: 1, messageID: "m-r")
        setup.play.fail(.get, with: .retryable("503"))
        await #expect(throws: LedgerError.self) { _ = try await setup.processor().process(body) }
        #expect(try await setup.processor().process(body).isFulfillmentGranted)
    }

    @Test func aFullVoidTakesBackAndTheSyncDoesNotRepeatIt() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("remove_ads", for: "p1")
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token)
        guard case .revocation(let outcome) = try await setup.processor().process(setup.play.voidedBody(for: token, refundType: 1))
        else {
            Issue.record("a voided purchase must become a revocation event")
            return
        }
        let record = try #require(outcome.record)
        #expect(record.disposition == .applied && record.event.kind == .fullRefund)
        #expect(record.event.eventID.hasPrefix("play-voided:\(token):"))
        #expect(try setup.ledger.player("p1").entitlements.isEmpty)
        let report = try await setup.sync().run()
        #expect(report.alreadyRecorded == 1 && report.recorded == 0)
    }

    @Test func aPartialVoidTakesBackTheVoidedUnits() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 3)
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token, quantity: 1)
        let outcome = try await setup.processor().process(setup.play.voidedBody(for: token, refundType: 2))
        guard case .revocation(let revocation) = outcome, let record = revocation.record else {
            Issue.record("a listed partial refund must apply")
            return
        }
        #expect(record.event.kind == .partialRefund && record.event.quantity == 1)
        #expect(try setup.gems("p1") == 200)
        #expect(try await setup.sync().run().alreadyRecorded == 1)
        #expect(try setup.gems("p1") == 200)
    }

    @Test func anUnlistedVoidFallsBackSafely() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 2)
        let processor = setup.processor()
        guard case .logged(let partial) = try await processor.process(setup.play.voidedBody(for: token, refundType: 2)) else {
            Issue.record("an unlisted partial refund is left to the sync")
            return
        }
        #expect(partial.outcome.contains("voided purchases sync"))
        #expect(try setup.gems("p1") == 200)
        guard case .revocation(let full) = try await processor.process(setup.play.voidedBody(for: token, refundType: 1, messageID: "m-9"))
        else {
            Issue.record("an unlisted full refund applies by message ID")
            return
        }
        #expect(full.record?.event.eventID == "play-voided:m-9" && full.record?.disposition == .applied)
        #expect(try setup.gems("p1") == 0)
    }

    @Test func testNotificationsAreLoggedAndBadBodiesRejected() async throws {
        let setup = try PlayLedgerSetup()
        let processor = setup.processor()
        guard case .logged(let record) = try await processor.process(setup.play.testBody(messageID: "t-1")) else {
            Issue.record("a test notification is logged")
            return
        }
        #expect(record.type == "TEST" && record.notificationID == "t-1" && record.store == .playStore)
        guard case .alreadyProcessed = try await processor.process(setup.play.testBody(messageID: "t-1")) else {
            Issue.record("a duplicate message is applied once")
            return
        }
        var other = DeveloperNotification()
        other.packageName = "com.other.app"
        other.testNotification = DeveloperNotification.TestNotification()
        #expect(try await processor.process(setup.play.envelope(other)).isRejected)
        #expect(try await processor.process(Data("not json".utf8)).isRejected)
        #expect(try await processor.process(Data(#"{"message":{"data":"!!!","messageId":"x"}}"#.utf8)).isRejected)
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
    var isRejected: Bool {
        if case .rejected = self { return true }
        return false
    }

    var isFulfillmentGranted: Bool {
        if case .fulfillment(.granted) = self { return true }
        return false
    }
}
