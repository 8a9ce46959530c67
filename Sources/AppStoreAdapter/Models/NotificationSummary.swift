/// The summary of a mass renewal-date extension (`summary`), as Apple documents `Summary`.
public struct NotificationSummary: Hashable, Sendable, Codable {
    /// The environment of the extension request.
    public var environment: AppStoreEnvironment?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The app's bundle ID.
    public var bundleId: String?
    /// The product whose subscriptions were extended.
    public var productId: String?
    /// The identifier of the extension request.
    public var requestIdentifier: String?
    /// The storefronts the extension covered.
    public var storefrontCountryCodes: [String]?
    /// How many subscriptions were extended.
    public var succeededCount: Int64?
    /// How many subscriptions could not be extended.
    public var failedCount: Int64?

    /// An empty summary, for building one field by field.
    public init() {}
}
