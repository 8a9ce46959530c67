import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteFaultVFS
import SQLiteLedgerStore

/// When the power goes, relative to releasing the store.
enum IOFaultLossMoment: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The store is still open: its connection never closes cleanly, as in a real outage.
    case whileOpen
    /// The store was released first: its close checkpointed and synced the WAL.
    case afterRelease

    var description: String { rawValue }
}

/// A power-loss scenario: a stream of purchases by several players granted through a
/// fault VFS in power-loss mode, a simulated loss, and a reopened store to inspect.
struct IOFaultPowerLoss {
    static let players = ["q0", "q1", "q2", "q3"]
    /// Unlimited consumables, cycled; each player also buys the starter bundle once.
    static let products = ["test.gems_small", "test.coins_pack", "test.gems_large"]

    let catalog: ProductCatalog
    let vfs: SQLiteFaultVFS
    let path: String
    let synchronous: SQLiteLedgerStore.Synchronous
    let clock = ManualClock()
    let testStore: TestStore

    init(catalog: ProductCatalog, vfs: SQLiteFaultVFS, path: String, synchronous: SQLiteLedgerStore.Synchronous) {
        self.catalog = catalog
        self.vfs = vfs
        self.path = path
        self.synchronous = synchronous
        testStore = TestStore(clock: clock)
    }

    /// The `index`-th purchase of the stream, made at the platform.
    func purchase(_ index: Int) -> TransactionSubmission {
        let player = Self.players[index % Self.players.count]
        let round = index / Self.players.count
        let product = round == 1 ? "test.starter_bundle" : Self.products[(index + round) % Self.products.count]
        clock.advance(seconds: 1)
        return testStore.purchase(storeProductID: product, playerID: player)
    }

    func openStore(openCheck: SQLiteLedgerStore.OpenCheck = .quick) throws(LedgerError) -> Ledger {
        var options = SQLiteLedgerStore.Options()
        options.vfsName = vfs.name
        options.synchronous = synchronous
        options.openCheck = openCheck
        return try Ledger(
            catalog: catalog, store: SQLiteLedgerStore(path: path, options: options), verifier: testStore.verifier,
            finisher: testStore, source: testStore, clock: clock, configuration: .sandbox)
    }

    /// Grants purchases `range` in order and returns the records in commit order.
    func grant(_ range: Range<Int>, on ledger: Ledger) async throws -> [TransactionRecord] {
        var granted: [TransactionRecord] = []
        for index in range {
            let outcome = try await ledger.fulfill(purchase(index))
            guard outcome.name == "granted", let record = outcome.receipt?.record else {
                throw LedgerError.invalidArgument("purchase \(index) was not granted: \(outcome)")
            }
            granted.append(record)
        }
        return granted
    }

    /// What each player should hold given these records.
    static func holdings(of records: [TransactionRecord]) -> [String: IOFaultHoldings] {
        var result: [String: IOFaultHoldings] = [:]
        for player in players { result[player] = IOFaultHoldings(balances: [:], inventory: [:]) }
        for record in records {
            for line in record.grants {
                switch line.kind {
                case .currency: result[record.playerID]?.balances[line.id, default: 0] += line.quantity
                case .item: result[record.playerID]?.inventory[line.id, default: 0] += line.quantity
                case .entitlement: break
                }
            }
        }
        return result
    }

    /// What the reopened ledger holds: which of `granted` survive, and each player's holdings.
    static func survey(
        _ ledger: Ledger, granted: [TransactionRecord]
    ) async throws(LedgerError) -> (survivors: [TransactionRecord], holdings: [String: IOFaultHoldings]) {
        var survivors: [TransactionRecord] = []
        for record in granted {
            let key = record.key
            if try await ledger.store.read({ reader throws(LedgerError) in try reader.transaction(key) }) != nil {
                survivors.append(record)
            }
        }
        var holdings: [String: IOFaultHoldings] = [:]
        for player in players { holdings[player] = await IOFaultHoldings(holding: try ledger.player(player)) }
        return (survivors, holdings)
    }
}
