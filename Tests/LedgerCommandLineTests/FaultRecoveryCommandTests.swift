import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteLedgerStore
import Testing

/// `ledger fulfill --fault`, `recover` and `doctor` together: a failed grant retries exactly once, a failed finish is recovered.
@Suite("ledger fault injection and recovery")
struct FaultRecoveryCommandTests {
    /// The starter bundle has four reward lines, so every fault point in the grant is reached.
    static var bundle: [String: Any] { ["transactionID": "b1", "productID": "test.starter_bundle", "playerID": "p1"] }
    static let bundleBalances = ["gems": 500, "coins": 10_000]
    static let bundleInventory = ["frost_tower": 1, "revive_token": 3]

    @Test("--fault beforeCommit=error fails with exit 1 and grants nothing; the next plain run grants exactly once")
    func beforeCommitThenRetry() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        let purchase: [String: Any] = ["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"]

        let failed = try await fulfill(purchase, db: db, extra: ["--fault", "beforeCommit=error"])
        #expect(failed.code == 1)
        let error = try #require(try failed.json()["error"] as? [String: Any])
        #expect(error["code"] as? Int == 5001)
        #expect(error["name"] as? String == "fault.injected")
        #expect(failed.error.contains("beforeCommit"))
        #expect(try await grantedNothing("p1", db: db), "nothing was granted to p1")

        let retry = try await fulfill(purchase, db: db)
        #expect(retry.code == 0)
        #expect(try retry.json()["outcome"] as? String == "granted")
        let replay = try await fulfill(purchase, db: db)
        #expect(try replay.json()["outcome"] as? String == "alreadyFulfilled")
        #expect(try await balances("p1", db: db) == ["gems": 100])
        let history = try #require(try await playerSnapshot("p1", db: db)["history"] as? [[String: Any]])
        #expect(history.count == 1)
    }

    @Test(
        "a fault inside the grant transaction (or before it) rolls everything back; the retry grants once",
        arguments: FaultPoint.allCases.filter { $0.isInsideGrantTransaction || $0 == .afterVerify })
    func faultBeforeCommitRollsBack(point: FaultPoint) async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        let failed = try await fulfill(Self.bundle, db: db, extra: ["--fault", "\(point.rawValue)=error"])
        #expect(failed.code == 1, "\(failed.output)")
        #expect(try await grantedNothing("p1", db: db), "nothing was granted to p1")

        #expect(try await fulfill(Self.bundle, db: db).code == 0)
        #expect(try await fulfill(Self.bundle, db: db).code == 0)
        let snapshot = try await playerSnapshot("p1", db: db)
        #expect(snapshot["balances"] as? [String: Int] == Self.bundleBalances)
        #expect(snapshot["inventory"] as? [String: Int] == Self.bundleInventory)
    }

    @Test(
        "a fault after the commit keeps the grant with the finish pending; recover finishes it without granting again",
        arguments: [FaultPoint.afterCommit, .insideFinish, .afterFinish])
    func faultAfterCommitRecovers(point: FaultPoint) async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")

        let run = try await fulfill(Self.bundle, db: db, extra: ["--fault", "\(point.rawValue)=error"])
        #expect(run.code == 0, "\(run.error)")
        let object = try run.json()
        #expect(object["outcome"] as? String == "granted")
        #expect(object["finished"] as? Bool == false)
        #expect((object["finishError"] as? String)?.contains(point.rawValue) == true)
        #expect((object["granted"] as? [Any])?.count == 4)

        let doctor = await ledger(["doctor", "--db", db, "--json"])
        #expect(doctor.code == 0)
        let pending = try #require(try doctor.json()["pendingFinishes"] as? [[String: Any]])
        #expect(pending.count == 1)
        #expect((pending.first?["key"] as? [String: Any])?["transactionID"] as? String == "b1")
        #expect(pending.first?["playerID"] as? String == "p1")

        let recover = await ledger(["recover", "--db", db, "--catalog", repoCatalogPath])
        #expect(recover.code == 0, "\(recover.output)\(recover.error)")
        let report = try recover.json()
        #expect(report["finished"] as? [[String: String]] == [["store": "test", "transactionID": "b1"]])
        #expect(report["clean"] as? Bool == true)
        #expect((report["stillPending"] as? [Any])?.isEmpty == true)

        let after = await ledger(["doctor", "--db", db, "--json"])
        #expect((try after.json()["pendingFinishes"] as? [Any])?.isEmpty == true)
        #expect(try await balances("p1", db: db) == Self.bundleBalances)
        let replay = try await fulfill(Self.bundle, db: db)
        #expect(try replay.json()["outcome"] as? String == "alreadyFulfilled")
        #expect(try replay.json()["finished"] as? Bool == true)
        #expect(try await balances("p1", db: db) == Self.bundleBalances)
    }

    @Test("--fault insideFinish=error, then recover, then doctor: nothing left pending")
    func insideFinishThenRecover() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        let purchase: [String: Any] = ["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"]

        let run = try await fulfill(purchase, db: db, extra: ["--fault", "insideFinish=error"])
        #expect(run.code == 0)
        #expect(try run.json()["finished"] as? Bool == false)
        let before = try #require(try await ledger(["doctor", "--db", db, "--json"]).json()["pendingFinishes"] as? [[String: Any]])
        #expect(before.first?["attemptCount"] as? Int == 1)
        #expect((before.first?["lastError"] as? String)?.contains("insideFinish") == true)

        let recover = await ledger(["recover", "--db", db, "--catalog", repoCatalogPath])
        #expect(recover.code == 0)
        #expect((try recover.json()["finished"] as? [[String: String]])?.contains(["store": "test", "transactionID": "t1"]) == true)
        let doctor = await ledger(["doctor", "--db", db, "--json"])
        #expect(doctor.code == 0)
        let report = try doctor.json()
        #expect((report["pendingFinishes"] as? [Any])?.isEmpty == true)
        #expect(report["healthy"] as? Bool == true)
        #expect(report["transactionCount"] as? Int == 1)
        #expect(try await balances("p1", db: db) == ["gems": 100])

        // Nothing left to do: a second recover finishes nothing and is clean.
        let second = await ledger(["recover", "--db", db, "--catalog", repoCatalogPath])
        #expect(second.code == 0)
        #expect((try second.json()["finished"] as? [Any])?.isEmpty == true)
    }

    @Test("a fault armed twice on one run fails only that run; the ledger stays usable")
    func repeatedFaultOptions() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        let run = try await fulfill(
            Self.bundle, db: db, extra: ["--fault", "afterCommit=error", "--fault", "beforeGrant=error"])
        #expect(run.code == 1)
        #expect(try await balances("p1", db: db).isEmpty)
        #expect(try await fulfill(Self.bundle, db: db).code == 0)
        #expect(try await balances("p1", db: db) == Self.bundleBalances)
    }
}

/// No production path fakes a store: `ledger recover` finishes a Google Play purchase only
/// through the Play options, and without them leaves it pending, names the flags, exits 1.
@Suite struct RecoverStoreRoutingTests {
    /// A ledger whose only record is a pending finish labelled as Google Play: the state the Play
    /// adapter leaves when `consume` fails.
    static func pendingPlayFinish(db: String) async throws {
        let purchase: [String: Any] = ["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"]
        let run = try await fulfill(purchase, db: db, extra: ["--fault", "afterCommit=error"])
        try #require(run.code == 0 && (try run.json()["finished"] as? Bool) == false)
        // The connection closes when it goes out of scope, before the command opens the file.
        try {
            let connection = try SQLiteConnection(path: db, mode: .readWrite)
            try connection.execute("PRAGMA foreign_keys = OFF")
            try connection.execute("UPDATE ledger_transactions SET store = 'playStore' WHERE transaction_id = 't1'")
            // The record is its own pending finish: relabelling it relabels the finish.
        }()
    }

    @Test func withoutPlayOptionsThePlayFinishStaysPendingAndExits1() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        try await Self.pendingPlayFinish(db: db)
        let recover = await ledger(["recover", "--db", db, "--catalog", repoCatalogPath])
        #expect(recover.code == 1, "\(recover.output)\(recover.error)")
        let report = try recover.json()
        #expect(report["clean"] as? Bool == false)
        #expect((report["finished"] as? [Any])?.isEmpty == true)
        let pending = try #require(report["stillPending"] as? [[String: String]])
        #expect(pending.first?["store"] == "playStore" && pending.first?["transactionID"] == "t1")
        #expect(pending.first?["error"]?.contains("--service-account") == true)
        #expect(recover.error.contains("--purchases FILE"))
        let doctor = await ledger(["doctor", "--db", db, "--json"])
        #expect((try doctor.json()["pendingFinishes"] as? [Any])?.count == 1, "never marked finished")
    }

    @Test func withAPurchasesFileThePlayFinishIsConsumedThroughItThenMarked() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        try await Self.pendingPlayFinish(db: db)
        let purchases = try scratch.write(
            #"{"purchases": {"t1": {"purchaseState": 0, "consumptionState": 0, "acknowledgementState": 0, "quantity": 1}}}"#,
            to: "purchases.json")
        let recover = await ledger([
            "recover", "--db", db, "--catalog", repoCatalogPath, "--package", "com.kibblestreet.td", "--purchases", purchases,
        ])
        #expect(recover.code == 0, "\(recover.output)\(recover.error)")
        #expect(try recover.json()["finished"] as? [[String: String]] == [["store": "playStore", "transactionID": "t1"]])
        let doctor = await ledger(["doctor", "--db", db, "--json"])
        #expect((try doctor.json()["pendingFinishes"] as? [Any])?.isEmpty == true)
        // A token the file does not know is refused by the API and stays pending.
        let unknown = try scratch.write(#"{"purchases": {}}"#, to: "empty.json")
        try await Self.pendingPlayFinish(db: scratch.path("second.sqlite"))
        let refused = await ledger([
            "recover", "--db", scratch.path("second.sqlite"), "--catalog", repoCatalogPath, "--package", "p",
            "--purchases", unknown,
        ])
        #expect(refused.code == 1)
    }

    @Test func aProductionLedgerWiresNoTestStore() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        let purchase: [String: Any] = ["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"]
        _ = try await fulfill(purchase, db: db, extra: ["--fault", "afterCommit=error"])
        let recover = await ledger(["recover", "--db", db, "--catalog", repoCatalogPath, "--environment", "production"])
        #expect(recover.code == 1, "a test-store finish has no port on a production ledger")
        #expect(recover.error.contains("no test finish port") || recover.output.contains("no finisher is configured"))
    }
}
