import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedgerTesting
import Testing

/// `ledger appstore verify`, `fulfill` and `notify`.
@Suite struct AppStoreCommandTests {
    static let vectors = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors/apple")
    static let hasVectors = FileManager.default.fileExists(atPath: vectors.appendingPathComponent("README.md").path)
    static let bundleID = "com.kibblestreet.td"

    @Test(.enabled(if: hasVectors, "skipped: Apple's test vectors are not beside the package"))
    func verifiesApplesPublishedVectors() async throws {
        let root = Self.vectors.appendingPathComponent("certs/testCA.der").path
        let signed = Self.vectors.appendingPathComponent("mock_signed_data")
        let valid = await ledger([
            "appstore", "verify", "--root", root, "--bundle-id", "com.example", "--environment", "Sandbox",
            signed.appendingPathComponent("transactionInfo").path,
        ])
        #expect(valid.code == 0, "\(valid.output)\(valid.error)")
        #expect(try valid.json()["environment"] as? String == "Sandbox")
        let wrong = await ledger([
            "appstore", "verify", "--root", root, "--bundle-id", "com.examplex", "--environment", "Sandbox", "--kind",
            "notification", signed.appendingPathComponent("wrongBundleId").path,
        ])
        #expect(wrong.code == 65)
        let error = try #require(try wrong.json()["error"] as? [String: Any])
        #expect(error["name"] as? String == "appStore.invalidAppIdentifier" && error["code"] as? Int == 7004)
    }

    @Test func fulfillsAndRefundsSignedDataFromTheSimulatedStore() async throws {
        let scratch = try ScratchDirectory()
        let (simulator, root) = try Self.simulatedStore(in: scratch)
        let purchase = try simulator.purchase(
            productID: "com.kibblestreet.td.remove_ads", appAccountToken: AppAccountToken.forPlayer("p1"),
            type: .nonConsumable)
        let jws = try scratch.write(purchase.jws, to: "purchase.jws")
        let db = scratch.path("ledger.sqlite")
        let common = [
            "--db", db, "--catalog", repoCatalogPath, "--root", root, "--bundle-id", Self.bundleID, "--environment",
            "Sandbox",
        ]
        let granted = await ledger(["appstore", "fulfill", "--player", "p1"] + common + [jws])
        #expect(granted.code == 0, "\(granted.output)\(granted.error)")
        #expect(try granted.json()["outcome"] as? String == "granted")
        let again = await ledger(["appstore", "fulfill", "--player", "p1"] + common + ["-"], input: purchase.jws)
        #expect(try again.json()["outcome"] as? String == "alreadyFulfilled")
        let stranger = await ledger(["appstore", "fulfill", "--player", "p2"] + common + [jws])
        #expect(stranger.code == 3)
        #expect(try stranger.json()["reason"] as? String == "accountMismatch")

        _ = try simulator.revoke(transactionID: purchase.transactionID)
        let refund = try scratch.write(
            try simulator.notification(type: .refund, transactionID: purchase.transactionID), to: "refund.jws")
        let applied = await ledger(["appstore", "notify"] + common + [refund])
        #expect(applied.code == 0, "\(applied.output)\(applied.error)")
        #expect(try applied.json()["outcome"] as? String == "revocation")
        #expect(try applied.revocationRecord()["disposition"] as? String == "applied")
        let replayed = await ledger(["appstore", "notify"] + common + [refund])
        #expect(try replayed.json()["outcome"] as? String == "alreadyProcessed")
        let state = await ledger(["entitlements", "--db", db, "--player", "p1", "--catalog", repoCatalogPath, "--json"])
        #expect((try state.json()["entitlements"] as? [String: String])?["remove_ads"] == "notOwned")
    }

    @Test("RESCIND_CONSENT through `appstore notify`: recorded once, and the account's next purchase exits 3 consentRescinded")
    func rescindConsentRefusesTheAccountsNextPurchase() async throws {
        let scratch = try ScratchDirectory()
        let (simulator, root) = try Self.simulatedStore(in: scratch)
        let db = scratch.path("ledger.sqlite")
        let common = [
            "--db", db, "--catalog", repoCatalogPath, "--root", root, "--bundle-id", Self.bundleID, "--environment",
            "Sandbox",
        ]
        let buy = { () throws -> String in
            var payload = try simulator.purchase(
                productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p1")
            ).payload
            payload.appTransactionID = "705001"
            return try simulator.sign(payload)
        }
        // The first purchase creates the ledger; what it granted stays after the withdrawal.
        let granted = await ledger(["appstore", "fulfill", "--player", "p1"] + common + ["-"], input: try buy())
        #expect(try granted.json()["outcome"] as? String == "granted", "\(granted.output)\(granted.error)")
        let notice = try simulator.rescindConsentNotification(appTransactionID: "705001", notificationUUID: "rescind-cli")
        let recorded = await ledger(["appstore", "notify"] + common + ["-"], input: notice)
        #expect(recorded.code == 0, "\(recorded.output)\(recorded.error)")
        #expect(try recorded.json()["outcome"] as? String == "consentRescinded")
        let rescission = try #require(try recorded.json()["rescission"] as? [String: Any])
        #expect(rescission["accountID"] as? String == "705001" && rescission["notificationID"] as? String == "rescind-cli")
        let replayed = await ledger(["appstore", "notify"] + common + ["-"], input: notice)
        #expect(try replayed.json()["outcome"] as? String == "alreadyProcessed")

        let refused = await ledger(["appstore", "fulfill", "--player", "p1"] + common + ["-"], input: try buy())
        #expect(refused.code == 3, "\(refused.output)\(refused.error)")
        #expect(try refused.json()["reason"] as? String == "consentRescinded")
    }

    @Test("ONE_TIME_CHARGE through `appstore notify`: granted to the player `appstore bind` registered, exit 3 when unassigned")
    func oneTimeChargeGrantsToTheBoundPlayer() async throws {
        let scratch = try ScratchDirectory()
        let (simulator, root) = try Self.simulatedStore(in: scratch)
        let db = scratch.path("ledger.sqlite")
        let common = [
            "--db", db, "--catalog", repoCatalogPath, "--root", root, "--bundle-id", Self.bundleID, "--environment",
            "Sandbox",
        ]
        #expect(await ledger(["init", "--db", db]).code == 0)
        let bound = await ledger(["appstore", "bind", "--db", db, "--catalog", repoCatalogPath, "--player", "p5"])
        #expect(bound.code == 0, "\(bound.output)\(bound.error)")
        #expect(try bound.json()["token"] as? String == AppAccountToken.forPlayer("p5"))
        let usage = await ledger(["appstore", "bind", "--db", db, "--catalog", repoCatalogPath, "--player", "p5", "--account-binding", "hash"])
        #expect(usage.code == 64)

        let purchase = try simulator.purchase(
            productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p5"))
        let notice = try simulator.notification(type: .oneTimeCharge, transactionID: purchase.transactionID)
        let granted = await ledger(["appstore", "notify"] + common + ["-"], input: notice)
        #expect(granted.code == 0, "\(granted.output)\(granted.error)")
        let charge = try #require(try granted.json()["charge"] as? [String: Any])
        #expect(charge["playerID"] as? String == "p5" && (charge["fulfillment"] as? [String: Any])?["outcome"] as? String == "granted")
        let replayed = await ledger(["appstore", "notify"] + common + ["-"], input: notice)
        #expect(try replayed.json()["outcome"] as? String == "alreadyProcessed")

        let stranger = try simulator.purchase(productID: "com.kibblestreet.td.gems.small")
        let unassigned = await ledger(
            ["appstore", "notify"] + common + ["-"],
            input: try simulator.notification(type: .oneTimeCharge, transactionID: stranger.transactionID))
        #expect(unassigned.code == 3, "\(unassigned.output)\(unassigned.error)")
        #expect((try unassigned.json()["charge"] as? [String: Any])?["unassigned"] as? Bool == true)
        let found = await ledger(["lookup", stranger.transactionID, "--db", db, "--json"])
        #expect(found.output.contains("accountUnassigned"), "\(found.output)")
    }

    /// The reproduction: a Founder's Pack bought, then restored (new `transactionId`,
    /// same `originalTransactionId`): the restore is `alreadyFulfilled`, 1,000 gems, not 2,000.
    @Test func aRestoredNonConsumableIsAlreadyFulfilledThroughTheCommandLine() async throws {
        let scratch = try ScratchDirectory()
        let (simulator, root) = try Self.simulatedStore(in: scratch)
        let purchase = try simulator.purchase(
            productID: "com.kibblestreet.td.founders_pack", appAccountToken: AppAccountToken.forPlayer("p1"),
            type: .nonConsumable)
        let restored = try simulator.restore(transactionID: purchase.transactionID)
        let db = scratch.path("ledger.sqlite")
        let common = [
            "appstore", "fulfill", "--player", "p1", "--db", db, "--catalog", repoCatalogPath, "--root", root,
            "--bundle-id", Self.bundleID, "--environment", "Sandbox", "-",
        ]
        let granted = await ledger(common, input: purchase.jws)
        #expect(try granted.json()["outcome"] as? String == "granted", "\(granted.output)\(granted.error)")
        let again = await ledger(common, input: restored.jws)
        #expect(again.code == 0, "\(again.output)\(again.error)")
        #expect(try again.json()["outcome"] as? String == "alreadyFulfilled")
        let player = await ledger(["player", "p1", "--db", db, "--json"])
        #expect((try player.json()["balances"] as? [String: Int])?["gems"] == 1000, "\(player.output)")
    }

    /// The issue through the command line: 3 units of 100 gems, then a REFUND with
    /// REFUND_PRORATED at 33333 milliunits takes back 100 gems, not 300.
    @Test func aProratedRefundTakesOneUnitOfThreeThroughTheCommandLine() async throws {
        let scratch = try ScratchDirectory()
        let (simulator, root) = try Self.simulatedStore(in: scratch)
        let purchase = try simulator.purchase(
            productID: "com.kibblestreet.td.gems.small", quantity: 3, appAccountToken: AppAccountToken.forPlayer("p1"))
        let db = scratch.path("ledger.sqlite")
        let common = [
            "--db", db, "--catalog", repoCatalogPath, "--root", root, "--bundle-id", Self.bundleID, "--environment",
            "Sandbox", "-",
        ]
        let granted = await ledger(["appstore", "fulfill", "--player", "p1"] + common, input: purchase.jws)
        #expect(granted.code == 0, "\(granted.output)\(granted.error)")
        _ = try simulator.revoke(transactionID: purchase.transactionID, type: .refundProrated, percentage: 33_333)
        let refund = try simulator.notification(type: .refund, transactionID: purchase.transactionID)
        let applied = await ledger(["appstore", "notify"] + common, input: refund)
        #expect(applied.code == 0, "\(applied.output)\(applied.error)")
        #expect(try applied.revocationRecord()["disposition"] as? String == "applied")
        let effect = try #require(try applied.revocationRecord()["effect"] as? [[String: Any]])
        #expect(effect.count == 1 && effect.first?["id"] as? String == "gems" && effect.first?["quantity"] as? Int == -100)
        let player = await ledger(["player", "p1", "--db", db, "--json"])
        #expect((try player.json()["balances"] as? [String: Int])?["gems"] == 200, "\(player.output)")
        let history = await ledger(["history", "--db", db, "--player", "p1"])
        #expect(history.output.contains("partialRefund"), "\(history.output)")
    }

    /// A Non-Consumable JWS for a catalog consumable is a configuration mismatch: exit 3, and
    /// nothing is granted.
    @Test func aTypeThatDisagreesWithTheCatalogIsRejectedThroughTheCommandLine() async throws {
        let scratch = try ScratchDirectory()
        let (simulator, root) = try Self.simulatedStore(in: scratch)
        let purchase = try simulator.purchase(
            productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p1"),
            type: .nonConsumable)
        let db = scratch.path("ledger.sqlite")
        let run = await ledger(
            [
                "appstore", "fulfill", "--player", "p1", "--db", db, "--catalog", repoCatalogPath, "--root", root,
                "--bundle-id", Self.bundleID, "--environment", "Sandbox", "-",
            ], input: purchase.jws)
        #expect(run.code == 3, "\(run.output)\(run.error)")
        #expect(try run.json()["reason"] as? String == "productTypeMismatch")
        #expect(try run.json()["reasonCode"] as? Int == 110)
        #expect(try await grantedNothing("p1", db: db), "nothing was granted to p1")
    }

    /// A signed transaction or refund whose date is out of range: refused with its payload code,
    /// exit 65 for `verify`, 3 for `notify`, and the ledger is left as it was.
    @Test func outOfRangeDatesAreRefusedThroughTheCommandLine() async throws {
        let scratch = try ScratchDirectory()
        let (simulator, root) = try Self.simulatedStore(in: scratch)
        let purchase = try simulator.purchase(
            productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p1"))
        let verifier = ["--root", root, "--bundle-id", Self.bundleID, "--environment", "Sandbox"]
        let huge = try simulator.signer.sign(purchase.payload, replacingFields: ["purchaseDate": "9223372036854775807"])
        let verified = await ledger(["appstore", "verify"] + verifier + ["-"], input: huge)
        #expect(verified.code == 65, "\(verified.output)\(verified.error)")
        let refusal = try #require(try verified.json()["error"] as? [String: Any])
        #expect(refusal["code"] as? Int == 7001 && refusal["detailCode"] as? Int == 7101)

        let db = scratch.path("ledger.sqlite")
        let common = ["--db", db, "--catalog", repoCatalogPath] + verifier
        let granted = await ledger(["appstore", "fulfill", "--player", "p1"] + common + ["-"], input: purchase.jws)
        #expect(granted.code == 0, "\(granted.output)\(granted.error)")
        let revoked = try simulator.revoke(transactionID: purchase.transactionID)
        var notification = try simulator.notificationPayload(type: .refund, transactionID: purchase.transactionID)
        notification.data.signedTransactionInfo = try simulator.signer.sign(
            revoked.payload, replacingFields: ["revocationDate": "-1"])
        let refused = await ledger(["appstore", "notify"] + common + ["-"], input: try simulator.sign(notification))
        #expect(refused.code == 3, "\(refused.output)\(refused.error)")
        #expect(try refused.json()["outcome"] as? String == "rejected")
        let error = try #require(try refused.json()["error"] as? [String: Any])
        #expect(error["payloadCode"] as? Int == 7101)
        #expect((error["detail"] as? String)?.contains("revocationDate") == true)
        let player = await ledger(["player", "p1", "--db", db, "--json"])
        #expect((try player.json()["balances"] as? [String: Int])?["gems"] == 100, "\(player.output)")
    }

    /// A simulated App Store and the path of its root certificate, written into `scratch`.
    static func simulatedStore(in scratch: ScratchDirectory) throws -> (AppStoreSimulator, String) {
        let simulator = try AppStoreSimulator(bundleID: bundleID, environment: .sandbox)
        let root = scratch.path("root.der")
        try Data(simulator.rootCertificateDER).write(to: URL(fileURLWithPath: root))
        return (simulator, root)
    }

    @Test func usageMistakesExit64() async throws {
        #expect(await ledger(["appstore", "verify", "x.jws"]).code == 64)
        #expect(await ledger(["appstore", "verify", "--root", "/nonexistent.der", "--bundle-id", "b", "--environment", "Sandbox", "x"]).code == 64)
        #expect(await ledger(["appstore", "verify", "--root", repoCatalogPath, "--bundle-id", "b", "--environment", "Moon", "x"]).code == 64)
    }
}
