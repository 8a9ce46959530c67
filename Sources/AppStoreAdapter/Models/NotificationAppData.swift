/// The app and its signed app transaction (`appData`), as Apple documents `appData`: present
/// in a notification of type `RESCIND_CONSENT` instead of `data`.
public struct NotificationAppData: Hashable, Sendable, Codable {
    /// The app's Apple ID (absent outside production).
    public var appAppleId: Int64?
    /// The app's bundle ID.
    public var bundleId: String?
    /// The environment the notification applies to.
    public var environment: AppStoreEnvironment?
    /// The account's app transaction, signed by the App Store (`JWSAppTransaction`).
    public var signedAppTransactionInfo: String?

    /// Empty app data, for building one field by field.
    public init() {}
}
