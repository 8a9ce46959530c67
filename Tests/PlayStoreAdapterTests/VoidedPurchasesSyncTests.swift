import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

/// Paging `voidedpurchases.list` into revocation events, with a saved watermark.
@Suite struct VoidedPurchasesSyncTests {
    static func voidFive(_ setup: PlayLedgerSetup) async throws -> [String] {
        var tokens: [String] = []
        for index in 0..<5 {
            let token = try await setup.buyAndFulfill("gems_small", for: "p\(index)")
            setup.clock.advance(seconds: 60)
            setup.play.void(token: token)
            tokens.append(token)
        }
        return tokens
    }

    @Test func pagesAreReadAndTheWatermarkSaved() async throws {
        let setup = try PlayLedgerSetup(pageSizeMax: 2)
        _ = try await Self.voidFive(setup)
        let now = setup.clock.now()
        let report = try await setup.sync().run()
        #expect(report.pagesRead == 3 && report.voidedSeen == 5 && report.recorded == 5 && !report.truncated)
        #expect(report.startTime == now.addingTimeInterval(-VoidedPurchasesSync.defaultLookbackMaxSeconds))
        #expect(report.watermarkSaved == now.ledgerMilliseconds)
        let cursor = try await setup.ledger.store.read { reader throws(LedgerError) in
            try reader.syncCursor(name: VoidedPurchasesSync.cursorName)
        }
        #expect(cursor == String(now.ledgerMilliseconds))
        for index in 0..<5 { await #expect(try setup.gems("p\(index)") == 0) }
    }

    @Test func anOverlappingReReadAppliesNothingTwice() async throws {
        let setup = try PlayLedgerSetup(pageSizeMax: 2)
        let tokens = try await Self.voidFive(setup)
        _ = try await setup.sync().run()
        let watermark = setup.clock.now()
        setup.clock.advance(seconds: 3_600)
        let again = try await setup.sync().run()
        #expect(again.startTime == watermark.addingTimeInterval(-VoidedPurchasesSync.defaultOverlapSeconds))
        #expect(again.alreadyRecorded == 5 && again.recorded == 0 && again.watermarkSaved == nil)
        let fresh = try await setup.buyAndFulfill("gems_small", for: "late", quantity: 2)
        setup.play.void(token: fresh, quantity: 1)
        let third = try await setup.sync().run()
        #expect(third.recorded == 1 && third.alreadyRecorded == 5)
        #expect(third.watermarkSaved == setup.clock.now().ledgerMilliseconds)
        await #expect(try setup.gems("late") == 100)
        let events = try await setup.ledger.store.read { reader throws(LedgerError) in
            try reader.revocationEvents(for: setup.key(tokens[0]), limit: 10)
        }
        #expect(events.count == 1)
    }

    @Test func aVoidBeforeItsPurchaseAppliesWhenFulfilled() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "remove_ads", accountID: "p1")
        setup.play.void(token: token)
        #expect(try await setup.sync().run().recorded == 1)
        #expect(try await setup.fulfill(token, "remove_ads", as: "p1").name == "granted")
        await #expect(try setup.ledger.player("p1").entitlements.isEmpty)
    }

    @Test func thePageLimitStopsWithoutMovingTheWatermark() async throws {
        let setup = try PlayLedgerSetup(pageSizeMax: 2)
        _ = try await Self.voidFive(setup)
        var sync = setup.sync()
        sync.pageCountMax = 1
        let report = try await sync.run()
        #expect(report.truncated && report.pagesRead == 1 && report.recorded == 2 && report.watermarkSaved == nil)
        #expect(try await setup.sync().run().recorded == 3)
    }

    @Test func aFailedPageThrowsAndKeepsTheWatermark() async throws {
        let setup = try PlayLedgerSetup(pageSizeMax: 2)
        _ = try await Self.voidFive(setup)
        setup.play.fail(.voidedList, with: .retryable("503"))
        await #expect(throws: LedgerError.self) { _ = try await setup.sync().run() }
        let cursor = try await setup.ledger.store.read { reader throws(LedgerError) in
            try reader.syncCursor(name: VoidedPurchasesSync.cursorName)
        }
        #expect(cursor == nil)
        var bad = setup.sync()
        bad.pageSize = 0
        await #expect(throws: LedgerError.self) { _ = try await bad.run() }
        #expect(try await setup.sync().run().recorded == 5)
    }
}
