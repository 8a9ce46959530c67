import Foundation
import FulfillmentLedger
import LedgerHTTPClient
import SteamAdapter
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A simulated Steam partner API for one app: orders created by InitTxn, authorised or declined
/// by the player, charged by FinalizeTxn, refunded (whole or item by item), charged back and
/// refunded for fraud; answering ISteamMicroTxn (or, `sandbox`, ISteamMicroTxnSandbox) in process
/// (`HTTPTransport`, for `SteamWebAPIClient`) or on a loopback port (`SimulatedAPIServer`).
///
/// Answers have Steam's shape (`{"response": {"result", "params", "error"}}`, 64-bit numbers as
/// strings, RFC 3339 times in whole seconds) and its documented error codes: 5 for FinalizeTxn
/// before the player approved, 6 when it was already committed, 10 when the player denied.
/// Transaction IDs are sequential from 9,000,000,001.
public final class SteamSimulator: HTTPTransport, Sendable {
    struct Item {
        var itemID: UInt32
        var quantity: Int
        var amount: Int64
        var status: SteamOrderStatus
    }

    struct Order {
        var orderID: UInt64
        var transactionID: UInt64
        var steamID: UInt64
        var status: SteamOrderStatus
        var currency: String
        var items: [Item]
        var createdSeconds: Int64
        var updatedSeconds: Int64
    }

    struct State {
        var orders: [UInt64: Order] = [:]
        var nextTransactionID: UInt64 = 9_000_000_001
        var requests: [URLRequest] = []
        var outages = 0
    }

    /// The publisher key the API accepts.
    public let key: String
    /// The game's App ID.
    public let appID: UInt32
    /// Whether this is the sandbox interface.
    public let sandbox: Bool
    let clock: any LedgerClock
    let state = Mutex(State())

    /// A simulated Steam for `appID` on `clock`.
    public init(key: String = "SIMULATEDSTEAMKEY", appID: UInt32 = 480, sandbox: Bool = true, clock: any LedgerClock = SystemClock()) {
        self.key = key
        self.appID = appID
        self.sandbox = sandbox
        self.clock = clock
    }

    var nowSeconds: Int64 { Int64(clock.now().timeIntervalSince1970.rounded(.down)) }

    /// Every API request received, in order.
    public var requests: [URLRequest] { state.withLock { $0.requests } }

    /// The next `count` API requests fail with a 503, as during an outage.
    public func failNext(_ count: Int) { state.withLock { $0.outages = count } }

    /// The status of `orderID`, if Steam has it.
    public func status(of orderID: UInt64) -> SteamOrderStatus? { state.withLock { $0.orders[orderID]?.status } }

    /// The player approves `orderID` in the overlay: `Init` becomes `Approved`. False when the
    /// order is not waiting for the player.
    @discardableResult
    public func approve(_ orderID: UInt64) -> Bool { change(orderID, from: [.initialized], to: .approved) }

    /// The player declines `orderID` (or the payment fails): it becomes `Failed`.
    @discardableResult
    public func decline(_ orderID: UInt64) -> Bool { change(orderID, from: [.initialized, .approved], to: .failed) }

    /// Steam refunds all of a charged order.
    @discardableResult
    public func refund(_ orderID: UInt64) -> Bool { takeBack(orderID, items: nil, status: .refunded) }

    /// Steam refunds some items of a charged order: `PartialRefund`, or `Refunded` once every item is.
    @discardableResult
    public func refund(_ orderID: UInt64, items itemIDs: Set<UInt32>) -> Bool { takeBack(orderID, items: itemIDs, status: .refunded) }

    /// The buyer's bank charges a charged order back.
    @discardableResult
    public func chargeBack(_ orderID: UInt64) -> Bool { takeBack(orderID, items: nil, status: .chargedback) }

    /// Valve refunds a charged order on suspected fraud.
    @discardableResult
    public func refundForFraud(_ orderID: UInt64) -> Bool { takeBack(orderID, items: nil, status: .refundedSuspectedFraud) }

    private func change(_ orderID: UInt64, from: Set<SteamOrderStatus>, to status: SteamOrderStatus) -> Bool {
        let now = nowSeconds
        return state.withLock { state in
            guard var order = state.orders[orderID], from.contains(order.status) else { return false }
            order.status = status
            for index in order.items.indices { order.items[index].status = status }
            order.updatedSeconds = now
            state.orders[orderID] = order
            return true
        }
    }

    private func takeBack(_ orderID: UInt64, items itemIDs: Set<UInt32>?, status: SteamOrderStatus) -> Bool {
        let now = nowSeconds
        return state.withLock { state in
            guard var order = state.orders[orderID], order.status.wasCharged else { return false }
            // An item taken back already keeps its status: a chargeback does not refund it again.
            for index in order.items.indices
            where itemIDs?.contains(order.items[index].itemID) ?? true && !order.items[index].status.takesBack {
                order.items[index].status = status
            }
            let allBack = order.items.allSatisfy { $0.status.takesBack }
            order.status = allBack ? (itemIDs == nil ? status : .refunded) : .partialRefund
            order.updatedSeconds = now
            state.orders[orderID] = order
            return true
        }
    }
}
