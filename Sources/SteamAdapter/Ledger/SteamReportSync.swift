import Foundation
import FulfillmentLedger

/// Reads Steam's GetReport (`GAMESALES`: every order made through InitTxn, by the time of its
/// last update) from a saved watermark, and brings the ledger in line with it:
///
/// - an order Steam charged (`Succeeded`, or taken back since) has each item submitted through the
///   pipeline, which grants what the ledger does not hold yet (QueryTxn confirms it first): the
///   recovery of a crash between FinalizeTxn and the grant, so run it at startup and then
///   periodically (Valve suggests at least daily; every few minutes is fine);
/// - `Refunded`, `Chargedback`, `RefundedSuspectedFraud` and `RefundedFriendlyFraud` take back
///   every item; `PartialRefund` takes back the items whose own `itemstatus` is one of these.
///   Each take-back is a revocation with the ID `steam:<order>/<item>:<status>`, so re-reading
///   an order applies nothing twice, and a chargeback after a refund is its own event.
///
/// Paging follows Valve's rule: the next call's `time` is the latest `time` of the last batch, and
/// a batch shorter than asked does not mean the end. A run ends when a batch brings nothing newer
/// than its `time`. The watermark `steam.report` is then saved; each run starts `overlapSeconds`
/// before it, for orders Steam lists late. The first run reads `initialLookbackSeconds` back.
public struct SteamReportSync: Sendable {
    /// The sync cursor holding the watermark, milliseconds since 1970.
    public static let cursorName = "steam.report"

    /// The order processor: Steam's API, the ledger and the player of a Steam ID.
    public let processor: SteamOrderProcessor
    /// How far before the watermark each run starts reading again.
    public var overlapSeconds: TimeInterval = 24 * 60 * 60
    /// How far back the first run reads.
    public var initialLookbackSeconds: TimeInterval = 30 * 24 * 60 * 60
    /// `maxresults` of each call (Steam's default; its maximum is 50,000).
    public var pageSize = 1_000
    /// Most GetReport calls one run makes.
    public var pageCountMax = 100

    /// A sync through `processor`, with the default limits.
    public init(processor: SteamOrderProcessor) { self.processor = processor }

    /// Reads the report since the watermark and applies every order once.
    ///
    /// Throws `transactionSourceUnavailable` when a page cannot be read (what was applied stays
    /// applied; the watermark is not moved), `invalidArgument` for a limit out of range, and
    /// storage errors.
    public func run() async throws(LedgerError) -> SteamReportSyncReport {
        guard (1...SteamWebAPIClient.reportResultCountMax).contains(pageSize), pageCountMax >= 1, overlapSeconds >= 0,
            initialLookbackSeconds > 0
        else { throw LedgerError.invalidArgument("Steam report sync limits out of range") }
        let ledger = processor.ledger
        let now = ledger.clock.now()
        let saved = try await ledger.syncCursor(name: Self.cursorName)
        // A cursor that is not a time in range (a damaged row) is ignored: the run reads the
        // initial lookback again, which applies nothing twice.
        let watermark = saved.flatMap(Int64.init).flatMap { Date.ledgerMillisecondsRange.contains($0) ? $0 : nil }
        var start = watermark.map { Date(ledgerMilliseconds: $0).addingTimeInterval(-overlapSeconds) }
            ?? now.addingTimeInterval(-initialLookbackSeconds)
        start = min(start, now)
        var report = SteamReportSyncReport(startTime: start)
        // A first run that reads no order still saves where it read from: a later run, however
        // much later, starts there, so an order charged in between is never left behind.
        var latest = watermark ?? start.ledgerMilliseconds
        // The orders applied at the boundary time: the next call starts there and lists them again.
        var boundary = Set<OrderState>()
        while true {
            guard report.pagesRead < pageCountMax else {
                report.truncated = true
                break
            }
            let orders = try await page(since: start, report: &report)
            var newest = start
            var applied: [(OrderState, Date)] = []
            for order in orders {
                let state = OrderState(order)
                guard !boundary.contains(state) else { continue }
                try await apply(order, to: &report)
                guard let time = order.time, Date.ledgerMillisecondsRange.contains(time.ledgerMilliseconds) else { continue }
                applied.append((state, time))
                newest = max(newest, time)
                latest = max(latest, time.ledgerMilliseconds)
            }
            // Nothing newer than the page's own start: every order up to now was read, unless the
            // page was full of orders updated in that one second (raise `pageSize`).
            guard newest > start else {
                report.truncated = orders.count >= pageSize
                break
            }
            start = newest
            boundary = Set(applied.filter { $0.1 == newest }.map(\.0))
        }
        if latest != watermark {
            try await ledger.saveSyncCursor(name: Self.cursorName, value: String(latest))
            report.watermarkSaved = latest
        }
        return report
    }

    /// One GetReport call.
    private func page(since start: Date, report: inout SteamReportSyncReport) async throws(LedgerError) -> [SteamOrder] {
        let answer: SteamAnswer<[SteamOrder]>
        do {
            answer = try await processor.api.report(since: start, maxResults: pageSize)
        } catch {
            throw LedgerError.transactionSourceUnavailable("Steam GetReport failed: \(error)")
        }
        report.pagesRead += 1
        switch answer {
        case .failure(let failure): throw LedgerError.transactionSourceUnavailable("Steam GetReport refused: \(failure)")
        case .ok(let orders): return Array(orders.prefix(pageSize))
        }
    }

    /// Grants a charged order's items, and takes back what Steam took back.
    private func apply(_ order: SteamOrder, to report: inout SteamReportSyncReport) async throws(LedgerError) {
        report.ordersSeen += 1
        guard order.orderID != 0, order.items.count <= SteamOrderRequest.lineCountMax, let time = order.time,
            Date.ledgerMillisecondsRange.contains(time.ledgerMilliseconds)
        else {
            report.skipped += 1
            return
        }
        if order.status == .approved { report.awaitingFinalize += 1 }
        guard order.status.wasCharged else { return }
        guard try await grantMissing(order, to: &report) else { return }
        for item in order.items where Self.takesBack(item, in: order) {
            let status = item.effectiveStatus(in: order.status)
            let key = SteamOrderVerifier.key(order: order.orderID, item: item.itemID)
            let eventID = "steam:\(key):\(status.rawValue)"
            // Steam dates only the order's latest update, which moves when another item is taken
            // back later: a take-back recorded once is looked up by its ID, not rebuilt.
            if try await processor.ledger.store.read({ reader throws(LedgerError) in try reader.revocationEvent(id: eventID) }) != nil {
                report.revocationsAlreadyRecorded += 1
                continue
            }
            let event = RevocationEvent(
                eventID: eventID, store: .steam, transactionID: key, kind: .fullRefund,
                eventDate: time, reason: "steam \(status.rawValue)")
            switch try await processor.ledger.applyRevocation(event) {
            case .recorded: report.revocationsRecorded += 1
            case .alreadyRecorded: report.revocationsAlreadyRecorded += 1
            case .rejected(let rejection):
                if report.revocationsRejected.count < SteamReportSyncReport.rejectedReportedCountMax {
                    report.revocationsRejected[event.eventID] = rejection.description
                }
            }
        }
    }

    /// An order as one report lists it: the same order, status and update time is the same listing.
    struct OrderState: Hashable {
        var orderID: UInt64
        var status: SteamOrderStatus
        var time: Date?

        init(_ order: SteamOrder) {
            orderID = order.orderID
            status = order.status
            time = order.time
        }
    }

    /// Submits the items of a charged order that the ledger does not hold yet (QueryTxn confirms
    /// each). What it holds is counted `alreadyFulfilled` without asking Steam again: the overlap
    /// reads a day of orders on every run, and a shop that syncs every few minutes must not cost
    /// Steam a QueryTxn per item per run. False when the buyer is no player (nothing more to do).
    private func grantMissing(_ order: SteamOrder, to report: inout SteamReportSyncReport) async throws(LedgerError) -> Bool {
        let held = try await processor.ledger.store.read { reader throws(LedgerError) -> Set<UInt32> in
            var held = Set<UInt32>()
            for item in order.items {
                let key = TransactionKey(store: .steam, transactionID: SteamOrderVerifier.key(order: order.orderID, item: item.itemID))
                if try reader.transaction(key) != nil { held.insert(item.itemID) }
            }
            return held
        }
        report.alreadyFulfilled += held.count
        var missing = order
        missing.items = order.items.filter { !held.contains($0.itemID) }
        guard !missing.items.isEmpty else { return true }
        let outcome = try await processor.submit(missing, via: .sync)
        if case .unassigned = outcome {
            if report.unassigned.count < SteamReportSyncReport.rejectedReportedCountMax { report.unassigned.append(String(order.orderID)) }
            return false
        }
        for (item, fulfillment) in zip(missing.items, outcome.outcomes) {
            switch fulfillment {
            case .granted: report.granted += 1
            case .alreadyFulfilled: report.alreadyFulfilled += 1
            case .rejected(let rejection):
                if report.rejected.count < SteamReportSyncReport.rejectedReportedCountMax {
                    report.rejected[SteamOrderVerifier.key(order: order.orderID, item: item.itemID)] = rejection.description
                }
            }
        }
        return true
    }

    /// Whether `item` of `order` is taken back: all of a refunded or charged-back order, the
    /// refunded items of a partial refund.
    static func takesBack(_ item: SteamOrderItem, in order: SteamOrder) -> Bool {
        guard order.status.takesBack else { return false }
        if order.status == .partialRefund { return item.status.map { $0.takesBack && $0 != .partialRefund } ?? false }
        return true
    }
}
