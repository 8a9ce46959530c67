/// Which way a submission reached the ledger, so support can tell a player's own tap from a
/// store's push or an operator's command. Open: a value a newer version writes reads back as itself.
public struct DeliveryEntryPoint: OpenStringEnumeration {
    /// The raw name.
    public var rawValue: String

    /// Wraps a raw name; every name is accepted.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The game client, through the game server or `ledger serve`.
    public static let client: DeliveryEntryPoint = "client"
    /// A store server notification (App Store Server Notifications, Play real-time developer notifications).
    public static let notification: DeliveryEntryPoint = "notification"
    /// A sync the server ran against the store's API (reconcile, subscription status, voided purchases).
    public static let sync: DeliveryEntryPoint = "sync"
    /// `recover()`: the transaction source's unfinished transactions.
    public static let recover: DeliveryEntryPoint = "recover"
    /// A player's restore (Restore Purchases, a new device).
    public static let restore: DeliveryEntryPoint = "restore"
    /// An operator's command (`ledger fulfill`, `ledger appstore fulfill`).
    public static let `operator`: DeliveryEntryPoint = "operator"
}
