import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `ledger playstore voided-sync` counts Google's refunds of purchases not acknowledged in time
/// (`voidedReason` 8), and `ledger doctor` warns about them.
@Suite struct PlayUnacknowledgedVoidCommandTests {
    typealias Fixture = PlayCommandFixture

    @Test func theSyncCountsThemAndTheDoctorWarns() async throws {
        let fixture = try await Fixture()
        let purchases = try fixture.purchasesFile(["tok-1": Fixture.gems(quantity: 1)])
        let purchased = try Fixture.purchasedBody(messageID: "m-1", token: "tok-1", sku: "gems_small")
        #expect(try await fixture.rtdn(purchased, purchases: purchases).code == 0)
        let healthy = await ledger(["doctor", "--db", fixture.db])
        #expect(healthy.code == 0 && !healthy.output.contains("voidedReason 8"))

        var record = Fixture.voided("tok-1", at: Fixture.hourAgoMilliseconds)
        record["voidedReason"] = 8
        let withVoid = try fixture.purchasesFile(["tok-1": Fixture.gems(quantity: 1, refundable: 0)], voided: [record])
        let synced = try await fixture.voidedSync(purchases: withVoid)
        #expect(synced.code == 0, "\(synced.output)\(synced.error)")
        #expect(try synced.json()["unacknowledgedVoids"] as? Int == 1)

        let warned = await ledger(["doctor", "--db", fixture.db])
        #expect(warned.code == 0, "a past refund is a warning, not damage: \(warned.output)")
        #expect(warned.output.contains("warning: Google Play refunded 1 purchase(s) in the last 30 days"), "\(warned.output)")
        let json = try await ledger(["doctor", "--db", fixture.db, "--json"]).json()
        #expect((json["unacknowledgedPlayVoids"] as? [String: Any])?["count"] as? Int == 1)
    }
}
