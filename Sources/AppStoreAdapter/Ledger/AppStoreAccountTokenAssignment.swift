import FulfillmentLedger

/// What Set App Account Token did for a player: the purchase, the token Apple now reports on
/// it, the player the token names, and the ledger's binding of the token when one was recorded.
/// The shape `ledger appstore set-token` prints and `POST
/// /appstore/transactions/{originalTransactionID}/app-account-token` answers.
public struct AppStoreAccountTokenAssignment: Hashable, Sendable, Encodable {
    /// The purchase's `originalTransactionId`.
    public var originalTransactionID: String
    /// The token set, in canonical lowercase.
    public var appAccountToken: String
    /// The player the token names.
    public var playerID: String
    /// The ledger's binding of the token to the player, when a ledger recorded it.
    public var binding: AccountTokenBinding?

    /// Creates an assignment.
    public init(originalTransactionID: String, appAccountToken: String, playerID: String, binding: AccountTokenBinding? = nil) {
        self.originalTransactionID = originalTransactionID
        self.appAccountToken = appAccountToken
        self.playerID = playerID
        self.binding = binding
    }
}
