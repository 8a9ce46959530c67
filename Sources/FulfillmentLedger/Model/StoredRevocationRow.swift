import Foundation

/// A revocation event row as every store adapter reads it back, turned into a
/// `RevocationRecord` in one place (see `StoredTransactionRow`).
package struct StoredRevocationRow: Sendable {
    package var eventID, store, transactionID, kind: String
    package var quantity: Int64?
    package var eventDateMilliseconds: Int64
    package var reason: String?
    package var disposition, effect, debt: String
    package var receivedMilliseconds: Int64
    package var reversed: Bool
    package var originalTransactionID: String?
    package var purchaseID: String
    package var quantityIsCumulative: Bool
    package var absorbedChange: String?

    /// Takes every column, in the order of the revocation events table.
    package init(
        eventID: String, store: String, transactionID: String, kind: String, quantity: Int64?,
        eventDateMilliseconds: Int64, reason: String?, disposition: String, effect: String, debt: String,
        receivedMilliseconds: Int64, reversed: Bool, originalTransactionID: String?, purchaseID: String,
        quantityIsCumulative: Bool, absorbedChange: String?
    ) {
        self.eventID = eventID
        self.store = store
        self.transactionID = transactionID
        self.kind = kind
        self.quantity = quantity
        self.eventDateMilliseconds = eventDateMilliseconds
        self.reason = reason
        self.disposition = disposition
        self.effect = effect
        self.debt = debt
        self.receivedMilliseconds = receivedMilliseconds
        self.reversed = reversed
        self.originalTransactionID = originalTransactionID
        self.purchaseID = purchaseID
        self.quantityIsCumulative = quantityIsCumulative
        self.absorbedChange = absorbedChange
    }

    /// The record; `corrupt` names the adapter's error for a value the ledger never writes.
    package func record(corrupt: (String) -> LedgerError) throws(LedgerError) -> RevocationRecord {
        guard let revocationDisposition = RevocationDisposition(rawValue: disposition) else {
            throw corrupt("revocation disposition \(disposition)")
        }
        guard let effectLines = StoredForm.grants(effect) else { throw corrupt("grant lines \(effect)") }
        guard let debtCreated = StoredForm.amounts(debt) else { throw corrupt("amounts \(debt)") }
        var absorbed: [String: Int64] = [:]
        if let absorbedChange {
            guard let amounts = StoredForm.amounts(absorbedChange) else { throw corrupt("amounts \(absorbedChange)") }
            absorbed = amounts
        }
        let event = RevocationEvent(
            eventID: eventID, store: PlatformStore(rawValue: store), transactionID: transactionID,
            originalTransactionID: originalTransactionID, kind: RevocationKind(rawValue: kind),
            quantity: quantity.map { Int($0) }, quantityIsCumulative: quantityIsCumulative,
            eventDate: Date(ledgerMilliseconds: eventDateMilliseconds), reason: reason)
        return RevocationRecord(
            event: event, purchase: TransactionKey(store: event.store, transactionID: purchaseID),
            disposition: revocationDisposition, effect: effectLines, debtCreated: debtCreated,
            absorbedChange: absorbed, receivedAt: Date(ledgerMilliseconds: receivedMilliseconds), reversed: reversed)
    }
}
