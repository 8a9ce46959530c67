/// An external purchase token (`externalPurchaseToken`), as Apple documents it.
public struct ExternalPurchaseToken: Hashable, Sendable, Codable {
    /// Apple's identifier of the token; sandbox tokens start with `SANDBOX`.
    public var externalPurchaseId: String?
    /// When the token was created.
    public var tokenCreationDate: AppStoreTimestamp?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The app's bundle ID.
    public var bundleId: String?

    /// An empty token, for building one field by field.
    public init() {}

    /// The environment of the token, read as Apple does from the `SANDBOX` prefix.
    public var environment: AppStoreEnvironment {
        externalPurchaseId?.hasPrefix("SANDBOX") == true ? .sandbox : .production
    }
}
