import Foundation
import FulfillmentLedger
import SteamAdapter
import SteamSimulator

/// The Steam shop's traffic: orders of one or two lines started with InitTxn, approved or
/// declined by the player and authorised by the game server through `SteamOrderProcessor`,
/// which sometimes "crashes" between FinalizeTxn and the grant and leaves the order to the report
/// sync; forged and repeated authorisations; report syncs; whole and partial refunds,
/// chargebacks and fraud refunds, each followed by a sync. Every choice comes from
/// `steamRandom`, so the other traffic of a seed draws as before. The ledger calls meet faults
/// armed from that stream and outages of Steam, and are made again after a failure, at most
/// twice. Invariants (`SimulationRun+SteamChecks`): each item Steam charged granted once to its
/// player, by the sync at the latest; nothing granted for an order Steam has not finalised; each
/// take-back applied once, taking back exactly its item's rewards.
extension SimulationRun {
    /// Percent of steps that also carry a Steam action.
    static let steamStepPercent = 6
    /// Percent of Steam calls into the ledger that meet an outage of Steam (of one or two requests).
    static let steamOutagePercent = 10
    /// How often the game server makes one call before giving up (a violation).
    static let steamAttemptCountMax = 2

    func steamStep() async throws(SimulationViolation) {
        guard steamRandom.chance(Self.steamStepPercent) else { return }
        let roll = steamRandom.below(100)
        switch roll {
        case 0..<35: try await steamStart()
        case 35..<47: try await steamAuthorizeAgain()
        case 47..<53: try await steamForge()
        case 53..<65: try await steamSync(after: "sync")
        case 65..<76: try await steamTakeBack(.refunded)
        case 76..<86: try await steamTakeBack(.partialRefund)
        case 86..<93: try await steamTakeBack(.chargedback)
        default: try await steamTakeBack(.refundedSuspectedFraud)
        }
        try await checkSteamOrders()
    }

    // MARK: Orders

    private func steamStart() async throws(SimulationViolation) {
        let products = oneTimeProducts.filter { $0.storeProductIDs[.steam].flatMap(UInt32.init) != nil }
        guard !products.isEmpty, steamTraffic.orders.count < SteamTraffic.orderCountMax else { return }
        let player = steamRandom.pick(players)
        var lines: [SteamTraffic.Line] = []
        for _ in 0..<(1 + steamRandom.below(2)) {
            let product = steamRandom.pick(products)
            let quantity = product.kind == .consumable ? 1 + steamRandom.below(3) : 1
            guard let itemID = product.storeProductIDs[.steam].flatMap(UInt32.init), !lines.contains(where: { $0.itemID == itemID })
            else { continue }
            lines.append(SteamTraffic.Line(product: product, itemID: itemID, quantity: quantity))
        }
        guard let steamID = steamTraffic.steamIDs[player] else { throw violation("\(player) has no Steam ID") }
        let orderID = steamTraffic.nextOrderID
        steamTraffic.nextOrderID += 1
        let request = SteamOrderRequest(
            orderID: orderID, steamID: steamID, language: "en", currency: "USD",
            lines: lines.map {
                SteamOrderRequest.Line(itemID: $0.itemID, quantity: $0.quantity, amount: Int64(199 * $0.quantity), description: $0.product.id)
            })
        steamTraffic.tick(after: clock.now())
        // InitTxn is sent once: an outage loses the order, and the game starts another.
        let outage = steamRandom.chance(Self.steamOutagePercent)
        steamTraffic.steam.failNext(outage ? 1 : 0)
        let processor = steamTraffic.processor(try currentLedger())
        let outcome: SteamOrderOutcome
        do throws(LedgerError) {
            outcome = try await processor.start(request)
        } catch {
            steamTraffic.steam.failNext(0)
            guard outage, case .verifierUnavailable = error, steamTraffic.steam.status(of: orderID) == nil else {
                throw violation("Steam order \(orderID) failed to start: \(error)")
            }
            return note("steam order \(orderID) lost to an outage of InitTxn")
        }
        guard !outage else { throw violation("Steam order \(orderID) started through an outage of InitTxn") }
        guard case .started(let started, let outcomes) = outcome, started.orderID == orderID else {
            throw violation("Steam order \(orderID) did not start: \(outcome.name)")
        }
        steamTraffic.orders.append(SteamTraffic.Order(orderID: orderID, player: player, lines: lines, stage: .initialized))
        let index = steamTraffic.orders.count - 1
        steamTraffic.changed(index)
        try expectSteamItems(outcomes, order: index, lostOutcomes: false, faulted: false)
        summary.steamOrders += 1
        summary.transactions += 1
        note("steam order \(orderID) \(lines.map { "\($0.product.id) x\($0.quantity)" }) for \(player)")
        try await steamPlayerAnswers(index)
    }

    /// The player answers the overlay (or never does), then the server finalises, crashes
    /// between FinalizeTxn and the grant, or leaves the order approved.
    private func steamPlayerAnswers(_ index: Int) async throws(SimulationViolation) {
        let orderID = steamTraffic.orders[index].orderID
        let answer = steamRandom.below(100)
        guard answer < 85 else { return note("steam order \(orderID) unanswered") }
        steamTraffic.tick(after: clock.now())
        guard answer < 70 else {
            guard steamTraffic.steam.decline(orderID) else { throw violation("Steam refused the decline of \(orderID)") }
            steamTraffic.orders[index].stage = .declined
            steamTraffic.changed(index)
            return try await steamAuthorize(index, authorized: false)
        }
        guard steamTraffic.steam.approve(orderID) else { throw violation("Steam refused the approval of \(orderID)") }
        steamTraffic.orders[index].stage = .approved
        steamTraffic.changed(index)
        let server = steamRandom.below(100)
        if server < 70 { return try await steamAuthorize(index, authorized: true) }
        guard server < 85 else { return note("steam order \(orderID) approved, not finalised") }
        // The server charges the order and crashes before the grant: the report sync grants it.
        let answered: SteamAnswer<UInt64>
        do throws(SteamAPIError) {
            answered = try await steamTraffic.api.finalizeTxn(orderID: orderID)
        } catch {
            throw violation("FinalizeTxn of \(orderID) failed: \(error)")
        }
        guard case .ok = answered else { throw violation("FinalizeTxn of approved \(orderID) gave \(answered)") }
        steamTraffic.orders[index].stage = .charged
        steamTraffic.changed(index)
        note("steam order \(orderID) finalised; the server crashed before the grant")
    }

    /// The game client's report of the overlay for order `index`, through the processor.
    private func steamAuthorize(_ index: Int, authorized: Bool) async throws(SimulationViolation) {
        let order = steamTraffic.orders[index]
        let processor = steamTraffic.processor(try currentLedger())
        steamTraffic.tick(after: clock.now())
        let call = try await steamCall("authorize \(order.orderID)") { () async throws(LedgerError) in
            try await processor.authorize(orderID: order.orderID, authorized: authorized)
        }
        // FinalizeTxn charges an approved order; it refuses one not approved (5) or declined (10).
        var refusal: Int?
        switch (authorized, order.stage) {
        case (true, .approved):
            steamTraffic.orders[index].stage = .charged
            steamTraffic.changed(index)
        case (true, .initialized): refusal = SteamFailure.notApprovedCode
        case (true, .declined): refusal = SteamFailure.deniedCode
        default: break
        }
        try expectSteam(call.answer, order: index, refusedWith: refusal, lostOutcomes: call.retried, faulted: call.faulted)
        note("steam authorize \(order.orderID) \(authorized ? "yes" : "no") -> \(call.answer.name)")
    }

    /// The server authorises an order again, or one left approved or unanswered; or support
    /// submits an order as Steam holds it (`submit(orderID:)`), which finalises nothing.
    private func steamAuthorizeAgain() async throws(SimulationViolation) {
        guard !steamTraffic.orders.isEmpty else { return }
        let index = steamRandom.below(steamTraffic.orders.count)
        guard steamTraffic.orders[index].stage != .declined, steamRandom.chance(70) else {
            let order = steamTraffic.orders[index]
            let processor = steamTraffic.processor(try currentLedger())
            let call = try await steamCall("submit \(order.orderID)") { () async throws(LedgerError) in
                try await processor.submit(orderID: order.orderID)
            }
            try expectSteam(call.answer, order: index, refusedWith: nil, lostOutcomes: call.retried, faulted: call.faulted)
            return note("steam submit \(order.orderID) (\(order.stage.rawValue)) -> \(call.answer.name)")
        }
        try await steamAuthorize(index, authorized: true)
    }

    /// A forged "authorised" for an order the player declined: Steam refuses FinalizeTxn.
    private func steamForge() async throws(SimulationViolation) {
        let declined = steamTraffic.indices(at: .declined)
        guard !declined.isEmpty else { return }
        try await steamAuthorize(steamRandom.pick(declined), authorized: true)
    }

    // MARK: Take-backs and the report sync

    /// Steam takes back a charged order (`.refunded` whole, `.partialRefund` one item, a
    /// chargeback or a fraud refund), then the sync applies it.
    private func steamTakeBack(_ kind: SteamOrderStatus) async throws(SimulationViolation) {
        let candidates = kind == .refunded || kind == .partialRefund ? steamTraffic.refundable() : steamTraffic.indices(at: .charged)
        guard !candidates.isEmpty else { return }
        let index = steamRandom.pick(candidates)
        let order = steamTraffic.orders[index]
        let open = order.lines.map(\.itemID).filter { order.takenBack[$0] == nil }
        let items: Set<UInt32>? = kind == .partialRefund && open.count > 0 ? [steamRandom.pick(open)] : nil
        steamTraffic.tick(after: clock.now())
        let steam = steamTraffic.steam
        let accepted: Bool
        switch kind {
        case .chargedback: accepted = steam.chargeBack(order.orderID)
        case .refundedSuspectedFraud: accepted = steam.refundForFraud(order.orderID)
        default: accepted = items.map { steam.refund(order.orderID, items: $0) } ?? steam.refund(order.orderID)
        }
        guard accepted else { throw violation("Steam refused to take back charged order \(order.orderID)") }
        // An item taken back keeps its status; every other item of the order gets this one.
        let itemStatus: SteamOrderStatus = kind == .partialRefund ? .refunded : kind
        for itemID in items ?? Set(open) where order.takenBack[itemID] == nil {
            steamTraffic.orders[index].takenBack[itemID] = itemStatus
        }
        steamTraffic.changed(index)
        if kind == .chargedback { summary.steamChargebacks += 1 } else { summary.steamRefunds += 1 }
        note("steam \(kind.rawValue) \(order.orderID) \(items.map { "items \($0.sorted())" } ?? "whole")")
        try await steamSync(after: kind.rawValue)
    }

    /// A report sync (`SteamReportSync.run()`), then the model brought in line and checked.
    func steamSync(after reason: String, faultsAllowed: Bool = true) async throws(SimulationViolation) {
        var sync = SteamReportSync(processor: steamTraffic.processor(try currentLedger()))
        // A first sync reads `initialLookbackSeconds` back; the simulated clock jumps by months,
        // so the first may come long after the shop opened: it reads back to that day, as a shop
        // that starts syncing late configures it to cover its history.
        let age = clock.now().timeIntervalSince(steamTraffic.openedAt) + 86_400
        sync.initialLookbackSeconds = max(sync.initialLookbackSeconds, age)
        let call = try await steamCall("sync after \(reason)", faultsAllowed: faultsAllowed) { () async throws(LedgerError) in
            try await sync.run()
        }
        try await expectSynced(call.answer, reason: reason, retried: call.retried)
    }

    // MARK: Calls

    /// One call of the game server into the ledger, maybe meeting an outage of Steam (one request,
    /// which the client's retry absorbs, or two, which outlast it) or an armed fault; made again
    /// after a failure, as a server would, at most `steamAttemptCountMax` times. Says whether an
    /// attempt failed (what it did is then known only from the retry) and whether a fault fired.
    private func steamCall<Answer>(
        _ what: String, faultsAllowed: Bool = true, _ call: () async throws(LedgerError) -> Answer
    ) async throws(SimulationViolation) -> (answer: Answer, retried: Bool, faulted: Bool) {
        var faulted = false
        var lastError: LedgerError?
        for attempt in 0..<Self.steamAttemptCountMax {
            let first = faultsAllowed && attempt == 0
            let outage = first && steamRandom.chance(Self.steamOutagePercent) ? 1 + steamRandom.below(2) : 0
            let armed = first ? armSteamFault() : nil
            steamTraffic.steam.failNext(outage)
            let result: Result<Answer, LedgerError>
            do throws(LedgerError) {
                result = .success(try await call())
            } catch {
                result = .failure(error)
            }
            steamTraffic.steam.failNext(0)
            let fired = disarm(armed)
            if let fired {
                summary.faultsInjected[fired.name, default: 0] += 1
                faulted = true
            }
            switch result {
            case .success(let answer):
                guard outage < 2 else { throw violation("steam \(what) went through an outage of two requests") }
                return (answer, attempt > 0, faulted)
            case .failure(let error):
                guard outage == 2 || fired.map(Self.failsBeforeCommit) == true else {
                    throw violation("steam \(what) failed without an outage or a fault before the commit: \(error)")
                }
                lastError = error
                note("steam \(what) failed: \(error.code)")
            }
        }
        throw violation("steam \(what) failed \(Self.steamAttemptCountMax) times: \(String(describing: lastError))")
    }

    /// Arms a fault point for one Steam call, from the Steam stream, as often as deliveries do.
    private func armSteamFault() -> ArmedFault? {
        guard steamRandom.chance(options.faultPercent) else { return nil }
        let point = steamRandom.pick(FaultPoint.allCases)
        faults.arm(point, .error)
        return .point(point)
    }
}
