import Foundation
import LedgerSimulation
import Testing

/// The HTTP request fuzz target's body (`HTTPRequestFuzzBody`) over its seeds and seeded random
/// and mutated inputs, so CI exercises the parser and the reader without libFuzzer: no crash, no
/// hang, every refusal typed, no broken invariant.
@Suite struct HTTPRequestFuzzTests {
    /// Inputs run per generator seed: mutations of the seeds, and random bytes.
    static let runCountMax = 500
    /// The generator seeds: six runs of 500 inputs, run in parallel.
    static let generatorSeeds: [UInt64] = [0x4854_5450_2F31_2E31, 1, 2, 3, 4, 5]
    /// Most edits made to one input.
    static let mutationCountMax = 3
    /// Longest input the mutator builds, as the fuzz target's `-max_len`.
    static let inputByteCountMax = 4_096
    /// Longest range an edit removes or repeats.
    static let editByteCountMax = 32

    /// The package's root folder, beside which the fuzz target's files are.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The committed seeds of the libFuzzer target (`Fuzz/seeds/http`), by file name.
    static var seeds: [(name: String, bytes: [UInt8])] {
        let folder = packageRoot.appendingPathComponent("Fuzz/seeds/http")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? []
        return names.compactMap { name in
            FileManager.default.contents(atPath: folder.appendingPathComponent(name).path).map { (name, Array($0)) }
        }
    }

    /// The tokens of the libFuzzer dictionary (`Fuzz/http.dict`), which mutations splice in: one
    /// quoted string a line, with `\\`, `\"` and `\xHH` escapes.
    static var tokens: [[UInt8]] {
        let path = packageRoot.appendingPathComponent("Fuzz/http.dict").path
        let text = FileManager.default.contents(atPath: path).map { Array($0) } ?? []
        return text.split(separator: 0x0A).compactMap { line -> [UInt8]? in
            guard line.first != 0x23, let open = line.firstIndex(of: 0x22), line.last == 0x22, open < line.endIndex - 1 else {
                return nil
            }
            var token: [UInt8] = []
            var index = open + 1
            // Each round takes at least one byte of the line.
            while index < line.endIndex - 1 {
                if line[index] == 0x5C, line[index + 1] == 0x78, index + 3 < line.endIndex,
                    let byte = UInt8(String(decoding: line[(index + 2)...(index + 3)], as: UTF8.self), radix: 16)
                {
                    token.append(byte)
                    index += 4
                } else if line[index] == 0x5C {
                    token.append(line[index + 1])
                    index += 2
                } else {
                    token.append(line[index])
                    index += 1
                }
            }
            return token
        }
    }

    @Test func theSeedsCoverEveryVerdictAndRefusal() throws {
        let body = HTTPRequestFuzzBody()
        let seeds = Self.seeds
        #expect(seeds.count >= 12, "the seeds are beside the package in Fuzz/seeds/http")
        var verdicts: Set<HTTPRequestFuzzBody.Verdict> = []
        var statuses: Set<Int> = []
        for seed in seeds {
            switch body.run(seed.bytes) {
            case .success(let report):
                verdicts.insert(report.verdict)
                if let status = report.status { statuses.insert(status) }
            case .failure(let violation): Issue.record("seed \(seed.name): \(violation)")
            }
        }
        #expect(verdicts.isSuperset(of: [.parsed, .read, .refused, .ended]), "\(verdicts)")
        #expect(statuses == HTTPRequestFuzzBody.refusalStatuses.subtracting([408]), "\(statuses)")
    }

    @Test func theDictionaryIsRead() {
        let tokens = Self.tokens
        #expect(tokens.count > 40)
        #expect(tokens.contains(Array("Transfer-Encoding".utf8)))
        #expect(tokens.contains([0x0D, 0x0A]))
        #expect(tokens.contains(Array(#";name="value""#.utf8)))
    }

    /// The body's own chunked decoder, which the reader is held to.
    @Test func theReferenceDecoderReadsChunkedFraming() {
        func decode(_ text: String) -> HTTPRequestFuzzBody.ChunkedReading {
            HTTPRequestFuzzBody.decodeChunked(Array(text.utf8)[...])
        }
        #expect(decode("5;a=1\r\nhello\r\n1 \r\n!\r\n0\r\nX: y\r\n\r\n") == .body(Array("hello!".utf8)))
        #expect(decode("0\r\n\r\n") == .body([]))
        #expect(decode("5\r\nhel") == .incomplete)
        #expect(decode("0\r\nX: y\r\n") == .incomplete)
        #expect(decode("5;\nx\r\nhello\r\n0\r\n\r\n") == .invalid)
        #expect(decode("5x\r\nhello\r\n0\r\n\r\n") == .invalid)
        #expect(decode("5\r\nhelloXX") == .invalid)
        #expect(decode("2001\r\n") == .invalid)
    }

    @Test(arguments: generatorSeeds)
    func seededRandomAndMutatedInputsBreakNoInvariant(generatorSeed: UInt64) throws {
        let body = HTTPRequestFuzzBody()
        let seeds = Self.seeds.map(\.bytes)
        let tokens = Self.tokens
        try #require(!seeds.isEmpty && !tokens.isEmpty)
        var random = SplitMix64(seed: generatorSeed)
        var tally: [HTTPRequestFuzzBody.Mode: [HTTPRequestFuzzBody.Verdict: Int]] = [:]
        for run in 0..<Self.runCountMax {
            let input: [UInt8]
            if run % 10 == 9 {
                input = (0..<random.below(256)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            } else {
                input = Self.mutate(random.pick(seeds), seeds: seeds, tokens: tokens, random: &random)
            }
            switch body.run(input) {
            case .success(let report): tally[report.mode, default: [:]][report.verdict, default: 0] += 1
            case .failure(let violation):
                Issue.record("run \(run), input \(String(decoding: input, as: UTF8.self).debugDescription): \(violation)")
                return
            }
        }
        // The mutations keep reaching whole requests and bodies, not only the first refusals
        // (chunked framing breaks under most edits, so a few in each mode).
        for mode in HTTPRequestFuzzBody.Mode.allCases {
            let verdicts = tally[mode, default: [:]]
            #expect(verdicts[.refused, default: 0] > 0, "\(mode): \(verdicts)")
            #expect(verdicts[mode == .head ? .parsed : .read, default: 0] > Self.runCountMax / 200, "\(mode): \(verdicts)")
        }
    }

    /// One to `mutationCountMax` edits of `seed` after its mode byte: a dictionary token spliced
    /// in, a bit flipped, a byte replaced, a range removed or repeated, or a crossover with
    /// another seed; now and then the mode byte itself changes.
    static func mutate(_ seed: [UInt8], seeds: [[UInt8]], tokens: [[UInt8]], random: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        for _ in 0...random.below(mutationCountMax) where bytes.count > 1 {
            let at = 1 + random.below(bytes.count - 1)
            let end = min(bytes.count, at + 1 + random.below(editByteCountMax))
            switch random.below(6) {
            case 0: bytes.insert(contentsOf: random.pick(tokens), at: at)
            case 1: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
            case 2: bytes[at] = UInt8(truncatingIfNeeded: random.next())
            case 3: bytes.removeSubrange(at..<end)
            case 4: bytes.insert(contentsOf: bytes[at..<end], at: at)
            default:
                let other = random.pick(seeds)
                bytes = Array(bytes[..<at]) + other.dropFirst(min(other.count, 1 + random.below(max(1, other.count))))
            }
        }
        if random.chance(10), !bytes.isEmpty { bytes[0] = 0x30 + UInt8(random.below(3)) }
        return Array(bytes.prefix(inputByteCountMax))
    }
}
