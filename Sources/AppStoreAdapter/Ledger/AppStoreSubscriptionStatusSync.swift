import Foundation
import FulfillmentLedger

/// Brings a player's App Store subscription chains up to date from Apple's Get All Subscription
/// Statuses, for when notifications were missed (an outage of the server, a lost DID_RENEW).
///
/// For each chain the ledger knows, it reads the statuses with the chain's ID, fulfils the
/// chain's latest transaction for the chain's player (a period the ledger missed is granted
/// once, through the ledger's verifier; one it has is `alreadyFulfilled`), then applies Apple's
/// status and renewal information as a `SubscriptionUpdate` signed at the renewal information's
/// `signedDate`, so it never overwrites a newer state. A revoked status changes no state here:
/// refunds go through the refund path (`AppStoreReconciler`), which takes the period's rewards back.
public struct AppStoreSubscriptionStatusSync: Sendable {
    /// What one chain's sync did.
    public enum Outcome: Sendable {
        /// Apple's status was read and applied: the latest transaction's fulfillment, and the update.
        case applied(status: SubscriptionStatus?, period: FulfillmentOutcome, update: SubscriptionUpdateOutcome)
        /// Apple does not know the chain's ID in this environment, or lists no such subscription.
        case notFound
        /// Apple's API failed for this chain; nothing changed. Running the sync again is safe.
        case failed(AppStoreServerAPIError)
    }

    /// The client that reads Apple's statuses (its verifier checks every JWS).
    public let client: AppStoreServerAPIClient
    /// The ledger the statuses update.
    public let ledger: Ledger

    /// Creates a sync.
    public init(client: AppStoreServerAPIClient, ledger: Ledger) {
        self.client = client
        self.ledger = ledger
    }

    /// Syncs every App Store chain of `playerID`, by chain ID. Throws only when the ledger fails.
    public func sync(playerID: String) async throws(LedgerError) -> [TransactionKey: Outcome] {
        var outcomes: [TransactionKey: Outcome] = [:]
        for reading in try await ledger.subscriptions(playerID) where reading.subscription.chain.store == .appStore {
            let chain = reading.subscription.chain
            let statuses: AppStoreSubscriptionStatuses?
            do throws(AppStoreServerAPIError) {
                statuses = try await client.allSubscriptionStatuses(transactionID: chain.transactionID)
            } catch {
                outcomes[chain] = .failed(error)
                continue
            }
            guard let item = statuses?.items.first(where: { $0.originalTransactionID == chain.transactionID }) else {
                outcomes[chain] = .notFound
                continue
            }
            outcomes[chain] = try await apply(item, to: reading.subscription)
        }
        return outcomes
    }

    /// Fulfils the item's transaction for the chain's player, then applies its status.
    private func apply(
        _ item: AppStoreSubscriptionStatuses.Item, to chain: SubscriptionRecord
    ) async throws(LedgerError) -> Outcome {
        let transaction = item.transaction.transaction
        let submission = TransactionSubmission(
            store: .appStore, transactionID: transaction.transactionId ?? "", storeProductID: transaction.productId ?? "",
            playerID: chain.playerID, quantity: transaction.quantity ?? 1, payload: item.transaction.jws)
        let period = try await ledger.fulfill(submission, via: .sync)
        let renewal = item.renewalInfo
        var update = SubscriptionUpdate(
            chain: chain.chain, willAutoRenew: renewal?.autoRenewStatus.map { $0 == .on },
            signedAt: renewal?.signedDate?.date ?? transaction.signedDate?.date ?? ledger.clock.now(),
            reason: "Get All Subscription Statuses status \(item.status.map { String($0.rawValue) } ?? "absent")")
        switch item.status {
        case .active?: update.state = .active
        case .expired?: update.state = .expired
        case .billingRetry?: update.state = .billingRetry
        case .billingGracePeriod?:
            update.state = .gracePeriod
            update.gracePeriodExpiresAt = renewal?.gracePeriodExpiresDate?.date
        default: break
        }
        return .applied(status: item.status, period: period, update: try await ledger.updateSubscription(update))
    }
}
