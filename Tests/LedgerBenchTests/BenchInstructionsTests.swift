import Foundation
import FulfillmentLedger
import SQLiteLedgerStore
import Testing

@testable import LedgerBench

/// Instructions per fulfillment: the callgrind output reader, the per-fulfillment figures, and
/// the child runs the bench starts under callgrind (run here without it).
@Suite struct BenchInstructionsTests {
    /// A callgrind output file as callgrind 3.19 writes one, cut down: compressed object and
    /// function names, a call whose inclusive cost belongs to the callee, relative positions.
    static let sample = """
        # callgrind format
        version: 1
        creator: callgrind-3.19.0
        positions: line
        events: Ir
        summary: 1000

        ob=(1) /usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6
        fl=(1) ???
        fn=(1) sqlite3_step
        0 300
        cob=(2) /opt/swift/usr/lib/swift/linux/libswiftCore.so
        cfn=(2) swift_retain
        calls=3 0
        0 90
        +2 100

        ob=(2)
        fl=(2) ???
        fn=(2)
        0 90
        ob=(3) /srv/game/bin/ledger-bench
        fl=(3) Ledger.swift
        fn=(3) fulfill
        12 400
        -3 20
        * 0

        totals: 1000
        """

    @Test func aCallgrindFileIsReadByObjectWithoutCountingACallTwice() throws {
        let scratch = try ScratchDirectory()
        let file = URL(fileURLWithPath: scratch.path("callgrind.out"))
        try Data(Self.sample.utf8).write(to: file)
        let profile = try #require(CallgrindProfile.read(file))
        #expect(profile.total == 1000)
        #expect(profile.byObject == ["libsqlite3.so.0.8.6": 400, "libswiftCore.so": 90, "ledger-bench": 420])
        // Self costs add up to less than the total only by what no object was named for.
        #expect(profile.byObject.values.reduce(0, +) == 910)
    }

    @Test func aMissingOrTotallessFileReadsAsNil() throws {
        let scratch = try ScratchDirectory()
        #expect(CallgrindProfile.read(URL(fileURLWithPath: scratch.path("absent.out"))) == nil)
        let file = URL(fileURLWithPath: scratch.path("cut.out"))
        try Data("events: Ir\nob=(1) /lib/libc.so.6\n0 5\n".utf8).write(to: file)
        #expect(CallgrindProfile.read(file) == nil)
    }

    @Test func figuresAreTheGrowthPerFulfillmentWithSmallObjectsSummed() {
        let small = CallgrindProfile(total: 10_000, byObject: ["sqlite": 6_000, "swift": 3_000, "tiny": 1_000])
        let large = CallgrindProfile(total: 30_000, byObject: ["sqlite": 18_000, "swift": 11_000, "tiny": 1_005])
        let growth = small.growth(to: large)
        #expect(growth == CallgrindProfile(total: 20_000, byObject: ["sqlite": 12_000, "swift": 8_000, "tiny": 5]))
        let figures = BenchInstructions.figures(growth, fulfillments: 100)
        #expect(figures.perFulfillment == 200)
        #expect(figures.byObject.map(\.object) == ["sqlite", "swift", "other"])
        #expect(figures.byObject.map(\.perFulfillment) == [120, 80, 0.05])
    }

    /// The child runs the bench makes under callgrind, here without it: each fulfils its count and exits 0.
    @Test(arguments: BenchInstructions.Workload.allCases)
    func aChildRunFulfilsItsCount(_ workload: BenchInstructions.Workload) async throws {
        let scratch = try ScratchDirectory()
        let run = await bench(["--instructions-child", workload.rawValue, "--count", "7", "--dir", scratch.url.path])
        #expect(run.code == 0, "\(run.error)")
        #expect(run.error.isEmpty || run.error.contains("debug build"), "\(run.error)")
    }
}
