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

    /// The options that take a value.
    static let valueOptionNames: Set<String> = [
        "count", "repeats", "dir", "prefill", "memory-count", "sync-latency-microseconds", "http-count", "postgres",
        "postgres-child-schema", "postgres-child-prefix", "instructions-child",
    ]
    /// The flags.
    static let flagOptionNames: Set<String> = ["json", "counts-only", "postgres-only"]

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
        count = try Self.integer(arguments, "count", default: Self.countDefault, range: 1...Self.countMax)
        repeats = try Self.integer(arguments, "repeats", default: Self.repeatsDefault, range: 1...Self.repeatsMax)
        prefillCount = try Self.integer(arguments, "prefill", default: Self.prefillDefault, range: 0...Self.prefillMax)
        memoryCount = try Self.integer(arguments, "memory-count", default: 0, range: 0...Self.memoryCountMax)
        syncLatencyMicroseconds = try Self.integer(
            arguments, "sync-latency-microseconds", default: Self.syncLatencyDefault,
            range: 0...SQLiteFaultVFS.syncLatencyMicrosecondsMax)
        httpCount = try Self.integer(arguments, "http-count", default: Self.httpCountDefault, range: 0...Self.httpCountMax)
        if let directory = arguments.value("dir") {
            guard !directory.isEmpty else { throw Arguments.UsageError(message: "--dir needs a folder") }
            baseDirectory = URL(fileURLWithPath: directory)
        }
        json = arguments.flag("json")
        countsOnly = arguments.flag("counts-only")
        if let workload = arguments.value("instructions-child") {
            guard let known = BenchInstructions.Workload(rawValue: workload) else {
                let names = BenchInstructions.Workload.allCases.map(\.rawValue).joined(separator: " or ")
                throw Arguments.UsageError(message: "--instructions-child needs \(names)")
            }
            instructionsChild = known
        }
        if let url = arguments.value("postgres") {
            guard !url.isEmpty else { throw Arguments.UsageError(message: "--postgres needs a server's connection string") }
            postgresURL = url
        }
        postgresOnly = arguments.flag("postgres-only")
        if postgresOnly && postgresURL == nil {
            throw Arguments.UsageError(message: "--postgres-only needs --postgres URL")
        }
        switch (arguments.value("postgres-child-schema"), arguments.value("postgres-child-prefix")) {
        case (nil, nil): break
        case (let schema?, let prefix?) where postgresURL != nil && !schema.isEmpty && !prefix.isEmpty:
            postgresChild = (schema, prefix)
        default:
            throw Arguments.UsageError(message: "a PostgreSQL child run needs --postgres, --postgres-child-schema and --postgres-child-prefix")
        }
    }

    /// A whole number option in `range`; underscores may group digits (`10_000_000`).
    private static func integer(
        _ arguments: Arguments, _ name: String, default defaultValue: Int, range: ClosedRange<Int>
    ) throws(Arguments.UsageError) -> Int {
        guard let text = arguments.value(name) else { return defaultValue }
        let digits = text.filter { $0 != "_" }
        guard let value = Int(digits), range.contains(value) else {
            throw Arguments.UsageError(message: "--\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
