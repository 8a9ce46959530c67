import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// The App Store notification fuzz target's body (`AppStoreNotificationFuzzBody`) over seeded
/// random and mutated inputs, so CI exercises it without libFuzzer: no crash, every outcome
/// typed, no broken invariant.
@Suite struct AppStoreNotificationFuzzTests {
    /// Inputs run per generator seed: mutations of the seeds, and random bytes.
    static let runCountMax = 500
    /// The generator seeds: five runs of 500 inputs, run in parallel.
    static let generatorSeeds: [UInt64] = [0x4150_5053_544F_5245, 1, 2, 3, 4]
    /// Mutations applied to one input at most.
    static let mutationCountMax = 3
    /// Longest input the mutator builds, as the fuzz target's `-max_len`.
    static let inputByteCountMax = 4_096

    static func body() throws -> AppStoreNotificationFuzzBody {
        let authority = try AppStoreTestCertificateAuthority()
        let signer = AppStoreJWSSigner(certificateAuthority: authority)
        return try AppStoreNotificationFuzzBody(
            catalog: try CatalogLoader.load(path: AppStoreLedgerTests.Setup.catalogPath),
            rootCertificateDER: authority.rootCertificateDER, sign: { try signer.sign(payload: $0) },
            makeStore: { InMemoryLedgerStore() })
    }

    /// The committed seeds of the libFuzzer target (`Fuzz/seeds/appstore`).
    static var seeds: [[UInt8]] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/seeds/appstore")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? []
        return names.compactMap { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) }
            .map { Array($0) }
    }

    /// Tokens a mutation splices in: boundary numbers, Apple's names and JSON punctuation.
    static let tokens: [String] = [
        "0", "-1", "1", "3", "33333", "66666", "100000", "100001", "2147483647", "2147483648", "7258118399999",
        "7258118400000", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1e300", "0.5",
        "33333.5", "null", "true", "\"\"", "{}", "[]", ",", ":", "\"", "\"REFUND_PRORATED\"", "\"REFUND_FULL\"",
        "\"FAMILY_REVOKE\"", "\"REFUND\"", "\"REVOKE\"", "\"REFUND_REVERSED\"", "\"CONSUMPTION_REQUEST\"",
        "\"Consumable\"", "\"Non-Consumable\"", "\"revocationPercentage\"", "\"revocationType\"", "\"quantity\"",
        "\"revocationDate\"", "\"signedDate\"", "\"transactionId\"", "\"originalTransactionId\"",
        "\"2000000000000001\"", "\"notificationUUID\"", "\"signedTransactionInfo\"", "\"Sandbox\"", "\"Production\"",
        "\"RESCIND_CONSENT\"", "\"appTransactionId\"", "\"receiptType\"", "\"signedAppTransactionInfo\"",
        "\"ONE_TIME_CHARGE\"", "\"appAccountToken\"", "\"2000000000000002\"", "\"f64551fc-d6f0-8823-8b87-971cfb914464\"",
    ]

    @Test func theSeedsCoverEveryVerdict() async throws {
        let body = try Self.body()
        let seeds = Self.seeds
        #expect(seeds.count >= 10, "the seeds are beside the package in Fuzz/seeds/appstore")
        var verdicts: Set<AppStoreNotificationFuzzBody.Verdict> = []
        for seed in seeds {
            switch await body.run(seed) {
            case .success(let report): verdicts.insert(report.verdict)
            case .failure(let violation): Issue.record("seed \(String(decoding: seed, as: UTF8.self)): \(violation)")
            }
        }
        #expect(verdicts == Set(AppStoreNotificationFuzzBody.Verdict.allCases))
    }

    /// The issue's case through the fuzz body: the prorated seed leaves 200 of 300 gems.
    @Test func theProratedSeedTakesOneUnit() async throws {
        let body = try Self.body()
        let seed = try #require(Self.seeds.first { String(decoding: $0, as: UTF8.self).contains(#""revocationPercentage":33333"#) })
        let report = try await body.run(seed).get()
        #expect(report == AppStoreNotificationFuzzBody.Report(verdict: .revocationRecorded, gems: 200))
    }

    @Test(arguments: generatorSeeds)
    func seededRandomAndMutatedInputsBreakNoInvariant(generatorSeed: UInt64) async throws {
        let body = try Self.body()
        let seeds = Self.seeds
        try #require(!seeds.isEmpty)
        var random = Xorshift(seed: generatorSeed)
        var tally: [AppStoreNotificationFuzzBody.Verdict: Int] = [:]
        for run in 0..<Self.runCountMax {
            let input: [UInt8]
            if run % 10 == 9 {
                input = (0..<random.below(256)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            } else {
                input = mutate(seeds[random.below(seeds.count)], seeds: seeds, random: &random)
            }
            switch await body.run(input) {
            case .success(let report): tally[report.verdict, default: 0] += 1
            case .failure(let violation):
                Issue.record("run \(run), input \(String(decoding: input, as: UTF8.self)): \(violation)")
                return
            }
        }
        #expect(tally.values.reduce(0, +) == Self.runCountMax)
        // The mutations keep reaching the ledger, not only the parser.
        #expect(tally[.revocationRecorded, default: 0] > Self.runCountMax / 50, "\(tally)")
        #expect(tally[.rejected, default: 0] > Self.runCountMax / 10, "\(tally)")
    }

    /// One to `mutationCountMax` edits of `seed`: a token spliced in, a byte flipped, a range
    /// deleted, a number replaced, or a crossover with another seed; the mode bytes are kept.
    private func mutate(_ seed: [UInt8], seeds: [[UInt8]], random: inout Xorshift) -> [UInt8] {
        var bytes = seed
        let prefix = bytes.first.map { $0 % 3 == 2 ? 2 : 1 } ?? 0
        for _ in 0...random.below(Self.mutationCountMax) where bytes.count > prefix {
            let at = prefix + random.below(bytes.count - prefix)
            switch random.below(5) {
            case 0: bytes.insert(contentsOf: Array(Self.tokens[random.below(Self.tokens.count)].utf8), at: at)
            case 1: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
            case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(16)))
            case 3: replaceNumber(in: &bytes, from: at, random: &random)
            default:
                let other = seeds[random.below(seeds.count)]
                let cut = min(other.count, prefix + random.below(max(1, other.count - prefix)))
                bytes = Array(bytes[..<at]) + Array(other[cut...])
            }
        }
        return Array(bytes.prefix(Self.inputByteCountMax))
    }

    /// Replaces the first run of digits at or after `from` with a boundary number.
    private func replaceNumber(in bytes: inout [UInt8], from: Int, random: inout Xorshift) {
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard let start = bytes[from...].firstIndex(where: isDigit) else { return }
        let end = bytes[start...].firstIndex { !isDigit($0) } ?? bytes.count
        let numbers = Self.tokens.prefix(17)
        bytes.replaceSubrange(start..<end, with: Array(numbers[numbers.startIndex + random.below(numbers.count)].utf8))
    }
}

/// A small deterministic generator (xorshift64*), so every CI run tries the same inputs.
struct Xorshift {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A number in `0..<bound` (0 when `bound` is not positive).
    mutating func below(_ bound: Int) -> Int {
        bound > 0 ? Int(next() % UInt64(bound)) : 0
    }
}
