import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `AppStoreNotificationHistorySweep` against the simulated App Store Server API: notifications
/// the server never received are read from Get Notification History and applied once.
@Suite struct AppStoreNotificationHistorySweepTests {
    static let gems = "com.kibblestreet.td.gems.small"

    /// A ledger that fulfils signed transactions offline, a client on the simulated API, and a
    /// sweep over both, all on the fixture's manual clock.
    struct Setup {
        let fixture: ServerAPIFixture
        let api: AppStoreSimulatedServerAPI
        let ledger: Ledger
        let processor: AppStoreNotificationProcessor

        init() throws {
            fixture = try ServerAPIFixture()
            api = fixture.simulatedAPI()
            ledger = try AppStoreLedgerTests.Setup.ledger(verifier: fixture.verifier, clock: fixture.clock)
            processor = AppStoreNotificationProcessor(signedDataVerifier: fixture.verifier, ledger: ledger)
        }

        func sweep(pageCountMax: Int = AppStoreNotificationHistorySweep.defaultPageCountMax) throws
            -> AppStoreNotificationHistorySweep
        {
            var sweep = AppStoreNotificationHistorySweep(
                client: try fixture.client(api, retryPolicy: HTTPRetryPolicy(retryCountMax: 1)), processor: processor)
            sweep.pageCountMax = pageCountMax
            return sweep
        }

        /// Gems bought and granted to `player`.
        func grantedGems(to player: String) async throws -> SignedAppStoreTransaction {
            let purchase = try fixture.simulator.purchase(
                productID: AppStoreNotificationHistorySweepTests.gems,
                appAccountToken: AppAccountToken.forPlayer(player))
            let submission = try #require(AppStoreTransactionVerifier.submission(jws: purchase.jws, playerID: player))
            #expect(try await ledger.fulfill(submission).name == "granted")
            return purchase
        }

        /// A REFUND of `purchase` that Apple logged as sent, `delivered` or not.
        @discardableResult
        func loggedRefund(of purchase: SignedAppStoreTransaction, delivered: Bool) throws -> String {
            _ = try fixture.simulator.revoke(transactionID: purchase.transactionID)
            let refund = try fixture.simulator.notification(type: .refund, transactionID: purchase.transactionID)
            api.recordNotification(refund, transactionID: purchase.transactionID, delivered: delivered)
            return refund
        }

        func gems(_ player: String) async throws -> Int64 { try await ledger.player(player).balances["gems"] ?? 0 }

        func watermark() async throws -> String? {
            try await ledger.syncCursor(name: AppStoreNotificationHistorySweep.cursorName)
        }
    }

    @Test func aRefundThatWasNeverPushedIsAppliedOnceAndTheWatermarkMoves() async throws {
        let setup = try Setup()
        let purchase = try await setup.grantedGems(to: "p1")
        #expect(try await setup.gems("p1") == 100)
        try setup.loggedRefund(of: purchase, delivered: false)
        setup.fixture.clock.advance(seconds: 60)

        let first = try await setup.sweep().run()
        #expect(first.notificationsRead == 1 && first.applied == 1 && first.revocationsApplied == 1)
        #expect(first.alreadyProcessed == 0 && first.rejected == 0 && first.pagesRead == 1 && !first.truncated)
        #expect(try await setup.gems("p1") == 0)
        let saved = try #require(first.watermarkSaved)
        #expect(try await setup.watermark() == String(saved.ledgerMilliseconds))
        #expect(saved == setup.fixture.clock.now())

        setup.fixture.clock.advance(seconds: 3_600)
        let second = try await setup.sweep().run()
        // The refund lies within the overlap, so it is read again and applies nothing.
        #expect(second.notificationsRead == 1 && second.applied == 0 && second.alreadyProcessed == 1)
        #expect(second.startDate == saved.addingTimeInterval(-AppStoreNotificationHistorySweep.defaultOverlapSeconds))
        #expect(try await setup.gems("p1") == 0)
        let moved = try #require(second.watermarkSaved)
        #expect(moved > saved)
        #expect(try await setup.watermark() == String(moved.ledgerMilliseconds))
    }

    @Test func aNotificationAlreadyPushedIsAlreadyProcessedAndAForgeryIsCountedNotFatal() async throws {
        let setup = try Setup()
        let purchase = try await setup.grantedGems(to: "p1")
        let pushed = try setup.loggedRefund(of: purchase, delivered: true)
        #expect(try await setup.processor.process(pushed).isRevocation)
        let other = try await setup.grantedGems(to: "p2")
        _ = try setup.fixture.simulator.revoke(transactionID: other.transactionID)
        let forged = try setup.fixture.simulator.forgedNotification(type: .refund, transactionID: other.transactionID)
        setup.api.recordNotification(forged, transactionID: other.transactionID, delivered: false)
        setup.fixture.clock.advance(seconds: 60)

        let report = try await setup.sweep().run()
        #expect(report.notificationsRead == 2 && report.alreadyProcessed == 1 && report.applied == 0)
        #expect(report.rejected == 1 && report.rejections.count == 1 && report.retryableRejected == 0)
        #expect(try await setup.gems("p1") == 0)
        #expect(try await setup.gems("p2") == 100)
        #expect(report.watermarkSaved != nil)

        // onlyFailures asks Apple for the undelivered one alone.
        var failuresOnly = try setup.sweep()
        failuresOnly.onlyFailures = true
        let failures = try await failuresOnly.run()
        #expect(failures.onlyFailures && failures.notificationsRead == 1 && failures.rejected == 1)
    }

    /// A backlog larger than one run's pages: the first run reads the whole range, cannot
    /// finish it and leaves the watermark; later runs read halved windows, save each complete
    /// one, and catch up with every refund applied once.
    @Test func aBacklogLargerThanARunsPagesMovesForwardRunByRun() async throws {
        let setup = try Setup()
        let pageSize = AppStoreSimulatedServerAPI.pageSize
        let count = 2 * pageSize + 5
        for index in 0..<count {
            try setup.loggedRefund(of: try await setup.grantedGems(to: "p\(index)"), delivered: false)
            setup.fixture.clock.advance(seconds: 600)
        }

        let stopped = try await setup.sweep(pageCountMax: 2).run()
        #expect(stopped.truncated && stopped.pagesRead == 2 && stopped.applied == 2 * pageSize)
        #expect(stopped.watermarkSaved == nil)
        #expect(try await setup.watermark() == nil)
        let window = try await setup.ledger.syncCursor(name: AppStoreNotificationHistorySweep.windowCursorName)
        #expect(window.flatMap(Int.init).map { $0 > 0 } == true, "the next run reads half the range at a time")

        var runs = 1
        var applied = stopped.applied
        var last = stopped
        while last.truncated, runs < 40 {
            setup.fixture.clock.advance(seconds: 1)
            last = try await setup.sweep(pageCountMax: 2).run()
            applied += last.applied
            runs += 1
        }
        #expect(!last.truncated && last.watermarkSaved != nil, "caught up after \(runs) runs")
        #expect(applied == count)
        for index in [0, pageSize, count - 1] { #expect(try await setup.gems("p\(index)") == 0) }

        // A page that claims more without a token cannot be followed: truncated, watermark kept.
        setup.fixture.clock.advance(seconds: 60)
        setup.api.answerNext(ServerAPIFixture.json(["notificationHistory": [] as [Any], "hasMore": true]))
        let stuck = try await setup.sweep().run()
        #expect(stuck.truncated && stuck.pagesRead == 1 && stuck.watermarkSaved == nil)
        #expect(try await setup.watermark() == String(try #require(last.watermarkSaved).ledgerMilliseconds))
    }

    @Test func a429IsWaitedForAndOneThatOutlastsTheRetriesIsSurfacedWithItsDate() async throws {
        let setup = try Setup()
        try setup.loggedRefund(of: try await setup.grantedGems(to: "p1"), delivered: false)
        setup.fixture.clock.advance(seconds: 60)
        func tooMany(after seconds: TimeInterval) -> HTTPResponse {
            let acceptedAt = setup.fixture.clock.now().addingTimeInterval(seconds).ledgerMilliseconds
            return ServerAPIFixture.appleError(
                429, 4_290_000, "Rate limit exceeded.", headers: ["Retry-After": String(acceptedAt)])
        }
        setup.api.answerNext(tooMany(after: 2.5))
        let waited = try await setup.sweep().run()
        #expect(waited.applied == 1 && waited.watermarkSaved != nil)
        #expect(setup.fixture.recordedSleeps.contains(2_500))

        // The client retries once: two 429s outlast it, and the sweep throws Apple's date.
        setup.fixture.clock.advance(seconds: 3_600)
        let before = try await setup.watermark()
        setup.api.answerNext(tooMany(after: 10))
        setup.api.answerNext(tooMany(after: 10))
        let error = await #expect(throws: AppStoreNotificationSweepError.self) { try await setup.sweep().run() }
        guard case .api(.rateLimited(let retryAfter?, _)) = error else {
            Issue.record("expected rateLimited with a date, got \(String(describing: error))")
            return
        }
        #expect(retryAfter > setup.fixture.clock.now().addingTimeInterval(-11))
        #expect(error?.isRetryable == true && error?.code == 7205)
        #expect(try await setup.watermark() == before)
    }

    @Test func theFirstRunReadsTheEnvironmentsRetentionAndLimitsOutOfRangeAreRefused() async throws {
        let setup = try Setup()
        let first = try await setup.sweep().run()
        #expect(first.notificationsRead == 0 && first.watermarkSaved == first.endDate)
        #expect(first.startDate == first.endDate.addingTimeInterval(-(30 * 86_400 - 3_600)))

        var sweep = try setup.sweep(pageCountMax: 0)
        await #expect(throws: AppStoreNotificationSweepError.self) { _ = try await sweep.run() }
        sweep.pageCountMax = 1
        sweep.lookbackMaxSeconds = 181 * 86_400
        let error = await #expect(throws: AppStoreNotificationSweepError.self) { _ = try await sweep.run() }
        guard case .ledger(.invalidArgument) = error else {
            Issue.record("expected invalidArgument, got \(String(describing: error))")
            return
        }
    }
}

extension AppStoreNotificationOutcome {
    /// Whether the notification was applied as a revocation.
    fileprivate var isRevocation: Bool {
        if case .revocation = self { return true }
        return false
    }
}
