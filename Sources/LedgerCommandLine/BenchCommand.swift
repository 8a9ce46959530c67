import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// `ledger bench`: throughput of the disk, raw SQLite, the ledger and App Store JWS
/// verification, with the ratios the project targets.
enum BenchCommand {
    /// Default transactions (or syncs, or verifications) per repeat of each workload.
    static let countDefault = 300
    /// Most operations per repeat.
    static let countMax = 1_000_000
    /// Default repeats per workload.
    static let repeatsDefault = 5
    /// Most repeats per workload.
    static let repeatsMax = 101

    static let command = Command(
        words: ["bench"],
        summary: "throughput benchmark: disk, raw SQLite, ledger fulfillment, JWS verification",
        help: """
            usage: ledger bench [--json] [--count N] [--repeats K] [--dir DIR]

            Run it from a release build: swift run -c release ledger bench

            Measures, in operations per second:
              R0  the fsync ceiling: append 1 KiB then fdatasync, in a loop
              R1  raw SQLite through the C API (WAL, prepared statements): BEGIN IMMEDIATE,
                  insert a ledger row, upsert a balance, insert an outbox row, COMMIT
              R2  ledger fulfillment of new transactions (SQLite store, no-op verifier and finisher)
              R3  duplicate deliveries of transactions already fulfilled
              R4  64 concurrent fulfillment callers, total throughput
              R5  App Store JWS verification, cold (new verifier each) and warm (cached chain)
            R1 to R4 run at synchronous=FULL and NORMAL. Every rate is the median of K
            interleaved repeats of N operations. Then prints R2/R1, R3/R2 and R4/R2 against
            the project's targets with PASS or MISS. R6 (a 10-million-row ledger) and memory
            flatness are not measured in this version.

            options:
              --count N     operations per repeat (default \(countDefault))
              --repeats K   repeats per workload, median reported (default \(repeatsDefault))
              --dir DIR     where the database and fsync files go (default: the temporary
                            folder; use a folder on the disk you care about, not /dev/shm)
              --json        one JSON object with every figure

            exit codes: 0 measured, 1 a workload failed, 64 usage
            """,
        valueOptions: ["count", "repeats", "dir"],
        flagOptions: ["json"],
        run: { arguments, io in await run(arguments, io: io) })

    /// The build configuration this binary was compiled in.
    static var buildConfiguration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let count: Int
        let repeats: Int
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            guard let parsedCount = Int(arguments.value("count") ?? String(countDefault)), (1...countMax).contains(parsedCount)
            else { throw Arguments.UsageError(message: "--count needs 1 to \(countMax)") }
            guard let parsedRepeats = Int(arguments.value("repeats") ?? String(repeatsDefault)),
                (1...repeatsMax).contains(parsedRepeats)
            else { throw Arguments.UsageError(message: "--repeats needs 1 to \(repeatsMax)") }
            (count, repeats) = (parsedCount, parsedRepeats)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "bench")
        }
        #if DEBUG
            io.printError("ledger bench: WARNING: this is a debug build; figures are meaningless. Run: swift run -c release ledger bench")
        #endif
        let base = URL(fileURLWithPath: arguments.value("dir") ?? FileManager.default.temporaryDirectory.path)
        if base.standardizedFileURL.path.hasPrefix("/dev/shm") {
            io.printError("ledger bench: WARNING: \(base.path) is in memory; R0, R1 and FULL figures will not reflect a disk")
        }
        let directory = base.appendingPathComponent("ledger-bench-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            io.printError("ledger bench: cannot create \(directory.path): \(error.localizedDescription)")
            return .failure
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples: [String: [Double]]
        do {
            samples = try await measure(count: count, repeats: repeats, directory: directory, io: io)
        } catch {
            io.printError("ledger bench: \(error)")
            return .failure
        }
        let report = BenchReport(
            build: buildConfiguration, count: count, repeats: repeats, directory: base.path, samples: samples)
        if arguments.flag("json") { io.printJSON(report) } else { io.print(report.text) }
        return .ok
    }

    /// Runs every workload `repeats` times, interleaved (the order of FULL and NORMAL
    /// alternates between repeats), and returns each repeat's rate by key.
    static func measure(count: Int, repeats: Int, directory: URL, io: CommandIO) async throws -> [String: [Double]] {
        var samples: [String: [Double]] = [:]
        let interactive = isatty(STDERR_FILENO) == 1
        var fileNumber = 0
        func nextPath(_ name: String) -> String {
            fileNumber += 1
            return directory.appendingPathComponent("\(name)-\(fileNumber)").path
        }
        let signed = try BenchWorkloads.signedTransactions(count: count)
        for repeatIndex in 0..<repeats {
            if interactive { io.writeError("\rbench: repeat \(repeatIndex + 1)/\(repeats)") }
            samples["r0FsyncPerSecond", default: []].append(
                try BenchWorkloads.fsyncCeiling(path: nextPath("fsync"), count: count))
            let modes: [SQLiteLedgerStore.Synchronous] = repeatIndex % 2 == 0 ? [.full, .normal] : [.normal, .full]
            for mode in modes {
                let suffix = mode == .full ? "Full" : "Normal"
                samples["r1RawSQLite\(suffix)", default: []].append(
                    try RawSQLiteBaseline.run(path: nextPath("raw.sqlite"), synchronous: mode, count: count))
                let sequential = try await BenchWorkloads.sequential(
                    ledger: try BenchWorkloads.ledger(path: nextPath("ledger.sqlite"), synchronous: mode),
                    submissions: BenchWorkloads.submissions(prefix: "seq", count: count))
                samples["r2Fulfill\(suffix)", default: []].append(sequential.fresh)
                samples["r3Duplicate\(suffix)", default: []].append(sequential.duplicate)
                samples["r4Concurrent\(suffix)", default: []].append(
                    try await BenchWorkloads.concurrent(
                        ledger: try BenchWorkloads.ledger(path: nextPath("ledger.sqlite"), synchronous: mode),
                        submissions: BenchWorkloads.submissions(prefix: "con", count: count)))
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
}
