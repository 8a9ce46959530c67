import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerSimulation
import SQLiteLedgerStore
import Testing

/// The seeded simulation: no violation, and the same seed replays the same trace.
@Suite struct SimulationTests {
    /// Options whose runs keep SQLite files in a new folder, and the folder.
    static func options(seed: UInt64, runs: Int, steps: Int = 60) throws -> (SimulationOptions, URL) {
        let base = FileManager.default.fileExists(atPath: "/dev/shm")
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        let directory = base.appendingPathComponent("fl-simulation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let options = SimulationOptions(
            seed: seed, runCount: runs, stepCount: steps, catalog: try LedgerHarness.sampleCatalog(),
            databases: .files(
                in: directory, open: { path throws(LedgerError) in try SQLiteLedgerStore(path: path) },
                integrityCheck: { path in LedgerDoctor.integrityProblem(path: path) }))
        return (options, directory)
    }

    /// Runs a simulation and removes its database folder.
    static func run(seed: UInt64, runs: Int) async throws -> Simulator.Result {
        let (options, directory) = try Self.options(seed: seed, runs: runs)
        defer { try? FileManager.default.removeItem(at: directory) }
        return await Simulator.run(options)
    }

    @Test func seededRunsFindNoViolationAndCoverEveryFault() async throws {
        let result = try await Self.run(seed: 7, runs: 40)
        #expect(result.violation == nil, "\(result.violation?.description ?? "")")
        #expect(result.summary.runs == 40 && result.summary.steps == 40 * 60)
        #expect(result.summary.grants > 0 && result.summary.restarts > 0)
        let expectedFaults = Set(FaultPoint.allCases.map(\.rawValue) + ["verifyPort", "finishPort", "finishTimeout"])
        #expect(Set(result.summary.faultsInjected.keys) == expectedFaults, "\(result.summary.faultsInjected)")
    }

    @Test func theSameSeedGivesTheSameTraceAndAnotherSeedAnother() async throws {
        let first = try await Self.run(seed: 11, runs: 5)
        let again = try await Self.run(seed: 11, runs: 5)
        let other = try await Self.run(seed: 12, runs: 5)
        #expect(first.summary.trace.count == 64)
        #expect(first.summary.trace == again.summary.trace)
        #expect(first.summary.trace != other.summary.trace)
    }

    @Test func splitMixIsTheReferenceSequence() {
        // First outputs of SplitMix64 seeded with 0, as published with the algorithm.
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }
}
