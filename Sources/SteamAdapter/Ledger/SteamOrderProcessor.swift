import Foundation
import FulfillmentLedger

/// Sells through Steam's microtransactions in the order Steam requires, with the ledger's
/// exactly-once grant at the end:
///
/// 1. `start`: the game server asks for an order; every item must map to a catalog product on
///    `steam`. InitTxn creates it, and each item is recorded as a pending attempt (support sees
///    it). The player authorises it in the Steam overlay (or on the page at `steamURL`).
/// 2. `authorize`: the game client reports `MicroTxnAuthorizationResponse_t`. Authorised,
///    FinalizeTxn charges the player; then, and only then, each item goes through the pipeline,
///    keyed `<order ID>/<item ID>`, and `SteamOrderVerifier` confirms with QueryTxn that Steam
///    holds the order `Succeeded`. Declined, the items are recorded as Steam holds them.
/// 3. `submit`: the items of an order as Steam holds it now, for an operator or a retry.
///
/// A crash between FinalizeTxn and the grant leaves an order Steam charged and the ledger has
/// not granted. `SteamReportSync` finds it at the next start (GetReport lists every order updated
/// since its watermark) and grants it once, after QueryTxn confirms it. The ledger never grants an
/// order Steam has not finalised: the verifier's state is Steam's status, never the client's word.
public struct SteamOrderProcessor: Sendable {
    /// Steam's API.
    public let api: any SteamMicroTxnAPI
    /// The ledger.
    public let ledger: Ledger
    /// The player a Steam ID belongs to: by default the Steam ID itself, in decimal (which is
    /// also the default account binding, so a game that keys players by Steam ID sets nothing).
    public var playerResolver: @Sendable (_ steamID: UInt64) -> String? = { String($0) }

    /// A processor of `ledger`'s Steam orders.
    public init(api: any SteamMicroTxnAPI, ledger: Ledger) {
        self.api = api
        self.ledger = ledger
    }

    /// InitTxn for `request`, after checking it and that the catalog grants every item.
    ///
    /// Throws `invalidArgument` for a request Steam would refuse or an item no catalog product
    /// maps (nothing is sent), and `verifierUnavailable` when Steam cannot be reached. InitTxn is
    /// never retried: after such a failure, start again with a new order ID, as Steam asks. A
    /// storage failure after InitTxn answered also throws; Steam holds the order then, so the
    /// player's answer is reported with `authorize` as usual (starting it again is refused).
    public func start(_ request: SteamOrderRequest) async throws(LedgerError) -> SteamOrderOutcome {
        if let problem = request.validate() { throw .invalidArgument("Steam order: \(problem)") }
        for line in request.lines where ledger.catalog.product(store: .steam, storeProductID: String(line.itemID)) == nil {
            throw .invalidArgument("Steam order: no catalog product maps Steam item \(line.itemID)")
        }
        let answer: SteamAnswer<SteamStartedTransaction>
        do {
            answer = try await api.initTxn(request)
        } catch {
            throw LedgerError.verifierUnavailable("Steam InitTxn: \(error)")
        }
        switch answer {
        case .failure(let failure): return .refused(failure, outcomes: [])
        case .ok(let started):
            guard let playerID = playerResolver(request.steamID), !playerID.isEmpty else {
                return .unassigned(orderID: request.orderID, steamID: request.steamID)
            }
            var outcomes: [FulfillmentOutcome] = []
            for line in request.lines {
                let submission = TransactionSubmission(
                    store: .steam, transactionID: SteamOrderVerifier.key(order: request.orderID, item: line.itemID),
                    storeProductID: String(line.itemID), playerID: playerID, quantity: line.quantity,
                    payload: String(request.orderID))
                outcomes.append(try await ledger.fulfill(submission))
            }
            return .started(started, outcomes: outcomes)
        }
    }

    /// The player answered the overlay for `orderID`: authorised, FinalizeTxn charges the order
    /// and its items are granted; not, they are recorded as Steam holds them.
    ///
    /// FinalizeTxn answered "already committed" (6) is a finalised order, as after a retry.
    /// Throws `verifierUnavailable` when Steam cannot be reached: call again, or leave it to
    /// `SteamReportSync`, which grants whatever Steam charged.
    public func authorize(orderID: UInt64, authorized: Bool) async throws(LedgerError) -> SteamOrderOutcome {
        guard orderID != 0 else { throw .invalidArgument("Steam order ID must not be 0") }
        guard authorized else { return try await submit(orderID: orderID, via: .client) }
        let answer: SteamAnswer<UInt64>
        do {
            answer = try await api.finalizeTxn(orderID: orderID)
        } catch {
            throw LedgerError.verifierUnavailable("Steam FinalizeTxn: \(error)")
        }
        if case .failure(let failure) = answer, failure.code != SteamFailure.alreadyCommittedCode {
            let recorded = try await submit(orderID: orderID, via: .client)
            return .refused(failure, outcomes: recorded.outcomes)
        }
        return try await submit(orderID: orderID, via: .client)
    }

    /// Each item of `orderID` through the pipeline, as Steam holds the order now (QueryTxn):
    /// granted once if Steam charged it, else recorded pending or cancelled.
    public func submit(orderID: UInt64, via entryPoint: DeliveryEntryPoint = .operator) async throws(LedgerError)
        -> SteamOrderOutcome
    {
        guard orderID != 0 else { throw .invalidArgument("Steam order ID must not be 0") }
        let answer: SteamAnswer<SteamOrder>
        do {
            answer = try await api.queryTxn(orderID: orderID)
        } catch {
            throw LedgerError.verifierUnavailable("Steam QueryTxn: \(error)")
        }
        switch answer {
        case .failure(let failure): return .refused(failure, outcomes: [])
        case .ok(let order): return try await submit(order, via: entryPoint)
        }
    }

    /// Each item of `order` through the pipeline for the player its Steam ID names.
    func submit(_ order: SteamOrder, via entryPoint: DeliveryEntryPoint) async throws(LedgerError) -> SteamOrderOutcome {
        guard let playerID = playerResolver(order.steamID), !playerID.isEmpty else {
            return .unassigned(orderID: order.orderID, steamID: order.steamID)
        }
        var outcomes: [FulfillmentOutcome] = []
        for submission in SteamOrderVerifier.submissions(for: order, playerID: playerID).prefix(SteamOrderRequest.lineCountMax) {
            outcomes.append(try await ledger.fulfill(submission, via: entryPoint))
        }
        return .submitted(orderID: order.orderID, status: order.status, outcomes: outcomes)
    }
}
