import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedgerTesting
import FulfillmentLedger
import LedgerHTTPClient
import Testing

/// `ledger appstore lookup|history|token|fulfill --transaction-id` and `ledger recover` with the
/// App Store Server API options, against the simulated API on a loopback port.
struct AppStoreServerAPICommandTests {
    static let keyID = "KEY123ABCD"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    static let gems = "com.kibblestreet.td.gems.small"
    static let removeAds = "com.kibblestreet.td.remove_ads"

    /// A simulated store, its API on loopback, and the options that reach it.
    struct Apple {
        let scratch: ScratchDirectory
        let simulator: AppStoreSimulator
        let key: AppStoreAPITestKey
        let api: AppStoreSimulatedServerAPI
        let server: AppStoreSimulatedServer
        let keyFile: String
        let root: String

        init() throws {
            scratch = try ScratchDirectory()
            (simulator, root) = try AppStoreCommandTests.simulatedStore(in: scratch)
            key = try AppStoreAPITestKey()
            keyFile = try scratch.write(key.privateKeyPEM, to: "SubscriptionKey.p8")
            api = AppStoreSimulatedServerAPI(
                simulator: simulator, key: key, keyID: AppStoreServerAPICommandTests.keyID,
                issuerID: AppStoreServerAPICommandTests.issuerID, clock: SystemClock())
            server = try AppStoreSimulatedServer(api: api)
        }

        /// `ledger appstore`'s API options.
        var options: [String] {
            [
                "--key", keyFile, "--key-id", AppStoreServerAPICommandTests.keyID, "--issuer-id",
                AppStoreServerAPICommandTests.issuerID, "--root", root, "--bundle-id", AppStoreCommandTests.bundleID,
                "--environment", "Sandbox", "--api-base", server.baseURL.absoluteString,
            ]
        }

        /// `serve`'s and `recover`'s prefixed App Store options.
        var prefixedOptions: [String] {
            [
                "--app-store-key", keyFile, "--app-store-key-id", AppStoreServerAPICommandTests.keyID,
                "--app-store-issuer", AppStoreServerAPICommandTests.issuerID, "--root", root, "--bundle-id",
                AppStoreCommandTests.bundleID, "--app-store-environment", "Sandbox", "--app-store-api-base",
                server.baseURL.absoluteString,
            ]
        }
    }

    @Test func lookupPrintsTheVerifiedTransactionOrNotFound() async throws {
        let apple = try Apple()
        let purchase = try apple.simulator.purchase(productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p1"))
        let found = await ledger(["appstore", "lookup", "--transaction-id", purchase.transactionID] + apple.options)
        #expect(found.code == 0, "\(found.error)")
        let json = try found.json()
        #expect(json["found"] as? Bool == true)
        let transaction = try #require(json["transaction"] as? [String: Any])
        #expect(transaction["transactionId"] as? String == purchase.transactionID)
        #expect(transaction["productId"] as? String == Self.gems)
        let missing = await ledger(["appstore", "lookup", "--transaction-id", "999999"] + apple.options)
        #expect(missing.code == 3)
        #expect(try missing.json()["errorCode"] as? Int == 4_040_010)
        await apple.server.stop()
    }

    @Test("app-transaction prints the customer's appTransactionId; set-token binds a redeemed purchase to a player")
    func accountCommands() async throws {
        let apple = try Apple()
        let redeemed = try apple.simulator.purchase(productID: Self.removeAds, type: .nonConsumable)
        let found = await ledger(["appstore", "app-transaction", "--transaction-id", redeemed.transactionID] + apple.options)
        #expect(found.code == 0, "\(found.error)")
        let appTransaction = try #require(try found.json()["appTransaction"] as? [String: Any])
        #expect((appTransaction["appTransactionId"] as? String)?.isEmpty == false)
        let missing = await ledger(["appstore", "app-transaction", "--transaction-id", "999999"] + apple.options)
        #expect(missing.code == 3)
        #expect(try missing.json()["found"] as? Bool == false)

        let db = apple.scratch.path("ledger.sqlite")
        #expect(await ledger(["init", "--db", db]).code == 0)
        let set = await ledger(
            ["appstore", "set-token", "--transaction-id", redeemed.transactionID, "--player", "p6", "--db", db,
             "--catalog", repoCatalogPath] + apple.options)
        #expect(set.code == 0, "\(set.output)\(set.error)")
        let binding = try #require(try set.json()["binding"] as? [String: Any])
        #expect(binding["playerID"] as? String == "p6" && binding["token"] as? String == AppAccountToken.forPlayer("p6"))
        #expect(apple.simulator.transaction(redeemed.transactionID)?.appAccountToken == AppAccountToken.forPlayer("p6"))
        let restored = try apple.simulator.restore(transactionID: redeemed.transactionID)
        let refused = await ledger(
            ["appstore", "set-token", "--transaction-id", restored.transactionID, "--player", "p6"] + apple.options)
        #expect(refused.code == 3, "\(refused.output)\(refused.error)")
        await apple.server.stop()
    }

    @Test func historyReadsEveryPageUpToTheLimit() async throws {
        let apple = try Apple()
        let token = AppAccountToken.forPlayer("p1")
        var ids: [String] = []
        for _ in 0..<(AppStoreSimulatedServerAPI.pageSize + 5) {
            ids.append(try apple.simulator.purchase(productID: Self.gems, appAccountToken: token).transactionID)
        }
        let all = await ledger(["appstore", "history", "--transaction-id", ids[0]] + apple.options)
        #expect(all.code == 0, "\(all.error)")
        let allJSON = try all.json()
        let listed = try #require(allJSON["transactions"] as? [[String: Any]]).compactMap { $0["transactionId"] as? String }
        #expect(listed == ids)
        #expect(allJSON["hasMore"] as? Bool == false)
        let one = try await ledger(["appstore", "history", "--transaction-id", ids[0], "--page-count-max", "1"] + apple.options).json()
        #expect((one["transactions"] as? [Any])?.count == AppStoreSimulatedServerAPI.pageSize)
        #expect(one["hasMore"] as? Bool == true)
        #expect(await ledger(["appstore", "history", "--transaction-id", ids[0], "--page-count-max", "0"] + apple.options).code == 64)
        await apple.server.stop()
    }

    @Test func aRefusedKeyExits77AndARateLimitExits1() async throws {
        let apple = try Apple()
        let purchase = try apple.simulator.purchase(productID: Self.gems)
        let otherKey = try AppStoreAPITestKey()
        var options = apple.options
        options[1] = try apple.scratch.write(otherKey.privateKeyPEM, to: "Other.p8")
        let refused = await ledger(["appstore", "lookup", "--transaction-id", purchase.transactionID] + options)
        #expect(refused.code == 77, "\(refused.output)")
        #expect((try refused.json()["error"] as? [String: Any])?["code"] as? Int == 7203)
        #expect(apple.api.refusedTokenCount >= 1)
        // Past the retry limit, 429 is a rate limit: retry later.
        let tooMany = HTTPResponse(statusCode: 429, headers: ["Retry-After": "0"], body: Data())
        for _ in 0...HTTPRetryPolicy().retryCountMax { apple.api.answerNext(tooMany) }
        let limited = await ledger(["appstore", "lookup", "--transaction-id", purchase.transactionID] + apple.options)
        #expect(limited.code == 1, "\(limited.output)")
        let limit = try #require(try limited.json()["error"] as? [String: Any])
        #expect(limit["code"] as? Int == 7205 && limit["retryable"] as? Bool == true)
        await apple.server.stop()
    }

    @Test func tokenPrintsAJWTTheSimulatedAPIAccepts() async throws {
        let apple = try Apple()
        let run = await ledger([
            "appstore", "token", "--key", apple.keyFile, "--key-id", Self.keyID, "--issuer-id", Self.issuerID,
            "--bundle-id", AppStoreCommandTests.bundleID,
        ])
        #expect(run.code == 0, "\(run.error)")
        let token = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let (header, claims) = try #require(apple.key.verifiedJWT(token))
        #expect(header["alg"] as? String == "ES256" && header["kid"] as? String == Self.keyID)
        #expect(claims["aud"] as? String == "appstoreconnect-v1" && claims["bid"] as? String == AppStoreCommandTests.bundleID)
        let broken = try apple.scratch.write("not a key", to: "broken.p8")
        #expect(await ledger(["appstore", "token", "--key", broken, "--key-id", "K", "--issuer-id", "I", "--bundle-id", "b"]).code == 65)
        await apple.server.stop()
    }

    /// By ID alone: fetched, granted once, finished on Apple's server; a finish Apple refuses
    /// stays pending until `ledger recover` with the same key finishes it there.
    @Test func fulfilByIDGrantsOnceAndRecoverFinishesOnApplesServer() async throws {
        let apple = try Apple()
        let db = apple.scratch.path("ledger.sqlite")
        let base = ["--db", db, "--catalog", repoCatalogPath, "--player", "p1"]
        let first = try apple.simulator.purchase(productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p1"))
        let granted = await ledger(["appstore", "fulfill", "--transaction-id", first.transactionID] + base + apple.options)
        #expect(granted.code == 0, "\(granted.error)")
        #expect(try granted.json()["outcome"] as? String == "granted")
        #expect(apple.api.finishedTransactionIDs == [first.transactionID])
        let again = await ledger(["appstore", "fulfill", "--transaction-id", first.transactionID] + base + apple.options)
        #expect(try again.json()["outcome"] as? String == "alreadyFulfilled")
        #expect(try await balances("p1", db: db)["gems"] == 100)

        let second = try apple.simulator.purchase(productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p1"))
        apple.api.answerNext(HTTPResponse(statusCode: 401, body: Data()), forPathsEndingWith: "/finish")
        let unfinished = await ledger(["appstore", "fulfill", "--transaction-id", second.transactionID] + base + apple.options)
        #expect(try unfinished.json()["finished"] as? Bool == false, "\(unfinished.output)")
        #expect(try await balances("p1", db: db)["gems"] == 200)
        let recovered = await ledger(["recover", "--db", db, "--catalog", repoCatalogPath] + apple.prefixedOptions)
        #expect(recovered.code == 0, "\(recovered.output) \(recovered.error)")
        #expect(apple.api.finishedTransactionIDs.suffix(1) == [second.transactionID])

        let unknown = await ledger(["appstore", "fulfill", "--transaction-id", "999999"] + base + apple.options)
        #expect(unknown.code == 3)
        await apple.server.stop()
    }

    @Test func reconcileReportsThenAppliesAMissingGrantAndAnUnappliedRefund() async throws {
        let apple = try Apple()
        let db = apple.scratch.path("ledger.sqlite")
        let token = AppAccountToken.forPlayer("p1")
        let base = ["--db", db, "--catalog", repoCatalogPath, "--player", "p1"]
        let refunded = try apple.simulator.purchase(productID: Self.gems, appAccountToken: token)
        #expect(await ledger(["appstore", "fulfill", "--transaction-id", refunded.transactionID] + base + apple.options).code == 0)
        let missing = try apple.simulator.purchase(productID: Self.gems, appAccountToken: token)
        _ = try apple.simulator.revoke(transactionID: refunded.transactionID)

        let report = await ledger(["appstore", "reconcile"] + base + apple.options)
        #expect(report.code == 3, "\(report.output) \(report.error)")
        let json = try report.json()
        #expect((json["missingGrants"] as? [[String: Any]])?.compactMap { $0["transactionID"] as? String } == [missing.transactionID])
        #expect((json["unappliedRefunds"] as? [[String: Any]])?.compactMap { $0["transactionID"] as? String } == [refunded.transactionID])
        #expect(json["didApply"] as? Bool == false)
        #expect(try await balances("p1", db: db)["gems"] == 100)

        let applied = await ledger(["appstore", "reconcile", "--apply"] + base + apple.options)
        #expect(applied.code == 0, "\(applied.output) \(applied.error)")
        #expect(try await balances("p1", db: db)["gems"] == 100, "one refunded, one granted")
        let clean = await ledger(["appstore", "reconcile"] + base + apple.options)
        let cleanJSON = try clean.json()
        #expect(clean.code == 0 && cleanJSON["isClean"] as? Bool == true, "\(clean.output)")
        #expect(await ledger(["appstore", "reconcile"] + base.dropLast(2) + ["--player", "nobody"] + apple.options).code != 0)
        await apple.server.stop()
    }

    @Test func reconcileByAppTransactionIDFindsAnAccountTheLedgerHasNoPurchaseOf() async throws {
        let apple = try Apple()
        let db = apple.scratch.path("ledger.sqlite")
        let base = ["--db", db, "--catalog", repoCatalogPath, "--player", "p1"]
        // The ledger must exist; p1 has no purchase in it.
        let other = try apple.simulator.purchase(productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p2"))
        #expect(
            await ledger(["appstore", "fulfill", "--transaction-id", other.transactionID] + base.dropLast(2) + ["--player", "p2"] + apple.options).code == 0)
        let lost = try apple.simulator.purchase(
            productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p1"), appTransactionID: "705000000000009")
        let redeemed = try apple.simulator.purchase(productID: Self.gems, appTransactionID: "705000000000009")
        let noAnchor = await ledger(["appstore", "reconcile"] + base + apple.options)
        #expect(noAnchor.code == 65 && noAnchor.error.contains("appTransactionId"), "\(noAnchor.code) \(noAnchor.error)")
        let both = await ledger(
            ["appstore", "reconcile", "--transaction-id", lost.transactionID, "--app-transaction-id", "705000000000009"] + base
                + apple.options)
        #expect(both.code == 64)

        let applied = await ledger(["appstore", "reconcile", "--app-transaction-id", "705000000000009", "--apply"] + base + apple.options)
        #expect(applied.code == 0, "\(applied.output) \(applied.error)")
        let json = try applied.json()
        #expect(json["anchorTransactionID"] as? String == "705000000000009")
        #expect(json["appTransactionIDs"] as? [String] == ["705000000000009"])
        #expect((json["unbound"] as? [[String: Any]])?.compactMap { $0["transactionID"] as? String } == [redeemed.transactionID])
        #expect((json["missingGrants"] as? [[String: Any]])?.compactMap { $0["transactionID"] as? String } == [lost.transactionID])
        #expect(try await balances("p1", db: db)["gems"] == 100, "the bound purchase granted, the unbound one not")
        await apple.server.stop()
    }

    @Test func subscriptionStatusGrantsAMissedRenewalOnce() async throws {
        let apple = try Apple()
        let db = apple.scratch.path("ledger.sqlite")
        let base = ["--db", db, "--catalog", repoCatalogPath, "--player", "p1"]
        let bought = try apple.simulator.purchase(
            productID: "com.kibblestreet.td.vip.monthly", appAccountToken: AppAccountToken.forPlayer("p1"),
            type: .autoRenewableSubscription)
        #expect(await ledger(["appstore", "fulfill", "--transaction-id", bought.transactionID] + base + apple.options).code == 0)
        _ = try apple.simulator.renew(transactionID: bought.transactionID, at: bought.payload.purchaseDate.addingTimeInterval(1))

        let run = await ledger(["appstore", "subscription-status"] + base + apple.options)
        #expect(run.code == 0, "\(run.output) \(run.error)")
        let entry = try #require((try run.json()["subscriptions"] as? [[String: Any]])?.first)
        #expect(entry["outcome"] as? String == "applied" && entry["status"] as? Int == 1)
        #expect((entry["period"] as? [String: Any])?["outcome"] as? String == "granted")
        #expect(try await balances("p1", db: db)["gems"] == 600)
        let again = await ledger(["appstore", "subscription-status"] + base + apple.options)
        let second = try #require((try again.json()["subscriptions"] as? [[String: Any]])?.first)
        #expect((second["period"] as? [String: Any])?["outcome"] as? String == "alreadyFulfilled")
        #expect(try await balances("p1", db: db)["gems"] == 600)
        #expect(await ledger(["appstore", "subscription-status"] + base.dropLast(2) + apple.options).code == 64)
        await apple.server.stop()
    }

    /// The loopback server checks the JWT as Apple does: curl with a forged token gets 401.
    @Test func theLoopbackServerRefusesAForgedJWT() async throws {
        let apple = try Apple()
        let purchase = try apple.simulator.purchase(productID: Self.gems)
        let url = apple.server.baseURL.absoluteString + "/inApps/v1/transactions/" + purchase.transactionID
        let forged = try AppStoreAPITestKey()
        let forgedFile = try apple.scratch.write(forged.privateKeyPEM, to: "Forged.p8")
        let token = await ledger([
            "appstore", "token", "--key", forgedFile, "--key-id", Self.keyID, "--issuer-id", Self.issuerID,
            "--bundle-id", AppStoreCommandTests.bundleID,
        ]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        try await onOwnThread {
            let status = try ServeCommandTests.tool(
                "curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", url])
            #expect(status == "401")
        }
        #expect(apple.api.refusedTokenCount == 1)
        await apple.server.stop()
    }

    @Test func usageMistakesExit64() async throws {
        let apple = try Apple()
        #expect(await ledger(["appstore", "lookup"] + apple.options).code == 64)
        #expect(await ledger(["appstore", "lookup", "--transaction-id", "1", "--key", apple.keyFile]).code == 64)
        var badBase = apple.options
        badBase[badBase.count - 1] = "ftp://example"
        #expect(await ledger(["appstore", "lookup", "--transaction-id", "1"] + badBase).code == 64)
        #expect(await ledger(["recover", "--db", "x", "--catalog", repoCatalogPath, "--app-store-key-id", "K"]).code == 64)
        await apple.server.stop()
    }
}
