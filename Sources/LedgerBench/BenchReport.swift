import Foundation

/// What `ledger-bench` measured: median rates, every sample, the ratios against the
/// project's targets, R6's pre-fill, memory flatness and the Python comparison. Encoded
/// as the `--json` output.
struct BenchReport: Encodable {
    /// One ratio with its target.
    struct Ratio: Encodable {
        /// What it compares, such as `R2/R1 at FULL`.
        var name: String
        /// The measured ratio.
        var value: Double
        /// The smallest ratio the project targets.
        var target: Double
        /// Whether `value` reaches `target`.
        var pass: Bool
    }

    /// Rate keys, in the order the text output lists them, with their labels.
    static let rateLabels: [(key: String, label: String)] = [
        ("r0FsyncPerSecond", "R0 fsync ceiling (1 KiB append + fdatasync)"),
        ("r1RawSQLiteFull", "R1 raw SQLite grant transaction, FULL"),
        ("r1RawSQLiteNormal", "R1 raw SQLite grant transaction, NORMAL"),
        ("r1LedgerWorkFull", "R1L raw SQLite, all of a fulfillment's statements, FULL"),
        ("r1LedgerWorkNormal", "R1L raw SQLite, all of a fulfillment's statements, NORMAL"),
        ("r2FulfillFull", "R2 ledger fulfillment (new), FULL"),
        ("r2FulfillNormal", "R2 ledger fulfillment (new), NORMAL"),
        ("r3DuplicateFull", "R3 duplicate delivery, FULL"),
        ("r3DuplicateNormal", "R3 duplicate delivery, NORMAL"),
        ("r4ConcurrentFull", "R4 \(BenchWorkloads.concurrentCallerCount) concurrent callers, FULL"),
        ("r4ConcurrentNormal", "R4 \(BenchWorkloads.concurrentCallerCount) concurrent callers, NORMAL"),
        ("r2SlowDiskFull", "R2 on the emulated slower disk, FULL"),
        ("r4SlowDiskFull", "R4 on the emulated slower disk, FULL"),
        ("r5JWSCold", "R5 App Store JWS verification, cold (new verifier each)"),
        ("r5JWSWarm", "R5 App Store JWS verification, warm (cached chain)"),
        ("r6FulfillFull", "R6 R2 on the pre-filled ledger, FULL"),
        ("r6FulfillNormal", "R6 R2 on the pre-filled ledger, NORMAL"),
        ("r6DuplicateFull", "R6 R3 on the pre-filled ledger, FULL"),
        ("r6DuplicateNormal", "R6 R3 on the pre-filled ledger, NORMAL"),
    ]

    /// The targets: (key, name, numerator, denominator, target).
    static let ratioTargets: [(key: String, name: String, numerator: String, denominator: String, target: Double)] = [
        ("r2OverR1Full", "R2/R1 at FULL", "r2FulfillFull", "r1RawSQLiteFull", 0.9),
        ("r2OverR1Normal", "R2/R1 at NORMAL", "r2FulfillNormal", "r1RawSQLiteNormal", 0.7),
        ("r3OverR2Full", "R3/R2 at FULL", "r3DuplicateFull", "r2FulfillFull", 5),
        ("r4OverR2Full", "R4/R2 at FULL", "r4ConcurrentFull", "r2FulfillFull", 10),
        ("r4OverR2SlowDiskFull", "R4/R2 at FULL, slower disk", "r4SlowDiskFull", "r2SlowDiskFull", 10),
        // R6: a large ledger stays within 20% of an empty one.
        ("r6R2OverR2Full", "R6 R2 / empty R2 at FULL", "r6FulfillFull", "r2FulfillFull", 0.8),
        ("r6R3OverR3Full", "R6 R3 / empty R3 at FULL", "r6DuplicateFull", "r3DuplicateFull", 0.8),
        ("r6R2OverR2Normal", "R6 R2 / empty R2 at NORMAL", "r6FulfillNormal", "r2FulfillNormal", 0.8),
        ("r6R3OverR3Normal", "R6 R3 / empty R3 at NORMAL", "r6DuplicateNormal", "r3DuplicateNormal", 0.8),
    ]

    /// Ratios with no target that split the R2/R1 gap: (key, name, numerator, denominator).
    static let breakdownRatios: [(key: String, name: String, numerator: String, denominator: String)] = [
        ("r2OverR1LFull", "R2/R1L at FULL: the library over its own SQL", "r2FulfillFull", "r1LedgerWorkFull"),
        ("r2OverR1LNormal", "R2/R1L at NORMAL: the library over its own SQL", "r2FulfillNormal", "r1LedgerWorkNormal"),
        ("r1LOverR1Full", "R1L/R1 at FULL: its bookkeeping beyond R1", "r1LedgerWorkFull", "r1RawSQLiteFull"),
        ("r1LOverR1Normal", "R1L/R1 at NORMAL: its bookkeeping beyond R1", "r1LedgerWorkNormal", "r1RawSQLiteNormal"),
    ]

    /// Sample keys that are counts, not rates: group commit's requests per shared transaction in R4.
    static let groupCommitLabels: [(key: String, label: String)] = [
        ("r4RequestsPerTransactionFull", "R4 requests per shared transaction, FULL"),
        ("r4RequestsPerTransactionNormal", "R4 requests per shared transaction, NORMAL"),
    ]

    /// Standing caveats printed with every report.
    static let notes = [
        "R2 commits once per new transaction (the grant, synced, carrying the finish mark of the fulfillment before it)"
            + " and writes an event (and purchase counts for limited products); R1 commits once and writes two rows."
            + " R1L runs R2's own statements",
        "the slower disk is this disk with every sync made longer through the fault VFS (--sync-latency-microseconds);"
            + " it shows group commit where syncs, not the CPU, cost the most",
        "R6 R2 fulfils new purchases with hashed IDs for the pre-filled players; R6 R3 redelivers random pre-filled"
            + " purchases (cold lookups), while R3 redelivers the purchases R2 just made",
        "rates are medians of interleaved repeats; single runs on a shared machine are noisy",
    ]

    /// `release` or `debug`.
    var build: String
    /// Operations per repeat of each workload.
    var count: Int
    /// Repeats per workload; each rate is their median.
    var repeats: Int
    /// Where the files were written.
    var directory: String
    /// Median operations per second, by key.
    var rates: [String: Double]
    /// Every repeat's operations per second, by key.
    var samples: [String: [Double]]
    /// Ratios against targets, by key; a ratio whose rates were not measured is left out.
    var ratios: [String: Ratio]
    /// Ratios without a target that explain R2/R1, by key.
    var breakdown: [String: Double]
    /// Group commit's median requests per shared transaction in R4, by key.
    var groupCommit: [String: Double]
    /// Extra microseconds per sync in the slower-disk runs; 0 when they did not run.
    var syncLatencyMicroseconds: Int
    /// R6's pre-fill, or why R6 did not run.
    var r6: BenchSection<BenchR6Figures>
    /// The HTTP load run beside the in-process figure, or why it did not run.
    var http: BenchSection<BenchHTTPLoadFigures>
    /// Memory flatness, or why it did not run.
    var memory: BenchSection<BenchMemoryFlatness>
    /// R5 with Apple's Python library, or why it is absent.
    var python: BenchSection<BenchPythonFigures>
    /// The PostgreSQL part, or why it did not run.
    var postgres: BenchSection<BenchPostgresFigures>
    /// Frames, pages read, syncs and instructions per sequential fulfillment.
    var writeCounts: BenchWriteCounts
    /// What this run did not measure, and why.
    var notMeasured: [String]
    /// Caveats.
    var notes: [String]

    /// Builds the report from every repeat's samples and the optional parts.
    init(
        build: String, count: Int, repeats: Int, directory: String, samples: [String: [Double]],
        syncLatencyMicroseconds: Int, r6: BenchSection<BenchR6Figures>, http: BenchSection<BenchHTTPLoadFigures>,
        memory: BenchSection<BenchMemoryFlatness>,
        python: BenchSection<BenchPythonFigures>, postgres: BenchSection<BenchPostgresFigures>, writeCounts: BenchWriteCounts
    ) {
        self.postgres = postgres
        self.writeCounts = writeCounts
        self.build = build
        self.count = count
        self.repeats = repeats
        self.directory = directory
        self.samples = samples
        self.syncLatencyMicroseconds = syncLatencyMicroseconds
        let medians = samples.mapValues(Self.median)
        let countKeys = Set(Self.groupCommitLabels.map(\.key))
        let rates = medians.filter { !countKeys.contains($0.key) }
        self.rates = rates
        self.groupCommit = medians.filter { countKeys.contains($0.key) }
        self.breakdown = Self.breakdown(Self.breakdownRatios, rates: rates)
        self.ratios = Self.ratios(Self.ratioTargets, rates: rates)
        self.r6 = r6
        self.http = http
        self.memory = memory
        if var figures = python.figures {
            figures.compare(swiftCold: rates["r5JWSCold"] ?? 0, swiftWarm: rates["r5JWSWarm"] ?? 0)
            self.python = .measured(figures)
        } else {
            self.python = python
        }
        var notMeasured: [String] = []
        if case .absent(let reason) = r6 { notMeasured.append("R6: \(reason)") }
        if case .absent(let reason) = http { notMeasured.append("HTTP load run: \(reason)") }
        if case .absent(let reason) = memory { notMeasured.append("memory flatness: \(reason)") }
        if case .absent(let reason) = python { notMeasured.append("R5 in Python: \(reason)") }
        if case .absent(let reason) = postgres { notMeasured.append("PostgreSQL: \(reason)") }
        self.notMeasured = notMeasured
        self.notes = Self.notes
    }

    /// `rates[numerator] / rates[denominator]` for each entry whose rates were both measured, by key.
    static func breakdown(
        _ entries: [(key: String, name: String, numerator: String, denominator: String)], rates: [String: Double]
    ) -> [String: Double] {
        var values: [String: Double] = [:]
        for entry in entries {
            guard let numerator = rates[entry.numerator], let denominator = rates[entry.denominator] else { continue }
            values[entry.key] = numerator / max(denominator, .leastNonzeroMagnitude)
        }
        return values
    }

    /// Each target's ratio, measured against its target, for the targets whose rates were both measured.
    static func ratios(
        _ targets: [(key: String, name: String, numerator: String, denominator: String, target: Double)],
        rates: [String: Double]
    ) -> [String: Ratio] {
        let values = breakdown(targets.map { ($0.key, $0.name, $0.numerator, $0.denominator) }, rates: rates)
        var ratios: [String: Ratio] = [:]
        for target in targets {
            guard let value = values[target.key] else { continue }
            ratios[target.key] = Ratio(name: target.name, value: value, target: target.target, pass: value >= target.target)
        }
        return ratios
    }

    /// The median of `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The human-readable report.
    var text: String {
        var lines = [
            "ledger-bench: \(build) build, count \(count), median of \(repeats) interleaved repeat(s), files in \(directory)",
            "",
        ]
        if let figures = r6.figures { lines += figures.textLines + [""] }
        lines.append("rates (per second):")
        let width = (Self.rateLabels.map(\.label.count).max() ?? 0) + 2
        for (key, label) in Self.rateLabels {
            let rate = rates[key].map { String(format: "%12.1f", $0) } ?? "   (not run)"
            lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + rate)
        }
        lines += ["", "ratios against targets:"]
        let nameWidth = (Self.ratioTargets.map(\.name.count).max() ?? 0) + 2
        for target in Self.ratioTargets {
            guard let ratio = ratios[target.key] else { continue }
            let verdict = ratio.pass ? "PASS" : "MISS"
            lines.append(
                "  \(ratio.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))"
                    + String(format: "%8.2f", ratio.value) + "   target >= \(target.target)   \(verdict)")
        }
        if syncLatencyMicroseconds > 0 {
            lines.append("  (slower disk: every sync took \(syncLatencyMicroseconds) microseconds more)")
        }
        lines += ["", "what R2/R1 is made of (no targets):"]
        for ratio in Self.breakdownRatios {
            guard let value = breakdown[ratio.key] else { continue }
            lines.append("  \(ratio.name.padding(toLength: nameWidth + 24, withPad: " ", startingAt: 0))" + String(format: "%6.2f", value))
        }
        lines += ["", "group commit:"]
        for (key, label) in Self.groupCommitLabels {
            guard let value = groupCommit[key] else { continue }
            lines.append("  \(label.padding(toLength: width, withPad: " ", startingAt: 0))" + String(format: "%12.1f", value))
        }
        lines += [""] + writeCounts.textLines
        if let figures = http.figures { lines += [""] + figures.textLines }
        if let figures = memory.figures { lines += [""] + figures.textLines }
        if let figures = python.figures { lines += [""] + figures.textLines }
        if let figures = postgres.figures { lines += [""] + figures.textLines }
        if !notMeasured.isEmpty { lines += ["", "not measured:"] + notMeasured.map { "  " + $0 } }
        lines += ["", "notes:"] + notes.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}
