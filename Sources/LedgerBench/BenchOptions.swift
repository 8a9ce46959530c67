import Foundation
import LedgerCommandLine
import SQLiteFaultVFS
import SQLiteLedgerStore

/// The command line of `ledger-bench`, checked.
struct BenchOptions {
    /// Default transactions (or syncs, or verifications) per repeat of each workload.
    static let countDefault = 300
    /// Most operations per repeat.
    static let countMax = 1_000_000
    /// Default repeats per workload.
    static let repeatsDefault = 5
    /// Most repeats per workload.
    static let repeatsMax = 101
    /// Default purchases pre-filled for R6: the ledger size the project targets.
    static let prefillDefault = 10_000_000
    /// Most purchases `--prefill` accepts (about 35 GB of database).
    static let prefillMax = 50_000_000
    /// Most fulfillments `--memory-count` accepts (about 2 hours at FULL on the development machine).
    static let memoryCountMax = 10_000_000

    /// Default purchases of the HTTP load run: issue #17's 10,000.
    static let httpCountDefault = 10_000
    /// Most purchases `--http-count` accepts.
    static let httpCountMax = 1_000_000

    /// Default extra latency of every sync in the slow-disk runs: 2 ms, a disk whose
    /// sync costs more than the ledger's CPU work, as on many cloud volumes.
    static let syncLatencyDefault = 2_000

    /// `--count N`.
    static let countOption = CommandOption.integer(
        "count", default: countDefault, range: 1...countMax, help: "operations per repeat")
    /// `--repeats K`.
    static let repeatsOption = CommandOption.integer(
        "repeats", "K", default: repeatsDefault, range: 1...repeatsMax, help: "repeats per workload, the median reported")
    /// `--dir DIR`.
    static let directoryOption = CommandOption(
        "dir", "DIR", default: "the temporary folder",
        help: "where the database and fsync files go; use a folder on the disk you care about, not /dev/shm")
    /// `--prefill P`.
    static let prefillOption = CommandOption.integer(
        "prefill", "P", default: prefillDefault, range: 0...prefillMax,
        help: "purchases pre-filled for R6 (0 skips R6); 10 million take about 8.5 GB and 15 minutes on the development machine")
    /// `--memory-count M`.
    static let memoryCountOption = CommandOption.integer(
        "memory-count", "M", default: 0, range: 0...memoryCountMax,
        help: "fulfillments of the memory run (0 skips it); 1 million take about 13 minutes")
    /// `--http-count H`.
    static let httpCountOption = CommandOption.integer(
        "http-count", "H", default: httpCountDefault, range: 0...httpCountMax, help: "purchases of the HTTP load run (0 skips it)")
    /// `--sync-latency-microseconds S`.
    static let syncLatencyOption = CommandOption.integer(
        "sync-latency-microseconds", "S", default: syncLatencyDefault, range: 0...SQLiteFaultVFS.syncLatencyMicrosecondsMax,
        help: "extra time of every sync on the slower disk (0 skips those runs)")
    /// `--postgres URL`.
    static let postgresOption = CommandOption(
        "postgres", "URL",
        help: "also measure on the PostgreSQL server at URL (a postgresql:// URI or key=value pairs; its database must allow CREATE SCHEMA)")
    /// `--postgres-only`.
    static let postgresOnlyOption = CommandOption.flag("postgres-only", help: "only the PostgreSQL part")
    /// `--json`.
    static let jsonOption = CommonOptions.json.helping("one JSON object with every figure")
    /// `--counts-only`.
    static let countsOnlyOption = CommandOption.flag(
        "counts-only", help: "only the write counts (frames, pages read, syncs), no timings")
    /// `--instructions-child W`, which the bench passes to a callgrind child of its own.
    static let instructionsChildOption = CommandOption("instructions-child", "W", help: "a callgrind child run", hidden: true)
    /// `--postgres-child-schema NAME`, which the bench passes to a P5 child of its own.
    static let postgresChildSchemaOption = CommandOption(
        "postgres-child-schema", "NAME", help: "a P5 child run's schema", hidden: true)
    /// `--postgres-child-prefix TEXT`, which the bench passes to a P5 child of its own.
    static let postgresChildPrefixOption = CommandOption(
        "postgres-child-prefix", "TEXT", help: "a P5 child run's purchase-ID prefix", hidden: true)
    /// Every option.
    static let options = [
        countOption, repeatsOption, directoryOption, prefillOption, memoryCountOption, httpCountOption, syncLatencyOption,
        postgresOption, postgresOnlyOption, jsonOption, countsOnlyOption, instructionsChildOption, postgresChildSchemaOption,
        postgresChildPrefixOption,
    ]

    /// Operations per repeat.
    var count = countDefault
    /// Repeats per workload.
    var repeats = repeatsDefault
    /// The folder the run's own folder is made in.
    var baseDirectory = URL(fileURLWithPath: FileManager.default.temporaryDirectory.path)
    /// Purchases pre-filled for R6; 0 skips R6.
    var prefillCount = prefillDefault
    /// Fulfillments of the memory-flatness run; 0 skips it.
    var memoryCount = 0
    /// Extra microseconds every sync takes in the slow-disk runs; 0 skips them.
    var syncLatencyMicroseconds = syncLatencyDefault
    /// Purchases of the HTTP load run; 0 skips it.
    var httpCount = httpCountDefault
    /// Whether to print one JSON object.
    var json = false
    /// Whether to run only the write counts.
    var countsOnly = false
    /// The workload of a callgrind child run (a hidden option the parent passes).
    var instructionsChild: BenchInstructions.Workload?
    /// The PostgreSQL server of the PostgreSQL part; nil skips it.
    var postgresURL: String?
    /// Whether to run only the PostgreSQL part.
    var postgresOnly = false
    /// The schema and purchase-ID prefix of a P5 child run (hidden options the parent passes).
    var postgresChild: (schemaName: String, prefix: String)?

    /// Reads and checks the options.
    init(_ arguments: Arguments) throws(Arguments.UsageError) {
        try arguments.expectPositionals(max: 0)
        count = try arguments.integer(Self.countOption)
        repeats = try arguments.integer(Self.repeatsOption)
        prefillCount = try arguments.integer(Self.prefillOption)
        memoryCount = try arguments.integer(Self.memoryCountOption)
        syncLatencyMicroseconds = try arguments.integer(Self.syncLatencyOption)
        httpCount = try arguments.integer(Self.httpCountOption)
        if let directory = arguments.value(Self.directoryOption) {
            guard !directory.isEmpty else { throw Arguments.UsageError(message: "--dir needs a folder") }
            baseDirectory = URL(fileURLWithPath: directory)
        }
        json = arguments.flag(Self.jsonOption)
        countsOnly = arguments.flag(Self.countsOnlyOption)
        if let workload = arguments.value(Self.instructionsChildOption) {
            guard let known = BenchInstructions.Workload(rawValue: workload) else {
                let names = BenchInstructions.Workload.allCases.map(\.rawValue).joined(separator: " or ")
                throw Arguments.UsageError(message: "--instructions-child needs \(names)")
            }
            instructionsChild = known
        }
        if let url = arguments.value(Self.postgresOption) {
            guard !url.isEmpty else { throw Arguments.UsageError(message: "--postgres needs a server's connection string") }
            postgresURL = url
        }
        postgresOnly = arguments.flag(Self.postgresOnlyOption)
        if postgresOnly && postgresURL == nil {
            throw Arguments.UsageError(message: "--postgres-only needs --postgres URL")
        }
        switch (arguments.value(Self.postgresChildSchemaOption), arguments.value(Self.postgresChildPrefixOption)) {
        case (nil, nil): break
        case (let schema?, let prefix?) where postgresURL != nil && !schema.isEmpty && !prefix.isEmpty:
            postgresChild = (schema, prefix)
        default:
            throw Arguments.UsageError(message: "a PostgreSQL child run needs --postgres, --postgres-child-schema and --postgres-child-prefix")
        }
    }
}
