import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteFaultVFS
import SQLiteLedgerStore

/// A player's currencies and items, for comparing what they hold with what their ledger
/// records granted.
struct IOFaultHoldings: Equatable, CustomStringConvertible {
    var balances: [String: Int64] = [:]
    var inventory: [String: Int64] = [:]

    /// What the snapshot says the player holds.
    init(holding snapshot: PlayerSnapshot) {
        balances = snapshot.balances.filter { $0.value != 0 }
        inventory = snapshot.inventory.filter { $0.value != 0 }
    }

    /// The sum of the grants of every transaction in the snapshot's history.
    init(grantedBy snapshot: PlayerSnapshot) {
        for line in snapshot.history.flatMap(\.grants) {
            switch line.kind {
            case .currency: balances[line.id, default: 0] += line.quantity
            case .item: inventory[line.id, default: 0] += line.quantity
            case .entitlement: break
            }
        }
    }

    init(balances: [String: Int64], inventory: [String: Int64]) {
        self.balances = balances
        self.inventory = inventory
    }

    var description: String {
        "balances \(balances.sorted { $0.key < $1.key }), inventory \(inventory.sorted { $0.key < $1.key })"
    }
}

/// Where one run's database lives: tmpfs when there is one, because fsync there costs
/// nothing and the sweep syncs thousands of times.
enum IOFaultFiles {
    static let tmpfsPath = "/dev/shm"

    /// A new empty directory; the caller removes it.
    static func directory() throws -> URL {
        var isDirectory: ObjCBool = false
        let root =
            FileManager.default.fileExists(atPath: tmpfsPath, isDirectory: &isDirectory) && isDirectory.boolValue
            ? URL(fileURLWithPath: tmpfsPath) : FileManager.default.temporaryDirectory
        let url = root.appendingPathComponent("fl-iofault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A unique VFS name within SQLite's registry and its length limit.
    static func vfsName(_ label: String) -> String {
        String("iofault-\(label)-\(UUID().uuidString.prefix(8))".prefix(SQLiteFaultVFS.nameByteCountMax))
    }
}

/// What one workload run saw.
struct IOFaultRun {
    /// Errors thrown by `fulfill`, `recover` or opening the store, and re-submission
    /// errors reported by `recover`.
    var thrown: [LedgerError] = []
    /// Storage failures reported only as text, in a receipt's `finishError` or the recovery
    /// report's `finishesFailed` (the scripted platform outage is left out).
    var finishErrors: [String] = []
    /// Transactions whose `fulfill` threw.
    var failedTransactionIDs: Set<String> = []
    /// Transactions some call (a later `fulfill` or `recover`) answered with `granted`.
    var grantedTransactionIDs: Set<String> = []
    /// Faults fired while the ledger was in use, before the store was released.
    var firedBeforeRelease = 0
    /// Faults fired in all, the release (close and its checkpoint) included.
    var firedTotal = 0

    /// Records what an outcome says about grants and storage failures.
    mutating func note(_ outcome: FulfillmentOutcome) {
        guard let receipt = outcome.receipt else { return }
        if outcome.name == "granted" { grantedTransactionIDs.insert(receipt.record.key.transactionID) }
        if let message = receipt.finishError { noteFinishErrors([message]) }
    }

    /// Keeps the finish errors that come from storage, not from the platform outage.
    mutating func noteFinishErrors(_ messages: some Sequence<String>) {
        finishErrors += messages.filter { $0.contains("sqlite error") }
    }
}

/// The sweep's workload: five purchases by three players, the multi-reward starter bundle
/// among them, one platform-finish outage, then `recover()`; opening and releasing the
/// store are part of it, so faults also land in schema creation and the closing checkpoint.
struct IOFaultWorkload {
    static let purchases: [(productID: String, playerID: String)] = [
        ("test.gems_small", "p1"), ("test.starter_bundle", "p1"), ("test.coins_pack", "p2"),
        ("test.gems_large", "p2"), ("test.gems_small", "p3"),
    ]
    /// The purchase before which the platform's finish port fails once.
    static let finishOutageIndex = 2
    static let players = ["p1", "p2", "p3"]
    /// What each player holds after every purchase is granted exactly once.
    static let expected: [String: IOFaultHoldings] = [
        "p1": IOFaultHoldings(
            balances: ["gems": 600, "coins": 10_000], inventory: ["frost_tower": 1, "revive_token": 3]),
        "p2": IOFaultHoldings(balances: ["coins": 5_000, "gems": 1_200], inventory: [:]),
        "p3": IOFaultHoldings(balances: ["gems": 100], inventory: [:]),
    ]

    let catalog: ProductCatalog
    let clock = ManualClock()
    let testStore: TestStore
    let submissions: [TransactionSubmission]

    /// Makes the purchases at the (simulated) platform; nothing reaches the ledger yet.
    init(catalog: ProductCatalog) {
        self.catalog = catalog
        let store = TestStore(clock: clock)
        testStore = store
        submissions = Self.purchases.map { store.purchase(storeProductID: $0.productID, playerID: $0.playerID) }
    }

    static func options(
        vfs: SQLiteFaultVFS, openCheck: SQLiteLedgerStore.OpenCheck = .quick
    ) -> SQLiteLedgerStore.Options {
        var options = SQLiteLedgerStore.Options()
        options.vfsName = vfs.name
        options.openCheck = openCheck
        // Finish marks ride in the next write or the close, never in a commit of their own at a
        // moment set by the clock: a clean run's I/O calls are the same every run, so each
        // call number the sweep fails is one that call makes.
        options.groupCommit.finishMarkWaitMicrosecondsMax = GroupCommitLimits.finishMarkWaitMicrosecondsLimit
        return options
    }

    func ledger(_ store: SQLiteLedgerStore) throws(LedgerError) -> Ledger {
        try Ledger(
            catalog: catalog, store: store, verifier: testStore.verifier, finisher: testStore, source: testStore,
            clock: clock, configuration: .sandbox)
    }

    /// Opens the store, fulfills every purchase, recovers and releases the store. Never
    /// throws: every failure is recorded in the result.
    func run(path: String, vfs: SQLiteFaultVFS) async -> IOFaultRun {
        var run = IOFaultRun()
        let firedAtStart = vfs.firedCount
        await use(path: path, vfs: vfs, into: &run)
        // `use` has returned, so the store is closed: the close ran.
        run.firedTotal = vfs.firedCount - firedAtStart
        run.firedBeforeRelease -= firedAtStart
        return run
    }

    private func use(path: String, vfs: SQLiteFaultVFS, into run: inout IOFaultRun) async {
        let ledger: Ledger
        do {
            ledger = try self.ledger(SQLiteLedgerStore(path: path, options: Self.options(vfs: vfs)))
        } catch {
            run.thrown.append(error)
            run.firedBeforeRelease = vfs.firedCount
            return
        }
        for (index, submission) in submissions.enumerated() {
            if index == Self.finishOutageIndex { testStore.failNext(.finish) }
            do {
                run.note(try await ledger.fulfill(submission))
            } catch {
                run.thrown.append(error)
                run.failedTransactionIDs.insert(submission.transactionID)
            }
        }
        do {
            let report = try await ledger.recover()
            run.noteFinishErrors(report.finishesFailed.values)
            for outcome in report.resubmitted.values { run.note(outcome) }
            run.thrown += report.resubmitErrors.values
            if let error = report.sourceError { run.thrown.append(error) }
        } catch {
            run.thrown.append(error)
        }
        run.firedBeforeRelease = vfs.firedCount
        // The close is part of the workload: faults land in its checkpoint too.
        await ledger.store.close()
    }
}
