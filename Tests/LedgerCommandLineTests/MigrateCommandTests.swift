import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerCommandLine
import PostgresLedgerStore
import PostgresLedgerStoreTesting
import SQLiteLedgerStore
import Testing

/// `ledger migrate`: a SQLite ledger made by this build moves to PostgreSQL with every row, and
/// every player reads the same afterwards.
@Suite(.enabled(if: PostgresScratchSchema.shouldRun, "no PostgreSQL test server (set LEDGER_TEST_POSTGRES_URL)"))
struct MigrateCommandTests {
    /// The purchases the source ledger holds, with the player each is for.
    static var purchases: [[String: Any]] {
        [
            ["transactionID": "m1", "productID": "test.gems_small", "playerID": "p1"],
            ["transactionID": "m2", "productID": "test.starter_bundle", "playerID": "p1"],
            ["transactionID": "m3", "productID": "test.remove_ads", "playerID": "p2"],
            ["transactionID": "m4", "productID": "test.gems_large", "playerID": "p3"],
            ["transactionID": "m5", "productID": "test.coins_pack", "playerID": "p2"],
            // Text that JSON must escape, and text outside ASCII, survive the copy (a control
            // character such as a tab is refused in an ID, so none is here).
            ["transactionID": "q\"uote\\back/slash é🎮", "productID": "test.gems_small", "playerID": "p\"4 ü"],
        ]
    }

    /// A ledger that uses every table: grants, a pending finish, a spend, refunds that leave a
    /// debt, a reset, a flag, a store notification and a sync cursor.
    static func makeSource(at path: String) async throws {
        for (index, purchase) in purchases.enumerated() {
            let faults = index == 3 ? ["--fault", "insideFinish=error"] : []
            try #require(try await fulfill(purchase, db: path, extra: faults).code == 0)
        }
        try await useLibrary(path)
        for (id, transaction) in [("r1", "m2"), ("r2", "m5")] {
            let refund: [String: Any] = [
                "eventID": id, "store": "test", "transactionID": transaction, "kind": "fullRefund",
                "eventDate": "2026-11-02T10:00:00Z",
            ]
            let run = try await RefundCommandTests.revoke(refund, db: path)
            try #require(run.code == 0, "\(run.output) \(run.error)")
        }
        try #require(await ledger(["reset", "p2", "--db", path]).code == 0)
    }

    /// What only the library writes: a spend, a flag, a store notification and a sync cursor.
    /// The ledger is closed on return, so the commands after it can open the file.
    static func useLibrary(_ path: String) async throws {
        let library = try await LedgerSetup.ledger(database: LedgerDatabase(path), catalogPath: repoCatalogPath)
        _ = try await library.apply(.spend(550, of: "gems", player: "p1", operationID: "spend-1"))
        try await library.flagPlayer("p3", PlayerFlag(flag: "suspicious", detail: "test", transaction: nil, at: Date()))
        _ = try await library.recordStoreNotification(
            StoreNotificationRecord(
                notificationID: "note-1", store: .test, type: "REFUND", transaction: TransactionKey(store: .test, transactionID: "m2"),
                receivedAt: Date(), outcome: "recorded"))
        try await library.saveSyncCursor(name: "voided", value: "12345")
        // A subscription period, its chain and its record, as the pipeline writes them.
        let now = Date()
        try await library.store.write { writer throws(LedgerError) in
            let chain = TransactionKey(store: .test, transactionID: "chain-1")
            try writer.insertTransaction(
                TransactionRecord(
                    key: TransactionKey(store: .test, transactionID: "period-1"), playerID: "p1", productID: "vip_monthly",
                    storeProductID: "test.vip_monthly", productKind: .autoRenewable, quantity: 1, environment: .sandbox,
                    purchaseDate: now, fulfilledAt: now, catalogVersion: "catalog", grants: [GrantLine(kind: .entitlement, id: "vip", quantity: 1)],
                    finishedAt: now))
            try writer.insertSubscriptionPeriod(
                SubscriptionPeriodRecord(
                    chain: chain, periodID: "period-1", startsAt: now, expiresAt: now.addingTimeInterval(86_400), grantedAt: now))
            try writer.upsertSubscription(
                SubscriptionRecord(
                    chain: chain, playerID: "p1", productID: "vip_monthly", storeProductID: "test.vip_monthly",
                    subscriptionGroup: "vip", state: .gracePeriod, expiresAt: now.addingTimeInterval(86_400),
                    gracePeriodExpiresAt: now.addingTimeInterval(2 * 86_400), willAutoRenew: true, entitlementIDs: ["vip"],
                    latestPeriodID: "period-1", periodCount: 1, stateSignedAt: now, updatedAt: now))
        }
        await library.store.close()
    }

    @Test("every row moves; every player, history and pending finish reads the same; old purchases replay as alreadyFulfilled")
    func migratesEverything() async throws {
        let directory = try ScratchDirectory()
        let file = directory.path("ledger.sqlite")
        try await Self.makeSource(at: file)
        let schema = try PostgresScratchSchema.create(prefix: "ledger_migrate")
        defer { try? schema.drop() }
        let url = schema.connectionString

        let run = await ledger(["migrate", "--from", file, "--to", url, "--json"])
        #expect(run.code == 0, "\(run.output) \(run.error)")
        let report = try run.json()
        #expect(report["outcome"] as? String == "copied")
        #expect(report["sourceBalanceChecksum"] as? String == report["targetBalanceChecksum"] as? String)
        let tables = try #require(report["tables"] as? [[String: Any]])
        #expect(tables.map { $0["name"] as? String } == LedgerSchemaDescription.tables.map(\.name))
        for table in tables { #expect(table["sourceRowCount"] as? Int == table["targetRowCount"] as? Int, "\(table)") }
        let nonEmpty = Set(tables.filter { ($0["sourceRowCount"] as? Int ?? 0) > 0 }.compactMap { $0["name"] as? String })
        #expect(nonEmpty.isSuperset(of: [
            "ledger_transactions", "balances", "inventory", "entitlements", "economy_operations", "events",
            "revocation_events", "refund_states", "player_flags", "players", "store_notifications", "sync_cursors",
            "subscriptions", "subscription_periods",
        ]), "\(nonEmpty)")
        let at = ["--player", "p1", "--at", "2030-01-01T00:00:00Z"]
        let subscriptionsBefore = await ledger(["subscriptions", "--db", file, "--json"] + at)
        let subscriptionsAfter = await ledger(["subscriptions", "--db", url, "--json"] + at)
        #expect(subscriptionsBefore.code == 0 && subscriptionsBefore.output.contains("chain-1"), "\(subscriptionsBefore.output)")
        #expect(subscriptionsBefore.output == subscriptionsAfter.output)

        for player in ["p1", "p2", "p3", "p\"4 ü"] {
            let before = await ledger(["player", player, "--db", file, "--json"])
            let after = await ledger(["player", player, "--db", url, "--json"])
            #expect(before.code == 0 && before.output == after.output, "\(player): \(before.output) vs \(after.output)")
            let historyBefore = await ledger(["history", "--db", file, "--player", player, "--json"])
            let historyAfter = await ledger(["history", "--db", url, "--player", player, "--json"])
            #expect(historyBefore.output == historyAfter.output, "\(player)")
        }
        let doctor = try await ledger(["doctor", "--db", url, "--json"]).json()
        #expect(doctor["pendingFinishCount"] as? Int == 1)

        for purchase in Self.purchases {
            let replay = try await fulfill(purchase, db: url)
            #expect(try replay.json()["outcome"] as? String == "alreadyFulfilled", "\(purchase)")
        }
        // New events continue the copied sequence rather than collide with it.
        let lastSequence = try #require(
            (try await ledger(["history", "--db", url, "--player", "p1", "--json"]).json()["events"] as? [[String: Any]])?
                .compactMap { $0["sequence"] as? Int }.max())
        #expect(try await fulfill(["transactionID": "m6", "productID": "test.gems_small", "playerID": "p1"], db: url).code == 0)
        let events = try #require(try await ledger(["history", "--db", url, "--transaction", "test/m6", "--json"]).json()["events"] as? [[String: Any]])
        #expect(events.compactMap { $0["sequence"] as? Int }.allSatisfy { $0 > lastSequence })
    }

    @Test("tables longer than one page (1,000 rows) copy whole and check row by row in key order")
    func copiesPastOnePage() async throws {
        let directory = try ScratchDirectory()
        let file = directory.path("ledger.sqlite")
        let store = try await SQLiteLedgerStore.open(path: file)
        // 2,500 balances and inventory rows: one player and many currencies, many players and
        // one item, so each key column decides a page's boundary somewhere.
        try await store.write(.durable) { writer throws(LedgerError) in
            for index in 0..<1_250 {
                _ = try writer.addToBalance(playerID: "p", currencyID: "c\(index)", delta: Int64(index))
                _ = try writer.addToBalance(playerID: "q\(index)", currencyID: "gems", delta: 1)
                _ = try writer.addToInventory(playerID: "p\(index % 7)", itemID: "i\(index)", delta: 2)
                _ = try writer.addToInventory(playerID: "r\(index)", itemID: "sword", delta: 3)
            }
        }
        await store.close()
        let schema = try PostgresScratchSchema.create(prefix: "ledger_migrate_pages")
        defer { try? schema.drop() }

        let source = try await SQLiteLedgerRowSource.open(path: file)
        defer { source.close() }
        let report = try await PostgresLedgerImport.run(source: source, connectionString: schema.connectionString)
        #expect(report.outcome == .copied, "\(report.problems)")
        let copied = Dictionary(report.tables.map { ($0.name, $0.targetRowCount) }, uniquingKeysWith: { first, _ in first })
        #expect(copied["balances"] == 2_500 && copied["inventory"] == 2_500, "\(copied)")
        #expect(report.sourceBalanceChecksum == report.targetBalanceChecksum)
    }

    @Test("a source holding a real or a blob, which the ledger never stores, is refused before any row is copied")
    func refusesUntypedSourceValues() async throws {
        for (table, change) in [
            ("balances", "UPDATE balances SET amount = 2.5 WHERE player_id = 'p1'"),
            ("ledger_transactions", "UPDATE ledger_transactions SET player_id = x'7031' WHERE transaction_id = 'm1'"),
        ] {
            let directory = try ScratchDirectory()
            let file = directory.path("ledger.sqlite")
            try await Self.makeSource(at: file)
            do {
                // Closed when it goes, before the command opens the file.
                let raw = try SQLiteConnection(path: file, mode: .readWrite)
                try raw.execute(change)
            }
            let schema = try PostgresScratchSchema.create(prefix: "ledger_migrate")
            defer { try? schema.drop() }
            let run = await ledger(["migrate", "--from", file, "--to", schema.connectionString, "--json"])
            #expect(run.code != 0, "\(run.output)")
            #expect(run.error.contains("\(table) holds a real or a blob value"), "\(run.error)")
            // Nothing was created in the target: a later init finds it empty and creates the ledger.
            let created = await ledger(["init", "--db", schema.connectionString])
            #expect(try created.json()["created"] as? Bool == true, "\(created.output)")
        }
    }

    @Test("a target that holds ledger rows is refused (73) and left as it was; the source is never changed")
    func refusesNonEmptyTarget() async throws {
        let directory = try ScratchDirectory()
        let file = directory.path("ledger.sqlite")
        try await Self.makeSource(at: file)
        let schema = try PostgresScratchSchema.create(prefix: "ledger_migrate")
        defer { try? schema.drop() }
        let url = schema.connectionString
        #expect(try await fulfill(["transactionID": "x1", "productID": "test.gems_small", "playerID": "other"], db: url).code == 0)
        let sourceBytes = try contents(file)

        let run = await ledger(["migrate", "--from", file, "--to", url, "--json"])
        #expect(run.code == 73, "\(run.output) \(run.error)")
        let report = try run.json()
        #expect(report["outcome"] as? String == "refusedTargetNotEmpty")
        #expect((report["problems"] as? [String])?.contains { $0.hasPrefix("ledger_transactions already holds 1 rows") } == true)
        #expect(try await ledger(["doctor", "--db", url, "--json"]).json()["transactionCount"] as? Int == 1)
        #expect(try await balances("p1", db: url).isEmpty)
        #expect(try contents(file) == sourceBytes)
    }

    @Test("a target that holds another application's tables is refused as not a ledger (65) and left as it was")
    func refusesAnotherApplicationsDatabase() async throws {
        let directory = try ScratchDirectory()
        let file = directory.path("ledger.sqlite")
        try await Self.makeSource(at: file)
        let schema = try PostgresScratchSchema.create(prefix: "ledger_migrate")
        defer { try? schema.drop() }
        try schema.execute("CREATE TABLE \"\(schema.name)\".orders (id bigint PRIMARY KEY, total numeric)")
        try schema.execute("INSERT INTO \"\(schema.name)\".orders VALUES (1, 9.99)")

        let run = await ledger(["migrate", "--from", file, "--to", schema.connectionString, "--json"])
        #expect(run.code == 65, "\(run.output) \(run.error)")
        #expect(run.output.contains("ledger.notALedger") || run.error.contains("ledger.notALedger"), "\(run.output) \(run.error)")
        // Nothing was created beside the other application's table.
        let serve = await ledger(["doctor", "--db", schema.connectionString, "--json"])
        #expect(serve.code == 1, "\(serve.output)")
        let opened = await ledger(["init", "--db", schema.connectionString])
        #expect(opened.code != 0, "ledger init refuses it too: \(opened.output)")
    }

    @Test("--from must be an existing SQLite file and --to a postgresql:// URL")
    func refusesWrongArguments() async throws {
        let directory = try ScratchDirectory()
        let missing = await ledger(["migrate", "--from", directory.path("none.sqlite"), "--to", "postgresql://127.0.0.1:1/x"])
        #expect(missing.code == 66, "\(missing.error)")
        #expect(try directory.fileNames().isEmpty)
        let wrongTarget = await ledger(["migrate", "--from", directory.path("a.sqlite"), "--to", directory.path("b.sqlite")])
        #expect(wrongTarget.code == 64 && wrongTarget.error.contains("--to takes a postgresql:// URL"))
        let wrongSource = await ledger(["migrate", "--from", "postgresql://127.0.0.1:1/x", "--to", "postgresql://127.0.0.1:1/y"])
        #expect(wrongSource.code == 64)
    }
}
