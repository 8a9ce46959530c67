import Foundation

/// The player's account IDs an acknowledgement attributes a resubscription made outside the app
/// to: `purchases.subscriptions.acknowledge`'s optional `externalAccountIds` (wire names kept).
///
/// Google takes them only for resubscription purchases, each at most 64 characters, and asks
/// that they be obfuscated (never an email or other personal data in clear).
public struct PlayExternalAccountIDs: Hashable, Sendable, Codable {
    /// Longest ID Google takes, in characters.
    public static let characterCountMax = 64

    /// The obfuscated ID of the player's account in the game.
    public var obfuscatedAccountId: String?
    /// The obfuscated ID of the player's profile in the game.
    public var obfuscatedProfileId: String?

    /// Creates the IDs.
    public init(obfuscatedAccountId: String?, obfuscatedProfileId: String? = nil) {
        self.obfuscatedAccountId = obfuscatedAccountId
        self.obfuscatedProfileId = obfuscatedProfileId
    }

    /// Whether Google takes `id`: non-empty and at most `characterCountMax` characters.
    public static func isAcceptable(_ id: String?) -> Bool {
        guard let id else { return true }
        return !id.isEmpty && id.count <= characterCountMax
    }

    /// Whether every ID present is one Google takes, and at least one is present.
    public var isAcceptable: Bool {
        (obfuscatedAccountId != nil || obfuscatedProfileId != nil) && Self.isAcceptable(obfuscatedAccountId)
            && Self.isAcceptable(obfuscatedProfileId)
    }
}
