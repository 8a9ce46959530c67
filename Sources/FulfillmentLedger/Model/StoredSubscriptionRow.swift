import Foundation

/// A `subscriptions` row's stored columns, in table order, as every store adapter keeps them,
/// so a ledger moved from one engine to another holds identical values.
package struct StoredSubscriptionRow: Hashable, Sendable {
    package var store: String
    package var chainID: String
    package var playerID: String
    package var productID: String
    package var storeProductID: String
    package var subscriptionGroup: String
    package var state: String
    package var expiresAtMilliseconds: Int64
    package var gracePeriodExpiresAtMilliseconds: Int64?
    package var willAutoRenew: Bool?
    package var entitlementIDs: String
    package var latestPeriodID: String
    package var periodCount: Int64
    package var stateSignedAtMilliseconds: Int64
    package var updatedAtMilliseconds: Int64

    /// The columns of a record.
    package init(_ record: SubscriptionRecord) {
        store = record.chain.store.rawValue
        chainID = record.chain.transactionID
        playerID = record.playerID
        productID = record.productID
        storeProductID = record.storeProductID
        subscriptionGroup = record.subscriptionGroup
        state = record.state.rawValue
        expiresAtMilliseconds = record.expiresAt.ledgerMilliseconds
        gracePeriodExpiresAtMilliseconds = record.gracePeriodExpiresAt?.ledgerMilliseconds
        willAutoRenew = record.willAutoRenew
        entitlementIDs = StoredForm.identifiersText(record.entitlementIDs)
        latestPeriodID = record.latestPeriodID
        periodCount = Int64(record.periodCount)
        stateSignedAtMilliseconds = record.stateSignedAt.ledgerMilliseconds
        updatedAtMilliseconds = record.updatedAt.ledgerMilliseconds
    }

    /// Columns read from a store, in table order.
    package init(
        store: String, chainID: String, playerID: String, productID: String, storeProductID: String,
        subscriptionGroup: String, state: String, expiresAtMilliseconds: Int64, gracePeriodExpiresAtMilliseconds: Int64?,
        willAutoRenew: Bool?, entitlementIDs: String, latestPeriodID: String, periodCount: Int64,
        stateSignedAtMilliseconds: Int64, updatedAtMilliseconds: Int64
    ) {
        self.store = store
        self.chainID = chainID
        self.playerID = playerID
        self.productID = productID
        self.storeProductID = storeProductID
        self.subscriptionGroup = subscriptionGroup
        self.state = state
        self.expiresAtMilliseconds = expiresAtMilliseconds
        self.gracePeriodExpiresAtMilliseconds = gracePeriodExpiresAtMilliseconds
        self.willAutoRenew = willAutoRenew
        self.entitlementIDs = entitlementIDs
        self.latestPeriodID = latestPeriodID
        self.periodCount = periodCount
        self.stateSignedAtMilliseconds = stateSignedAtMilliseconds
        self.updatedAtMilliseconds = updatedAtMilliseconds
    }

    /// The record, or nil when a column holds what the ledger never writes (changed outside it).
    package var record: SubscriptionRecord? {
        guard let entitlements = StoredForm.identifiers(entitlementIDs), periodCount >= 0, periodCount <= Int64(Int32.max)
        else { return nil }
        return SubscriptionRecord(
            chain: TransactionKey(store: PlatformStore(rawValue: store), transactionID: chainID), playerID: playerID,
            productID: productID, storeProductID: storeProductID, subscriptionGroup: subscriptionGroup,
            state: SubscriptionState(rawValue: state), expiresAt: Date(ledgerMilliseconds: expiresAtMilliseconds),
            gracePeriodExpiresAt: gracePeriodExpiresAtMilliseconds.map(Date.init(ledgerMilliseconds:)),
            willAutoRenew: willAutoRenew, entitlementIDs: entitlements, latestPeriodID: latestPeriodID,
            periodCount: Int(periodCount), stateSignedAt: Date(ledgerMilliseconds: stateSignedAtMilliseconds),
            updatedAt: Date(ledgerMilliseconds: updatedAtMilliseconds))
    }
}
