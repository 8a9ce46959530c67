import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import SteamAdapter
import SteamSimulator
import Testing

/// Refunds, partial refunds, chargebacks and fraud refunds from GetReport, each taken back once.
@Suite struct SteamRefundTests {
    @Test(arguments: LedgerTestEngine.allCases)
    func aPartialRefundTakesBackItsItemsAndAChargebackTheRest(_ engine: LedgerTestEngine) async throws {
        let setup = try await SteamTestSetup.on(engine)
        _ = try await setup.buy(21, [(SteamTestSetup.gemsSmall, 2), (SteamTestSetup.removeAds, 1)])
        let hadAds = try await setup.hasRemoveAds()
        #expect(try await setup.gems() == 200 && hadAds)
        _ = try await setup.sync()
        setup.clock.advance(seconds: 3_600)
        #expect(setup.steam.refund(21, items: [SteamTestSetup.removeAds]))
        #expect(setup.steam.status(of: 21) == .partialRefund)
        let partial = try await setup.sync()
        #expect(partial.revocationsRecorded == 1 && partial.revocationsRejected.isEmpty)
        let hasAds = try await setup.hasRemoveAds()
        #expect(try await setup.gems() == 200 && !hasAds, "only the refunded item is taken back")
        setup.clock.advance(seconds: 3_600)
        #expect(setup.steam.chargeBack(21))
        let chargeback = try await setup.sync()
        #expect(chargeback.revocationsRecorded == 1 && chargeback.revocationsAlreadyRecorded == 1, "the gems; the refunded item was taken back already")
        #expect(chargeback.revocationsRejected.isEmpty, "a take-back is not rebuilt with the order's newer time")
        #expect(try await setup.gems() == 0)
        setup.clock.advance(seconds: 60)
        let again = try await setup.sync()
        #expect(again.revocationsRecorded == 0 && again.revocationsAlreadyRecorded == 2)
        #expect(try await setup.gems() == 0)
    }

    @Test func aFullRefundAndAFraudRefundTakeBackOnce() async throws {
        let setup = try SteamTestSetup()
        _ = try await setup.buy(22, [(SteamTestSetup.gemsLarge, 1)])
        _ = try await setup.buy(23, [(SteamTestSetup.gemsSmall, 1)])
        #expect(try await setup.gems() == 1_300)
        setup.clock.advance(seconds: 60)
        #expect(setup.steam.refund(22) && setup.steam.refundForFraud(23))
        let report = try await setup.sync()
        #expect(report.revocationsRecorded == 2 && report.granted == 0 && report.alreadyFulfilled == 2)
        #expect(try await setup.gems() == 0)
        #expect(try await setup.sync().revocationsRecorded == 0)
    }

    @Test func anOrderRefundedBeforeItsGrantIsGrantedAndTakenBackAtOnce() async throws {
        let setup = try SteamTestSetup()
        _ = try await setup.processor.start(SteamTestSetup.request(24, [(SteamTestSetup.gemsSmall, 1)]))
        #expect(setup.steam.approve(24))
        _ = try await setup.api.finalizeTxn(orderID: 24)
        #expect(setup.steam.refund(24))
        let report = try await setup.sync()
        #expect(report.granted == 1 && report.revocationsRecorded == 1)
        #expect(try await setup.gems() == 0, "paid and refunded: nothing stays")
    }

    @Test func anOutageMovesNoWatermarkAndTheNextRunCatchesUp() async throws {
        let setup = try SteamTestSetup()
        _ = try await setup.buy(25, [(SteamTestSetup.gemsSmall, 1)])
        _ = try await setup.sync()
        let saved = try await setup.ledger.syncCursor(name: SteamReportSync.cursorName)
        setup.clock.advance(seconds: 60)
        #expect(setup.steam.refund(25))
        setup.steam.failNext(2)
        await #expect(throws: LedgerError.self) { _ = try await setup.sync() }
        #expect(try await setup.ledger.syncCursor(name: SteamReportSync.cursorName) == saved)
        #expect(try await setup.gems() == 100)
        #expect(try await setup.sync().revocationsRecorded == 1)
        #expect(try await setup.gems() == 0)
    }

    @Test func thePageLimitStopsTheRunAndTheWatermarkFollowsWhatWasRead() async throws {
        let setup = try SteamTestSetup()
        for orderID in UInt64(30)..<33 {
            _ = try await setup.buy(orderID, [(SteamTestSetup.gemsSmall, 1)])
            setup.clock.advance(seconds: 10)
        }
        var sync = SteamReportSync(processor: setup.processor)
        sync.pageSize = 2
        sync.pageCountMax = 2
        let report = try await sync.run()
        #expect(report.truncated && report.pagesRead == 2 && report.alreadyFulfilled == 3 && report.ordersSeen == 3)
        sync.pageCountMax = 10
        sync.overlapSeconds = 0
        let rest = try await sync.run()
        #expect(!rest.truncated && rest.pagesRead == 1 && rest.alreadyFulfilled == 1)
        // A full page of orders updated in one second cannot be paged past: the run says so.
        sync.pageSize = 1
        #expect(try await sync.run().truncated)
        sync.pageSize = 0
        await #expect(throws: LedgerError.self) { _ = try await sync.run() }
    }

    @Test func aFirstRunThatReadsNothingStillAnchorsTheNextRun() async throws {
        let setup = try SteamTestSetup()
        let first = try await setup.sync()
        #expect(first.ordersSeen == 0 && first.watermarkSaved == first.startTime.ledgerMilliseconds)
        setup.clock.advance(seconds: 60 * 24 * 3_600)
        _ = try await setup.processor.start(SteamTestSetup.request(40, [(SteamTestSetup.gemsSmall, 1)]))
        #expect(setup.steam.approve(40))
        _ = try await setup.api.finalizeTxn(orderID: 40)
        // No sync for 40 days: the order is older than the first run's lookback, not than its watermark.
        setup.clock.advance(seconds: 40 * 24 * 3_600)
        #expect(try await setup.sync().granted == 1)
        #expect(try await setup.gems() == 100)
    }
}
