import Foundation
import PostgresLedgerStore

/// What the PostgreSQL part of `ledger-bench` measured: median rates, every sample, the ratios
/// against the project's targets and the server it ran on.
struct BenchPostgresFigures: Encodable {
    /// Rate keys, in the order the text output lists them, with their labels.
    static let rateLabels: [(key: String, label: String)] = [
        ("p1Raw", "P1 raw libpq, one fulfillment's statements, 1 connection"),
        ("p1RawConcurrent", "P1 raw libpq, \(PostgresPoolConfiguration.connectionCountMaxDefault) connections at once"),
        ("p2Fulfill", "P2 ledger fulfillment (new)"),
        ("p3Duplicate", "P3 duplicate delivery"),
        ("p4Concurrent", "P4 \(BenchWorkloads.concurrentCallerCount) concurrent callers"),
        ("p5OneProcess", "P5 one process, fulfillments one after another"),
        ("p5Processes", "P5 \(BenchPostgres.processCount) processes at once, together"),
    ]

    /// Sample keys that are not rates: transactions P1's concurrent replay and P4 ran again after
    /// a conflict (per repeat of N fulfillments), and the fraction of the machine's processor
    /// time busy during each P5 run.
    static let otherLabels: [(key: String, label: String, format: String)] = [
        (
            "p1RawConcurrentRetries",
            "P1 transactions run again after a conflict, \(PostgresPoolConfiguration.connectionCountMaxDefault) connections",
            "%12.0f"
        ),
        ("p4Retries", "P4 transactions run again after a conflict", "%12.0f"),
        ("p5OneProcessBusy", "P5 processors busy, one process", "%12.2f"),
        ("p5ProcessesBusy", "P5 processors busy, \(BenchPostgres.processCount) processes", "%12.2f"),
    ]

    /// The targets: (key, name, numerator, denominator, target).
    static let ratioTargets: [(key: String, name: String, numerator: String, denominator: String, target: Double)] = [
        ("p2OverP1", "P2/P1: fulfillment over raw libpq", "p2Fulfill", "p1Raw", 0.7),
        ("p5ProcessesOverOne", "P5: \(BenchPostgres.processCount) processes over one", "p5Processes", "p5OneProcess", 2.5),
    ]

    /// Ratios without a target: (key, name, numerator, denominator).
    static let breakdownRatios: [(key: String, name: String, numerator: String, denominator: String)] = [
        ("p3OverP2", "P3/P2: a duplicate over a new fulfillment", "p3Duplicate", "p2Fulfill"),
        ("p4OverP2", "P4/P2: 64 callers over one", "p4Concurrent", "p2Fulfill"),
        ("p4OverP1Concurrent", "P4/P1 at \(PostgresPoolConfiguration.connectionCountMaxDefault) connections", "p4Concurrent", "p1RawConcurrent"),
    ]

    /// Median operations per second, by key.
    var rates: [String: Double]
    /// Medians of the samples that are not rates (`otherLabels`), by key.
    var others: [String: Double]
    /// Processors of this machine, for the busy fractions.
    var processorCount = ProcessInfo.processInfo.activeProcessorCount
    /// Every repeat's operations per second, by key.
    var samples: [String: [Double]]
    /// Ratios against targets, by key.
    var ratios: [String: BenchReport.Ratio]
    /// Ratios without a target, by key.
    var breakdown: [String: Double]
    /// Statements one fulfillment sends (recorded from the store, replayed by P1).
    var statementsPerFulfillment: Int
    /// The server's version.
    var serverVersion: String
    /// The server's `synchronous_commit`: grants commit with it, finish marks with `off`.
    var synchronousCommit: String
    /// Connections of the store's pool (its default) and of P1's concurrent replay.
    var connectionCountMax = PostgresPoolConfiguration.connectionCountMaxDefault
    /// Processes of P5's aggregate.
    var processCount = BenchPostgres.processCount

    /// The figures of every repeat's samples.
    init(samples: [String: [Double]], statementsPerFulfillment: Int, serverVersion: String, synchronousCommit: String) {
        self.samples = samples
        self.statementsPerFulfillment = statementsPerFulfillment
        self.serverVersion = serverVersion
        self.synchronousCommit = synchronousCommit
        let medians = samples.mapValues(BenchReport.median)
        let otherKeys = Set(Self.otherLabels.map(\.key))
        let rates = medians.filter { !otherKeys.contains($0.key) }
        self.rates = rates
        self.others = medians.filter { otherKeys.contains($0.key) }
        ratios = BenchReport.ratios(Self.ratioTargets, rates: rates)
        breakdown = BenchReport.breakdown(Self.breakdownRatios, rates: rates)
    }

    /// The text report's lines.
    var textLines: [String] {
        var lines = [
            "PostgreSQL \(serverVersion), synchronous_commit \(synchronousCommit), pool of \(connectionCountMax),"
                + " \(processorCount) processors;"
                + " \(statementsPerFulfillment) statements per fulfillment",
            "PostgreSQL rates (per second):",
        ]
        let width = (Self.rateLabels.map(\.label.count).max() ?? 0) + 2
        for (key, label) in Self.rateLabels {
            let rate = rates[key].map { String(format: "%12.1f", $0) } ?? "   (not run)"
            lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + rate)
        }
        for (key, label, format) in Self.otherLabels {
            guard let value = others[key] else { continue }
            lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + String(format: format, value))
        }
        lines.append("PostgreSQL ratios:")
        let nameWidth = (Self.breakdownRatios.map(\.name.count) + Self.ratioTargets.map(\.name.count)).max() ?? 0
        for target in Self.ratioTargets {
            guard let ratio = ratios[target.key] else { continue }
            lines.append(
                "  \(ratio.name.padding(toLength: nameWidth + 2, withPad: " ", startingAt: 0))"
                    + String(format: "%8.2f", ratio.value) + "   target >= \(target.target)   \(ratio.pass ? "PASS" : "MISS")")
        }
        for entry in Self.breakdownRatios {
            guard let value = breakdown[entry.key] else { continue }
            lines.append("  \(entry.name.padding(toLength: nameWidth + 2, withPad: " ", startingAt: 0))" + String(format: "%8.2f", value))
        }
        return lines
    }
}
