import Foundation

extension SignedDataVerifier {
    /// Decodes `jws` as `Payload` and, outside local testing, verifies its chain and signature.
    ///
    /// For `.xcode` and `.localTesting` nothing is verified, as Apple's verifier does: the
    /// payload is signed by Xcode's local key, so only the structure is read. The callers'
    /// environment checks then refuse any payload not from that same local environment.
    func verifiedPayload<Payload: SignedPayload>(
        _ text: String, as type: Payload.Type
    ) throws(AppStoreVerificationError) -> Payload {
        let jws = try CompactJWS(text)
        guard !configuration.environment.isLocalTesting else {
            return try Self.checkedSigningDate(of: jws.decodePayload(as: type)).payload
        }
        guard jws.header.alg == "ES256" else {
            throw AppStoreVerificationError(.verificationFailure, "alg \(jws.header.alg ?? "absent"), not ES256")
        }
        guard let x5c = jws.header.x5c, !x5c.isEmpty else {
            throw AppStoreVerificationError(.verificationFailure, "header has no x5c certificates")
        }
        guard x5c.count == X509TrustStore.chainLength else {
            throw AppStoreVerificationError(.invalidChainLength, "x5c holds \(x5c.count) certificates, not 3")
        }
        let certificates = try Self.decodeCertificates(x5c)
        // Offline, the chain is judged at signing time, so a payload stays verifiable after
        // its leaf certificate expires, as with Apple's verifier without online checks.
        let (payload, signingDate) = try Self.checkedSigningDate(of: jws.decodePayload(as: type))
        let chain = try trustedChain(certificates, at: signingDate ?? Date())
        guard chain.leafKey.isValidSignature(jws.signature, for: jws.signingInput) else {
            throw AppStoreVerificationError(.verificationFailure, "ES256 signature does not verify")
        }
        return payload
    }

    /// `payload` with its signing date, refused when that date lies outside the ledger's range.
    static func checkedSigningDate<Payload: SignedPayload>(
        of payload: Payload
    ) throws(AppStoreVerificationError) -> (payload: Payload, signingDate: Date?) {
        do throws(AppStorePayloadError) {
            return (payload, try AppStorePayloadLimits.date(payload.effectiveSigningDate, field: Payload.signingDateField))
        } catch {
            throw AppStoreVerificationError(error)
        }
    }

    /// Decodes standard-base64 x5c entries to DER; the caller has bounded their count.
    static func decodeCertificates(_ x5c: [String]) throws(AppStoreVerificationError) -> [[UInt8]] {
        var certificates: [[UInt8]] = []
        for (index, entry) in x5c.prefix(X509TrustStore.chainLength).enumerated() {
            guard let der = Base64Decoder.decode(entry, alphabet: .standard), !der.isEmpty else {
                throw AppStoreVerificationError(.invalidCertificate, "x5c[\(index)] is not standard base64")
            }
            certificates.append(der)
        }
        return certificates
    }
}
