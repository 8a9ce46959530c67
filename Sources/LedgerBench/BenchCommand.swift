import AppStoreAdapter
import Foundation
import FulfillmentLedger
import LedgerCommandLine
import SQLiteLedgerStore

/// `ledger-bench`: throughput of the disk, raw SQLite, the ledger (empty and pre-filled)
/// and App Store JWS verification, memory flatness, with the ratios the project targets.
package enum BenchCommand {
    static let command = Command(
        program: "ledger-bench", words: [],
        summary: "throughput benchmark: disk, raw SQLite, ledger fulfillment, JWS verification",
        description: """
            Run it from a release build: swift run -c release ledger-bench

            Measures, in operations per second:
              R0  the fsync ceiling: append 1 KiB then fdatasync, in a loop
              R1  raw SQLite (WAL, prepared statements): BEGIN IMMEDIATE,
                  insert a ledger row (pending its finish), upsert a balance, COMMIT
              R1L raw SQLite running the store's own statements of one R2 fulfillment, in the
                  library's order, on the ledger's schema (R2/R1L: what the library adds to its SQL)
              R2  ledger fulfillment of new transactions (SQLite store, no-op verifier and finisher)
              R3  duplicate deliveries of transactions already fulfilled
              R4  64 concurrent fulfillment callers, total throughput
              R5  App Store JWS verification, cold (new verifier each) and warm (cached chain)
              R6  R2 and R3 on a ledger pre-filled with P finished purchases: the library
                  creates the ledger, a bulk load with the store's statements fills it (hashed
                  transaction IDs, up to 1,000,000 players, events, balances).
                  Made once per run; each repeat adds N new purchases (R2) and redelivers N
                  random pre-filled ones (R3)
            R1 to R4 and R6 run at synchronous=FULL and NORMAL. R2 and R4 also run at FULL on
            the same disk made slower (every sync takes S microseconds more, through the
            fault VFS), where the sync rather than the CPU is the cost group commit shares.
            Every rate is the median of K interleaved repeats of N operations. Then prints
            R2/R1, R3/R2, R4/R2 (on this disk and the slower one) and R6 against an empty
            ledger (target: within 20%) with PASS or MISS, and group commit's requests per
            shared transaction in R4.

            On PostgreSQL (--postgres URL; each repeat in new scratch schemas, dropped after):
              P1  raw libpq: the statements one P2 fulfillment sends, recorded from the store
                  through its statement tap and replayed on bare connections (the same SQL,
                  prepared, and the same settings: SERIALIZABLE grants, the finish mark with
                  synchronous_commit off), on 1 connection and on the pool's 8 at once
              P2  ledger fulfillment of new transactions on PostgresLedgerStore
              P3  duplicate deliveries of transactions already fulfilled
              P4  64 concurrent fulfillment callers, total throughput
              P5  one child process fulfilling N one after another, then 4 at once (together)
            Then prints P2/P1 (target 0.7) and P5's 4 processes over one (target 2.5).

            Also:
              write counts: N sequential fulfillments at FULL on a fresh ledger, counted: WAL
                  frames written and pages read (SQLite's own counters), sync calls (through a
                  pass-through VFS), against the target of at most \(Int(BenchWriteCounts.framesPerFulfillmentTarget)) frames, with keys in
                  order (App Store IDs) and at random (Play tokens), and with every finish mark
                  committed alone for comparison; and, where valgrind is installed,
                  instructions per fulfillment, through the ledger and of its statements bare
                  (R1L's work), each from two callgrind runs of this executable (\(BenchInstructions.fulfillmentCount) and
                  \(2 * BenchInstructions.fulfillmentCount) fulfillments), in all and by object (SQLite, the Swift runtime, ...)
              memory flatness (--memory-count M): M sequential fulfillments at FULL on a new
                  ledger; resident memory after a 5% warm-up, at the end and its peak; growth
                  per million fulfillments against the target of less than 10 MB (Linux only)
              HTTP load run (--http-count H): H purchases from \(BenchHTTPLoad.clientCount) blocking HTTP/1.1
                  keep-alive clients, each on its own thread, through LedgerHTTPHandler on
                  LedgerHTTPServer at 127.0.0.1 (a fresh ledger at FULL); every \(BenchHTTPLoad.duplicateInterval)th purchase
                  is sent twice and must be answered alreadyFulfilled. The ledger is then read
                  back: one record and one grant per purchase, or the bench fails. Beside it,
                  the same count from \(BenchHTTPLoad.clientCount) in-process callers on another fresh ledger;
                  then every purchase again both ways (duplicates/s), and, when nginx is
                  installed, the same clients against nginx's fixed answer on loopback (the
                  ceiling: HTTP / nginx); otherwise that line says it was skipped
              R5 in Python: when python3 can import appstoreserverlibrary (PyPI package
                  app-store-server-library), \(BenchPython.scriptRelativePath) verifies the same
                  JWS and the report gives Swift/Python ratios; otherwise "not installed"

            Before writing anything the bench checks that DIR has room for the pre-fill and
            the memory run, and refuses with exit code 64 if it has not.

            exit codes: 0 measured, 1 a workload failed, 64 usage or not enough free space in DIR
            """,
        options: BenchOptions.options,
        run: { arguments, io in await run(arguments, io: io) })

    /// Runs `ledger-bench` with `arguments` (without the program name) and returns the exit code.
    package static func main(_ arguments: [String], io: CommandIO) async -> Int32 {
        await command.invoke(arguments, io: io).rawValue
    }

    /// The build configuration this binary was compiled in.
    static var buildConfiguration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let options: BenchOptions
        do throws(Arguments.UsageError) {
            options = try BenchOptions(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, program: "ledger-bench")
        }
        #if DEBUG
            io.printError("ledger-bench: WARNING: this is a debug build; figures are meaningless. Run: swift run -c release ledger-bench")
        #endif
        if let child = options.postgresChild, let url = options.postgresURL {
            return await BenchPostgresChild.run(
                options, serverURL: url, schemaName: child.schemaName, prefix: child.prefix, io: io)
        }
        let base = options.baseDirectory
        if base.standardizedFileURL.path.hasPrefix("/dev/shm") {
            io.printError("ledger-bench: WARNING: \(base.path) is in memory; R0, R1 and FULL figures will not reflect a disk")
        }
        let directory = base.appendingPathComponent("ledger-bench-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            io.printError("ledger-bench: cannot create \(directory.path): \(error.localizedDescription)")
            return .failure
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        if let refusal = spaceRefusal(options, availableBytes: BenchPrefilledLedger.availableBytes(at: directory)) {
            return LedgerCommandLine.usageError(refusal, io: io, program: "ledger-bench")
        }
        if let workload = options.instructionsChild {
            do {
                try await BenchInstructions.runChild(workload, count: options.count, directory: directory)
                return .ok
            } catch {
                io.printError("ledger-bench: \(error)")
                return .failure
            }
        }
        if options.countsOnly {
            do {
                let counts = try await BenchWriteCounts.measure(directory: directory, count: options.count)
                if options.json { io.printJSON(counts) } else { io.print(counts.textLines.joined(separator: "\n")) }
                return .ok
            } catch {
                io.printError("ledger-bench: \(error)")
                return .failure
            }
        }
        if options.postgresOnly, let url = options.postgresURL {
            do {
                let figures = try await BenchPostgres.measure(options, serverURL: url, directory: directory, io: io)
                if options.json { io.printJSON(figures) } else { io.print(figures.textLines.joined(separator: "\n")) }
                return .ok
            } catch {
                io.printError("ledger-bench: \(error)")
                return .failure
            }
        }
        let report: BenchReport
        do {
            report = try await measureAll(options, directory: directory, io: io)
        } catch {
            io.printError("ledger-bench: \(error)")
            return .failure
        }
        if options.json { io.printJSON(report) } else { io.print(report.text) }
        return .ok
    }

    /// Why a folder with `availableBytes` free (nil: unknown) cannot take this run's files, if it cannot.
    static func spaceRefusal(_ options: BenchOptions, availableBytes: Int64?) -> String? {
        let needed = BenchPrefilledLedger.bytesNeeded(prefillCount: options.prefillCount, memoryCount: options.memoryCount)
        guard let available = availableBytes else {
            return "cannot tell the free space in \(options.baseDirectory.path)"
        }
        guard available < needed else { return nil }
        let gigabytes = { (bytes: Int64) in String(format: "%.1f GB", Double(bytes) / 1e9) }
        return "--prefill \(options.prefillCount) and --memory-count \(options.memoryCount) need about \(gigabytes(needed))"
            + " free in \(options.baseDirectory.path), which has \(gigabytes(available)); use --dir on a larger disk"
            + " or a smaller --prefill"
    }

    /// Every part of the run, in order: the R6 pre-fill, the interleaved repeats, the HTTP load
    /// run, the memory run, then Python.
    static func measureAll(_ options: BenchOptions, directory: URL, io: CommandIO) async throws -> BenchReport {
        let interactive = isatty(STDERR_FILENO) == 1
        let signed = try BenchWorkloads.signedTransactions(count: options.count)
        var prefilled: BenchPrefilledLedger?
        if options.prefillCount > 0 {
            prefilled = try await BenchPrefilledLedger.make(
                directory: directory, prefillCount: options.prefillCount, io: io, interactive: interactive)
        }
        let samples = try await measure(
            options, directory: directory, signed: signed, prefilled: &prefilled, io: io)
        var http = BenchSection<BenchHTTPLoadFigures>.absent("skipped (--http-count 0)")
        if options.httpCount > 0 {
            http = .measured(try await BenchHTTPLoad.measure(count: options.httpCount, directory: directory))
        }
        var memory = BenchSection<BenchMemoryFlatness>.absent("skipped (--memory-count 0)")
        if options.memoryCount > 0 {
            let figures = try await BenchMemoryFlatness.measure(
                count: options.memoryCount, directory: directory, io: io, interactive: interactive)
            memory = figures.map { .measured($0) } ?? .absent("resident memory cannot be read on this platform")
        }
        var counts = try await BenchWriteCounts.measure(directory: directory, count: options.count)
        let instructions = await BenchInstructions.measure(directory: directory)
        counts.instructions = instructions.figures.map { .measured($0) } ?? .absent(instructions.reason)
        var postgres = BenchSection<BenchPostgresFigures>.absent("skipped (no --postgres URL)")
        if let url = options.postgresURL {
            postgres = .measured(try await BenchPostgres.measure(options, serverURL: url, directory: directory, io: io))
        }
        let python = await BenchPython.measure(
            jws: signed.jws, rootCertificateDER: signed.configuration.rootCertificates.first ?? [],
            bundleID: BenchWorkloads.bundleID, count: options.count, repeats: options.repeats, directory: directory)
        return BenchReport(
            build: buildConfiguration, count: options.count, repeats: options.repeats,
            directory: options.baseDirectory.path, samples: samples, syncLatencyMicroseconds: options.syncLatencyMicroseconds,
            r6: prefilled.map { .measured(BenchR6Figures($0)) } ?? .absent("skipped (--prefill 0)"), http: http, memory: memory,
            python: python, postgres: postgres, writeCounts: counts)
    }

    /// Runs every workload `repeats` times, interleaved (the order of FULL and NORMAL
    /// alternates between repeats), and returns each repeat's rate by key.
    static func measure(
        _ options: BenchOptions, directory: URL, signed: (jws: [String], configuration: AppStoreVerifierConfiguration),
        prefilled: inout BenchPrefilledLedger?, io: CommandIO
    ) async throws -> [String: [Double]] {
        let count = options.count
        let repeats = options.repeats
        var samples: [String: [Double]] = [:]
        let interactive = isatty(STDERR_FILENO) == 1
        var fileNumber = 0
        func nextPath(_ name: String) -> String {
            fileNumber += 1
            return directory.appendingPathComponent("\(name)-\(fileNumber)").path
        }
        for repeatIndex in 0..<repeats {
            if interactive { io.writeError("\rbench: repeat \(repeatIndex + 1)/\(repeats)") }
            samples["r0FsyncPerSecond", default: []].append(
                try BenchWorkloads.fsyncCeiling(path: nextPath("fsync"), count: count))
            let modes: [SQLiteLedgerStore.Synchronous] = repeatIndex % 2 == 0 ? [.full, .normal] : [.normal, .full]
            for mode in modes {
                let suffix = mode == .full ? "Full" : "Normal"
                samples["r1RawSQLite\(suffix)", default: []].append(
                    try RawSQLiteBaseline.run(path: nextPath("raw.sqlite"), synchronous: mode, count: count))
                samples["r1LedgerWork\(suffix)", default: []].append(
                    try await RawSQLiteLedgerWork.run(path: nextPath("raw-work.sqlite"), synchronous: mode, count: count))
                let sequentialLedger = try BenchWorkloads.ledger(path: nextPath("ledger.sqlite"), synchronous: mode)
                let sequential = try await BenchWorkloads.sequential(
                    ledger: sequentialLedger, submissions: BenchWorkloads.submissions(prefix: "seq", count: count))
                await sequentialLedger.store.close()
                samples["r2Fulfill\(suffix)", default: []].append(sequential.fresh)
                samples["r3Duplicate\(suffix)", default: []].append(sequential.duplicate)
                let concurrentLedger = try BenchWorkloads.ledger(path: nextPath("ledger.sqlite"), synchronous: mode)
                samples["r4Concurrent\(suffix)", default: []].append(
                    try await BenchWorkloads.concurrent(
                        ledger: concurrentLedger, submissions: BenchWorkloads.submissions(prefix: "con", count: count)))
                samples["r4RequestsPerTransaction\(suffix)", default: []].append(
                    BenchWorkloads.requestsPerTransaction(concurrentLedger))
                await concurrentLedger.store.close()
                if var ledger = prefilled {
                    let large = try await ledger.measure(synchronous: mode, count: count)
                    prefilled = ledger
                    samples["r6Fulfill\(suffix)", default: []].append(large.fresh)
                    samples["r6Duplicate\(suffix)", default: []].append(large.duplicate)
                }
            }
            if options.syncLatencyMicroseconds > 0 {
                let slow = try await measureSlowDisk(options, nextPath: nextPath)
                samples["r2SlowDiskFull", default: []].append(slow.sequential)
                samples["r4SlowDiskFull", default: []].append(slow.concurrent)
            }
            for cold in [true, false] {
                samples[cold ? "r5JWSCold" : "r5JWSWarm", default: []].append(
                    try BenchWorkloads.verifications(
                        jws: signed.jws, configuration: signed.configuration, count: count, cold: cold))
            }
        }
        if interactive { io.writeError("\n") }
        return samples
    }

    /// R2 and R4 at FULL on the same disk made slower: every sync takes
    /// `syncLatencyMicroseconds` more, through the fault VFS. Shows what group commit does
    /// where the sync, not the CPU, is the cost of a fulfillment.
    static func measureSlowDisk(_ options: BenchOptions, nextPath: (String) -> String) async throws -> (
        sequential: Double, concurrent: Double
    ) {
        let vfs = try BenchWorkloads.slowDisk.get()
        vfs.syncLatencyMicroseconds = options.syncLatencyMicroseconds
        let sequentialLedger = try BenchWorkloads.ledger(path: nextPath("slow.sqlite"), synchronous: .full, vfsName: vfs.name)
        let sequential = try await BenchWorkloads.fulfillments(
            ledger: sequentialLedger, submissions: BenchWorkloads.submissions(prefix: "slow", count: options.count),
            expecting: "granted")
        await sequentialLedger.store.close()
        let concurrentLedger = try BenchWorkloads.ledger(path: nextPath("slow.sqlite"), synchronous: .full, vfsName: vfs.name)
        let concurrent = try await BenchWorkloads.concurrent(
            ledger: concurrentLedger, submissions: BenchWorkloads.submissions(prefix: "slowcon", count: options.count))
        await concurrentLedger.store.close()
        return (sequential, concurrent)
    }
}
