import Foundation
import FulfillmentLedger

/// How the units the ledger has taken back from a Play purchase compare with what Google says
/// it refunded (`quantity - refundableQuantity` from `purchases.products.get`), after a void.
///
/// The check never changes balances: guessing units from a count could take back a refund
/// twice, since Google's list names each refund and the ledger applies each once. A ledger
/// behind Google is expected for a while (Google counts a refund before it lists it; the sync
/// applies it once listed). A ledger ahead of Google is not, and is flagged on the player
/// (`playRefundMismatch`) for support.
public enum PlayRefundCheck: Hashable, Sendable, CustomStringConvertible {
    /// Both count `refundedQuantity` units refunded.
    case agrees(refundedQuantity: Int)
    /// Google counts more refunded units than the ledger has applied.
    case ledgerBehind(ledgerRefunded: Int, googleRefunded: Int)
    /// The ledger has taken back more units than Google counts refunded; the player is flagged.
    case ledgerAhead(ledgerRefunded: Int, googleRefunded: Int)
    /// The comparison could not be made (the API failed, or its answer lacked or broke a field).
    case unavailable(String)

    /// The flag set on the player when the ledger is ahead.
    public static let mismatchFlag = "playRefundMismatch"

    /// A short text for logs and notification records.
    public var description: String {
        switch self {
        case .agrees(let refunded): "agrees (\(refunded) refunded)"
        case .ledgerBehind(let ledger, let google): "ledger behind (ledger \(ledger), Google \(google) refunded)"
        case .ledgerAhead(let ledger, let google): "ledger ahead (ledger \(ledger), Google \(google) refunded)"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }
}

/// Runs `PlayRefundCheck`s for the notification processor and the voided sync.
struct PlayRefundChecker: Sendable {
    let api: any PlayPurchasesAPI
    let packageName: String
    let ledger: Ledger

    /// The check for the purchase `token`; nil when the ledger holds no purchase for it (a void
    /// waiting for its purchase has taken nothing yet). Throws only storage errors.
    func check(token: String) async throws(LedgerError) -> PlayRefundCheck? {
        let key = TransactionKey(store: .playStore, transactionID: token)
        guard let (record, state) = try await ledger.purchaseRecord(key) else { return nil }
        let purchase: ProductPurchase
        do {
            purchase = try await api.productPurchase(packageName: packageName, storeProductID: record.storeProductID, token: token)
        } catch {
            return .unavailable("purchases.products.get failed: \(error)")
        }
        let quantity: Int
        let refundable: Int?
        do throws(PlayPayloadError) {
            quantity = try purchase.checkedQuantity()
            refundable = try purchase.checkedRefundableQuantity()
        } catch {
            return .unavailable("\(error)")
        }
        guard let refundable else { return .unavailable("Google reports no refundableQuantity") }
        guard quantity == record.quantity else {
            return .unavailable("Google reports quantity \(quantity), the ledger \(record.quantity)")
        }
        let googleRefunded = quantity - refundable
        let ledgerRefunded = state?.refundedQuantity ?? 0
        if ledgerRefunded == googleRefunded { return .agrees(refundedQuantity: ledgerRefunded) }
        if ledgerRefunded < googleRefunded { return .ledgerBehind(ledgerRefunded: ledgerRefunded, googleRefunded: googleRefunded) }
        let check = PlayRefundCheck.ledgerAhead(ledgerRefunded: ledgerRefunded, googleRefunded: googleRefunded)
        let flag = PlayerFlag(
            flag: PlayRefundCheck.mismatchFlag, detail: "Google Play purchase \(check)", transaction: key,
            at: ledger.clock.now())
        try await ledger.flagPlayer(record.playerID, flag)
        return check
    }
}
