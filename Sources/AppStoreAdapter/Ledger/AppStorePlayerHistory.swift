import Foundation
import FulfillmentLedger

/// What Apple's Get Transaction History (v2) and Get Refund History list for the customer of
/// one transaction, split into the transactions bound to one player and the rest.
///
/// Apple lists a customer's (an Apple Account's) purchases in the app, and that account may
/// have played as several players: only a transaction whose `appAccountToken` is the player's
/// account binding is the player's. The others are counted, never granted to this player.
struct AppStorePlayerHistory: Sendable {
    /// The player's transactions from Transaction History, in Apple's order, with their facts.
    var transactions: [(signed: AppStoreSignedTransaction, facts: VerifiedTransaction)]
    /// The player's refunded transactions from Refund History and from Transaction History
    /// (revoked ones show there too), one per transaction ID, Refund History's copy preferred.
    var refunds: [String: (signed: AppStoreSignedTransaction, facts: VerifiedTransaction)]
    /// Transaction History's transactions bound to another player or to none.
    var unattributedCount: Int
    /// Of those, the transactions bound to no player (no `appAccountToken`): a purchase made
    /// outside the app, such as a redeemed offer code, which Set App Account Token can bind.
    var unbound: [(signed: AppStoreSignedTransaction, facts: VerifiedTransaction)] = []
    /// The `appTransactionId`s the player's transactions name: the Apple Account they were
    /// bought with (one, unless the player played on several accounts).
    var appTransactionIDs: Set<String> = []
    /// Transactions read, from both histories.
    var readCount: Int
    /// Whether both reads ended before their page limit: then the lists are all Apple has.
    var isComplete: Bool
    /// When the reads began.
    var readAt: Date

    /// Reads both histories of `anchorTransactionID`'s customer, at most `pageCountMax` pages each.
    /// The anchor is any of Apple's IDs of the customer (`anyTransactionId`, API 1.20+): a
    /// transaction ID, an original transaction ID, or the customer's `appTransactionId`.
    ///
    /// - Throws: `transactionSourceUnavailable` when Apple cannot be asked (down, rate limited,
    ///   the key refused, an answer that does not verify), `invalidArgument` when Apple does not
    ///   know the anchor in this environment. Either way nothing was read.
    static func read(
        client: AppStoreServerAPIClient, anchorTransactionID: String, binding: String, pageCountMax: Int, now: Date
    ) async throws(LedgerError) -> AppStorePlayerHistory {
        let history: AppStoreTransactionPage
        let refunds: AppStoreTransactionPage
        do {
            history = try await client.transactionHistory(transactionID: anchorTransactionID, pageCountMax: pageCountMax)
            refunds = try await client.refundHistory(transactionID: anchorTransactionID, pageCountMax: pageCountMax)
        } catch {
            if case .rejected(let answer) = error, answer.httpStatusCode == 404 {
                throw .invalidArgument(
                    "Apple does not know transaction \(anchorTransactionID) in \(client.environment.rawValue): \(answer)")
            }
            if case .rejected(let answer) = error, answer.errorCode == .appTransactionIDNotSupported {
                throw .invalidArgument(
                    "Apple's history does not take the appTransactionId \(anchorTransactionID) here (\(answer)); name a transaction of the player's instead")
            }
            throw .transactionSourceUnavailable("App Store Server API: \(error)")
        }
        func verifiedFacts(_ signed: AppStoreSignedTransaction) -> VerifiedTransaction? {
            AppStoreTransactionVerifier.facts(signed.transaction, defaultEnvironment: client.environment)
        }
        func bound(_ signed: AppStoreSignedTransaction) -> VerifiedTransaction? {
            verifiedFacts(signed).flatMap { $0.accountBinding == binding ? $0 : nil }
        }
        var result = AppStorePlayerHistory(
            transactions: [], refunds: [:], unattributedCount: 0,
            readCount: history.transactions.count + refunds.transactions.count,
            isComplete: !history.hasMore && !refunds.hasMore, readAt: now)
        for signed in history.transactions {
            guard let facts = bound(signed) else {
                result.unattributedCount += 1
                if let unbound = verifiedFacts(signed), unbound.accountBinding == nil { result.unbound.append((signed, unbound)) }
                continue
            }
            if let account = facts.storeAccountID { result.appTransactionIDs.insert(account) }
            result.transactions.append((signed, facts))
            if facts.revocationDate != nil { result.refunds[facts.transactionID] = (signed, facts) }
        }
        // Refund History is the list of record for refunds: its copy replaces history's.
        for signed in refunds.transactions {
            if let facts = bound(signed), facts.revocationDate != nil { result.refunds[facts.transactionID] = (signed, facts) }
        }
        return result
    }
}
