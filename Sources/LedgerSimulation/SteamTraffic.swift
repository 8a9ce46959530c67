import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTPClient
import SteamAdapter
import SteamSimulator

/// The Steam shop of a simulation run: a simulated Steam (the sandbox interface) on a clock of
/// its own (one second after the last change, never behind the run's clock, so every order's
/// update time is its own and the run's clock is left alone), the real Web API client over it,
/// each player's Steam ID, and the orders sold, as the model knows them.
final class SteamTraffic {
    /// One line of an order: its catalog product, the product's Steam item ID and the units.
    struct Line {
        var product: Product
        var itemID: UInt32
        var quantity: Int
    }

    /// Where an order stands at Steam, as the traffic made it.
    enum Stage: String {
        /// InitTxn created it; the player has not answered.
        case initialized
        /// The player authorised it; FinalizeTxn was not called.
        case approved
        /// The player declined it.
        case declined
        /// FinalizeTxn charged it.
        case charged
    }

    /// An order sold: its player, its lines in order, where it stands, which of its items Steam
    /// took back and with which status (each item at most once: Steam keeps a taken-back item's
    /// status), and which of those take-backs the model applied.
    struct Order {
        var orderID: UInt64
        var player: String
        var lines: [Line]
        var stage: Stage
        var takenBack: [UInt32: SteamOrderStatus] = [:]
        var takeBacksApplied: Set<UInt32> = []
        /// When Steam last changed it, as a count of the traffic's changes: GetReport lists
        /// orders by their last update.
        var lastChange = 0

        /// The ledger key of each line, in order.
        var keys: [TransactionKey] {
            lines.map { TransactionKey(store: .steam, transactionID: SteamOrderVerifier.key(order: orderID, item: $0.itemID)) }
        }
    }

    /// Most orders one run sells; past it the traffic starts no more.
    static let orderCountMax = 512
    /// The Steam ID of the run's first player; the others follow it.
    static let steamIDBase: UInt64 = 76_561_198_000_000_001
    /// The game's App ID on the simulated Steam.
    static let appID: UInt32 = 480

    let clock: ManualClock
    /// When the shop opened: the run's start, where Steam's clock starts too.
    let openedAt: Date
    let steam: SteamSimulator
    let api: SteamWebAPIClient
    /// Each player's Steam ID, and the player of each Steam ID.
    let steamIDs: [String: UInt64]
    let playersBySteamID: [UInt64: String]
    var orders: [Order] = []
    /// The next order ID InitTxn is given (a failed InitTxn's ID is abandoned, never reused).
    var nextOrderID: UInt64 = 1
    /// Changes Steam made to orders so far.
    var changeCount = 0

    init(players: [String]) {
        clock = ManualClock()
        openedAt = clock.now()
        steam = SteamSimulator(appID: Self.appID, sandbox: true, clock: clock)
        let sleep: HTTPRetrySleep = { _ in }
        // One retry, without sleeping: an outage of one request is absorbed (InitTxn's is not,
        // as it is sent once), one of two throws.
        api = SteamWebAPIClient(
            key: steam.key, appID: Self.appID, sandbox: true, baseURL: URL(string: "https://partner.steam-api.test")!,
            transport: steam, retryPolicy: HTTPRetryPolicy(retryCountMax: 1), clock: clock, sleep: sleep)!
        var steamIDs: [String: UInt64] = [:]
        for (index, player) in players.enumerated() { steamIDs[player] = Self.steamIDBase + UInt64(index) }
        self.steamIDs = steamIDs
        playersBySteamID = Dictionary(uniqueKeysWithValues: steamIDs.map { ($0.value, $0.key) })
    }

    /// Moves Steam's clock one second past its last change, and never behind `now`.
    func tick(after now: Date) {
        let next = max(clock.now().addingTimeInterval(1), now)
        clock.advance(seconds: next.timeIntervalSince(clock.now()))
    }

    /// The order processor of `ledger`, naming the player of each buyer's Steam ID.
    func processor(_ ledger: Ledger) -> SteamOrderProcessor {
        var processor = SteamOrderProcessor(api: api, ledger: ledger)
        let players = playersBySteamID
        processor.playerResolver = { players[$0] }
        return processor
    }

    /// The account binding of `steam` in the run's ledger: a player's Steam ID, in decimal.
    func accountBinding() -> @Sendable (String) -> String {
        let steamIDs = steamIDs
        return { player in steamIDs[player].map { String($0) } ?? "" }
    }

    /// Order `index` changed at Steam now (every change comes after a `tick`, so in time order).
    func changed(_ index: Int) {
        changeCount += 1
        orders[index].lastChange = changeCount
    }

    /// The indices of the orders at `stage`.
    func indices(at stage: Stage) -> [Int] { orders.indices.filter { orders[$0].stage == stage } }

    /// The indices of the charged orders with an item Steam has not taken back.
    func refundable() -> [Int] {
        orders.indices.filter { orders[$0].stage == .charged && orders[$0].takenBack.count < orders[$0].lines.count }
    }
}
