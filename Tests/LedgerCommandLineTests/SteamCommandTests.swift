import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTPClient
import SteamAdapter
import SteamSimulator
import Testing

/// `ledger steam start | authorize | submit | sync` and the Steam routes of `ledger serve`, against
/// the simulated Steam on a loopback port: an order granted once only after FinalizeTxn, a crash
/// before the grant recovered by the sync, a partial refund taken back, bad input refused, the key
/// read from the environment only.
@Suite struct SteamCommandTests {
    static let steamID = "76561197960287930"
    static let environment = ["STEAM_KEY": "SIMULATEDSTEAMKEY"]

    /// The sample catalog with Steam item IDs for gems_small (1001) and remove_ads (2001), written to `scratch`.
    static func catalog(in scratch: ScratchDirectory) throws -> String {
        let text = try String(contentsOfFile: CrashAtFaultPointTests.catalogPath, encoding: .utf8)
            .replacingOccurrences(of: #""playStore": "gems_small","#, with: #""playStore": "gems_small", "steam": "1001","#)
            .replacingOccurrences(of: #""playStore": "remove_ads","#, with: #""playStore": "remove_ads", "steam": "2001","#)
        return try scratch.write(text, to: "ProductCatalog.json")
    }

    static func options(_ server: SimulatedAPIServer) -> [String] {
        ["--steam-api-key-env", "STEAM_KEY", "--steam-app-id", "480", "--steam-api-base", server.baseURL.absoluteString]
    }

    /// An order's JSON, as `ledger steam start` and `POST /steam/orders` read it.
    static func order(_ orderID: Int, lines: String = #"{"itemID": 1001, "quantity": 2, "amount": 198, "description": "Pouch of Gems"}"#) -> String {
        #"{"orderID": "\#(orderID)", "steamID": "\#(steamID)", "language": "en", "currency": "USD", "lines": [\#(lines)]}"#
    }

    /// A new ledger with the Steam catalog, and the simulated Steam on a loopback port.
    struct Fixture {
        let scratch: ScratchDirectory
        let catalog, db: String
        let steam = SteamSimulator()
        let server: SimulatedAPIServer
        /// The options every Steam command takes.
        let common: [String]

        init() async throws {
            scratch = try ScratchDirectory()
            catalog = try SteamCommandTests.catalog(in: scratch)
            server = try SimulatedAPIServer(api: steam)
            db = scratch.path("ledger.sqlite")
            #expect(await ledger(["init", "--db", db]).code == 0)
            common = ["--db", db, "--catalog", catalog] + SteamCommandTests.options(server)
        }

        func run(_ words: [String], input: String = "") async -> LedgerRun {
            await ledger(words + common, input: input, environment: SteamCommandTests.environment)
        }
    }

    @Test func theCommandsSellAnOrderOnceRecoverACrashAndTakeBackARefund() async throws {
        let fixture = try await Fixture()
        let (steam, server, db) = (fixture.steam, fixture.server, fixture.db)
        let started = await fixture.run(["steam", "start"], input: Self.order(42))
        #expect(started.code == 0, "\(started.output) \(started.error)")
        #expect(try started.json()["outcome"] as? String == "started" && steam.status(of: 42) == .initialized)
        let early = await fixture.run(["steam", "authorize", "--order-id", "42"])
        let earlyOutcome = try early.json()["outcome"] as? String
        #expect(early.code == 3 && earlyOutcome == "refused", "FinalizeTxn before the player approved")
        #expect(steam.approve(42))
        let granted = await fixture.run(["steam", "authorize", "--order-id", "42"])
        #expect(granted.code == 0, "\(granted.output) \(granted.error)")
        #expect(((try granted.json()["fulfillments"] as? [[String: Any]])?.first?["outcome"] as? String) == "granted")
        #expect(try await balances(Self.steamID, db: db)["gems"] == 200)
        let again = await fixture.run(["steam", "submit", "--order-id", "42"])
        #expect(again.code == 0 && again.output.contains("alreadyFulfilled"))
        // A crash between FinalizeTxn and the grant: Steam charged order 43, the ledger never heard.
        #expect(await fixture.run(["steam", "start"], input: Self.order(43)).code == 0)
        #expect(steam.approve(43))
        let client = try #require(SteamWebAPIClient(key: "SIMULATEDSTEAMKEY", appID: 480, sandbox: true, baseURL: server.baseURL))
        _ = try await client.finalizeTxn(orderID: 43)
        let synced = await fixture.run(["steam", "sync"])
        #expect(synced.code == 0, "\(synced.output) \(synced.error)")
        #expect(try synced.json()["granted"] as? Int == 1)
        #expect(try await balances(Self.steamID, db: db)["gems"] == 400)
        #expect(steam.refund(42))
        let refunded = await fixture.run(["steam", "sync"])
        #expect(try refunded.json()["revocationsRecorded"] as? Int == 1, "\(refunded.output)")
        #expect(try await balances(Self.steamID, db: db)["gems"] == 200)
        // A two-item order: a partial refund takes back its item, a chargeback the rest.
        let twoItems = #"{"itemID": 1001, "quantity": 1, "amount": 99, "description": "Gems"}, {"itemID": 2001, "quantity": 1, "amount": 299, "description": "No ads"}"#
        #expect(await fixture.run(["steam", "start"], input: Self.order(45, lines: twoItems)).code == 0)
        #expect(steam.approve(45))
        #expect(await fixture.run(["steam", "authorize", "--order-id", "45"]).code == 0)
        #expect(try await balances(Self.steamID, db: db)["gems"] == 300)
        #expect(steam.refund(45, items: [2001]))
        let partial = await fixture.run(["steam", "sync"])
        #expect(try partial.json()["revocationsRecorded"] as? Int == 1, "\(partial.output)")
        let ads = await ledger(["entitlements", "--db", db, "--player", Self.steamID])
        #expect(!ads.output.contains("\"remove_ads\""), "\(ads.output)")
        #expect(steam.chargeBack(45))
        let chargeback = await fixture.run(["steam", "sync"])
        #expect(try chargeback.json()["revocationsRecorded"] as? Int == 1, "\(chargeback.output)")
        #expect(try await balances(Self.steamID, db: db)["gems"] == 200)
        // A declined order: recorded, nothing granted.
        #expect(await fixture.run(["steam", "start"], input: Self.order(44)).code == 0)
        #expect(steam.decline(44))
        let declined = await fixture.run(["steam", "authorize", "--order-id", "44", "--declined"])
        #expect(declined.code == 3 && declined.output.contains("cancelled"), "\(declined.output)")
        await server.stop()
    }

    @Test func badInputIsRefusedBeforeSteamIsAsked() async throws {
        let fixture = try await Fixture()
        let (steam, server, db, catalog, common) = (fixture.steam, fixture.server, fixture.db, fixture.catalog, fixture.common)
        let numberID = await ledger(
            ["steam", "start"] + common, input: Self.order(1).replacingOccurrences(of: #""orderID": "1""#, with: #""orderID": 1"#),
            environment: Self.environment)
        #expect(numberID.code == 65 && numberID.error.contains("orderID"), "\(numberID.error)")
        let typo = await ledger(
            ["steam", "start"] + common, input: Self.order(1).replacingOccurrences(of: "currency", with: "curency"),
            environment: Self.environment)
        #expect(typo.code == 65 && typo.error.contains("did you mean"), "\(typo.error)")
        let unmapped = await ledger(
            ["steam", "start"] + common, input: Self.order(1, lines: #"{"itemID": 999, "quantity": 1, "amount": 99, "description": "x"}"#),
            environment: Self.environment)
        #expect(unmapped.code != 0 && unmapped.error.contains("999"), "\(unmapped.error)")
        let badOrder = await ledger(["steam", "authorize", "--order-id", "042"] + common, environment: Self.environment)
        #expect(badOrder.code == 64)
        let noApp = await ledger(["steam", "sync", "--db", db, "--catalog", catalog, "--steam-api-key-env", "STEAM_KEY"], environment: Self.environment)
        #expect(noApp.code == 64 && noApp.error.contains("--steam-app-id"))
        let unset = await ledger(["steam", "sync"] + common)
        #expect(unset.code == 64 && unset.error.contains("STEAM_KEY"))
        #expect(steam.requests.isEmpty, "nothing reached Steam")
        await server.stop()
    }

    @Test func serveSellsThroughSteamAndSyncs() async throws {
        let scratch = try ScratchDirectory()
        let catalog = try Self.catalog(in: scratch)
        let steam = SteamSimulator()
        let server = try SimulatedAPIServer(api: steam)
        let order = try scratch.write(Self.order(77), to: "order.json")
        let db = scratch.path("ledger.sqlite")
        try await onOwnThread {
            let served = try ServeCommandTests.Served(
                db: db, environment: Self.environment, extra: Self.options(server) + ["--account-binding", "app-account-token"],
                catalog: catalog)
            let root = "http://127.0.0.1:\(served.port)"
            let post = ["-s", "-X", "POST", "-H", "Content-Type: application/json"]
            let started = try ServeCommandTests.tool("curl", post + ["--data-binary", "@\(order)", "\(root)/steam/orders"])
            #expect(started.contains(#""outcome":"started""#), "\(started)")
            #expect(steam.approve(77))
            let answer = try ServeCommandTests.tool(
                "curl", post + ["-w", "\n%{http_code}", "--data-binary", #"{"authorized": true}"#, "\(root)/steam/orders/77/authorization"])
            #expect(answer.hasSuffix("\n200") && answer.contains(#""outcome":"granted""#), "\(answer)")
            let sync = try ServeCommandTests.tool("curl", post + ["\(root)/steam/sync"])
            #expect(sync.contains(#""alreadyFulfilled":1"#), "\(sync)")
            let bad = try ServeCommandTests.tool(
                "curl", post + ["-w", "%{http_code}", "-o", "/dev/null", "--data-binary", #"{"authorized": "yes"}"#, "\(root)/steam/orders/77/authorization"])
            #expect(bad == "400", "\(bad)")
            #expect(served.terminate().status == 0)
        }
        await server.stop()
        #expect(try await balances(Self.steamID, db: db)["gems"] == 200, "the Steam binding stays the Steam ID under app-account-token")
    }

    @Test func catalogExplainAndDiffNameSteamItems() async throws {
        let scratch = try ScratchDirectory()
        let catalog = try Self.catalog(in: scratch)
        let explained = await ledger(["catalog", "explain", "--catalog", catalog, "gems_small"])
        #expect(explained.code == 0 && explained.output.contains("steam: 1001"), "\(explained.output)")
        let moved = try scratch.write(
            try String(contentsOfFile: catalog, encoding: .utf8)
                .replacingOccurrences(of: #""playStore": "gems_small", "steam": "1001","#, with: #""playStore": "gems_small","#)
                .replacingOccurrences(of: #""playStore": "gems_large","#, with: #""playStore": "gems_large", "steam": "1001","#),
            to: "Moved.json")
        let diff = await ledger(["catalog", "diff", catalog, moved])
        #expect(diff.output.contains("storeIDRemapped: steam/1001 moves from gems_small to gems_large"), "\(diff.output)")
        let bad = try scratch.write(
            try String(contentsOfFile: catalog, encoding: .utf8).replacingOccurrences(of: #""steam": "1001""#, with: #""steam": "01001""#),
            to: "Bad.json")
        let check = await ledger(["catalog", "check", bad])
        #expect(check.code == 65 && (check.output + check.error).contains("not a Steam item ID"), "\(check.output)")
    }
}
