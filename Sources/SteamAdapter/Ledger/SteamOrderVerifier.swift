import Foundation
import FulfillmentLedger

/// The ledger's verifier port for Steam: an item of an order becomes verified facts by asking
/// Steam (`QueryTxn`), never from what the game client says.
///
/// The ledger key of a Steam purchase is `<order ID>/<item ID>`: the game's own 64-bit order ID
/// given to InitTxn, and the 32-bit item ID of one line of its cart (the catalog's `steam` store
/// product ID). An order of several items is several purchases, so a partial refund, which Steam
/// reports item by item, takes back exactly the items it refunded.
///
/// State: only an order Steam charged (`Succeeded`, or a refund or chargeback status, which
/// came after a charge) is purchased. `Init` (the player has not answered) and `Approved` (the
/// game has not called FinalizeTxn) are pending: the ledger never grants an order Steam has not
/// finalised. `Failed` is cancelled; another status is kept as `steamStatus:<value>` and grants
/// nothing. The buyer's Steam ID is the account binding; the sandbox interface is the sandbox.
public struct SteamOrderVerifier: TransactionVerifier {
    /// What separates the order ID and the item ID in a ledger key.
    public static let keySeparator: Character = "/"

    /// Steam's API.
    public let api: any SteamMicroTxnAPI
    /// The environment this verifier vouches for: sandbox for `ISteamMicroTxnSandbox`.
    public let environment: StoreEnvironment

    /// A verifier asking `api`, which calls Steam's interface for `environment`.
    public init(api: any SteamMicroTxnAPI, environment: StoreEnvironment) {
        self.api = api
        self.environment = environment
    }

    /// The configured environment only.
    public var supportedEnvironments: Set<StoreEnvironment> { [environment] }

    /// Asks Steam for the submission's order and checks its item.
    public func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
        guard let (orderID, itemID) = Self.parse(submission.transactionID) else {
            return .invalid(reason: "\(submission.transactionID) is not <order ID>/<item ID>")
        }
        let answer: SteamAnswer<SteamOrder>
        do {
            answer = try await api.queryTxn(orderID: orderID)
        } catch {
            throw LedgerError.verifierUnavailable("Steam: \(error)")
        }
        switch answer {
        case .failure(let failure): return .invalid(reason: "Steam does not confirm order \(orderID): \(failure)")
        case .ok(let order): return facts(order, itemID: itemID)
        }
    }

    /// The verified facts of item `itemID` of `order`, an order as Steam answered it.
    public func facts(_ order: SteamOrder, itemID: UInt32) -> VerificationResult {
        let lines = order.items.filter { $0.itemID == itemID }
        guard lines.count == 1, let item = lines.first else {
            return .invalid(reason: lines.isEmpty ? "Steam order \(order.orderID) has no item \(itemID)" : "Steam order \(order.orderID) lists item \(itemID) twice")
        }
        guard (1...SteamOrderRequest.quantityMax).contains(item.quantity) else {
            return .invalid(reason: "item \(itemID) of order \(order.orderID) has quantity \(item.quantity), outside 1...\(SteamOrderRequest.quantityMax)")
        }
        let date = order.timeCreated ?? order.time ?? Date(timeIntervalSince1970: 0)
        guard Date.ledgerMillisecondsRange.contains(date.ledgerMilliseconds), date.timeIntervalSince1970 >= 0 else {
            return .invalid(reason: "Steam order \(order.orderID) has a time out of range")
        }
        return .verified(
            VerifiedTransaction(
                store: .steam, transactionID: Self.key(order: order.orderID, item: itemID), storeProductID: String(itemID),
                accountBinding: String(order.steamID), quantity: item.quantity, state: Self.state(order.status),
                environment: environment, purchaseDate: date, orderID: order.transactionID.map(String.init)))
    }

    /// The purchase state of an order of `status`.
    public static func state(_ status: SteamOrderStatus) -> PurchaseState {
        if status.wasCharged { return .purchased }
        switch status {
        case .initialized, .approved: return .pending
        case .failed: return .cancelled
        default: return PurchaseState(rawValue: "steamStatus:\(status.rawValue)")
        }
    }

    /// The ledger key of item `itemID` of order `orderID`.
    public static func key(order orderID: UInt64, item itemID: UInt32) -> String { "\(orderID)\(keySeparator)\(itemID)" }

    /// The order and item IDs of a ledger key; nil when it is not one.
    public static func parse(_ key: String) -> (order: UInt64, item: UInt32)? {
        let parts = key.split(separator: keySeparator, omittingEmptySubsequences: false)
        guard parts.count == 2, let order = SteamWireNumber.parse(String(parts[0])), order != 0,
            let wide = SteamWireNumber.parse(String(parts[1])), let item = UInt32(exactly: wide), item != 0
        else { return nil }
        return (order, item)
    }

    /// One submission per item of `order`, for `playerID`.
    public static func submissions(for order: SteamOrder, playerID: String) -> [TransactionSubmission] {
        order.items.map { item in
            TransactionSubmission(
                store: .steam, transactionID: key(order: order.orderID, item: item.itemID), storeProductID: String(item.itemID),
                playerID: playerID, quantity: item.quantity, payload: String(order.orderID))
        }
    }
}
