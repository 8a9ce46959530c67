import Foundation
import FulfillmentLedger

/// A `ONE_TIME_CHARGE` as `AppStoreNotificationProcessor` handled it: Apple's word that a
/// customer bought a consumable, non-consumable or non-renewing subscription, which reaches the
/// server even when the client never comes back to deliver it.
///
/// The purchase is granted through the same pipeline, under the same keys, as a client delivery
/// (so a later client delivery answers `alreadyFulfilled`), to the player its `appAccountToken`
/// names (`Ledger.accountTokenBinding`). Without a token, or with one no grant or registration
/// bound, it is journaled as an `accountUnassigned` attempt for an operator to assign
/// (`ledger appstore fulfill --transaction-id ID --player P`), and granted to no one.
public struct AppStoreOneTimeCharge: Hashable, Sendable {
    /// The transaction's `transactionId`.
    public var transactionID: String
    /// The App Store product ID.
    public var storeProductID: String
    /// The transaction's `appAccountToken` in canonical form, if it has one.
    public var appAccountToken: String?
    /// The player the token names; nil when it names none (`fulfillment` is nil too).
    public var playerID: String?
    /// The pipeline's answer for the player: `granted`, `alreadyFulfilled` or `rejected`; nil
    /// when the charge is unassigned.
    public var fulfillment: FulfillmentOutcome?

    /// Creates a charge's outcome.
    public init(
        transactionID: String, storeProductID: String, appAccountToken: String?, playerID: String?,
        fulfillment: FulfillmentOutcome?
    ) {
        self.transactionID = transactionID
        self.storeProductID = storeProductID
        self.appAccountToken = appAccountToken
        self.playerID = playerID
        self.fulfillment = fulfillment
    }

    /// Whether the charge names no player and was journaled for an operator.
    public var isUnassigned: Bool { playerID == nil }

    /// The pipeline's rejection, if it refused the charge for its player.
    public var rejection: Rejection? {
        if case .rejected(let rejection) = fulfillment { return rejection }
        return nil
    }

    /// One line for the notification log.
    var note: String {
        guard let playerID, let fulfillment else {
            return "one-time charge unassigned: the account token names no player; journaled for an operator"
        }
        switch fulfillment {
        case .granted: return "one-time charge granted to \(playerID)"
        case .alreadyFulfilled: return "one-time charge already fulfilled for \(playerID)"
        case .rejected(let rejection): return "one-time charge rejected for \(playerID): \(rejection)"
        }
    }
}
