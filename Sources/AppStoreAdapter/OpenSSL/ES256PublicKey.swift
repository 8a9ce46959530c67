import COpenSSL

/// An EC P-256 public key that checks ES256 (ECDSA with SHA-256) JWS signatures.
///
/// `@unchecked Sendable` because the wrapped `EVP_PKEY` is never modified after init, and
/// OpenSSL 3 allows concurrent verifications with one unmodified key; cached chains share it.
package final class ES256PublicKey: @unchecked Sendable {
    /// Bytes in a JWS ES256 signature: r and s, 32 big-endian bytes each (RFC 7518 §3.4).
    static let rawSignatureByteCount = 64
    /// Bytes in one of r or s.
    private static let scalarByteCount = 32
    /// OpenSSL's name for the NIST P-256 curve.
    static let p256GroupName = "prime256v1"

    /// The owned `EVP_PKEY *`.
    private let pointer: OpaquePointer

    /// Takes ownership of `key`, freeing it and throwing unless it is an EC key on P-256.
    package init(owning key: OpaquePointer) throws(AppStoreVerificationError) {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, Self.groupName(of: key) == Self.p256GroupName else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw AppStoreVerificationError(.verificationFailure, "leaf key is not an EC P-256 key")
        }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The key as DER SubjectPublicKeyInfo, the form it has inside its certificate.
    var subjectPublicKeyInfo: [UInt8] {
        let count = i2d_PUBKEY(pointer, nil)
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(count))
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(pointer, &cursor)
        }
        return written == count ? bytes : []
    }

    /// Whether `signature`, a raw 64-byte r‖s, is this key's ES256 signature over `message`.
    /// Any other length, including a DER-encoded signature, is refused.
    package func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == Self.rawSignatureByteCount,
            let derSignature = Self.derSignature(fromRaw: signature)
        else { return false }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else {
            ERR_clear_error()
            return false
        }
        let result = derSignature.withUnsafeBufferPointer { signatureBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                EVP_DigestVerify(
                    context, signatureBuffer.baseAddress, signatureBuffer.count,
                    messageBuffer.baseAddress, messageBuffer.count)
            }
        }
        // 0 means a wrong signature, a negative value a malformed one: both are refusals.
        guard result == 1 else {
            ERR_clear_error()
            return false
        }
        return true
    }

    /// Re-encodes a raw r‖s signature as the DER `ECDSA-Sig-Value` that EVP expects.
    private static func derSignature(fromRaw raw: [UInt8]) -> [UInt8]? {
        let scalars: (OpaquePointer, OpaquePointer)? = raw.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            let size = Int32(scalarByteCount)
            guard let r = BN_bin2bn(base, size, nil) else { return nil }
            guard let s = BN_bin2bn(base + scalarByteCount, size, nil) else {
                BN_free(r)
                return nil
            }
            return (r, s)
        }
        guard let (r, s) = scalars else { return nil }
        guard let signature = ECDSA_SIG_new() else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        // After a successful set0 the ECDSA_SIG owns r and s; before it, they are still ours.
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        return encode(signature)
    }

    /// DER-encodes an ECDSA_SIG.
    private static func encode(_ signature: OpaquePointer) -> [UInt8]? {
        let count = i2d_ECDSA_SIG(signature, nil)
        guard count > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(count))
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == count ? bytes : nil
    }

    /// The curve name of an EC key, such as `prime256v1`.
    static func groupName(of key: OpaquePointer) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else { return nil }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
