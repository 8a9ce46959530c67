import Foundation
import FulfillmentLedgerTesting
import Testing

/// `ledger fulfill`: one transaction from stdin, granted exactly once, rejected with a stable reason, or refused as input.
@Suite("ledger fulfill")
struct FulfillCommandTests {
    static var purchase: [String: Any] { ["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"] }

    /// `purchase` with some fields replaced.
    static func purchase(_ changes: [String: Any]) -> [String: Any] { purchase.merging(changes) { $1 } }

    /// `purchase` with the fields of a JSON object replaced.
    static func purchase(json changes: String) throws -> [String: Any] {
        purchase(try #require(try JSONSerialization.jsonObject(with: Data(changes.utf8)) as? [String: Any]))
    }

    @Test("a first delivery grants and finishes; a second is alreadyFulfilled and grants nothing")
    func grantThenDuplicate() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")

        let first = try await fulfill(Self.purchase, db: db)
        #expect(first.code == 0, "\(first.error)")
        let granted = try first.json()
        #expect(granted["outcome"] as? String == "granted")
        #expect(granted["transactionID"] as? String == "t1")
        #expect(granted["productID"] as? String == "test.gems_small")
        #expect(granted["playerID"] as? String == "p1")
        #expect(granted["finished"] as? Bool == true)
        let lines = try #require(granted["granted"] as? [[String: Any]])
        #expect(lines.count == 1)
        #expect(lines.first?["kind"] as? String == "currency")
        #expect(lines.first?["id"] as? String == "gems")
        #expect(lines.first?["quantity"] as? Int == 100)
        let record = try #require(granted["record"] as? [String: Any])
        #expect(record["productID"] as? String == "gems_small")
        #expect(record["finishedAt"] != nil)
        #expect(granted["reason"] == nil)

        let second = try await fulfill(Self.purchase, db: db)
        #expect(second.code == 0)
        let again = try second.json()
        #expect(again["outcome"] as? String == "alreadyFulfilled")
        #expect((again["granted"] as? [Any])?.isEmpty == true)
        #expect(again["finished"] as? Bool == true)
        #expect(try await balances("p1", db: db) == ["gems": 100])
    }

    /// A replay of `t1` that disagrees with the ledger, and the reason it must be rejected for.
    static let conflicts: [(changes: [String: String], reason: String, code: Int)] = [
        (["productID": "test.gems_large"], "conflictProduct", 201),
        (["playerID": "p2"], "ownedByAnotherPlayer", 202),
    ]

    @Test("the same transaction ID with another product or player is rejected with exit 3", arguments: conflicts)
    func conflictingReplay(conflict: (changes: [String: String], reason: String, code: Int)) async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        #expect(try await fulfill(Self.purchase, db: db).code == 0)

        let run = try await fulfill(Self.purchase(conflict.changes), db: db)
        #expect(run.code == 3)
        let object = try run.json()
        #expect(object["outcome"] as? String == "rejected")
        #expect(object["reason"] as? String == conflict.reason)
        #expect(object["reasonCode"] as? Int == conflict.code)
        #expect((object["message"] as? String)?.isEmpty == false)
        #expect(object["granted"] == nil, "a rejection grants nothing and carries no receipt")
        #expect(try await balances("p1", db: db) == ["gems": 100])
        #expect(try await balances("p2", db: db).isEmpty)
    }

    /// Documents the ledger must reject: what differs from `purchase` (as JSON), and the reason.
    static let rejections: [(name: String, changes: String, reason: String)] = [
        ("pending payment", #"{"state": "pending"}"#, "pending"),
        ("cancelled payment", #"{"state": "cancelled"}"#, "cancelled"),
        ("bad signature", #"{"verified": false}"#, "unverified"),
        ("revoked", #"{"revocationDate": "2026-11-29T12:00:00Z"}"#, "revoked"),
        ("production environment", #"{"environment": "production"}"#, "unverified"),
        ("another store", #"{"store": "appStore"}"#, "unverified"),
        ("unknown environment", #"{"environment": "staging"}"#, "wrongEnvironment"),
        ("unknown product", #"{"productID": "test.not_in_catalog"}"#, "unknownProduct"),
        ("catalog ID instead of store ID", #"{"productID": "gems_small"}"#, "unknownProduct"),
        ("zero quantity", #"{"quantity": 0}"#, "invalidQuantity"),
        ("non-consumable bought twice at once", #"{"productID": "test.remove_ads", "quantity": 2}"#, "invalidQuantity"),
    ]

    @Test("a transaction that must not grant is rejected with exit 3, its reason, and no change", arguments: rejections)
    func rejected(rejection: (name: String, changes: String, reason: String)) async throws {
        let (name, changes, reason) = rejection
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        let run = try await fulfill(try Self.purchase(json: changes), db: db)
        #expect(run.code == 3, "\(name): \(run.output)\(run.error)")
        let object = try run.json()
        #expect(object["outcome"] as? String == "rejected", "\(name)")
        #expect(object["reason"] as? String == reason, "\(name)")
        #expect(object["reasonCode"] is Int, "\(name)")
        #expect(object["finished"] == nil, "\(name)")
        #expect(object["record"] == nil, "\(name)")
        #expect(try await grantedNothing("p1", db: db), "\(name): nothing was granted to p1")
    }

    @Test("a pending payment grants once it is approved, with the same transaction ID")
    func pendingThenApproved() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        #expect(try await fulfill(Self.purchase(["state": "pending"]), db: db).code == 3)
        let approved = try await fulfill(Self.purchase(["state": "purchased"]), db: db)
        #expect(approved.code == 0)
        #expect(try approved.json()["outcome"] as? String == "granted")
        #expect(try await balances("p1", db: db) == ["gems": 100])
    }

    @Test(
        "stdin that is not a transaction object exits 65 and creates no ledger",
        arguments: [
            "", "not json", "[]", "{\"transactionID\":\"t1\",\"productID\":\"test.gems_small\",\"playerID\":\"p1\"",
            "{\"transactionID\":\"t1\",\"productID\":\"test.gems_small\"}", "{\"transactionID\":1,\"productID\":\"x\",\"playerID\":\"p1\"}",
            "{\"transactionID\":\"t1\",\"productID\":\"test.gems_small\",\"playerID\":\"p1\",\"purchaseDate\":\"yesterday\"}",
        ])
    func badInput(input: String) async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        let run = await ledger(["fulfill", "--db", db, "--catalog", repoCatalogPath], input: input)
        #expect(run.code == 65)
        #expect(run.error.contains("stdin is not a transaction object"), "\(run.error)")
        #expect(try directory.fileNames().isEmpty)
    }

    @Test("stdin above 64 KiB is refused with exit 65")
    func oversizedInput() async throws {
        let directory = try ScratchDirectory()
        let padding = String(repeating: " ", count: 64 * 1024)
        let input = "{\"transactionID\":\"t1\",\"productID\":\"test.gems_small\",\"playerID\":\"p1\"}" + padding
        let run = await ledger(["fulfill", "--db", directory.path("ledger.sqlite"), "--catalog", repoCatalogPath], input: input)
        #expect(run.code == 65)
        #expect(run.error.contains("larger than"))
    }

    @Test(
        "a wrong command line exits 64 before reading stdin",
        arguments: [
            ["--catalog", "CATALOG"], ["--db", "DB"], ["--db", "DB", "--catalog", "CATALOG", "extra"],
            ["--db", "DB", "--catalog", "CATALOG", "--fault", "nowhere=error"],
            ["--db", "DB", "--catalog", "CATALOG", "--fault", "beforeCommit=explode"],
            ["--db", "DB", "--catalog", "CATALOG", "--fault", "beforeCommit"],
            ["--db", "DB", "--catalog", "CATALOG", "--verbose"], ["--db"],
        ])
    func usageErrors(arguments: [String]) async throws {
        let directory = try ScratchDirectory()
        let resolved = arguments.map { argument in
            argument == "DB" ? directory.path("ledger.sqlite") : argument == "CATALOG" ? repoCatalogPath : argument
        }
        let run = await ledger(["fulfill"] + resolved, input: "{\"transactionID\":\"t1\"")
        #expect(run.code == 64, "\(run.error)")
        #expect(run.output.isEmpty)
        #expect(run.error.contains("--help"))
        #expect(try directory.fileNames().isEmpty)
    }

    @Test("a missing catalog exits 66")
    func missingCatalog() async throws {
        let directory = try ScratchDirectory()
        let data = try JSONSerialization.data(withJSONObject: Self.purchase)
        let run = await ledger(
            ["fulfill", "--db", directory.path("ledger.sqlite"), "--catalog", directory.path("absent.json")],
            input: String(decoding: data, as: UTF8.self))
        #expect(run.code == 66)
        #expect(try run.json()["error"] != nil)
    }

    @Test("a database path SQLite would not keep on disk is refused with exit 1", arguments: ["", ":memory:"])
    func nonFileDatabase(db: String) async throws {
        let run = try await fulfill(Self.purchase, db: db)
        #expect(run.code == 1)
        let error = try #require(try run.json()["error"] as? [String: Any])
        #expect(error["name"] as? String == "config.invalid")
        #expect((error["message"] as? String)?.contains("WAL is required") == true)
    }

    @Test("a ledger file that is not a ledger is refused with exit 1 and left untouched")
    func garbageDatabase() async throws {
        let directory = try ScratchDirectory()
        let db = try directory.write(String(repeating: "not a database ", count: 300), to: "ledger.sqlite")
        let before = try contents(db)
        let run = try await fulfill(Self.purchase, db: db)
        #expect(run.code == 1)
        let error = try #require(try run.json()["error"] as? [String: Any])
        #expect(error["name"] as? String == "ledger.notALedger")
        #expect(try contents(db) == before)
        #expect(try directory.fileNames() == ["ledger.sqlite"])
    }
}
