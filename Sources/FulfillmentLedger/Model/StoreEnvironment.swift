/// The environment a store transaction was made in.
///
/// Kept as a raw value so an environment name added by a store later is preserved.
public struct StoreEnvironment: OpenStringEnumeration {
    /// The environment's name as the store reports it.
    public let rawValue: String

    /// Wraps an environment name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Real money, real players.
    public static let production = StoreEnvironment(rawValue: "production")
    /// Store sandbox or test accounts; never real money.
    public static let sandbox = StoreEnvironment(rawValue: "sandbox")
}
