import Foundation

/// A certificate chain that verified to a configured root: what `SignedDataVerifier.verifyChain`
/// returns.
public struct VerifiedCertificateChain: Hashable, Sendable {
    /// The leaf's public key as DER SubjectPublicKeyInfo (an EC P-256 key).
    public let leafPublicKey: [UInt8]
    /// The interval in which the leaf, the intermediate and the root are all valid.
    public let validity: ClosedRange<Date>

    /// Creates a value; only verification produces meaningful ones.
    public init(leafPublicKey: [UInt8], validity: ClosedRange<Date>) {
        self.leafPublicKey = leafPublicKey
        self.validity = validity
    }
}
