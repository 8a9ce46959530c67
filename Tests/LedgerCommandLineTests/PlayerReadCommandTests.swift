import Foundation
import FulfillmentLedgerTesting
import Testing

/// The support reads `player`, `history --player`, `entitlements` and `subscriptions`: a
/// readable table by default, the JSON with `--json`, exit 3 for a player the ledger holds
/// nothing for, and exit 0 with empty sections for a known player with no purchases.
@Suite("support reads: text, --json and unknown players")
struct PlayerReadCommandTests {
    /// The four reads of `player` on `db`, as command lines.
    static func reads(_ player: String, db: String) -> [(name: String, arguments: [String])] {
        [
            ("player", ["player", player, "--db", db]),
            ("history", ["history", "--db", db, "--player", player]),
            ("entitlements", ["entitlements", "--db", db, "--player", player, "--catalog", repoCatalogPath]),
            ("subscriptions", ["subscriptions", "--db", db, "--player", player, "--catalog", repoCatalogPath]),
        ]
    }

    /// A ledger where p1 bought gems (finished) and Remove Ads (its finish failed once, so pending).
    static func makeLedger(in directory: ScratchDirectory) async throws -> String {
        let db = directory.path("ledger.sqlite")
        let gems = try await fulfill(["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"], db: db)
        try #require(gems.code == 0, "\(gems.output)\(gems.error)")
        let ads = try await fulfill(
            ["transactionID": "t2", "productID": "test.remove_ads", "playerID": "p1"], db: db,
            extra: ["--fault", "insideFinish=error"])
        try #require(ads.code == 0, "\(ads.output)\(ads.error)")
        return db
    }

    /// The line of `run`'s standard output that contains `text`.
    static func line(_ run: LedgerRun, containing text: String) -> String? {
        run.outputLines.first { $0.contains(text) }
    }

    @Test("player prints sections of aligned rows; a finished purchase shows as finished, a pending one as pending finish")
    func playerText() async throws {
        let directory = try ScratchDirectory()
        let db = try await Self.makeLedger(in: directory)
        let run = await ledger(["player", "p1", "--db", db])
        #expect(run.code == 0, "\(run.error)")
        #expect(run.outputLines.first == "player p1 (entitlement version 1)")
        for heading in ["balances:", "debts: none", "inventory: none", "entitlements:", "flags (newest first): none"] {
            #expect(run.outputLines.contains(heading), "\(heading) in \(run.output)")
        }
        #expect(Self.line(run, containing: "gems")?.hasSuffix("100") == true, "\(run.output)")
        #expect(Self.line(run, containing: "remove_ads ")?.contains("test/t2") == true, "\(run.output)")
        let header = try #require(Self.line(run, containing: "FULFILLED AT"))
        #expect(header.split(separator: " ", omittingEmptySubsequences: true) == ["FULFILLED", "AT", "KEY", "PRODUCT", "QUANTITY", "STATUS"])
        let finished = try #require(Self.line(run, containing: "  test/t1  "), "\(run.output)")
        #expect(finished.contains("gems_small") && finished.contains("finished 20"), "\(finished)")
        let pending = try #require(Self.line(run, containing: "  test/t2  "), "\(run.output)")
        #expect(pending.contains("pending finish (1 failed attempt(s), last error: ") && pending.contains("insideFinish"), "\(pending)")
        // Columns line up: every purchase row has its status where the header has STATUS.
        let status = try #require(header.range(of: "STATUS")).lowerBound.utf16Offset(in: header)
        for row in [finished, pending] {
            #expect(row.dropFirst(status).hasPrefix("finished") || row.dropFirst(status).hasPrefix("pending"), "\(row)")
        }
        #expect(Self.line(run, containing: "purchaseGranted")?.contains("#") == true, "events are listed: \(run.output)")
        #expect(!run.output.contains("{"), "no JSON without --json")
    }

    @Test("--json prints each read's JSON in its shape, and the history entries carry finishedAt")
    func jsonKeepsItsShape() async throws {
        let directory = try ScratchDirectory()
        let db = try await Self.makeLedger(in: directory)
        let shapes: [String: Set<String>] = [
            "player": ["playerID", "balances", "debts", "inventory", "entitlements", "entitlementVersion", "flags", "history", "events"],
            "history": ["events", "truncated"],
            "entitlements": ["playerID", "version", "entitlements", "owned", "adsAllowedWithConsent"],
            "subscriptions": ["playerID", "readAt", "subscriptions"],
        ]
        for (name, arguments) in Self.reads("p1", db: db) {
            let run = await ledger(arguments + ["--json"])
            #expect(run.code == 0, "\(name): \(run.error)")
            #expect(Set(try run.json().keys) == shapes[name]?.union(["formatVersion"]), "\(name): \(run.output)")
        }
        let history = try #require(try await playerSnapshot("p1", db: db)["history"] as? [[String: Any]])
        let finishedAt = Dictionary(
            uniqueKeysWithValues: history.compactMap { entry in
                ((entry["key"] as? [String: Any])?["transactionID"] as? String).map { ($0, entry["finishedAt"] as? String) }
            })
        #expect(finishedAt["t1"]??.hasPrefix("20") == true && finishedAt["t2"] == .some(nil), "\(history)")
    }

    @Test("every read of a player the ledger holds nothing for exits 3 with the message, and with --json the error body")
    func unknownPlayerExitsThree() async throws {
        let directory = try ScratchDirectory()
        let db = try await Self.makeLedger(in: directory)
        for (name, arguments) in Self.reads("p9", db: db) {
            let text = await ledger(arguments)
            #expect(text.code == 3, "\(name): \(text.output)\(text.error)")
            #expect(text.output.isEmpty, "\(name): \(text.output)")
            #expect(
                text.error.contains("ledger \(name): unknown player \"p9\": the ledger holds no purchase, event, balance"),
                "\(name): \(text.error)")
            let json = await ledger(arguments + ["--json"])
            #expect(json.code == 3, "\(name)")
            let error = try ErrorBodyShapeTests.expectOneShape(json.output, "\(name) --json for an unknown player")
            #expect(error["name"] as? String == "player.unknown" && error["code"] as? Int == 3004, "\(name)")
        }
    }

    @Test("a known player with no purchases (only a reset) exits 0 with empty sections")
    func knownPlayerWithoutPurchases() async throws {
        let directory = try ScratchDirectory()
        let db = try await Self.makeLedger(in: directory)
        #expect(await ledger(["reset", "p2", "--db", db]).code == 0)
        for (name, arguments) in Self.reads("p2", db: db) {
            let run = await ledger(arguments)
            #expect(run.code == 0, "\(name): \(run.output)\(run.error)")
        }
        let player = await ledger(["player", "p2", "--db", db])
        #expect(player.outputLines.contains("purchases (newest first, at most 200): none"), "\(player.output)")
        #expect(player.outputLines.contains("balances: none") && player.outputLines.contains("entitlements: none"))
        #expect(Self.line(player, containing: "playerReset") != nil, "\(player.output)")
        let snapshot = try await playerSnapshot("p2", db: db)
        #expect((snapshot["history"] as? [Any])?.isEmpty == true && (snapshot["events"] as? [Any])?.count == 1)
    }

    @Test("entitlements and subscriptions print one row per entitlement and a section per read")
    func entitlementsAndSubscriptionsText() async throws {
        let directory = try ScratchDirectory()
        let db = try await Self.makeLedger(in: directory)
        let entitlements = await ledger(Self.reads("p1", db: db)[2].arguments)
        #expect(entitlements.code == 0, "\(entitlements.error)")
        #expect(entitlements.outputLines.prefix(2) == ["player p1 (entitlement version 1)", "ads allowed with consent: no"])
        let owned = try #require(Self.line(entitlements, containing: "remove_ads"), "\(entitlements.output)")
        #expect(owned.contains(" owned ") && owned.hasSuffix("test/t2"), "\(owned)")
        #expect(Self.line(entitlements, containing: "vip_club")?.hasSuffix("notOwned") == true, "\(entitlements.output)")

        let subscriptions = await ledger(Self.reads("p1", db: db)[3].arguments + ["--at", "2030-01-01T00:00:00Z"])
        #expect(subscriptions.code == 0, "\(subscriptions.error)")
        #expect(subscriptions.outputLines == ["player p1, read at 2030-01-01T00:00:00Z", "subscriptions: none", ""])
    }
}
