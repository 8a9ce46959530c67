import Foundation
import FulfillmentLedger
import PlayStoreAdapter
import Testing

/// `ledger playstore verify`, `rtdn` and `voided-sync`, answered from a purchases file.
@Suite struct PlayStoreCommandTests {
    static let package = "com.kibblestreet.td"
    /// An hour ago, inside the 30 days voided purchases can be listed for.
    static let voidedMilliseconds = (Int64(Date().timeIntervalSince1970) - 3_600) * 1_000

    static func purchasesFile(in scratch: ScratchDirectory, voided: Bool) throws -> String {
        var file: [String: Any] = [
            "purchases": [
                "tok-1": [
                    "purchaseState": 0, "orderId": "GPA.1", "productId": "gems_small", "quantity": 2,
                    "obfuscatedExternalAccountId": "p1", "purchaseTimeMillis": "1767571200000",
                ],
                "tok-pending": ["purchaseState": 2, "productId": "gems_small", "obfuscatedExternalAccountId": "p1"],
            ]
        ]
        if voided {
            file["voided"] = [
                ["purchaseToken": "tok-1", "orderId": "GPA.1", "voidedTimeMillis": String(voidedMilliseconds), "voidedSource": 0,
                 "voidedReason": 1]
            ]
        }
        return try scratch.write(
            String(decoding: try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys]), as: UTF8.self),
            to: voided ? "purchases-voided.json" : "purchases.json")
    }

    /// A Pub/Sub push body carrying a developer notification, as Google sends it.
    static func pushBody(messageID: String, _ notification: [String: Any]) throws -> String {
        var developer: [String: Any] = ["version": "1.0", "packageName": package, "eventTimeMillis": String(voidedMilliseconds)]
        developer.merge(notification) { _, new in new }
        let data = try JSONSerialization.data(withJSONObject: developer).base64EncodedString()
        let envelope: [String: Any] = ["message": ["data": data, "messageId": messageID], "subscription": "projects/p/subscriptions/s"]
        return String(decoding: try JSONSerialization.data(withJSONObject: envelope), as: UTF8.self)
    }

    @Test func verifyPrintsWhatTheLedgerWouldSee() async throws {
        let scratch = try ScratchDirectory()
        let file = try Self.purchasesFile(in: scratch, voided: false)
        let found = await ledger([
            "playstore", "verify", "--token", "tok-1", "--product", "gems_small", "--package", Self.package,
            "--purchases", file,
        ])
        #expect(found.code == 0, "\(found.output)\(found.error)")
        let json = try found.json()
        #expect(json["state"] as? String == "purchased" && json["quantity"] as? Int == 2)
        #expect(json["accountBinding"] as? String == "p1")
        let unknown = await ledger([
            "playstore", "verify", "--token", "nope", "--product", "gems_small", "--package", Self.package,
            "--purchases", file,
        ])
        #expect(unknown.code == 65)
        #expect(await ledger(["playstore", "verify", "--token", "t", "--product", "p", "--package", "x"]).code == 64)
    }

    @Test func rtdnPurchaseThenVoidAppliesOnceAndTheSyncAgrees() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        try #require(try await fulfill(["transactionID": "seed", "productID": "test.gems_small", "playerID": "p0"], db: db).code == 0)
        let common = ["--db", db, "--catalog", repoCatalogPath, "--package", Self.package]

        let purchases = try Self.purchasesFile(in: scratch, voided: false)
        let purchased = try Self.pushBody(
            messageID: "m-1",
            ["oneTimeProductNotification": ["version": "1.0", "notificationType": 1, "purchaseToken": "tok-1", "sku": "gems_small"]])
        let granted = await ledger(["playstore", "rtdn"] + common + ["--purchases", purchases], input: purchased)
        #expect(granted.code == 0, "\(granted.output)\(granted.error)")
        #expect(try granted.json()["outcome"] as? String == "granted")
        #expect(try await balances("p1", db: db) == ["gems": 200])
        let again = await ledger(["playstore", "rtdn"] + common + ["--purchases", purchases], input: purchased)
        #expect(try again.json()["outcome"] as? String == "alreadyProcessed")

        let withVoid = try Self.purchasesFile(in: scratch, voided: true)
        let voidBody = try Self.pushBody(
            messageID: "m-2",
            ["voidedPurchaseNotification": ["purchaseToken": "tok-1", "orderId": "GPA.1", "productType": 2, "refundType": 1]])
        let refunded = await ledger(["playstore", "rtdn"] + common + ["--purchases", withVoid], input: voidBody)
        #expect(refunded.code == 0, "\(refunded.output)\(refunded.error)")
        #expect(try refunded.json()["disposition"] as? String == "applied")
        #expect(try await balances("p1", db: db).isEmpty)

        let sync = await ledger(["playstore", "voided-sync"] + common + ["--purchases", withVoid])
        #expect(sync.code == 0, "\(sync.output)\(sync.error)")
        let report = try sync.json()
        #expect(report["recorded"] as? Int == 0 && report["alreadyRecorded"] as? Int == 1, "\(report)")
        #expect(report["watermarkMilliseconds"] as? Int == Int(Self.voidedMilliseconds))
        #expect(try await balances("p1", db: db).isEmpty, "the sync never refunds twice")
    }
}
