import Foundation
import Testing

/// `ledger bench`: a tiny run completes and reports every figure. No timing assertions:
/// the machines that run tests are too noisy for them.
@Suite struct BenchCommandTests {
    /// Every rate the JSON report must carry.
    static let rateKeys = [
        "r0FsyncPerSecond", "r1RawSQLiteFull", "r1RawSQLiteNormal", "r2FulfillFull", "r2FulfillNormal",
        "r3DuplicateFull", "r3DuplicateNormal", "r4ConcurrentFull", "r4ConcurrentNormal", "r5JWSCold", "r5JWSWarm",
    ]
    /// Every ratio the JSON report must carry.
    static let ratioKeys = ["r2OverR1Full", "r2OverR1Normal", "r3OverR2Full", "r4OverR2Full"]

    @Test func smallRunReportsEveryFigure() async throws {
        let scratch = try ScratchDirectory()
        let run = await ledger(["bench", "--count", "20", "--repeats", "1", "--json", "--dir", scratch.url.path])
        #expect(run.code == 0, "\(run.output)\(run.error)")
        let json = try run.json()
        let rates = try #require(json["rates"] as? [String: Double])
        for key in Self.rateKeys {
            let rate = try #require(rates[key], "missing rate \(key)")
            #expect(rate > 0 && rate.isFinite, "\(key) = \(rate)")
        }
        let ratios = try #require(json["ratios"] as? [String: [String: Any]])
        for key in Self.ratioKeys {
            let ratio = try #require(ratios[key], "missing ratio \(key)")
            let value = try #require(ratio["value"] as? Double)
            #expect(value > 0 && value.isFinite, "\(key) = \(value)")
            #expect(ratio["target"] as? Double != nil)
            #expect(ratio["pass"] as? Bool != nil)
        }
        let notMeasured = try #require(json["notMeasured"] as? [String])
        #expect(notMeasured.contains { $0.hasPrefix("R6: not measured in this version") })
        // The bench removes its own files.
        #expect(try scratch.fileNames().isEmpty)
    }

    @Test func rejectsABadCount() async {
        let run = await ledger(["bench", "--count", "0"])
        #expect(run.code == 64)
    }
}
