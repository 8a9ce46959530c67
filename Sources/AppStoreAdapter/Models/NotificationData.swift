/// The app and transaction data of a notification (`data`), as Apple documents `Data`.
public struct NotificationData: Hashable, Sendable, Codable {
    /// The environment the notification applies to.
    public var environment: AppStoreEnvironment?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The app's bundle ID.
    public var bundleId: String?
    /// The app's build version.
    public var bundleVersion: String?
    /// The nested signed transaction, kept as received.
    public var signedTransactionInfo: String?
    /// The nested signed renewal information, kept as received.
    public var signedRenewalInfo: String?
    /// The subscription's state.
    public var status: SubscriptionStatus?
    /// The reason given with a refund request, for CONSUMPTION_REQUEST.
    public var consumptionRequestReason: ConsumptionRequestReason?

    /// Empty data, for building one field by field.
    public init() {}
}
