import Foundation

/// Which player a store's account token names: the value a game sets on its purchases for a
/// player (App Store `appAccountToken`), which the ledger computes from the player ID with
/// `LedgerConfiguration.accountBinding(for:playerID:)` and cannot invert.
///
/// A purchase that reaches the server without its player (App Store `ONE_TIME_CHARGE`: the
/// client never came back) is granted to the player its token names here, and to no one when it
/// names none. The ledger learns a binding from every grant whose verified token matched its
/// player, and from `Ledger.bindAccountToken(store:playerID:)`, which a game calls before a
/// player's first purchase. The first binding of a token stays.
public struct AccountTokenBinding: Hashable, Sendable, Codable {
    /// How the ledger learned a binding. Open: a value a newer version writes reads back as itself.
    public struct Source: OpenStringEnumeration {
        /// The raw name.
        public var rawValue: String

        /// Wraps a raw name; every name is accepted.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A grant whose verified token matched its player.
        public static let grant: Source = "grant"
        /// The game registered the player (`Ledger.bindAccountToken`, `ledger appstore bind`,
        /// `POST /players/{playerID}/account-tokens`).
        public static let registration: Source = "registration"
    }

    /// The store whose purchases carry the token.
    public var store: PlatformStore
    /// The token as the ledger's account binding writes it (a lowercase UUID for
    /// `AppAccountToken.forPlayer`).
    public var token: String
    /// The player the token names.
    public var playerID: String
    /// When the ledger recorded the binding.
    public var boundAt: Date
    /// How it learned it.
    public var source: Source

    /// Creates a binding.
    public init(store: PlatformStore, token: String, playerID: String, boundAt: Date, source: Source) {
        self.store = store
        self.token = token
        self.playerID = playerID
        self.boundAt = boundAt.truncatedToLedgerMilliseconds
        self.source = source
    }
}
