import Foundation
import FulfillmentLedger
import LedgerCommandLine
import SQLiteLedgerStore
import Testing

@testable import LedgerBench

/// `ledger-bench`: a tiny run completes and reports every figure, the pre-fill writes rows
/// the library reads as its own, and bad options are refused. No timing assertions: the
/// machines that run tests are too noisy for them.
@Suite struct BenchCommandTests {
    /// Every rate the JSON report must carry.
    static let rateKeys = [
        "r0FsyncPerSecond", "r1RawSQLiteFull", "r1RawSQLiteNormal", "r2FulfillFull", "r2FulfillNormal",
        "r3DuplicateFull", "r3DuplicateNormal", "r4ConcurrentFull", "r4ConcurrentNormal", "r5JWSCold", "r5JWSWarm",
        "r1LedgerWorkFull", "r1LedgerWorkNormal", "r2SlowDiskFull", "r4SlowDiskFull",
    ]
    /// Rates only a run with a pre-fill carries.
    static let r6RateKeys = ["r6FulfillFull", "r6FulfillNormal", "r6DuplicateFull", "r6DuplicateNormal"]
    /// Every ratio the JSON report must carry.
    static let ratioKeys = ["r2OverR1Full", "r2OverR1Normal", "r3OverR2Full", "r4OverR2Full", "r4OverR2SlowDiskFull"]
    /// The ratios without targets that split R2/R1.
    static let breakdownKeys = ["r2OverR1LFull", "r2OverR1LNormal", "r1LOverR1Full", "r1LOverR1Normal"]
    /// Ratios only a run with a pre-fill carries.
    static let r6RatioKeys = ["r6R2OverR2Full", "r6R3OverR3Full", "r6R2OverR2Normal", "r6R3OverR3Normal"]

    /// The CI smoke run: every option small.
    @Test func smallRunReportsEveryFigure() async throws {
        let scratch = try ScratchDirectory()
        let run = await bench([
            "--count", "20", "--repeats", "1", "--prefill", "20000", "--memory-count", "2000", "--http-count", "64",
            "--json", "--dir", scratch.url.path,
        ])
        #expect(run.code == 0, "\(run.output)\(run.error)")
        let json = try run.json()
        let rates = try #require(json["rates"] as? [String: Double])
        for key in Self.rateKeys + Self.r6RateKeys {
            let rate = try #require(rates[key], "missing rate \(key)")
            #expect(rate > 0 && rate.isFinite, "\(key) = \(rate)")
        }
        let ratios = try #require(json["ratios"] as? [String: [String: Any]])
        for key in Self.ratioKeys + Self.r6RatioKeys {
            let ratio = try #require(ratios[key], "missing ratio \(key)")
            let value = try #require(ratio["value"] as? Double)
            #expect(value > 0 && value.isFinite, "\(key) = \(value)")
            #expect(ratio["target"] as? Double != nil)
            #expect(ratio["pass"] as? Bool != nil)
        }
        #expect((ratios["r6R2OverR2Full"]?["target"] as? Double) == 0.8)
        let breakdown = try #require(json["breakdown"] as? [String: Double])
        for key in Self.breakdownKeys {
            let value = try #require(breakdown[key], "missing breakdown \(key)")
            #expect(value > 0 && value.isFinite, "\(key) = \(value)")
        }
        let groupCommit = try #require(json["groupCommit"] as? [String: Double])
        for key in ["r4RequestsPerTransactionFull", "r4RequestsPerTransactionNormal"] {
            let value = try #require(groupCommit[key], "missing \(key)")
            // Every R4 fulfillment makes two requests; a transaction holds at least one.
            #expect(value >= 1, "\(key) = \(value)")
        }
        #expect(rates["r4RequestsPerTransactionFull"] == nil, "counts are not listed as rates")
        #expect(json["syncLatencyMicroseconds"] as? Int == BenchOptions.syncLatencyDefault)
        try checkR6(json["r6"], prefill: 20_000)
        try checkMemory(json["memory"], count: 2_000)
        try checkHTTP(json["http"], count: 64)
        try checkPython(json["python"])
        try checkWriteCounts(json["writeCounts"], count: 20)
        let notMeasured = try #require(json["notMeasured"] as? [String])
        #expect(!notMeasured.contains { $0.hasPrefix("R6") || $0.hasPrefix("memory") || $0.hasPrefix("HTTP") }, "\(notMeasured)")
        // The bench removes its own files.
        #expect(try scratch.fileNames().isEmpty)
    }

    private func checkR6(_ value: Any?, prefill: Int) throws {
        let r6 = try #require(value as? [String: Any], "r6 is not an object: \(String(describing: value))")
        #expect(r6["prefillTransactionCount"] as? Int == prefill)
        #expect(r6["eventRowCount"] as? Int == prefill, "one event per purchase; its finish is on its row")
        let players = try #require(r6["prefillPlayerCount"] as? Int)
        #expect(players >= 1 && players <= prefill)
        // Every player with a purchase has a balance; the product has no limit, so no counts.
        let balances = try #require(r6["balanceRowCount"] as? Int)
        #expect(balances >= 1 && balances <= players)
        #expect(try #require(r6["purchaseCountRowCount"] as? Int) == 0)
        let seconds = try #require(r6["prefillSeconds"] as? Double)
        let rowsPerSecond = try #require(r6["prefillRowsPerSecond"] as? Double)
        #expect(seconds > 0 && rowsPerSecond > 0)
        #expect(abs(rowsPerSecond * seconds - Double(prefill)) < 1, "rows/s and seconds disagree")
        // At least the ledger rows' own bytes: a transaction ID alone is 36.
        #expect(try #require(r6["fileBytes"] as? Int) > prefill * 100)
    }

    private func checkMemory(_ value: Any?, count: Int) throws {
        let memory = try #require(value as? [String: Any], "memory is not an object: \(String(describing: value))")
        #expect(memory["operationCount"] as? Int == count)
        #expect(memory["synchronous"] as? String == "FULL")
        let warmup = try #require(memory["warmupOperationCount"] as? Int)
        #expect(warmup >= 1 && warmup < count)
        let start = try #require(memory["startResidentBytes"] as? Int)
        let end = try #require(memory["endResidentBytes"] as? Int)
        let peak = try #require(memory["peakResidentBytes"] as? Int)
        // A process running Swift and SQLite is more than a megabyte and less than a terabyte.
        #expect(start > 1 << 20 && start < 1 << 40)
        #expect(peak >= end)
        #expect(memory["growthBytes"] as? Int == end - start)
        #expect(memory["peakGrowthBytes"] as? Int == peak - start)
        #expect(memory["targetGrowthBytes"] as? Int == 10_000_000)
        #expect(memory["pass"] as? Bool != nil)
        #expect(memory["tooShortToJudge"] as? Bool == true)
        let samples = try #require(memory["sampleResidentBytes"] as? [Int])
        #expect(!samples.isEmpty && samples.count <= BenchMemoryFlatness.sampleCountMax)
        #expect(samples.max() ?? 0 <= peak)
    }

    private func checkHTTP(_ value: Any?, count: Int) throws {
        let http = try #require(value as? [String: Any], "http is not an object: \(String(describing: value))")
        #expect(http["purchaseCount"] as? Int == count)
        #expect(http["duplicateCount"] as? Int == count / BenchHTTPLoad.duplicateInterval)
        #expect(http["requestCount"] as? Int == count + count / BenchHTTPLoad.duplicateInterval)
        #expect(http["clientCount"] as? Int == BenchHTTPLoad.clientCount)
        #expect(http["recordCount"] as? Int == count)
        #expect(http["gemsGranted"] as? Int == count * 100)
        #expect(http["exactlyOnce"] as? Bool == true)
        #expect(try #require(http["connectionCount"] as? Int) >= BenchHTTPLoad.clientCount)
        for key in [
            "seconds", "httpPurchasesPerSecond", "httpRequestsPerSecond", "inProcessPurchasesPerSecond", "httpOverInProcess",
            "httpDuplicatesPerSecond", "inProcessDuplicatesPerSecond", "httpDuplicatesOverInProcess",
        ] {
            let figure = try #require(http[key] as? Double, "missing http \(key)")
            #expect(figure > 0 && figure.isFinite, "\(key) = \(figure)")
        }
        // nginx's rate, or the reason it was skipped.
        let ceiling = try #require(http["loopbackCeilingRequestsPerSecond"])
        #expect((ceiling as? Double).map { $0 > 0 } ?? (ceiling as? String)?.contains("nginx") ?? false, "\(ceiling)")
    }

    /// Python figures when Apple's library is installed; otherwise the reason, never a failure.
    private func checkWriteCounts(_ value: Any?, count: Int) throws {
        let counts = try #require(value as? [String: Any], "writeCounts missing")
        #expect(counts["fulfillmentCount"] as? Int == count)
        let frames = try #require(counts["framesPerFulfillment"] as? Double)
        // Every fulfillment writes its ledger row, balance and event; the lean path stays near 9.
        #expect(frames >= 3 && frames <= 16, "frames per fulfillment \(frames)")
        let syncs = try #require(counts["syncsPerFulfillment"] as? Double)
        // At FULL one sync per grant commit, the deferred finish mark riding on the next.
        #expect(syncs >= 1 && syncs <= 3, "syncs per fulfillment \(syncs)")
        #expect(counts["pagesReadPerFulfillment"] as? Double != nil)
        for (name, carries) in [("randomKeys", true), ("marksAlone", false)] {
            let figures = try #require(counts[name] as? [String: Any], "\(name) missing")
            #expect(figures["carriesFinishMarks"] as? Bool == carries)
            let frames = try #require(figures["framesPerFulfillment"] as? Double)
            #expect(frames >= 3 && frames <= 16, "\(name): frames per fulfillment \(frames)")
        }
        // In-process there is no ledger-bench executable to run under callgrind: the reason stands
        // in for the figures (or valgrind is missing).
        let reason = try #require(counts["instructions"] as? String, "instructions: \(String(describing: counts["instructions"]))")
        #expect(reason.contains("callgrind") || reason.contains("valgrind"), "\(reason)")
    }

    private func checkPython(_ value: Any?) throws {
        if let reason = value as? String {
            #expect(reason.hasPrefix("not installed"), "python: \(reason)")
            return
        }
        let python = try #require(value as? [String: Any], "python is neither a reason nor figures")
        for key in ["coldPerSecond", "warmPerSecond", "swiftOverPythonCold", "swiftOverPythonWarm"] {
            let figure = try #require(python[key] as? Double, "missing python \(key)")
            #expect(figure > 0 && figure.isFinite, "\(key) = \(figure)")
        }
        #expect(python["library"] as? String == "app-store-server-library")
        #expect((python["coldSamples"] as? [Double])?.count == 1)
    }

    @Test func skippedPartsSayWhy() async throws {
        let scratch = try ScratchDirectory()
        let run = await bench([
            "--count", "5", "--repeats", "1", "--prefill", "0", "--sync-latency-microseconds", "0", "--http-count", "0",
            "--json", "--dir", scratch.url.path,
        ])
        #expect(run.code == 0, "\(run.output)\(run.error)")
        let json = try run.json()
        #expect(json["syncLatencyMicroseconds"] as? Int == 0)
        let slowRates = try #require(json["rates"] as? [String: Double])
        #expect(slowRates["r2SlowDiskFull"] == nil && slowRates["r4SlowDiskFull"] == nil)
        #expect(json["r6"] as? String == "skipped (--prefill 0)")
        #expect(json["memory"] as? String == "skipped (--memory-count 0)")
        #expect(json["http"] as? String == "skipped (--http-count 0)")
        let rates = try #require(json["rates"] as? [String: Double])
        #expect(Self.r6RateKeys.allSatisfy { rates[$0] == nil })
        let ratios = try #require(json["ratios"] as? [String: Any])
        #expect(Self.r6RatioKeys.allSatisfy { ratios[$0] == nil })
        let notMeasured = try #require(json["notMeasured"] as? [String])
        #expect(notMeasured.contains("R6: skipped (--prefill 0)"))
        #expect(notMeasured.contains("memory flatness: skipped (--memory-count 0)"))
        #expect(notMeasured.contains("HTTP load run: skipped (--http-count 0)"))
        let text = await bench([
            "--count", "5", "--repeats", "1", "--prefill", "0", "--http-count", "0", "--dir", scratch.url.path,
        ])
        #expect(text.code == 0)
        #expect(text.output.contains("R6 R2 on the pre-filled ledger, FULL") && text.output.contains("(not run)"))
    }

    static let badOptions: [[String]] = [
        ["--count", "0"], ["--repeats", "0"], ["--prefill", "-1"], ["--prefill", "ten"],
        ["--prefill", String(BenchOptions.prefillMax + 1)], ["--memory-count", "-5"],
        ["--memory-count", String(BenchOptions.memoryCountMax + 1)], ["--memory-count"], ["--dir", ""],
        ["--sync-latency-microseconds", "-1"], ["--sync-latency-microseconds", "1000001"], ["--http-count", "-1"],
        ["--http-count", String(BenchOptions.httpCountMax + 1)],
        ["--no-such-option"], ["extra-argument"], ["--instructions-child", "cpu"], ["--instructions-child"],
    ]

    @Test(arguments: badOptions) func rejectsABadOption(_ options: [String]) async {
        let run = await bench(options)
        #expect(run.code == 64, "\(options): \(run.error)")
        #expect(run.output.isEmpty)
        #expect(run.error.contains("ledger-bench"), "\(run.error)")
    }

    @Test func refusesAFolderWithoutRoom() throws {
        let arguments = try Arguments(
            ["--prefill", "10_000_000", "--memory-count", "1000000"], options: BenchOptions.options)
        let options = try BenchOptions(arguments)
        #expect(options.prefillCount == 10_000_000)
        let refusal = try #require(BenchCommand.spaceRefusal(options, availableBytes: 1_000_000_000))
        #expect(refusal.contains("--prefill 10000000") && refusal.contains("1.0 GB"), "\(refusal)")
        #expect(BenchCommand.spaceRefusal(options, availableBytes: 1 << 50) == nil)
        #expect(BenchCommand.spaceRefusal(options, availableBytes: nil) != nil)
    }

    /// Pre-filled rows are what the library itself writes: the library opens the file with a
    /// full integrity check, reads them back like its own, and treats them as fulfilled.
    @Test func prefilledRowsMatchTheLibrarys() async throws {
        let scratch = try ScratchDirectory()
        let prefill = 1_000
        let made = try await BenchPrefilledLedger.make(
            directory: scratch.url, prefillCount: prefill, io: CapturedIO().io, interactive: false)
        #expect(made.summary.transactionCount == prefill)
        var options = SQLiteLedgerStore.Options()
        options.openCheck = .full
        let store = try SQLiteLedgerStore(path: made.path, options: options)
        let ledger = try Ledger(
            catalog: try BenchWorkloads.catalog(), store: store, verifier: BenchVerifier(), finisher: BenchFinisher(),
            configuration: .sandbox)
        let players = made.playerCount
        let new = BenchWorkloads.prefillSubmission(index: prefill, playerCount: players)
        #expect(try await ledger.fulfill(new).name == "granted")
        let old = BenchWorkloads.prefillSubmission(index: 0, playerCount: players)
        #expect(try await ledger.fulfill(old).name == "alreadyFulfilled")

        let newKey = TransactionKey(store: new.store, transactionID: new.transactionID)
        let oldKey = TransactionKey(store: old.store, transactionID: old.transactionID)
        let (library, prefilled) = try await store.read { reader throws(LedgerError) in
            (try reader.transaction(newKey), try reader.transaction(oldKey))
        }
        let written = try #require(library)
        let loaded = try #require(prefilled)
        #expect(loaded.playerID == old.playerID)
        #expect(loaded.productID == written.productID && loaded.storeProductID == written.storeProductID)
        #expect(loaded.productKind == written.productKind && loaded.quantity == written.quantity)
        #expect(loaded.environment == written.environment && loaded.catalogVersion == written.catalogVersion)
        #expect(loaded.grants == written.grants)
        #expect(loaded.finishedAt != nil && written.finishedAt != nil)
        #expect(loaded.purchaseDate < loaded.fulfilledAt && loaded.fulfilledAt <= loaded.finishedAt ?? .distantPast)

        let (libraryEvents, loadedEvents) = try await store.read { reader throws(LedgerError) in
            (try reader.events(transaction: newKey, limit: 10), try reader.events(transaction: oldKey, limit: 10))
        }
        #expect(loadedEvents.map(\.kind) == libraryEvents.map(\.kind))
        #expect(loadedEvents.map(\.detail) == libraryEvents.map(\.detail))
        #expect(loadedEvents.map(\.kind) == [.purchaseGranted], "one event per fulfillment; the finish is on the record")

        // Counts and balances add up to the pre-filled purchases of the player.
        let number = LedgerPrefill.playerNumber(transactionIndex: 0, playerCount: players)
        let purchases = (0...prefill).filter { LedgerPrefill.playerNumber(transactionIndex: $0, playerCount: players) == number }
        let (lifetime, balances) = try await store.read { reader throws(LedgerError) in
            (
                try reader.purchaseCount(playerID: old.playerID, productID: BenchWorkloads.productID, period: "lifetime"),
                try reader.balances(playerID: old.playerID)
            )
        }
        // The product has no limit: neither the library nor the pre-fill counts its purchases.
        #expect(try BenchWorkloads.catalog().product(id: BenchWorkloads.productID)?.limit == nil)
        #expect(lifetime == 0 && made.summary.purchaseCountRowCount == 0)
        #expect(balances["gems"] == Int64(100 * purchases.count))
        await store.close()
    }

    @Test func prefillIdentifiersAreDistinctAndSpread() {
        let ids = (0..<20_000).map(LedgerPrefill.transactionID(index:))
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 36 && $0.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12] })
        // Not sequential: consecutive purchases land far apart in the key order.
        #expect(ids.indices.dropFirst().filter { ids[$0 - 1] < ids[$0] }.count < ids.count * 6 / 10)
        let players = Set((0..<20_000).map { LedgerPrefill.playerNumber(transactionIndex: $0, playerCount: 1_000) })
        #expect(players.count == 1_000)
        #expect(LedgerPrefill.playerID(number: 42) == "player-0000042")
    }

    @Test func residentMemoryIsReadOnLinux() {
        #if os(Linux)
            let bytes = BenchResidentMemory.currentBytes()
            #expect((bytes ?? 0) > 1 << 20)
        #else
            #expect(BenchResidentMemory.currentBytes() == nil)
        #endif
    }

    @Test func anAbsentSectionEncodesAsItsReason() throws {
        let data = try JSONEncoder().encode(["python": BenchSection<BenchPythonFigures>.absent("not installed")])
        #expect(String(decoding: data, as: UTF8.self) == #"{"python":"not installed"}"#)
    }
}
