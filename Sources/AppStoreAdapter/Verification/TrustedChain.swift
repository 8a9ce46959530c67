import Foundation

/// A verified chain as the verifier keeps it: the leaf's key, ready to check signatures, and
/// the interval in which the whole chain is valid.
struct TrustedChain: Sendable {
    /// The leaf's P-256 key.
    let leafKey: ES256PublicKey
    /// When the leaf, the intermediate and the root are all valid.
    let validity: ClosedRange<Date>

    /// The public form.
    var publicForm: VerifiedCertificateChain {
        VerifiedCertificateChain(leafPublicKey: leafKey.subjectPublicKeyInfo, validity: validity)
    }
}
