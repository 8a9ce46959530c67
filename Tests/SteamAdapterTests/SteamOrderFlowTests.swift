import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import SteamAdapter
import SteamSimulator
import Testing

/// The Steam order in Steam's order: InitTxn, the player's authorisation, FinalizeTxn, and only
/// then the grant, once, keyed `<order>/<item>`; on every engine.
@Suite struct SteamOrderFlowTests {
    @Test(arguments: LedgerTestEngine.allCases)
    func anOrderIsGrantedOnlyAfterFinalizeAndOnlyOnce(_ engine: LedgerTestEngine) async throws {
        let setup = try await SteamTestSetup.on(engine)
        let started = try await setup.processor.start(SteamTestSetup.request(42, [(SteamTestSetup.gemsSmall, 3), (SteamTestSetup.removeAds, 1)]))
        guard case .started(let transaction, let pending) = started else {
            Issue.record("\(started)")
            return
        }
        #expect(transaction.orderID == 42 && transaction.steamURL == nil)
        #expect(pending.map { $0.rejection?.reason } == [.pending, .pending], "each item is recorded as a pending attempt")
        // The client says authorised before the player answered: FinalizeTxn refuses (5).
        let early = try await setup.processor.authorize(orderID: 42, authorized: true)
        guard case .refused(let failure, let outcomes) = early else {
            Issue.record("\(early)")
            return
        }
        #expect(failure.code == SteamFailure.notApprovedCode && outcomes.allSatisfy { $0.rejection?.reason == .pending })
        #expect(try await setup.gems() == 0)
        // Approved but not finalised: still nothing.
        #expect(setup.steam.approve(42))
        let approved = try await setup.processor.submit(orderID: 42)
        #expect(approved.outcomes.allSatisfy { $0.rejection?.reason == .pending })
        #expect(try await setup.gems() == 0, "an order Steam has not finalised is never granted")
        let granted = try await setup.processor.authorize(orderID: 42, authorized: true)
        guard case .submitted(let orderID, let status, let fulfilled) = granted else {
            Issue.record("\(granted)")
            return
        }
        #expect(orderID == 42 && status == .succeeded && fulfilled.map(\.name) == ["granted", "granted"])
        #expect(fulfilled.first?.receipt?.record.key.transactionID == "42/1001")
        #expect(fulfilled.first?.receipt?.record.storeOrderID == "9000000001", "Steam's transaction ID is the order ID support searches")
        #expect(try await setup.gems() == 300)
        #expect(try await setup.hasRemoveAds())
        // The client reports twice: FinalizeTxn answers 6 (already committed), nothing more is granted.
        let again = try await setup.processor.authorize(orderID: 42, authorized: true)
        #expect(again.outcomes.map(\.name) == ["alreadyFulfilled", "alreadyFulfilled"])
        #expect(try await setup.gems() == 300)
    }

    @Test func aDeclinedOrderIsRecordedCancelledAndNeverGranted() async throws {
        let setup = try SteamTestSetup()
        _ = try await setup.processor.start(SteamTestSetup.request(7, [(SteamTestSetup.gemsLarge, 1)]))
        #expect(setup.steam.decline(7))
        let declined = try await setup.processor.authorize(orderID: 7, authorized: false)
        guard case .submitted(_, let status, let outcomes) = declined else {
            Issue.record("\(declined)")
            return
        }
        #expect(status == .failed && outcomes.map { $0.rejection?.reason } == [.cancelled])
        // A forged "authorised" for the declined order: Steam refuses to finalise it (10).
        let forged = try await setup.processor.authorize(orderID: 7, authorized: true)
        guard case .refused(let failure, _) = forged else {
            Issue.record("\(forged)")
            return
        }
        #expect(failure.code == SteamFailure.deniedCode)
        #expect(try await setup.gems() == 0)
        #expect(try await setup.sync().granted == 0)
    }

    @Test func aCrashBetweenFinalizeAndTheGrantIsRecoveredByTheReportOnce() async throws {
        let setup = try SteamTestSetup()
        _ = try await setup.processor.start(SteamTestSetup.request(11, [(SteamTestSetup.gemsSmall, 2)]))
        #expect(setup.steam.approve(11))
        // The server finalises, then dies before it submits the items.
        guard case .ok = try await setup.api.finalizeTxn(orderID: 11) else {
            Issue.record("FinalizeTxn failed")
            return
        }
        #expect(try await setup.gems() == 0)
        let first = try await setup.sync()
        #expect(first.granted == 1 && first.alreadyFulfilled == 0 && first.watermarkSaved != nil)
        #expect(try await setup.gems() == 200)
        setup.clock.advance(seconds: 60)
        func queries() -> Int { setup.steam.requests.filter { $0.url?.path.contains("QueryTxn") == true }.count }
        let queriesBefore = queries()
        let second = try await setup.sync()
        #expect(second.granted == 0 && second.alreadyFulfilled == 1, "the overlap reads the order again and grants nothing")
        #expect(queries() == queriesBefore, "an item the ledger holds costs Steam no QueryTxn")
        #expect(try await setup.gems() == 200)
    }

    @Test func anApprovedOrderNeverFinalizedIsCountedNotGranted() async throws {
        let setup = try SteamTestSetup()
        _ = try await setup.processor.start(SteamTestSetup.request(12, [(SteamTestSetup.gemsSmall, 1)]))
        #expect(setup.steam.approve(12))
        let report = try await setup.sync()
        #expect(report.awaitingFinalize == 1 && report.granted == 0)
        #expect(try await setup.gems() == 0)
    }

    @Test func aWebSessionGetsTheSteamURL() async throws {
        let setup = try SteamTestSetup()
        let started = try await setup.processor.start(SteamTestSetup.request(13, [(SteamTestSetup.removeAds, 1)], session: .web))
        guard case .started(let transaction, _) = started else {
            Issue.record("\(started)")
            return
        }
        #expect(transaction.steamURL?.hasPrefix("https://") == true)
    }

    @Test func aBuyerTheGameDoesNotKnowIsUnassigned() async throws {
        let setup = try SteamTestSetup()
        var processor = setup.processor
        processor.playerResolver = { _ in nil }
        let outcome = try await processor.start(SteamTestSetup.request(14, [(SteamTestSetup.gemsSmall, 1)]))
        #expect(outcome == .unassigned(orderID: 14, steamID: SteamTestSetup.steamID))
        #expect(setup.steam.approve(14))
        let report = try await SteamReportSync(processor: processor).run()
        #expect(report.unassigned.isEmpty, "an approved order is not charged")
        _ = try await setup.api.finalizeTxn(orderID: 14)
        let charged = try await SteamReportSync(processor: processor).run()
        #expect(charged.unassigned == ["14"] && charged.granted == 0)
    }

    @Test func anotherPlayersOrderIsRefusedAccountMismatch() async throws {
        let setup = try SteamTestSetup()
        _ = try await setup.buy(15, [(SteamTestSetup.gemsSmall, 1)])
        let stolen = try await setup.ledger.fulfill(
            TransactionSubmission(store: .steam, transactionID: "15/1001", storeProductID: "1001", playerID: "someone-else", payload: "15"))
        #expect(stolen.rejection?.reason == .accountMismatch)
    }
}
