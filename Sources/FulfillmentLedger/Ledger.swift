import Foundation
import Synchronization

/// How a ledger behaves; every limit is named here.
public struct LedgerConfiguration: Sendable {
    /// The store environment this ledger grants for. A production ledger refuses sandbox
    /// transactions and refuses to be built with a verifier that cannot vouch for production.
    public var environment: StoreEnvironment
    /// Most units one transaction may carry.
    public var quantityMax: Int
    /// Most pending finishes one `recover()` call retries.
    public var recoveryFinishCountMax: Int
    /// Most unfinished transactions one `recover()` call asks the transaction source for.
    public var recoverySourceCountMax: Int
    /// Most history entries a player snapshot returns.
    public var historyCountMax: Int
    /// Largest amount of a single economy operation.
    public var operationAmountMax: Int64
    /// Longest ID of the game's own (player, product, operation, event) accepted, in UTF-8 bytes.
    public var identifierByteCountMax: Int
    /// Longest store transaction ID accepted, in UTF-8 bytes. Google Play's purchase token is
    /// the ledger key of a Play purchase and is far longer than other IDs (Google's sample is
    /// about 1,950 characters; the Play adapter accepts up to 4,096). App Store IDs are short
    /// decimal strings.
    public var transactionIDByteCountMax: Int
    /// Longest revocation event ID accepted, in UTF-8 bytes: a store adapter builds some from
    /// a transaction ID and more (the Play voided sync: token, voided time and order ID).
    public var eventIDByteCountMax: Int
    /// The account binding a store must carry for a player, if it carries one at all
    /// (the game sets it as `appAccountToken` / `obfuscatedExternalAccountId`). Default: the player ID.
    public var accountBinding: @Sendable (_ playerID: String) -> String
    /// The account bindings of single stores, each in place of `accountBinding` for its store:
    /// for a game that sets the App Store's `appAccountToken` to a UUID made from the player ID
    /// (it must be a UUID) and Play's `obfuscatedExternalAccountId` to the player ID itself
    /// (so that a Play push names its player). Default: none.
    public var storeAccountBindings: [PlatformStore: @Sendable (_ playerID: String) -> String]
    /// Whether an explicit restore may move a non-consumable from the player who bought
    /// it to the player restoring it. Consumables never move.
    public var ownershipTransfer: OwnershipTransferPolicy
    /// A pending finish older than this is overdue: Google Play refunds purchases not
    /// acknowledged within 3 days, so the default warns after 24 hours.
    public var finishWarningAgeSeconds: Int64
    /// Most transactions one restore call processes.
    public var restoreCountMax: Int
    /// Most revocation events of one transaction considered.
    public var revocationEventCountMax: Int
    /// The attempts journal's bounds (submissions that granted nothing, kept for support).
    public var attemptRetention: AttemptRetention

    /// Creates a configuration for `environment` with default limits.
    public init(environment: StoreEnvironment) {
        self.environment = environment
        self.quantityMax = 100
        self.recoveryFinishCountMax = 1_000
        self.recoverySourceCountMax = 1_000
        self.historyCountMax = 200
        self.operationAmountMax = 1_000_000_000_000
        self.identifierByteCountMax = 256
        self.transactionIDByteCountMax = 4_096
        self.eventIDByteCountMax = 4_608
        self.accountBinding = { $0 }
        self.storeAccountBindings = [:]
        self.ownershipTransfer = .never
        self.finishWarningAgeSeconds = 24 * 60 * 60
        self.restoreCountMax = 1_000
        self.revocationEventCountMax = 1_000
        self.attemptRetention = .standard
    }

    /// The account binding a transaction of `store` must carry for `playerID`: the store's own
    /// binding when `storeAccountBindings` has one, else `accountBinding`.
    public func accountBinding(for store: PlatformStore, playerID: String) -> String {
        (storeAccountBindings[store] ?? accountBinding)(playerID)
    }

    /// Real players, real money.
    public static var production: LedgerConfiguration { LedgerConfiguration(environment: .production) }
    /// Store sandboxes and the test store.
    public static var sandbox: LedgerConfiguration { LedgerConfiguration(environment: .sandbox) }
}

/// Who may own a non-consumable a store transaction paid for.
public enum OwnershipTransferPolicy: String, Hashable, Sendable, CaseIterable {
    /// A transaction fulfilled for one player is rejected for any other (`ownedByAnotherPlayer`).
    case never
    /// An explicit restore by another player moves the non-consumable's entitlements to
    /// that player, and records the move in both players' event logs.
    case nonConsumablesOnRestore
}

/// The fulfillment ledger: turns verified store transactions into exactly-once grants.
///
/// It talks to the world only through the ports given at `init`. The purchase-to-grant
/// path is in `FulfillmentPipeline.swift`.
public final class Ledger: Sendable {
    /// The catalog in force; swapped atomically by `replaceCatalog(_:)` and `reloadCatalog(path:)`.
    private let catalogInForce: Mutex<ProductCatalog>
    /// The durable store.
    public let store: any LedgerStore
    /// Checks store proofs.
    public let verifier: any TransactionVerifier
    /// Tells the platform a transaction is done.
    public let finisher: any PlatformFinisher
    /// Lists the platform's unfinished transactions for recovery.
    public let source: any TransactionSource
    /// The ledger's time.
    public let clock: any LedgerClock
    /// Fault hooks; `NoFaults` in production.
    public let faults: any FaultInjector
    /// Limits and environment.
    public let configuration: LedgerConfiguration

    /// Sees every fulfillment, finish attempt, revocation, recovery and thrown error.
    public let observer: any LedgerObserver

    /// Finishes running in this process, so concurrent deliveries call the platform once.
    let finishesInFlight = Mutex<Set<TransactionKey>>([])

    /// Creates a ledger. Throws `.configuration` when a production ledger is given a
    /// verifier that cannot vouch for production transactions (such as the test store's).
    public init(
        catalog: ProductCatalog,
        store: any LedgerStore,
        verifier: any TransactionVerifier,
        finisher: any PlatformFinisher,
        source: any TransactionSource = NoTransactionSource(),
        clock: any LedgerClock = SystemClock(),
        faults: any FaultInjector = NoFaults(),
        observer: any LedgerObserver = NoObserver(),
        configuration: LedgerConfiguration
    ) throws(LedgerError) {
        guard verifier.supportedEnvironments.contains(configuration.environment) else {
            let supported = verifier.supportedEnvironments.map(\.rawValue).sorted().joined(separator: ", ")
            throw LedgerError.configuration(
                "the verifier supports only [\(supported)] but the ledger is configured for \(configuration.environment)")
        }
        guard configuration.quantityMax >= 1, configuration.recoveryFinishCountMax >= 1,
            configuration.recoverySourceCountMax >= 1, configuration.historyCountMax >= 1,
            configuration.operationAmountMax >= 1, configuration.identifierByteCountMax >= 1,
            configuration.transactionIDByteCountMax >= configuration.identifierByteCountMax,
            configuration.eventIDByteCountMax >= configuration.identifierByteCountMax,
            configuration.restoreCountMax >= 1, configuration.revocationEventCountMax >= 1,
            configuration.finishWarningAgeSeconds >= 0, configuration.attemptRetention.isValid
        else {
            throw LedgerError.configuration(
                "every limit must be at least 1, and transactionIDByteCountMax at least identifierByteCountMax")
        }
        self.catalogInForce = Mutex(catalog)
        self.store = store
        self.verifier = verifier
        self.finisher = finisher
        self.source = source
        self.clock = clock
        self.faults = faults
        self.observer = observer
        self.configuration = configuration
    }

    /// The catalog in force now. A fulfillment takes one snapshot when it starts and
    /// finishes on it, even if the catalog is replaced meanwhile.
    public var catalog: ProductCatalog { catalogInForce.withLock { $0 } }

    /// Swaps in a new catalog atomically and returns the one it replaced. A
    /// `ProductCatalog` value is always valid: only the loader builds one.
    @discardableResult
    public func replaceCatalog(_ catalog: ProductCatalog) -> ProductCatalog {
        catalogInForce.withLock { current in
            let previous = current
            current = catalog
            return previous
        }
    }

    /// Loads and validates a catalog file and swaps it in. An invalid or unreadable file
    /// throws and the catalog in force stays.
    @discardableResult
    public func reloadCatalog(path: String) throws(LedgerError) -> ProductCatalog {
        let loaded = try CatalogLoader.load(path: path)
        replaceCatalog(loaded)
        return loaded
    }

    /// Checks an identifier from outside input against the length limit.
    func checkIdentifier(_ value: String, _ name: String) throws(LedgerError) {
        try checkLength(value, name, max: configuration.identifierByteCountMax)
    }

    /// Checks a store transaction ID (a Play purchase token among them) against its own limit.
    func checkTransactionID(_ value: String, _ name: String = "transactionID") throws(LedgerError) {
        try checkLength(value, name, max: configuration.transactionIDByteCountMax)
    }

    /// Checks `value` is 1 to `max` bytes of UTF-8 with no control character (U+0000 to U+001F,
    /// U+007F). A NUL ends a C string: an engine or a log that reads up to it would take
    /// `"victim\u{0}x"` for `"victim"`, and a purchase would land on another player.
    func checkLength(_ value: String, _ name: String, max: Int) throws(LedgerError) {
        guard !value.isEmpty, value.utf8.count <= max else {
            throw LedgerError.invalidArgument("\(name) must be 1 to \(max) bytes long")
        }
        guard !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw LedgerError.invalidArgument("\(name) must not contain a control character (U+0000 to U+001F, U+007F)")
        }
    }

    /// Store names are a closed set in every input: an unknown one is refused before anything
    /// is looked up, so no key is ever built from it.
    func checkStore(_ store: PlatformStore) throws(LedgerError) {
        guard PlatformStore.known.contains(store) else {
            throw LedgerError.invalidArgument(
                "store \"\(store.rawValue)\" is not one of \(PlatformStore.known.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// Checks a date from outside input against the range the ledger keeps exactly.
    func checkDate(_ date: Date, _ name: String) throws(LedgerError) {
        guard date.isInLedgerRange else {
            throw LedgerError.invalidArgument(
                "\(name) must lie between 1970-01-01T00:00:00.000Z and 2199-12-31T23:59:59.999Z")
        }
    }
}

extension Ledger {
    /// Hands the observer a store adapter's alert (`LedgerObservation.Event.storeAlert`): counted
    /// by `LedgerMetrics` as `storeAlert.<store>.<name>`, logged at warning level. It changes nothing.
    public func alert(store: PlatformStore, name: String, transaction: TransactionKey?, detail: String) {
        observer.observe(
            LedgerObservation(.storeAlert(store: store, name: name, transaction: transaction, detail: detail), durationMicroseconds: 0))
    }

    /// Hands `event` to the observer with the wall time since `start`.
    func observe(_ event: LedgerObservation.Event, since start: ContinuousClock.Instant) {
        observer.observe(LedgerObservation(event, durationMicroseconds: Self.microseconds(since: start)))
    }

    /// Runs `body` as one store write and hands its latency to the observer: every write the
    /// core makes goes through here or `commitFinishMark`, so the `commit` histogram counts each one.
    func commit<T: Sendable>(
        _ durability: WriteDurability = .durable,
        _ body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await observingCommit(durability) { () async throws(LedgerError) -> T in try await store.write(durability, body) }
    }

    /// Stamps a record finished through the store's `markFinished`, observed as a deferred commit.
    func commitFinishMark(_ key: TransactionKey, at date: Date) async throws(LedgerError) {
        try await observingCommit(.deferred) { () async throws(LedgerError) in try await store.markFinished(key, at: date) }
    }

    /// Runs one store write and reports whether it committed, and how long it took.
    private func observingCommit<T: Sendable>(
        _ durability: WriteDurability, _ operation: () async throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let start = ContinuousClock.now
        do {
            let value = try await operation()
            observer.observeCommit(
                durability: durability, committed: true, durationMicroseconds: Self.microseconds(since: start))
            return value
        } catch {
            observer.observeCommit(
                durability: durability, committed: false, durationMicroseconds: Self.microseconds(since: start))
            throw error
        }
    }

    /// Whole microseconds of wall time since `start`.
    static func microseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = (ContinuousClock.now - start).components
        return max(0, elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000)
    }
}
