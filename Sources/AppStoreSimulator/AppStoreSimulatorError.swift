/// Why the simulated App Store could not do what it was asked: an OpenSSL call failed,
/// or a transaction it was asked about does not exist.
public struct AppStoreSimulatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, with OpenSSL's own error text when there is one.
    public var detail: String

    /// Creates an error.
    public init(_ detail: String) {
        self.detail = detail
    }

    /// The detail.
    public var description: String { "AppStoreSimulator: \(detail)" }
}
