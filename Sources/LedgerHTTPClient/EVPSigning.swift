import COpenSSL

/// The OpenSSL steps both store clients sign their request tokens with: read a PEM private key,
/// and sign with SHA-256 through `EVP_DigestSign` (RS256 for Google, ES256 for Apple). Each
/// caller checks the key type and words its own errors.
package enum EVPSigning {
    /// Which step of a signature failed.
    package enum Failure: Error, Sendable {
        /// No digest context could be allocated.
        case outOfMemory
        /// `EVP_DigestSignInit` refused the key.
        case initFailed
        /// The signature's size could not be found.
        case sizeFailed
        /// `EVP_DigestSign` failed.
        case signFailed
    }

    /// Parses a PEM private key (PKCS #8, PKCS #1 or SEC 1); nil, with OpenSSL's error queue
    /// cleared, when it is not one. The caller owns and frees the key.
    package static func privateKey(pem: String) -> OpaquePointer? {
        let bytes = Array(pem.utf8)
        let parsed: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        if parsed == nil { ERR_clear_error() }
        return parsed
    }

    /// `key`'s signature over `message` with SHA-256, as OpenSSL writes it (DER for ECDSA).
    package static func signSHA256(_ message: [UInt8], with key: OpaquePointer) throws(Failure) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .outOfMemory }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            ERR_clear_error()
            throw .initFailed
        }
        var signatureByteCount = 0
        let sized = message.withUnsafeBufferPointer { messageBuffer in
            EVP_DigestSign(context, nil, &signatureByteCount, messageBuffer.baseAddress, messageBuffer.count)
        }
        guard sized == 1, signatureByteCount > 0 else {
            ERR_clear_error()
            throw .sizeFailed
        }
        var signature = [UInt8](repeating: 0, count: signatureByteCount)
        let signed = signature.withUnsafeMutableBufferPointer { signatureBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                EVP_DigestSign(
                    context, signatureBuffer.baseAddress, &signatureByteCount,
                    messageBuffer.baseAddress, messageBuffer.count)
            }
        }
        guard signed == 1 else {
            ERR_clear_error()
            throw .signFailed
        }
        return Array(signature.prefix(signatureByteCount))
    }
}
