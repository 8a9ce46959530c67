/// Why the simulated App Store could not do what it was asked: an OpenSSL call failed,
/// or a transaction it was asked about does not exist or cannot take the change.
public struct AppStoreSimulatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, with OpenSSL's own error text when there is one.
    public var detail: String
    /// The App Store Server API error code Apple answers the same refusal with, when there is one.
    public var appleErrorCode: Int?

    /// Creates an error.
    public init(_ detail: String, appleErrorCode: Int? = nil) {
        self.detail = detail
        self.appleErrorCode = appleErrorCode
    }

    /// The detail.
    public var description: String { "AppStoreSimulator: \(detail)" }

    /// `transactionID` is not the original transaction of its purchase (Apple's 4000187).
    static func notOriginal(_ transactionID: String) -> AppStoreSimulatorError {
        AppStoreSimulatorError("\(transactionID) is not an original transaction ID", appleErrorCode: 4_000_187)
    }

    /// `transactionID` is a Family Sharing transaction (Apple's 4000185).
    static func familyShared(_ transactionID: String) -> AppStoreSimulatorError {
        AppStoreSimulatorError("\(transactionID) is a Family Sharing transaction", appleErrorCode: 4_000_185)
    }
}
