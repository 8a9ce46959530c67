import CSQLite
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Synchronization
import Testing

@testable import SQLiteLedgerStore

/// Hostile ledger files derived from a real ledger, beyond the crafted ones of `LedgerFileSafetyTests`
/// (which already covers random bytes, foreign and newer crafted databases, a zero-byte file and a
/// damaged last page for the store and the doctor). Each file here must be refused with a typed
/// error naming its path, stay byte-identical, and never reach `Ledger.fulfill`.
@Suite("Hostile ledger files")
struct HostileFileTests {
    @Test("opening a hostile file throws its typed error naming the path, and leaves the file as it was",
        arguments: HostileFile.allCases)
    func storeRefuses(file: HostileFile) async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("hostile.sqlite")
        try await file.write(to: path)
        let before = try contents(path)

        let error = try #require(#expect(throws: LedgerError.self) { _ = try SQLiteLedgerStore(path: path) })
        file.expectRefusal(error, path: path)
        #expect(try contents(path) == before)
        #expect(existingSideFiles(of: path).isEmpty)
        #expect(try directory.fileNames() == ["hostile.sqlite"])
    }

    @Test("no ledger can be built over a hostile file, so fulfill never runs and nothing is granted",
        arguments: HostileFile.allCases)
    func nothingGranted(file: HostileFile) async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("hostile.sqlite")
        try await file.write(to: path)
        let before = try contents(path)

        let attempt = await SpyLedger.openAndFulfill(path: path)
        let error = try #require(attempt.error, "opening must fail before a ledger exists")
        file.expectRefusal(error, path: path)
        #expect(attempt.verifierCalls == 0)
        #expect(attempt.outcome == nil)
        #expect(try contents(path) == before)
    }

    @Test("the doctor refuses or reports a hostile file, and never modifies it", arguments: HostileFile.allCases)
    func doctorNeverModifies(file: HostileFile) async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("hostile.sqlite")
        try await file.write(to: path)
        let before = try contents(path)

        let result = Result { () throws(LedgerError) in try LedgerDoctor.examine(path: path) }
        switch (file.doctorVerdict, result) {
        case (.throwsLikeTheStore, .failure(let error)):
            file.expectRefusal(error, path: path)
        case (.reportsDamage, .success(let report)):
            // The doctor's job is to describe a damaged ledger, so it reports rather than throws.
            #expect(report.path == path)
            #expect(!report.healthy)
            #expect(report.integrity != ["ok"] && !report.integrity.isEmpty)
        case (.reportsDamage, .failure(let error)):
            // Damage the check cannot step around stops the report itself: still typed, still naming the file.
            #expect(error.description.contains(path), "\(error)")
        default:
            Issue.record("unexpected doctor result \(result)")
        }
        #expect(try contents(path) == before)
        #expect(try noJournalDataBeside(path))
    }

    @Test("a flipped byte in a table page is what quick_check on open catches; with no check the file opens",
        arguments: [HostileFile.flippedBalancesPageByte, .flippedTransactionsPageByte])
    func flipIsCaughtByTheOpenCheck(file: HostileFile) async throws {
        #expect(SQLiteLedgerStore.Options().openCheck == .quick)
        let directory = try ScratchDirectory()
        let path = directory.path("hostile.sqlite")
        try await file.write(to: path)
        let before = try contents(path)
        let table = try #require(file.damagedTable)
        let page = try await RealLedger.fixture.get().rootPages[table] ?? 0

        let error = try #require(#expect(throws: LedgerError.self) { _ = try SQLiteLedgerStore(path: path) })
        guard case .integrityCheckFailed(let found, let detail) = error else {
            Issue.record("expected integrityCheckFailed, got \(error)")
            return
        }
        #expect(found == path)
        // quick_check either lists the damaged page or stops on it with SQLite's corruption message.
        #expect(
            detail.contains("page \(page)") || detail.contains("malformed"),
            "the report should point at page \(page) of \(table): \(detail)")

        // Without the check the damage goes unseen at open: the check is the detector.
        var unchecked = SQLiteLedgerStore.Options()
        unchecked.openCheck = .none
        await (try SQLiteLedgerStore(path: path, options: unchecked)).close()
        #expect(try contents(path) == before)
        #expect(existingSideFiles(of: path).isEmpty)
    }

    @Test("a zero-byte file is a new, empty database: the doctor leaves it at zero bytes, the store initialises it")
    func zeroByteFile() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("empty.sqlite")
        try #require(FileManager.default.createFile(atPath: path, contents: Data()))

        // LedgerFileSafetyTests checks the doctor's error; here, that repeated examinations change nothing.
        for _ in 1...2 {
            #expect(throws: LedgerError.notALedger(location: path, detail: "the database is empty")) {
                _ = try LedgerDoctor.examine(path: path)
            }
            #expect(try contents(path).isEmpty)
        }
        // SQLite treats a 0-byte file as an empty database, and so does the store: it is a new ledger.
        let attempt = await SpyLedger.openAndFulfill(path: path)
        #expect(attempt.error == nil, "\(String(describing: attempt.error))")
        #expect(attempt.outcome?.name == "granted")
        #expect(try LedgerDoctor.examine(path: path).healthy)
    }

    @Test("a path in a missing directory is refused, and nothing is created")
    func missingDirectory() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("absent/ledger.sqlite")

        let created = try #require(#expect(throws: LedgerError.self) { _ = try SQLiteLedgerStore(path: path) })
        guard case .storage(let failure) = created else {
            Issue.record("expected a storage error for a file that cannot be created, got \(created)")
            return
        }
        #expect(failure.sqliteResultCode == SQLITE_CANTOPEN)
        #expect(created.description.contains(path) && created.description.contains("directory does not exist"))

        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = false
        #expect(throws: LedgerError.ledgerMissing(location: path)) { _ = try SQLiteLedgerStore(path: path, options: options) }
        #expect(throws: LedgerError.ledgerMissing(location: path)) { _ = try LedgerDoctor.examine(path: path) }
        #expect(LedgerError.ledgerMissing(location: path).description.contains(path))

        let attempt = await SpyLedger.openAndFulfill(path: path)
        #expect(attempt.error != nil)
        #expect(attempt.verifierCalls == 0)
        #expect(try directory.fileNames().isEmpty, "neither the directory nor the file may be created")
    }

    @Test("a read-only (0444) ledger: root bypasses the permission, so it opens and writes like any other")
    func readOnlyLedgerAsRoot() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("readonly.sqlite")
        try await Data(RealLedger.fixture.get().bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let before = try contents(path)

        guard geteuid() == 0 else {
            // Not root: the file mode is enforced. SQLite falls back to a read-only connection, so the
            // open succeeds and the first write fails; see `readOnlyLedgerWithoutPrivilege`.
            let attempt = await SpyLedger.openAndFulfill(path: path)
            #expect(attempt.storageResultCode == SQLITE_READONLY)
            #expect(try contents(path) == before)
            return
        }
        // Root has CAP_DAC_OVERRIDE: open(2) grants O_RDWR despite 0444, so SQLite sees a writable file.
        // This is documented behaviour, not a ledger decision: the file mode protects nothing from root.
        let attempt = await SpyLedger.openAndFulfill(path: path)
        #expect(attempt.error == nil, "\(String(describing: attempt.error))")
        #expect(attempt.verifierCalls == 1)
        #expect(attempt.outcome?.name == "granted")
        #expect(try contents(path) != before, "root wrote the grant into the 0444 file")
        #expect(existingSideFiles(of: path).isEmpty)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o444, "SQLite does not change the file mode")
    }

    @Test("a read-only (0444) ledger without privilege is refused at open, naming the file, and nothing changes")
    func readOnlyLedgerWithoutPrivilege() async throws {
        let directory = try ScratchDirectory()
        // SQLite needs to create the -shm index next to a WAL database, as whichever user opens it.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.url.path)
        let path = directory.path("readonly.sqlite")
        try await Data(RealLedger.fixture.get().bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let before = try contents(path)

        let failure = try Unprivileged.run { () throws -> LedgerError? in
            // SQLite opens O_RDWR, gets EACCES, and silently retries O_RDONLY; the store notices at once.
            do throws(LedgerError) {
                _ = try SQLiteLedgerStore(path: path)
                return nil
            } catch {
                return error
            }
        }
        let error = try #require(failure, "opening a read-only file for writing must fail")
        guard case .storage(let storage) = error else {
            Issue.record("expected a storage error, got \(error)")
            return
        }
        #expect(storage.sqliteResultCode == SQLITE_READONLY)
        #expect(storage.message.contains("read-only"))
        #expect(error.description.contains(path))
        #expect(try contents(path) == before)
        #expect(try noJournalDataBeside(path))
    }
}

extension HostileFileTests {
    /// The hostile files, each derived from `RealLedger.fixture` or written outright.
    enum HostileFile: String, CaseIterable, CustomTestStringConvertible {
        case randomBytes
        case foreignApplicationID
        case newerUserVersion
        case truncatedToHalf
        case flippedBalancesPageByte
        case flippedTransactionsPageByte

        /// Patched into the real ledger's header at offset 68.
        static let foreignID: Int32 = 0x5452_4B31
        /// Patched into the real ledger's header at offset 60.
        static let newerVersion = LedgerSchema.versionSupported + 1

        /// What the doctor does with the file.
        enum DoctorVerdict { case throwsLikeTheStore, reportsDamage }

        var testDescription: String { rawValue }

        /// The table whose root page `flipped*` damages.
        var damagedTable: String? {
            switch self {
            case .flippedBalancesPageByte: "balances"
            case .flippedTransactionsPageByte: "ledger_transactions"
            default: nil
            }
        }

        var doctorVerdict: DoctorVerdict { damagedTable == nil ? .throwsLikeTheStore : .reportsDamage }

        /// Checks the typed error for this file: its case and that its message names the file.
        func expectRefusal(_ error: LedgerError, path: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(matches(error, path: path), "unexpected error \(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(path), "the message must name the file: \(error)", sourceLocation: sourceLocation)
        }

        func write(to path: String) async throws {
            let ledger = try await RealLedger.fixture.get()
            var bytes = ledger.bytes
            switch self {
            case .randomBytes:
                var generator = SystemRandomNumberGenerator()
                bytes = (0..<ledger.bytes.count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case .foreignApplicationID:
                await bytes.replaceSubrange(68..<72, with: Self.bigEndian(UInt32(bitPattern: Self.foreignID)))
            case .newerUserVersion:
                await bytes.replaceSubrange(60..<64, with: Self.bigEndian(UInt32(Self.newerVersion)))
            case .truncatedToHalf:
                bytes.removeLast(bytes.count / 2)
            case .flippedBalancesPageByte, .flippedTransactionsPageByte:
                let page = try #require(ledger.rootPages[damagedTable ?? ""])
                let start = (page - 1) * ledger.pageSize
                // Both tables are WITHOUT ROWID, so their b-trees are index b-trees: 0x0A on a leaf page,
                // 0x02 on an interior one (0x0D and 0x05 for rowid tables). The page header is 8 bytes on a
                // leaf and 12 on an interior page; the cell pointer array follows. Flipping the high byte of
                // the first pointer sends it past the end of the page: structural damage, unlike a flip inside
                // a row's payload, which no check can see because SQLite pages carry no checksum.
                try #require([0x02, 0x05, 0x0A, 0x0D].contains(bytes[start]), "page \(page) is not a b-tree page")
                let headerSize = [0x0A, 0x0D].contains(bytes[start]) ? 8 : 12
                bytes[start + headerSize] ^= 0xFF
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }

        func matches(_ error: LedgerError, path: String) -> Bool {
            switch (self, error) {
            case (.randomBytes, .notALedger(let found, _)), (.truncatedToHalf, .notALedger(let found, _)),
                (.truncatedToHalf, .integrityCheckFailed(let found, _)):
                return found == path
            case (.foreignApplicationID, .foreignDatabase(let found, let id)):
                return found == path && id == Self.foreignID
            case (.newerUserVersion, .newerSchema(let found, let version, let supported)):
                return found == path && version == Self.newerVersion && supported == LedgerSchema.versionSupported
            case (.flippedBalancesPageByte, .integrityCheckFailed(let found, _)),
                (.flippedTransactionsPageByte, .integrityCheckFailed(let found, _)):
                return found == path
            default:
                return false
            }
        }

        private static func bigEndian(_ value: UInt32) async -> [UInt8] {
            [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }
    }

    /// A real ledger with a few hundred transactions and forty players' balances, written once per run.
    struct RealLedger: Sendable {
        var bytes: [UInt8]
        var pageSize: Int
        /// The root page of each table, from `sqlite_schema`.
        var rootPages: [String: Int]

        /// Why the fixture could not be written.
        struct Failure: Error, Sendable, CustomStringConvertible { var description: String }

        /// Written once per test run, by whichever test asks first.
        private static let making = Task { () -> Result<RealLedger, Failure> in
            do { return .success(try await make()) } catch { return .failure(Failure(description: "\(error)")) }
        }

        static var fixture: Result<RealLedger, Failure> { get async { await making.value } }

        private static func make() async throws -> RealLedger {
            let directory = try ScratchDirectory()
            let path = directory.path("real.sqlite")
            do {
                var options = SQLiteLedgerStore.Options()
                options.synchronous = .normal
                let store = try SQLiteLedgerStore(path: path, options: options)
                try await store.write { writer throws(LedgerError) in
                    for number in 0..<300 {
                        let player = "p\(number % 40)"
                        try writer.insertTransaction(Rows.record("t\(number)", player: player))
                        _ = try writer.addToBalance(playerID: player, currencyID: "gems", delta: 100)
                        try writer.appendEvent(Rows.event(player, "granted t\(number)"))
                    }
                }
                await store.close()
            }
            // Closing the store checkpoints the WAL into the file and removes it.
            try #require(existingSideFiles(of: path).isEmpty)
            let bytes = [UInt8](try contents(path))
            let (pageSize, rootPages) = try { () throws -> (Int, [String: Int]) in
                let raw = try RawDatabase(path: path, readOnly: true)
                var pages: [String: Int] = [:]
                for table in ["balances", "ledger_transactions"] {
                    pages[table] = Int(try raw.integer("SELECT rootpage FROM sqlite_schema WHERE name = '\(table)'"))
                }
                return (Int(try raw.integer("PRAGMA page_size")), pages)
            }()
            try #require(bytes.count / pageSize > 8, "the fixture must span many pages")
            return RealLedger(bytes: bytes, pageSize: pageSize, rootPages: rootPages)
        }
    }

    /// Opens a file as the command line does and, only if that succeeds, builds a ledger and submits a
    /// purchase its verifier would vouch for: how often the verifier ran tells whether fulfill ran.
    enum SpyLedger {
        struct Attempt {
            var error: LedgerError?
            var verifierCalls: Int
            var outcome: FulfillmentOutcome?

            var storageResultCode: Int32? {
                if case .storage(let failure) = error { return failure.sqliteResultCode }
                return nil
            }
        }

        static func openAndFulfill(path: String) async -> Attempt {
            let verifier = VouchingVerifier()
            do {
                let catalog = try CatalogLoader.parse(Array(catalogText.utf8))
                let store = try SQLiteLedgerStore(path: path)
                let ledger = try Ledger(
                    catalog: catalog, store: store, verifier: verifier, finisher: NothingToFinish(), configuration: .sandbox)
                let outcome = try await ledger.fulfill(
                    TransactionSubmission(
                        store: .test, transactionID: "hostile-t1", storeProductID: "test.gems", playerID: "p1", payload: "{}"))
                await store.close()
                return Attempt(error: nil, verifierCalls: verifier.calls.withLock { $0 }, outcome: outcome)
            } catch {
                return Attempt(error: error, verifierCalls: verifier.calls.withLock { $0 }, outcome: nil)
            }
        }

        static let catalogText = """
            { "schemaVersion": 1, "currencies": [{ "id": "gems" }], "items": [], "entitlements": [],
              "products": [{ "id": "gems_small", "kind": "consumable", "storeProductIDs": { "test": "test.gems" },
                             "rewards": { "currencies": [{ "id": "gems", "amount": 100 }] } }] }
            """

        /// Vouches for every submission, and counts the calls.
        final class VouchingVerifier: TransactionVerifier {
            let calls = Mutex(0)
            var supportedEnvironments: Set<StoreEnvironment> { [.sandbox] }

            func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
                calls.withLock { $0 += 1 }
                return .verified(
                    VerifiedTransaction(
                        store: submission.store, transactionID: submission.transactionID, storeProductID: submission.storeProductID,
                        accountBinding: nil, quantity: submission.quantity, state: .purchased, environment: .sandbox,
                        purchaseDate: Rows.date))
            }
        }

        struct NothingToFinish: PlatformFinisher {
            func finish(_ request: FinishRequest) async throws(LedgerError) {}
        }
    }

    /// Runs `body` with this thread's filesystem user set to `nobody`, so file modes are enforced even
    /// when the tests run as root. Linux keeps the filesystem UID (and the file capabilities that go with
    /// it) per thread, so other tests are unaffected; `body` must not suspend.
    enum Unprivileged {
        private typealias SetFSUID = @convention(c) (UInt32) -> Int32
        static let nobody: UInt32 = 65_534

        static func run<T>(_ body: () throws -> T) throws -> T {
            guard geteuid() == 0 else { return try body() }
            let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), "setfsuid"), "setfsuid is not available")
            let setfsuid = unsafeBitCast(symbol, to: SetFSUID.self)
            let previous = UInt32(bitPattern: setfsuid(nobody))
            defer { _ = setfsuid(previous) }
            try #require(setfsuid(nobody) == Int32(bitPattern: nobody), "the filesystem UID did not change")
            return try body()
        }
    }
}
