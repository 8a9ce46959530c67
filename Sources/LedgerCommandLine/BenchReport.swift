/// What `ledger bench` measured: median rates, every sample, and the ratios against the
/// project's targets. Encoded as the `--json` output.
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
        ("r2FulfillFull", "R2 ledger fulfillment (new), FULL"),
        ("r2FulfillNormal", "R2 ledger fulfillment (new), NORMAL"),
        ("r3DuplicateFull", "R3 duplicate delivery, FULL"),
        ("r3DuplicateNormal", "R3 duplicate delivery, NORMAL"),
        ("r4ConcurrentFull", "R4 \(BenchWorkloads.concurrentCallerCount) concurrent callers, FULL"),
        ("r4ConcurrentNormal", "R4 \(BenchWorkloads.concurrentCallerCount) concurrent callers, NORMAL"),
        ("r5JWSCold", "R5 App Store JWS verification, cold (new verifier each)"),
        ("r5JWSWarm", "R5 App Store JWS verification, warm (cached chain)"),
    ]

    /// The targets: (key, name, numerator, denominator, target).
    static let ratioTargets: [(key: String, name: String, numerator: String, denominator: String, target: Double)] = [
        ("r2OverR1Full", "R2/R1 at FULL", "r2FulfillFull", "r1RawSQLiteFull", 0.9),
        ("r2OverR1Normal", "R2/R1 at NORMAL", "r2FulfillNormal", "r1RawSQLiteNormal", 0.7),
        ("r3OverR2Full", "R3/R2 at FULL", "r3DuplicateFull", "r2FulfillFull", 5),
        ("r4OverR2Full", "R4/R2 at FULL", "r4ConcurrentFull", "r2FulfillFull", 10),
    ]

    /// What this version does not measure or implement.
    static let notMeasured = [
        "R6: not measured in this version (fulfillment on a ledger pre-filled with 10 million rows)",
        "memory flatness: not measured in this version",
    ]

    /// Standing caveats printed with every report.
    static let notes = [
        "group commit is not implemented: every fulfillment commits (and at FULL, fsyncs) on its own, so R4 is expected to MISS",
        "R2 commits twice per new transaction (the grant, then marking the platform finish done); R1 commits once",
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
    /// Ratios against targets, by key.
    var ratios: [String: Ratio]
    /// What is not measured yet.
    var notMeasured: [String]
    /// Caveats.
    var notes: [String]

    /// Builds the report from every repeat's samples.
    init(build: String, count: Int, repeats: Int, directory: String, samples: [String: [Double]]) {
        self.build = build
        self.count = count
        self.repeats = repeats
        self.directory = directory
        self.samples = samples
        let rates = samples.mapValues(Self.median)
        self.rates = rates
        var ratios: [String: Ratio] = [:]
        for target in Self.ratioTargets {
            let value = (rates[target.numerator] ?? 0) / max(rates[target.denominator] ?? 0, .leastNonzeroMagnitude)
            ratios[target.key] = Ratio(name: target.name, value: value, target: target.target, pass: value >= target.target)
        }
        self.ratios = ratios
        self.notMeasured = Self.notMeasured
        self.notes = Self.notes
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
            "ledger bench: \(build) build, count \(count), median of \(repeats) interleaved repeat(s), files in \(directory)",
            "",
            "rates (per second):",
        ]
        let width = (Self.rateLabels.map(\.label.count).max() ?? 0) + 2
        for (key, label) in Self.rateLabels {
            let rate = rates[key].map { String(format: "%12.1f", $0) } ?? "    (missing)"
            lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + rate)
        }
        lines += ["", "ratios against targets:"]
        for target in Self.ratioTargets {
            guard let ratio = ratios[target.key] else { continue }
            let verdict = ratio.pass ? "PASS" : "MISS"
            lines.append(
                "  \(ratio.name.padding(toLength: 18, withPad: " ", startingAt: 0))"
                    + String(format: "%8.2f", ratio.value) + "   target >= \(target.target)   \(verdict)")
        }
        lines += ["", "not measured:"] + notMeasured.map { "  " + $0 }
        lines += ["", "notes:"] + notes.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}
