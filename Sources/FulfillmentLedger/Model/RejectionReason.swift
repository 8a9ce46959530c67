/// Why a submitted transaction was not granted. Every rejection changes nothing.
///
/// The raw values and numeric codes are stable and listed in Docs/ErrorCodes.md; they are
/// never renumbered or reused.
public enum RejectionReason: String, Hashable, Sendable, Codable, CaseIterable {
    /// The payment is pending (Ask to Buy, deferred payment); it may grant later.
    case pending
    /// The payment was cancelled or the store reports a state other than purchased.
    case cancelled
    /// The store's proof did not verify, or it disagrees with the submission.
    case unverified
    /// The store revoked the transaction before it was fulfilled.
    case revoked
    /// No catalog product maps the store's product ID.
    case unknownProduct
    /// The transaction's environment is not the one this ledger serves.
    case wrongEnvironment
    /// The quantity is zero, negative, above the limit, or not 1 for a non-consumable.
    case invalidQuantity
    /// The store binds the transaction to an account (App Store `appAccountToken`, Google
    /// Play `obfuscatedExternalAccountId`) that is not this player's.
    case accountMismatch
    /// A revocation event of a kind this version does not apply; nothing changed.
    case unsupportedEvent
    /// The store says the product is a consumable and the catalog a non-consumable, or the
    /// reverse: a configuration mismatch, never granted with either semantics.
    case productTypeMismatch
    /// The store says the product is of a type the ledger does not fulfill (a subscription, or
    /// a type this version does not know).
    case unsupportedProductType
    /// The store withdrew consent for the buyer's account to use the app (App Store
    /// `RESCIND_CONSENT`); nothing more is granted to it, and what it was granted stays.
    case consentRescinded
    /// A purchase the store delivered to the server without its player (App Store
    /// `ONE_TIME_CHARGE`) names no player the ledger knows: no account token, or one no grant or
    /// registration bound. Journaled as an attempt an operator assigns; never granted to a guess.
    case accountUnassigned
    /// The transaction ID was already fulfilled for another product.
    case conflictProduct
    /// The transaction ID was already fulfilled for another player (and no transfer applies).
    case ownedByAnotherPlayer
    /// The transaction ID was already fulfilled with another quantity.
    case conflictQuantity
    /// The revocation event ID was already applied with different content.
    case conflictEvent

    /// The stable numeric code (see Docs/ErrorCodes.md).
    public var code: Int {
        switch self {
        case .pending: 101
        case .cancelled: 102
        case .unverified: 103
        case .revoked: 104
        case .unknownProduct: 105
        case .wrongEnvironment: 106
        case .invalidQuantity: 107
        case .accountMismatch: 108
        case .unsupportedEvent: 109
        case .productTypeMismatch: 110
        case .unsupportedProductType: 111
        case .consentRescinded: 112
        case .accountUnassigned: 113
        case .conflictProduct: 201
        case .ownedByAnotherPlayer: 202
        case .conflictQuantity: 203
        case .conflictEvent: 204
        }
    }

    /// Whether the same transaction may grant later (only a pending payment can).
    public var mayGrantLater: Bool { self == .pending }
}

/// A rejection with its stable reason and a message for operators.
public struct Rejection: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The stable reason.
    public var reason: RejectionReason
    /// What exactly did not match, for logs.
    public var message: String

    /// Creates a rejection.
    public init(_ reason: RejectionReason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// `reason: message`.
    public var description: String { "\(reason.rawValue): \(message)" }
}
