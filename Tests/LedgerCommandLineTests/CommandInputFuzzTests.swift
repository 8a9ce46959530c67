import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerCommandLine
import LedgerSimulation
import Testing

/// Seeded fuzzing of the stdin bodies of `ledger fulfill`, `revoke` and `restore`, run by
/// `swift test` (and so by CI): valid documents mutated field by field and byte by byte. No
/// input may crash a command; every run ends with a documented exit code, and whatever it
/// prints on stdout is one JSON object. Keys are never joined into strings, so IDs that print
/// alike (store `test` + `a/b`) never collide.
@Suite struct CommandInputFuzzTests {
    /// Inputs per command.
    static let caseCount = 150
    /// Exit codes a command may end with: ok, failure, rejected, usage, data error, no input.
    static let allowedCodes: Set<Int32> = [0, 1, 3, 64, 65, 66]

    static let seeds: [String: [String]] = [
        "fulfill": [
            #"{"transactionID":"t1","productID":"test.gems_small","playerID":"p1"}"#,
            #"{"transactionID":"a/b","productID":"test.remove_ads","playerID":"p1","quantity":1,"originalTransactionID":"a"}"#,
            #"{"store":"test","transactionID":"t2","productID":"test.gems_large","playerID":"p2","quantity":3,"state":"pending","purchaseDate":"2026-11-02T10:00:00Z"}"#,
        ],
        "revoke": [
            #"{"eventID":"e1","store":"test","transactionID":"t1","kind":"fullRefund","eventDate":"2026-11-05T10:00:00Z"}"#,
            #"{"eventID":"e2","store":"test","transactionID":"a/b","kind":"partialRefund","quantity":1,"eventDate":"2026-11-05T10:00:00Z"}"#,
            #"{"eventID":"e3","store":"test","transactionID":"t2","kind":"refundReversed","eventDate":"2026-11-06T10:00:00Z","reason":"x"}"#,
        ],
        "restore": [
            #"{"store":"test","transactions":[{"transactionID":"a/b","productID":"test.remove_ads","playerID":"p1"},{"transactionID":"b","productID":"test.gems_small","playerID":"p1"}],"authoritative":true}"#,
            #"[{"transactionID":"t1","productID":"test.gems_small","playerID":"p1"}]"#,
        ],
    ]

    /// Values a mutation may put in a field: extremes, wrong types, hostile strings.
    static let hostileValues: [String] = [
        "-1", "0", "9223372036854775807", "-9223372036854775808", "1e400", "2.5", "true", "null", "[]", "{}",
        #""""#, #""test/a""#, #""steam""#, #""appStore""#, #""playStore""#, #""\u0000""#, #""\ud800""#,
        #""9999-12-31T23:59:59Z""#, #""1969-12-31T23:59:59Z""#, #""not a date""#,
        "\"" + String(repeating: "x", count: 5_000) + "\"",
    ]

    static let fields = [
        "store", "transactionID", "originalTransactionID", "productID", "playerID", "quantity", "state", "verified",
        "environment", "purchaseDate", "revocationDate", "eventID", "kind", "eventDate", "transactions", "authoritative",
        "readAt", "quantyty",
    ]

    /// One mutated input from a seed.
    static func mutate(_ seed: String, _ random: inout SplitMix64) -> [UInt8] {
        var text = seed
        for _ in 0..<(1 + random.below(3)) {
            switch random.below(5) {
            case 0:
                // Replace or add a field with a hostile value.
                let field = fields[random.below(fields.count)]
                let value = hostileValues[random.below(hostileValues.count)]
                if let range = text.range(of: "\"\(field)\":") {
                    let end = text[range.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }) ?? text.endIndex
                    text.replaceSubrange(range.upperBound..<end, with: value)
                } else if let brace = text.firstIndex(of: "{") {
                    text.insert(contentsOf: "\"\(field)\":\(value),", at: text.index(after: brace))
                }
            case 1:
                // Drop a field.
                let field = fields[random.below(fields.count)]
                if let range = text.range(of: "\"\(field)\":") {
                    let end = text[range.upperBound...].firstIndex(of: ",").map { text.index(after: $0) } ?? range.upperBound
                    text.removeSubrange(range.lowerBound..<end)
                }
            case 2:
                // Nest deeply.
                let depth = 1 + random.below(200)
                text = String(repeating: "[", count: depth) + text + String(repeating: "]", count: depth)
            default:
                break
            }
        }
        var bytes = Array(text.utf8)
        if random.below(3) == 0, !bytes.isEmpty {
            // Flip, drop or duplicate a byte.
            let index = random.below(bytes.count)
            switch random.below(3) {
            case 0: bytes[index] ^= UInt8(1 << random.below(8))
            case 1: bytes.remove(at: index)
            default: bytes.insert(bytes[index], at: index)
            }
        }
        return bytes
    }

    @Test(arguments: ["fulfill", "revoke", "restore"])
    func hostileBodiesNeverCrashAndAlwaysExitWithADocumentedCode(command: String) async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        // A ledger that already holds purchases, so revokes and restores find something.
        for seed in Self.seeds["fulfill"] ?? [] {
            _ = await HostileCommandTests.ledgerWithBytes(
                ["fulfill", "--db", db, "--catalog", repoCatalogPath], bytes: Array(seed.utf8))
        }
        var random = SplitMix64(seed: UInt64(command.utf8.count) &* 7_919)
        let seeds = try #require(Self.seeds[command])
        var codes: [Int32: Int] = [:]
        for index in 0..<Self.caseCount {
            let bytes = Self.mutate(seeds[index % seeds.count], &random)
            var arguments = [command, "--db", db, "--catalog", repoCatalogPath]
            if command == "restore" { arguments += ["--player", "p1"] }
            let run = await HostileCommandTests.ledgerWithBytes(arguments, bytes: bytes)
            codes[run.code, default: 0] += 1
            #expect(Self.allowedCodes.contains(run.code), "\(command) exited \(run.code) on \(String(decoding: bytes, as: UTF8.self).prefix(300))")
            if !run.output.isEmpty {
                #expect(
                    (try? JSONSerialization.jsonObject(with: Data(run.output.utf8))) != nil,
                    "stdout is not JSON: \(run.output.prefix(300))")
            }
        }
        #expect(codes[65, default: 0] > 0 && codes[0, default: 0] > 0, "mutations both pass and get refused: \(codes)")
        let doctor = await ledger(["doctor", "--db", db])
        #expect(doctor.code == 0, "the ledger is still healthy: \(doctor.output)")
    }
}
