import FulfillmentLedger

/// The App Store environment a payload was signed in, as Apple spells it.
///
/// Open: an environment Apple adds later is kept and refused by verification, never lost.
public struct AppStoreEnvironment: OpenStringEnumeration {
    /// Apple's name, such as `Sandbox`.
    public let rawValue: String

    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Real purchases.
    public static let production = AppStoreEnvironment(rawValue: "Production")
    /// The App Store sandbox (TestFlight, sandbox accounts).
    public static let sandbox = AppStoreEnvironment(rawValue: "Sandbox")
    /// StoreKit Testing in Xcode: signed by a local key, not by Apple.
    public static let xcode = AppStoreEnvironment(rawValue: "Xcode")
    /// Local StoreKit testing outside Xcode: not signed by Apple.
    public static let localTesting = AppStoreEnvironment(rawValue: "LocalTesting")

    /// Whether payloads of this environment are signed locally, not by Apple's chain.
    public var isLocalTesting: Bool { self == .xcode || self == .localTesting }

    /// The ledger's environment for this App Store environment.
    public var storeEnvironment: StoreEnvironment {
        switch self {
        case .production: .production
        case .sandbox: .sandbox
        default: StoreEnvironment(rawValue: rawValue.lowercased())
        }
    }
}
