/// The decoded payload of a signed app transaction (the app's own purchase, from StoreKit's
/// `AppTransaction`), as Apple documents `AppTransaction`.
///
/// Every field is optional; unknown fields are ignored so a newer payload still decodes.
public struct AppTransaction: Hashable, Sendable, Codable {
    /// The environment the app transaction was signed in.
    public var receiptType: AppStoreEnvironment?
    /// The app's Apple ID (absent outside production).
    public var appAppleId: Int64?
    /// The app's bundle ID.
    public var bundleId: String?
    /// The app version the transaction is for.
    public var applicationVersion: String?
    /// The identifier of the app version in App Store Connect.
    public var versionExternalIdentifier: Int64?
    /// When the App Store created this receipt.
    public var receiptCreationDate: AppStoreTimestamp?
    /// When the user first bought or downloaded the app.
    public var originalPurchaseDate: AppStoreTimestamp?
    /// The app version the user first bought or downloaded.
    public var originalApplicationVersion: String?
    /// A device-specific hash for checking the transaction belongs to the device.
    public var deviceVerification: String?
    /// The UUID used with `deviceVerification`.
    public var deviceVerificationNonce: String?
    /// When the user pre-ordered the app, if they did.
    public var preorderDate: AppStoreTimestamp?
    /// The unique ID of this app download.
    public var appTransactionId: String?
    /// The platform the app was first bought on.
    public var originalPlatform: PurchasePlatform?

    /// An empty payload, for building one field by field.
    public init() {}
}

extension AppTransaction: SignedPayload {
    /// App transactions carry no signedDate; Apple uses the receipt creation date instead.
    var effectiveSigningDate: AppStoreTimestamp? { receiptCreationDate }
    /// The field the signing date comes from.
    static var signingDateField: String { "receiptCreationDate" }
}
