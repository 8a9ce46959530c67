import Foundation
import FulfillmentLedger

/// Builders of the rows the conformance cases store.
enum ContractRows {
    /// The fixed instant every row's dates are offsets from.
    static let epoch: Int64 = 1_780_000_000_000

    /// A date `offset` milliseconds after a fixed instant.
    static func date(_ offset: Int64) -> Date { Date(ledgerMilliseconds: epoch + offset) }

    /// A test-store transaction key.
    static func key(_ transactionID: String) -> TransactionKey {
        TransactionKey(store: .test, transactionID: transactionID)
    }

    /// A fulfilled gems purchase.
    static func record(_ transactionID: String, player: String = "p1") -> TransactionRecord {
        TransactionRecord(
            key: key(transactionID), playerID: player, productID: "gems_small", storeProductID: "test.gems_small",
            productKind: .consumable, quantity: 2, environment: .sandbox, purchaseDate: date(0), fulfilledAt: date(0),
            catalogVersion: "catalog-hash", grants: [GrantLine(kind: .currency, id: "gems", quantity: 200)],
            finishedAt: nil)
    }

    /// A record of `transactionID` for `player`, fulfilled as `productID` under `storeProductID` on `store`.
    static func record(
        _ transactionID: String, player: String, productID: String, store: PlatformStore, storeProductID: String
    ) -> TransactionRecord {
        var record = record(transactionID, player: player)
        record.key = TransactionKey(store: store, transactionID: transactionID)
        record.productID = productID
        record.storeProductID = storeProductID
        return record
    }

    /// A revocation record for `transactionID`, dated and received at the given offsets.
    static func revocation(
        _ eventID: String, _ transactionID: String = "t1", eventAt: Int64, receivedAt: Int64,
        kind: RevocationKind = .fullRefund, quantity: Int? = nil, reason: String? = nil
    ) -> RevocationRecord {
        RevocationRecord(
            event: RevocationEvent(
                eventID: eventID, store: .test, transactionID: transactionID, kind: kind, quantity: quantity,
                eventDate: date(eventAt), reason: reason),
            disposition: .awaitingPurchase, effect: [], debtCreated: [:], receivedAt: date(receivedAt), reversed: false)
    }

    /// A player flag, about `transactionID` if given.
    static func flag(_ flag: String, _ detail: String, transactionID: String?, at offset: Int64) -> PlayerFlag {
        PlayerFlag(flag: flag, detail: detail, transaction: transactionID.map(key), at: date(offset))
    }

    /// A ledger event of `player`, about `transactionID` if given.
    static func event(_ detail: String, player: String = "p1", transactionID: String?) -> LedgerEvent {
        LedgerEvent(
            kind: .purchaseGranted, playerID: player, transaction: transactionID.map(key), at: date(0), detail: detail)
    }

    /// A payment of `transactionID` for `entitlementID`, granted at `offset`.
    static func payment(_ entitlementID: String, _ transactionID: String, at offset: Int64 = 0) -> EntitlementRecord {
        EntitlementRecord(entitlementID: entitlementID, grantedAt: date(offset), source: key(transactionID))
    }
}
