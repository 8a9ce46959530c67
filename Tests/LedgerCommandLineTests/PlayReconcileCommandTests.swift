import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `ledger playstore reconcile` against a purchases file with an `orders` section.
@Suite struct PlayReconcileCommandTests {
    typealias Fixture = PlayCommandFixture

    @Test func aRefundTheLedgerMissedIsReportedWithItsAmountAndApplyCatchesUp() async throws {
        let fixture = try await Fixture()
        let paid = try fixture.purchasesFile(["tok-1": Fixture.gems(quantity: 2)])
        let purchased = try Fixture.purchasedBody(messageID: "m-1", token: "tok-1", sku: "gems_small")
        #expect(try await fixture.rtdn(purchased, purchases: paid).code == 0)

        let money: [String: Any] = ["currencyCode": "USD", "units": "3", "nanos": 980_000_000]
        let order: [String: Any] = [
            "orderId": "GPA.1", "purchaseToken": "tok-1", "state": "REFUNDED", "total": money,
            "orderHistory": ["refundEvent": ["refundDetails": ["total": money], "refundReason": "OTHER"]],
        ]
        let refunded = try fixture.purchasesFile(
            ["tok-1": Fixture.gems(quantity: 2, refundable: 0)], voided: [Fixture.voided("tok-1", at: Fixture.hourAgoMilliseconds)])
        let withOrders = try Self.adding(["GPA.1": order], to: refunded, in: fixture)
        let common = ["playstore", "reconcile"] + fixture.common(withOrders) + ["--player", "p1"]
        let found = await ledger(common)
        #expect(found.code == 3, "\(found.output)\(found.error)")
        let json = try found.json()
        let entry = try #require((json["unappliedRefunds"] as? [[String: Any]])?.first)
        #expect(entry["orderID"] as? String == "GPA.1" && entry["orderState"] as? String == "REFUNDED")
        #expect((json["refundedTotals"] as? [String: String])?["USD"] == "3.98 USD")
        #expect(try await balances("p1", db: fixture.db) == ["gems": 200])

        let applied = await ledger(common + ["--apply"])
        #expect(applied.code == 0, "\(applied.output)\(applied.error)")
        #expect(try applied.json()["isClean"] as? Bool == true && applied.json()["voidsRecorded"] as? Int == 1)
        #expect(try await balances("p1", db: fixture.db)["gems", default: 0] == 0)
        #expect(await ledger(["playstore", "reconcile"] + fixture.common(withOrders)).code == 64, "--player is required")
    }

    /// The purchases file at `path` with an `orders` section.
    static func adding(_ orders: [String: Any], to path: String, in fixture: Fixture) throws -> String {
        var contents = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        contents["orders"] = orders
        let data = try JSONSerialization.data(withJSONObject: contents, options: [.sortedKeys])
        return try fixture.scratch.write(String(decoding: data, as: UTF8.self), to: "orders-\(UUID().uuidString).json")
    }
}
