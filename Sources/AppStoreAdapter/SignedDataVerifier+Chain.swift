import Foundation

extension SignedDataVerifier {
    /// The OID Apple puts in the leaf that signs App Store receipts and transactions.
    static let leafMarkerOID = "1.2.840.113635.100.6.11.1"
    /// The OID Apple puts in the WWDR intermediate certificate authority.
    static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"

    /// Verifies a chain of DER certificates (leaf, intermediate, root) against the configured
    /// roots as of `date`, with the same checks and cache as a JWS `x5c` chain.
    public func verifyChain(
        _ certificates: [[UInt8]], at date: Date
    ) -> Result<VerifiedCertificateChain, AppStoreVerificationError> {
        Result { () throws(AppStoreVerificationError) in try trustedChain(certificates, at: date).publicForm }
    }

    /// Verifies a chain given as `x5c` entries (standard base64 DER), as Apple's tests do.
    public func verifyChain(
        base64Certificates: [String], at date: Date
    ) -> Result<VerifiedCertificateChain, AppStoreVerificationError> {
        Result { () throws(AppStoreVerificationError) in
            guard base64Certificates.count == X509TrustStore.chainLength else {
                throw AppStoreVerificationError(
                    .invalidChainLength, "\(base64Certificates.count) certificates, not 3")
            }
            return try trustedChain(Self.decodeCertificates(base64Certificates), at: date).publicForm
        }
    }

    /// The verified chain for `certificates` at `date`, from the cache when it holds that chain
    /// and `date` lies inside the chain's validity.
    func trustedChain(_ certificates: [[UInt8]], at date: Date) throws(AppStoreVerificationError) -> TrustedChain {
        guard certificates.count == X509TrustStore.chainLength else {
            throw AppStoreVerificationError(.invalidChainLength, "\(certificates.count) certificates, not 3")
        }
        let key = ChainCacheKey(certificates: certificates)
        if let cached = chainCache.withLock({ $0.chain(for: key, at: date) }) { return cached }
        // Verified outside the lock: concurrent misses may both verify, which is only wasted work.
        let chain = try verifyUncached(certificates, at: date)
        chainCache.withLock { $0.insert(chain, for: key) }
        return chain
    }

    /// Parses and verifies a three-certificate chain without the cache.
    private func verifyUncached(
        _ certificates: [[UInt8]], at date: Date
    ) throws(AppStoreVerificationError) -> TrustedChain {
        let leaf = try X509Certificate(der: certificates[0])
        let intermediate = try X509Certificate(der: certificates[1])
        // Parsed only to refuse garbage: trust comes from the configured roots, never from x5c.
        _ = try X509Certificate(der: certificates[2])
        let validity = try trustStore.validityOfChain(leaf: leaf, intermediate: intermediate, at: date)
        try Self.checkRoles(leaf: leaf, intermediate: intermediate)
        return TrustedChain(leafKey: try leaf.es256PublicKey(), validity: validity)
    }

    /// Checks each certificate does the job Apple's chain gives it: Apple's marker OIDs, an
    /// intermediate that is a CA, a leaf that is not and may sign.
    private static func checkRoles(
        leaf: X509Certificate, intermediate: X509Certificate
    ) throws(AppStoreVerificationError) {
        guard leaf.hasExtension(oid: leafMarkerOID) else {
            throw AppStoreVerificationError(.verificationFailure, "leaf lacks OID \(leafMarkerOID)")
        }
        guard intermediate.hasExtension(oid: intermediateMarkerOID) else {
            throw AppStoreVerificationError(.verificationFailure, "intermediate lacks OID \(intermediateMarkerOID)")
        }
        guard !leaf.hasInvalidExtensions, !intermediate.hasInvalidExtensions else {
            throw AppStoreVerificationError(.verificationFailure, "malformed certificate extensions")
        }
        guard intermediate.isCertificateAuthority else {
            throw AppStoreVerificationError(.verificationFailure, "intermediate is not a certificate authority")
        }
        guard !leaf.isCertificateAuthority else {
            throw AppStoreVerificationError(.verificationFailure, "leaf is a certificate authority")
        }
        guard leaf.allowsDigitalSignature else {
            throw AppStoreVerificationError(.verificationFailure, "leaf key usage forbids digital signatures")
        }
    }
}
