import FulfillmentLedger

/// The platform an app was first bought on (`originalPlatform`).
///
/// Open: a value Apple adds later is kept raw, never lost.
public struct PurchasePlatform: OpenStringEnumeration {
    /// Apple's name for the value.
    public let rawValue: String

    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// iOS, iPadOS or the iOS app on a Mac.
    public static let iOS = PurchasePlatform(rawValue: "iOS")
    /// macOS.
    public static let macOS = PurchasePlatform(rawValue: "macOS")
    /// tvOS.
    public static let tvOS = PurchasePlatform(rawValue: "tvOS")
    /// visionOS.
    public static let visionOS = PurchasePlatform(rawValue: "visionOS")
}
