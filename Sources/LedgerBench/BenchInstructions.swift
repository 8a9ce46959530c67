import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// Instructions per sequential fulfillment, counted by callgrind rather than timed: the CPU a
/// fulfillment costs, in figures machine noise cannot move.
///
/// The bench runs itself under callgrind four times with the hidden `--instructions-child`
/// option: the ledger's fulfillment (R2's workload) and its statements bare (R1L's), each for
/// `fulfillmentCount` and twice as many fulfillments. The difference of two runs over the
/// difference of their counts cancels start-up, and the same difference taken per object
/// (the executable, SQLite, the Swift runtime, libc, …) says where the instructions go.
struct BenchInstructions: Encodable {
    /// What an `--instructions-child` run fulfils.
    enum Workload: String, CaseIterable, Sendable {
        /// `Ledger.fulfill` on `SQLiteLedgerStore` at FULL, keys in order, as R2.
        case ledger
        /// The same statements on a bare connection, as R1L.
        case raw
    }

    /// One workload's figures.
    struct Figures: Encodable {
        /// Instructions per fulfillment, every thread of the process counted.
        var perFulfillment: Double
        /// The same by object (file name), largest first; objects under 1% are summed as `other`.
        var byObject: [ObjectShare]
    }

    /// One object's part of a fulfillment's instructions.
    struct ObjectShare: Encodable {
        var object: String
        var perFulfillment: Double
    }

    /// Fulfillments of the smaller run of each pair; the larger makes twice as many.
    static let fulfillmentCount = 100
    /// Objects below this share of a fulfillment's instructions are summed as `other`.
    static let objectShareFloor = 0.01

    /// Through the ledger.
    var ledger: Figures
    /// The same statements bare.
    var raw: Figures
    /// How the figures were counted.
    var source: String

    /// The library's instructions over its statements' own: what the ledger adds, in a figure
    /// that does not move with the machine.
    var ledgerOverRaw: Double { ledger.perFulfillment / raw.perFulfillment }

    /// Counts both workloads under callgrind; nil and the reason when valgrind is missing or a
    /// run fails. Only the `ledger-bench` executable can run itself.
    static func measure(directory: URL) async -> (figures: BenchInstructions?, reason: String) {
        guard let valgrind = BenchPython.executable(named: "valgrind") else { return (nil, "valgrind not installed") }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        // In-process runs (the bench's tests) have no ledger-bench executable to run again.
        guard executable.lastPathComponent == "ledger-bench" else {
            return (nil, "only the ledger-bench executable runs itself under callgrind")
        }
        var figures: [Workload: Figures] = [:]
        for workload in Workload.allCases {
            var profiles: [CallgrindProfile] = []
            for count in [fulfillmentCount, 2 * fulfillmentCount] {
                let name = "callgrind-\(workload.rawValue)-\(count)"
                let output = directory.appendingPathComponent("\(name).out")
                let run = await BenchPython.run(
                    valgrind,
                    [
                        "--tool=callgrind", "--callgrind-out-file=\(output.path)", executable.path,
                        "--instructions-child", workload.rawValue, "--count", "\(count)", "--dir", directory.path,
                    ],
                    directory: directory, name: name)
                guard run.status == 0, let profile = CallgrindProfile.read(output) else {
                    // Valgrind's own report is many lines; its first line of substance says why.
                    let reason = run.error.split(separator: "\n").first { $0.contains("INTERNAL ERROR") || $0.hasPrefix("valgrind:") }
                    return (nil, "callgrind run failed (status \(run.status))" + (reason.map { ": " + $0.prefix(200) } ?? ""))
                }
                profiles.append(profile)
            }
            figures[workload] = Self.figures(profiles[0].growth(to: profiles[1]), fulfillments: fulfillmentCount)
        }
        guard let ledger = figures[.ledger], let raw = figures[.raw] else { return (nil, "no figures") }
        let source = "callgrind, \(fulfillmentCount) vs \(2 * fulfillmentCount) fulfillments"
        return (BenchInstructions(ledger: ledger, raw: raw, source: source), source)
    }

    /// Per-fulfillment figures from the growth between two runs.
    static func figures(_ growth: CallgrindProfile, fulfillments: Int) -> Figures {
        let perFulfillment = Double(growth.total) / Double(fulfillments)
        var shares: [ObjectShare] = []
        var other = 0.0
        for (object, count) in growth.byObject.sorted(by: { $0.value > $1.value }) {
            let share = Double(count) / Double(fulfillments)
            if perFulfillment > 0, share / perFulfillment >= objectShareFloor {
                shares.append(ObjectShare(object: object, perFulfillment: share))
            } else {
                other += share
            }
        }
        if other != 0 { shares.append(ObjectShare(object: "other", perFulfillment: other)) }
        return Figures(perFulfillment: perFulfillment, byObject: shares)
    }

    /// The child's work: `count` sequential fulfillments of `workload` on a new ledger in
    /// `directory`, each checked. Finish marks wait the longest time a store allows, so every
    /// mark rides in the next grant's commit and no timer decides what a run executes.
    static func runChild(_ workload: Workload, count: Int, directory: URL) async throws {
        let path = directory.appendingPathComponent("instructions-\(workload.rawValue)-\(UUID().uuidString).sqlite").path
        switch workload {
        case .raw:
            _ = try await RawSQLiteLedgerWork.run(path: path, synchronous: .full, count: count)
        case .ledger:
            let ledger = try BenchWorkloads.ledger(
                path: path, synchronous: .full,
                finishMarkWaitMicrosecondsMax: GroupCommitLimits.finishMarkWaitMicrosecondsLimit)
            let submissions = BenchWorkloads.submissions(prefix: "counted-", first: 0, count: count, order: .rising)
            _ = try await BenchWorkloads.fulfillments(ledger: ledger, submissions: submissions, expecting: "granted")
            await ledger.store.close()
        }
    }

    /// The text report's lines.
    var textLines: [String] {
        let describe = { (figures: Figures) in
            figures.byObject.map { String(format: "%@ %.0f", $0.object, $0.perFulfillment) }.joined(separator: ", ")
        }
        return [
            String(format: "  instructions        %8.0f   through the ledger (%@)", ledger.perFulfillment, source),
            String(format: "                      %8.0f   its statements bare (R1L's work); ledger/bare %.2f", raw.perFulfillment,
                   ledgerOverRaw),
            "    ledger by object: " + describe(ledger),
            "    bare by object:   " + describe(raw),
        ]
    }
}
