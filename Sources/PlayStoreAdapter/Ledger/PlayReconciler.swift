import Foundation
import FulfillmentLedger

/// Compares one player's Google Play records in the ledger with their orders in the Orders API
/// (`orders.batchget`), the Play counterpart of `AppStoreReconciler`: refunds Google made that
/// the ledger has not applied, units the ledger took back from an order Google reports paid,
/// orders Google cancelled that the ledger granted, and the exact amounts refunded.
///
/// Google has no per-player history, so the ledger's records are the starting point: a purchase
/// the ledger never saw is found by the client's next delivery, RTDN or `recover()`, not here.
/// With `apply`, the reconciler runs `VoidedPurchasesSync` (which applies each void Google lists,
/// once, under the event ID every other path uses) and compares again; a refund older than the
/// 30 days Google lists stays a difference for an operator (`ledger revoke`).
public struct PlayReconciler: Sendable {
    /// The Play Developer API.
    public let api: any PlayPurchasesAPI
    /// The app's package name.
    public let packageName: String
    /// The ledger compared.
    public let ledger: Ledger

    /// Creates a reconciler.
    public init(api: any PlayPurchasesAPI, packageName: String, ledger: Ledger) {
        self.api = api
        self.packageName = packageName
        self.ledger = ledger
    }

    /// Compares the player's Play records (their latest `historyCountMax`) with Google's orders.
    ///
    /// - Throws: `invalidArgument` for a bad player ID; `transactionSourceUnavailable` when Google
    ///   cannot be asked (nothing changed); storage errors.
    public func reconcile(playerID: String, apply: Bool = false) async throws(LedgerError) -> PlayReconciliation {
        var report = try await compare(playerID: playerID)
        guard apply else { return report }
        let sync = try await VoidedPurchasesSync(api: api, packageName: packageName, ledger: ledger).run()
        report = try await compare(playerID: playerID)
        report.didApply = true
        report.voidsRecorded = sync.recorded
        return report
    }

    private func compare(playerID: String) async throws(LedgerError) -> PlayReconciliation {
        let snapshot = try await ledger.player(playerID)
        var report = PlayReconciliation(playerID: playerID, readAt: ledger.clock.now())
        var byOrder: [String: TransactionRecord] = [:]
        for record in snapshot.history where record.key.store == .playStore {
            // A subscription period's key is its order ID; a one-time purchase carries its own.
            let orderID = record.productKind == .autoRenewable ? record.key.transactionID : record.storeOrderID
            guard let orderID, !orderID.isEmpty, orderID.utf8.count <= PlayPayloadLimits.orderIDByteCountMax else {
                report.withoutOrderID += 1
                continue
            }
            byOrder[orderID] = record
        }
        let orderIDs = byOrder.keys.sorted()
        var start = 0
        while start < orderIDs.count {
            let batch = Array(orderIDs[start..<min(start + PlayOrderLimits.batchCountMax, orderIDs.count)])
            start += batch.count
            for (orderID, order) in try await read(batch) {
                guard let record = byOrder[orderID] else { continue }
                guard let order else {
                    report.unknownToStore.append(orderID)
                    continue
                }
                report.ordersRead += 1
                try await compare(record, orderID: orderID, order: order, into: &report)
            }
        }
        return report
    }

    /// Google's orders for `batch`, nil for one Google does not know. Google fails a whole batch
    /// for one unknown order, so a refused batch is asked order by order (at most its size).
    private func read(_ batch: [String]) async throws(LedgerError) -> [(String, PlayOrder?)] {
        do throws(PlayAPIError) {
            let orders = try await api.orders(packageName: packageName, orderIDs: batch)
            let byID = Dictionary(orders.compactMap { order in order.orderId.map { ($0, order) } }) { first, _ in first }
            return batch.map { ($0, byID[$0]) }
        } catch .notFound, .invalidToken {
            var found: [(String, PlayOrder?)] = []
            for orderID in batch {
                do throws(PlayAPIError) {
                    found.append((orderID, try await api.order(packageName: packageName, orderID: orderID)))
                } catch .notFound, .invalidToken {
                    found.append((orderID, nil))
                } catch {
                    throw Self.unavailable(error)
                }
            }
            return found
        } catch {
            throw Self.unavailable(error)
        }
    }

    private static func unavailable(_ error: PlayAPIError) -> LedgerError {
        .transactionSourceUnavailable("Google Play Orders API failed: \(error)")
    }

    /// Files `record` against `order` in `report`.
    private func compare(
        _ record: TransactionRecord, orderID: String, order: PlayOrder, into report: inout PlayReconciliation
    ) async throws(LedgerError) {
        let refundState = try await ledger.purchaseRecord(record.key)?.1
        let refundedUnits = refundState?.refundedQuantity ?? 0
        let fullyTakenBack = refundState.map { $0.status == .refunded || $0.status == .revoked } ?? false
        var refunded: PlayMoney?
        do throws(PlayPayloadError) {
            refunded = try order.refundedAmount()
            if let refunded { try Self.add(refunded, to: &report.refundedTotals) }
        } catch {
            report.unreadableAmounts[orderID] = error.description
        }
        let entry = PlayReconciliation.Entry(
            orderID: orderID, ledgerKey: record.key, storeProductID: record.storeProductID, orderState: order.state ?? "",
            quantity: record.quantity, ledgerRefundedQuantity: refundedUnits, total: order.total, refunded: refunded)
        switch order.knownState {
        case .refunded where !fullyTakenBack: report.unappliedRefunds.append(entry)
        case .partiallyRefunded where refundedUnits == 0: report.unappliedRefunds.append(entry)
        case .processed, .pending, .pendingRefund:
            if refundedUnits > 0 || fullyTakenBack { report.refundedOnlyInLedger.append(entry) }
        case .canceled: if !fullyTakenBack { report.canceledButGranted.append(entry) }
        case .refunded, .partiallyRefunded, nil: break
        }
    }

    /// Adds `amount` to its currency's total.
    private static func add(_ amount: PlayMoney, to totals: inout [String: PlayMoney]) throws(PlayPayloadError) {
        let (code, nanos) = try amount.checked(field: "refunded")
        let sum = try totals[code].map { existing throws(PlayPayloadError) in try existing.checked(field: "refundedTotals").totalNanos } ?? 0
        let (added, overflow) = sum.addingReportingOverflow(nanos)
        guard !overflow else { throw .malformedMoney(field: "refundedTotals", detail: "the sum overflows") }
        totals[code] = PlayMoney(currencyCode: code, totalNanos: added)
    }
}
