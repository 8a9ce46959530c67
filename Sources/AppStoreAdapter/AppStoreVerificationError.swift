/// Why a signed App Store payload was not accepted. The statuses mirror Apple's
/// `VerificationStatus`; the codes are stable and listed in Docs/ErrorCodes.md.
public struct AppStoreVerificationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Apple's verification statuses.
    public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
        /// The JWS is malformed, a signature does not verify, or the chain is not trusted.
        case verificationFailure
        /// A certificate could not be parsed.
        case invalidCertificate
        /// `x5c` does not hold exactly three certificates.
        case invalidChainLength
        /// The bundle ID (or, for production notifications, the app Apple ID) does not match.
        case invalidAppIdentifier
        /// The payload's environment does not match the verifier's.
        case invalidEnvironment
        /// A check that may pass later could not be completed (for example an online
        /// revocation check); retry later.
        case retryableVerificationFailure

        /// The stable numeric code.
        public var code: Int {
            switch self {
            case .verificationFailure: 7001
            case .invalidCertificate: 7002
            case .invalidChainLength: 7003
            case .invalidAppIdentifier: 7004
            case .invalidEnvironment: 7005
            case .retryableVerificationFailure: 7006
            }
        }
    }

    /// The status.
    public var status: Status
    /// What exactly failed, for logs.
    public var detail: String
    /// For a payload whose signature verified but whose content is out of range (status
    /// `verificationFailure`): which value, with its own stable code (7101-7105).
    public var payloadError: AppStorePayloadError?

    /// Creates an error.
    public init(_ status: Status, _ detail: String, payloadError: AppStorePayloadError? = nil) {
        self.status = status
        self.detail = detail
        self.payloadError = payloadError
    }

    /// The `verificationFailure` of a payload refused for `payloadError`.
    public init(_ payloadError: AppStorePayloadError) {
        self.init(.verificationFailure, "payload refused: \(payloadError)", payloadError: payloadError)
    }

    /// `verificationFailure: detail`.
    public var description: String { "\(status.rawValue): \(detail)" }
}
