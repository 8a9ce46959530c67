import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// A void push changes the ledger only when it authenticates and Google confirms the void.
@Suite struct PlayVoidConfirmationTests {
    /// A setup where p1 holds 200 gems bought as the returned token, voided at Google.
    static func voided() async throws -> (PlayLedgerSetup, String) {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 2)
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token)
        return (setup, token)
    }

    @Test func aForgedVoidPushChangesNoBalanceAndRecordsNoMessageID() async throws {
        let (setup, token) = try await Self.voided()
        let body = setup.play.voidedBody(for: token, refundType: 1, messageID: "m-void")
        let otherKey = try PubSubPushSigner(clock: setup.clock)
        var forgeries: [(PubSubPushAuthenticationError.Reason, [String: String])] = [
            (.missingAuthorization, [:]),
            (.badSignature, try otherKey.headers()),
        ]
        var token1 = PubSubPushSigner.Token()
        token1.audience = "https://game.example.com/wrong"
        forgeries.append((.wrongAudience, try setup.signer.headers(token1)))
        var token2 = PubSubPushSigner.Token()
        token2.email = "someone-else@game-project.iam.gserviceaccount.com"
        forgeries.append((.wrongEmail, try setup.signer.headers(token2)))
        var token3 = PubSubPushSigner.Token()
        token3.issuedAt = setup.clock.now().addingTimeInterval(-3 * 3_600)
        forgeries.append((.expired, try setup.signer.headers(token3)))
        let getsBefore = setup.play.callCount(.get)
        for (reason, headers) in forgeries {
            let outcome = try await setup.processor().process(headers: headers, body: body)
            #expect(outcome.authenticationFailure == reason)
            #expect(outcome.httpStatus == (reason == .missingAuthorization ? 401 : 403))
            await #expect(try setup.gems("p1") == 200)
            await #expect(try !setup.isRecorded("m-void"))
        }
        #expect(setup.play.callCount(.voidedList) == 0 && setup.play.callCount(.get) == getsBefore, "nothing was asked of Google")
        // The real message with the same ID is then applied, once.
        let real = try await setup.push(body)
        #expect(real.revocationDisposition == .applied && real.httpStatus == 204)
        await #expect(try setup.gems("p1") == 0)
        await #expect(try setup.isRecorded("m-void"))
        guard case .alreadyProcessed = try await setup.push(body) else {
            Issue.record("the redelivered real message must not apply again")
            return
        }
    }

    @Test func anAuthenticatedVoidOfAPurchaseGoogleHasNotVoidedChangesNothing() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 2)
        for refundType in [1, 2, 7] {
            let outcome = try await setup.push(setup.play.voidedBody(for: token, refundType: refundType, messageID: "m-\(refundType)"))
            guard case .unconfirmed(let record) = outcome else {
                Issue.record("refund type \(refundType): a void Google does not confirm is unconfirmed, got \(outcome)")
                continue
            }
            #expect(record.outcome.hasPrefix("unconfirmed:") && record.type == "VOIDED_PURCHASE")
            #expect(outcome.httpStatus == 204)
        }
        await #expect(try setup.gems("p1") == 200)
        let events = try await setup.ledger.store.read { reader throws(LedgerError) in
            try reader.revocationEvents(for: setup.key(token), limit: 10)
        }
        #expect(events.isEmpty)
    }

    @Test func anUnconfirmedVoidIsAppliedOnceByTheSyncWhenGoogleListsIt() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 3)
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token, quantity: 1, listed: false)
        let body = setup.play.voidedBody(for: token, refundType: 2, messageID: "m-p")
        #expect(try await setup.push(body).isUnconfirmed)
        await #expect(try setup.gems("p1") == 300)
        #expect(try await setup.sync().run().recorded == 0)
        setup.play.listUnlistedVoids()
        let report = try await setup.sync().run()
        #expect(report.recorded == 1 && report.refundChecks[token] == .agrees(refundedQuantity: 1))
        await #expect(try setup.gems("p1") == 200)
        // A later push for the same void finds the sync's event: the same ID both ways.
        let later = try await setup.push(setup.play.voidedBody(for: token, refundType: 2, messageID: "m-p2"))
        guard case .revocation(.alreadyRecorded, _) = later else {
            Issue.record("the push must find the event the sync recorded, got \(later)")
            return
        }
        #expect(try await setup.sync().run().alreadyRecorded == 1)
        await #expect(try setup.gems("p1") == 200)
    }

    @Test func anOutageWhileConfirmingThrowsAndRecordsNothing() async throws {
        let (setup, token) = try await Self.voided()
        let body = setup.play.voidedBody(for: token, refundType: 1, messageID: "m-o")
        setup.play.fail(.voidedList, with: .retryable("503"))
        await #expect(throws: LedgerError.self) { _ = try await setup.push(body) }
        await #expect(try setup.gems("p1") == 200)
        await #expect(try !setup.isRecorded("m-o"))
        #expect(try await setup.push(body).revocationDisposition == .applied)
    }

    @Test func purchasePushesAreReadBackFromGoogle() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", quantity: 1, accountID: "p1", state: 2)
        // The push says purchased; Google says pending: nothing is granted.
        guard case .fulfillment(let outcome) = try await setup.push(setup.play.rtdnBody(for: token, type: 1)) else {
            Issue.record("a purchase push goes through the pipeline")
            return
        }
        #expect(outcome.rejection?.reason == .pending)
        await #expect(try setup.gems("p1") == 0 && setup.play.callCount(.get) >= 1)
    }
}
