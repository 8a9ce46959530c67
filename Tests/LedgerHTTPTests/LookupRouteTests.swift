import Foundation
import FulfillmentLedger
import LedgerHTTP
import Testing

/// `GET /lookup/{id}`: a purchase found by any store ID over HTTP, with the same report as
/// `ledger lookup`; an ID nothing matches answers 200 with every array empty.
@Suite struct LookupRouteTests {
    @Test func aRejectedPurchaseAndAGrantedOneAreFoundByTheirIDs() async throws {
        let fixture = try LedgerHTTPFixture()
        let granted = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1"))
        #expect(granted.status == 200)
        let rejected = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t2", "test.gems_mega"))
        #expect(rejected.status == 422)

        let found = try await fixture.send("GET", "/lookup/t1")
        #expect(found.status == 200)
        let report = try found.object()
        #expect((report["records"] as? [[String: Any]])?.count == 1)
        #expect((report["steps"] as? [[String: Any]])?.first?["kind"] as? String == "purchaseGranted")

        let attempt = try await fixture.send("GET", "/lookup/t2")
        let attempts = try #require(try attempt.object()["attempts"] as? [[String: Any]])
        #expect(attempts.first?["code"] as? String == "unknownProduct")
        #expect(attempts.first?["entryPoint"] as? String == "client")

        let nothing = try await fixture.send("GET", "/lookup/GPA.0000")
        #expect(nothing.status == 200)
        #expect((try nothing.object()["steps"] as? [Any])?.isEmpty == true)
        // A percent-encoded ID is decoded; one over the token limit is refused.
        #expect(try await fixture.send("GET", "/lookup/t%31").status == 200)
        let tooLong = String(repeating: "x", count: 4_097)
        let refused = try await fixture.send("GET", "/lookup/\(tooLong)")
        #expect(refused.status == 400 && refused.errorCode == "argument.invalid")
        #expect(try await fixture.send("POST", "/lookup/t1").status == 405)
    }
}
