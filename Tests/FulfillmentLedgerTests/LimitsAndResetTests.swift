import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Purchase limits gate the next purchase, never a paid one; resets keep the ledger.
@Suite struct LimitsAndResetTests {
    @Test(arguments: StoreKind.allCases)
    func lifetimeLimitBlocksBeforePaymentButNeverAfter(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: "starter_bundle") == .eligible)
        let first = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        #expect(try await harness.ledger.fulfill(first).name == "granted")
        let eligibility = try await harness.ledger.eligibility(playerID: "p1", productID: "starter_bundle")
        #expect(eligibility == .limitReached(limit: PurchaseLimit(count: 1, period: .lifetime), count: 1, resetsAt: nil))

        // A second payment happened anyway (another device, a race): it is always fulfilled.
        let paidAnyway = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        #expect(try await harness.ledger.fulfill(paidAnyway).name == "granted")
        await #expect(try harness.balance("p1", "gems") == 1_000)
        await #expect(try harness.purchaseCount("p1", "starter_bundle") == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func weeklyLimitResetsOnMondayUTC(kind: StoreKind) async throws {
        // The manual clock starts on Monday 2026-01-05 00:00 UTC.
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.weekly_offer", playerID: "p1")
        #expect(try await harness.ledger.fulfill(purchase).name == "granted")
        harness.clock.advance(seconds: 6 * 86_400 + 86_399)  // Sunday 23:59:59
        guard case .limitReached(_, let count, let resetsAt) = try await harness.ledger.eligibility(playerID: "p1", productID: "weekly_offer")
        else {
            Issue.record("the weekly limit should still apply on Sunday")
            return
        }
        #expect(count == 1)
        #expect(resetsAt == Date(timeIntervalSince1970: 1_767_571_200 + 7 * 86_400))
        harness.clock.advance(seconds: 1)  // Monday 00:00:00
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: "weekly_offer") == .eligible)
        // The old transaction is still known in the new week.
        #expect(try await harness.ledger.fulfill(purchase).name == "alreadyFulfilled")
        await #expect(try harness.balance("p1", "gems") == 300)
    }

    @Test func weekKeysFollowISO8601() {
        #expect(PurchasePeriod.weekKey(for: Date(timeIntervalSince1970: 1_767_571_200)) == "2026-W02")
        // 2026-12-31 is a Thursday in ISO week 53 of 2026; 2027-01-01 is in the same week.
        #expect(PurchasePeriod.weekKey(for: Date(timeIntervalSince1970: 1_798_675_200)) == "2026-W53")
        #expect(PurchasePeriod.weekKey(for: Date(timeIntervalSince1970: 1_798_761_600)) == "2026-W53")
        // Sunday 2026-01-04 23:59:59 UTC is still in week 1.
        #expect(PurchasePeriod.weekKey(for: Date(timeIntervalSince1970: 1_767_571_199)) == "2026-W01")
    }

    @Test("week keys agree with the ISO 8601 calendar from 1900 to 2300, and on both sides of every new year")
    func weekKeysAgreeWithTheCalendar() {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func calendarKey(_ date: Date) -> String {
            let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
            return String(format: "%04d-W%02d", parts.yearForWeekOfYear!, parts.weekOfYear!)
        }
        let start = -2_208_988_800.0  // 1900-01-01
        let end = 10_413_792_000.0  // 2300-01-01
        var dates: [Date] = []
        // Every 3 days 7 hours, so every weekday and many hours are hit.
        for seconds in stride(from: start, to: end, by: 285_793) { dates.append(Date(timeIntervalSince1970: seconds)) }
        for year in 1900...2300 {
            let newYear = calendar.date(from: DateComponents(year: year, month: 1, day: 1))!
            for offset: TimeInterval in [-345_600, -1, 0, 1, 345_600] { dates.append(newYear.addingTimeInterval(offset)) }
        }
        var mismatches: [String] = []
        for date in dates where PurchasePeriod.weekKey(for: date) != calendarKey(date) {
            mismatches.append("\(date): \(PurchasePeriod.weekKey(for: date)) vs \(calendarKey(date))")
        }
        #expect(dates.count > 40_000)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test(arguments: StoreKind.allCases)
    func resetKeepsTheLedgerAndEntitlements(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let gems = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        let bundle = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        let ads = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        for purchase in [gems, bundle, ads] { #expect(try await harness.ledger.fulfill(purchase).name == "granted") }
        harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p2")
        _ = try await harness.ledger.recover()

        try await harness.ledger.resetPlayer("p1")
        let after = try await harness.progress("p1")
        #expect(after == Progress(balances: [:], inventory: [:], entitlements: ["remove_ads"], transactionCount: 3))
        await #expect(try harness.purchaseCount("p1", "starter_bundle") == 0)
        await #expect(try harness.balance("p2", "gems") == 100, "another player's progress is untouched")
        await #expect(try harness.ledger.player("p1").events.first?.kind == .playerReset)

        // Replays after the reset are still recognised.
        for purchase in [gems, bundle, ads] {
            #expect(try await harness.ledger.fulfill(purchase).name == "alreadyFulfilled")
        }
        await #expect(try harness.progress("p1") == after)
    }
}
