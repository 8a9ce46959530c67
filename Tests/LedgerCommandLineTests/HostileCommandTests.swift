import Foundation
import FulfillmentLedgerTesting
import LedgerCommandLine
import Synchronization
import Testing

/// Hostile ledger files and hostile stdin through `ledger fulfill`, `ledger revoke` and
/// `ledger catalog check`, in process: a JSON error or a rejection with its exit code, the file
/// byte-identical, and nothing granted. The library-level cases are in
/// `HostileFileTests` (SQLiteLedgerStoreTests) and `HostileInputTests` (FulfillmentLedgerTests).
@Suite("Hostile command input")
struct HostileCommandTests {
    static let purchase = #"{"transactionID":"t1","productID":"test.gems_small","playerID":"p1"}"#

    // MARK: - Hostile ledger files

    /// The files `ledger fulfill` is pointed at, crafted byte by byte from a real ledger.
    enum HostileFile: String, CaseIterable, CustomTestStringConvertible {
        case zeroBytes, randomBytes, foreignApplicationID, newerUserVersion, truncatedToHalf
        case flippedTransactionsPageByte, readOnlyFile, missingDirectory

        var testDescription: String { rawValue }

        /// The `error.name` `ledger fulfill` must print, or nil where the documented outcome is a grant.
        var errorName: String? {
            switch self {
            case .zeroBytes: nil  // SQLite and the store treat a 0-byte file as a new, empty database.
            case .readOnlyFile: geteuid() == 0 ? nil : "ledger.storage"  // Root ignores the file mode.
            case .randomBytes: "ledger.notALedger"
            case .foreignApplicationID: "ledger.foreignDatabase"
            case .newerUserVersion: "ledger.newerSchema"
            case .truncatedToHalf: "ledger.integrityCheckFailed"
            case .flippedTransactionsPageByte: "ledger.integrityCheckFailed"
            case .missingDirectory: "ledger.storage"
            }
        }

        /// Writes the file into `directory` and returns the path to give `--db`.
        func make(in directory: ScratchDirectory, from ledger: [UInt8]) throws -> String {
            if self == .missingDirectory { return directory.path("absent/ledger.sqlite") }
            let path = directory.path("ledger.sqlite")
            var bytes = ledger
            switch self {
            case .zeroBytes: bytes = []
            case .randomBytes:
                var generator = SystemRandomNumberGenerator()
                bytes = (0..<ledger.count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case .foreignApplicationID: bytes.replaceSubrange(68..<72, with: [0x54, 0x52, 0x4B, 0x31])
            case .newerUserVersion: bytes.replaceSubrange(60..<64, with: [0, 0, 0, 99])
            case .truncatedToHalf: bytes.removeLast(bytes.count / 2)
            case .flippedTransactionsPageByte:
                // ledger_transactions is the first table migration 1 creates, so its b-tree is rooted at
                // page 2. The header's page size is big-endian at offset 16 (1 means 65 536).
                let size = Int(bytes[16]) << 8 | Int(bytes[17])
                let start = size == 1 ? 65_536 : size
                try #require([0x02, 0x05, 0x0A, 0x0D].contains(bytes[start]), "page 2 is not a b-tree page")
                // High byte of the first cell pointer, after an 8-byte leaf or 12-byte interior header.
                bytes[start + ([0x0A, 0x0D].contains(bytes[start]) ? 8 : 12)] ^= 0xFF
            case .readOnlyFile, .missingDirectory: break
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            if self == .readOnlyFile {
                try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            }
            return path
        }
    }

    /// A real ledger written by `ledger fulfill`: a dozen purchases by four players.
    static func realLedger() async throws -> [UInt8] {
        let directory = try ScratchDirectory()
        let db = directory.path("real.sqlite")
        for number in 0..<12 {
            let document = #"{"transactionID":"r\#(number)","productID":"test.gems_small","playerID":"p\#(number % 4 + 2)"}"#
            let run = await ledger(["fulfill", "--db", db, "--catalog", repoCatalogPath], input: document)
            try #require(run.code == 0, "\(run.error)")
        }
        try #require(try directory.fileNames() == ["real.sqlite"], "the WAL is checkpointed and removed on close")
        return [UInt8](try contents(db))
    }

    @Test("ledger fulfill on a hostile ledger file exits 1 with a JSON error naming it, and changes nothing",
        arguments: HostileFile.allCases)
    func fulfillOnHostileFile(file: HostileFile) async throws {
        let directory = try ScratchDirectory()
        let db = try file.make(in: directory, from: try await Self.realLedger())
        let before = file == .missingDirectory ? nil : try contents(db)
        let namesBefore = try directory.fileNames()

        let run = await ledger(["fulfill", "--db", db, "--catalog", repoCatalogPath], input: Self.purchase)

        guard let errorName = file.errorName else {
            // The documented outcomes that are not refusals: a new database, or root writing a 0444 file.
            #expect(run.code == 0, "\(run.output)\(run.error)")
            #expect(try run.json()["outcome"] as? String == "granted")
            return
        }
        #expect(run.code == 1, "\(run.output)\(run.error)")
        let error = try #require(try run.json()["error"] as? [String: Any], "stdout: \(run.output)")
        let name = error["name"] as? String
        let message = error["message"] as? String ?? ""
        #expect(error["code"] is Int)
        #expect(run.error.contains("ledger fulfill: "))
        #expect(name == errorName, "\(message)")
        #expect(message.contains(db), "the message must name the file: \(message)")
        if let before { #expect(try contents(db) == before, "the file was modified") }
        #expect(try directory.fileNames() == namesBefore, "files were created or removed")
    }

    // MARK: - Hostile stdin

    /// Runs `ledger` with raw bytes on stdin, which `CapturedIO` (text only) cannot serve.
    static func ledgerWithBytes(_ arguments: [String], bytes: [UInt8]) async -> LedgerRun {
        let captured = Mutex<(output: String, error: String)>(("", ""))
        let input = Data(bytes)
        let io = CommandIO(
            writeOutput: { text in captured.withLock { $0.output += text } },
            writeError: { text in captured.withLock { $0.error += text } },
            readInput: { byteCountMax in input.count > byteCountMax ? nil : input })
        let code = await LedgerCommandLine.run(arguments, io: io)
        return captured.withLock { LedgerRun(code: code, output: $0.output, error: $0.error) }
    }

    /// A named stdin document with the exit code and the words (on stdout or stderr) it must produce.
    struct HostileStdin: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var code: Int32
        var words: String
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ code: Int32, _ words: String) {
            self.init(name, Array(text.utf8), code, words)
        }

        init(_ name: String, _ bytes: [UInt8], _ code: Int32, _ words: String) {
            (self.name, self.bytes, self.code, self.words) = (name, bytes, code, words)
        }
    }

    static func purchase(with member: String) -> String { String(purchase.dropLast()) + "," + member + "}" }

    static let hostileTransactions: [HostileStdin] = [
        HostileStdin("invalid UTF-8", Array(#"{"transactionID":""#.utf8) + [0xFF, 0xFE] + Array(#"","productID":"test.gems_small","playerID":"p1"}"#.utf8), 65, "not a transaction object"),
        HostileStdin("NUL bytes", [UInt8](repeating: 0, count: 32), 65, "not a transaction object"),
        HostileStdin("30 000 nested arrays", String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000), 65, "not a transaction object"),
        HostileStdin("100 000 nested arrays", String(repeating: "[", count: 100_000), 65, "larger than"),
        HostileStdin("a 10 MB transaction ID", #"{"transactionID":""# + String(repeating: "t", count: 10 * 1024 * 1024) + #""}"#, 65, "larger than"),
        HostileStdin("a 60 KB transaction ID", #"{"transactionID":""# + String(repeating: "t", count: 60 * 1024) + #"","productID":"test.gems_small","playerID":"p1"}"#, 65, "argument.invalid"),
        HostileStdin("an overflowing quantity", purchase(with: #""quantity":9223372036854775808"#), 65, "not a transaction object"),
        HostileStdin("quantity -1", purchase(with: #""quantity":-1"#), 3, "invalidQuantity"),
        HostileStdin("quantity Int.max", purchase(with: #""quantity":9223372036854775807"#), 3, "invalidQuantity"),
        HostileStdin("state refunded", purchase(with: #""state":"refunded""#), 3, "cancelled"),
        HostileStdin("store epicGames", purchase(with: #""store":"epicGames""#), 65, "is not one of appStore, playStore, stripe, steam, test"),
        HostileStdin("environment xcode", purchase(with: #""environment":"xcode""#), 3, "wrongEnvironment"),
    ]

    @Test("ledger fulfill refuses hostile stdin with its exit code, and grants nothing", arguments: hostileTransactions)
    func fulfillHostileStdin(input: HostileStdin) async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        let run = await Self.ledgerWithBytes(["fulfill", "--db", db, "--catalog", repoCatalogPath], bytes: input.bytes)
        #expect(run.code == input.code, "\(run.output)\(run.error)")
        #expect((run.output + run.error).contains(input.words), "\(run.output)\(run.error)")
        if !run.output.isEmpty { _ = try run.json() }
        try await Self.expectNothingGranted(db: db, directory: directory)
    }

    static let revocation = #"{"eventID":"e1","store":"test","transactionID":"t1","kind":"fullRefund","eventDate":"2026-11-29T12:00:00Z"}"#

    static func revocation(with member: String) -> String {
        revocation.replacingOccurrences(of: #""kind":"fullRefund""#, with: member)
    }

    static let hostileRevocations: [HostileStdin] = [
        HostileStdin("invalid UTF-8", Array(#"{"eventID":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), 65, "not a revocation event"),
        HostileStdin("12 000 nested objects", String(repeating: #"{"a":"#, count: 12_000), 65, "not a revocation event"),
        HostileStdin("100 000 nested arrays", String(repeating: "[", count: 100_000), 65, "larger than"),
        HostileStdin("kind subscription", revocation(with: #""kind":"subscription""#), 3, "unsupportedEvent"),
        HostileStdin("kind as a number", revocation(with: #""kind":1"#), 65, "kind"),
        HostileStdin("partial quantity -1", revocation(with: #""kind":"partialRefund","quantity":-1"#), 3, "invalidQuantity"),
        HostileStdin("partial quantity Int.max", revocation(with: #""kind":"partialRefund","quantity":9223372036854775807"#), 3, "invalidQuantity"),
        HostileStdin("an overflowing quantity", revocation(with: #""kind":"partialRefund","quantity":99999999999999999999"#), 65, "not a revocation event"),
        HostileStdin("a 60 KB event ID", revocation.replacingOccurrences(of: #""e1""#, with: "\"" + String(repeating: "e", count: 60 * 1024) + "\""), 65, "argument.invalid"),
    ]

    @Test("ledger revoke refuses hostile stdin with its exit code, and takes nothing back", arguments: hostileRevocations)
    func revokeHostileStdin(input: HostileStdin) async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        let bought = await ledger(["fulfill", "--db", db, "--catalog", repoCatalogPath], input: Self.purchase)
        try #require(bought.code == 0, "\(bought.error)")
        let before = try await playerSnapshot("p1", db: db)

        let run = await Self.ledgerWithBytes(["revoke", "--db", db, "--catalog", repoCatalogPath], bytes: input.bytes)
        #expect(run.code == input.code, "\(run.output)\(run.error)")
        #expect((run.output + run.error).contains(input.words), "\(run.output)\(run.error)")
        let after = try await playerSnapshot("p1", db: db)
        #expect(after["balances"] as? [String: Int] == before["balances"] as? [String: Int])
        #expect((after["balances"] as? [String: Int]) == ["gems": 100])
    }

    /// Hostile catalog files, and the exit code and words `ledger catalog check` must answer with.
    static let hostileCatalogs: [HostileStdin] = [
        HostileStdin("100 000 nested arrays", String(repeating: "[", count: 100_000), 65, "nested too deeply"),
        HostileStdin("invalid UTF-8", Array(#"{ "schemaVersion": 1, "currencies": [{ "id": "g"#.utf8) + [0xFF] + Array(#"" }] }"#.utf8), 65, "invalid UTF-8"),
        HostileStdin("NUL bytes", [UInt8](repeating: 0, count: 32), 65, "not valid JSON"),
        HostileStdin("a 10 MB field", #"{ "schemaVersion": 1, "name": ""# + String(repeating: "x", count: 10 * 1024 * 1024) + #"" }"#, 66, "at most"),
        HostileStdin("kind subscription", catalog(kind: "subscription", amount: "100"), 65, "subscription"),
        HostileStdin("an overflowing amount", catalog(kind: "consumable", amount: "99999999999999999999"), 65, "overflows"),
        HostileStdin("amount Int64.max", catalog(kind: "consumable", amount: "9223372036854775807"), 65, "too large"),
    ]

    static func catalog(kind: String, amount: String) -> String {
        """
        { "schemaVersion": 1, "currencies": [{ "id": "gems" }], "items": [], "entitlements": [],
          "products": [{ "id": "p", "kind": "\(kind)", "storeProductIDs": { "test": "test.p" },
                         "rewards": { "currencies": [{ "id": "gems", "amount": \(amount) }] } }] }
        """
    }

    @Test("ledger catalog check, and ledger fulfill with that catalog, refuse a hostile catalog and grant nothing",
        arguments: hostileCatalogs)
    func hostileCatalog(input: HostileStdin) async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("catalog.json")
        try Data(input.bytes).write(to: URL(fileURLWithPath: path))

        let check = await ledger(["catalog", "check", path, "--json"])
        #expect(check.code == input.code, "\(check.output.prefix(500))\(check.error.prefix(500))")
        let object = try check.json()
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect(text.contains(input.words), "\(text.prefix(500))")
        if input.code == 66 {
            #expect((object["error"] as? [String: Any])?["message"].map { "\($0)".contains(path) } == true)
        } else {
            #expect(object["valid"] as? Bool == false)
        }

        let db = directory.path("ledger.sqlite")
        let run = await ledger(["fulfill", "--db", db, "--catalog", path], input: Self.purchase)
        #expect(run.code == input.code, "\(run.output.prefix(500))\(run.error.prefix(500))")
        #expect(try run.json()["error"] != nil)
        #expect(!FileManager.default.fileExists(atPath: db), "the catalog is checked before the ledger is opened")
    }

    /// Nothing was granted: either no ledger was created at all, or player p1 owns nothing.
    static func expectNothingGranted(
        db: String, directory: ScratchDirectory, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        guard FileManager.default.fileExists(atPath: db) else {
            #expect(try directory.fileNames().isEmpty, sourceLocation: sourceLocation)
            return
        }
        #expect(try await grantedNothing("p1", db: db), "nothing was granted to p1", sourceLocation: sourceLocation)
    }
}
