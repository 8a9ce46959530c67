import COpenSSL
import Foundation

/// An RSA private key that makes RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signatures.
///
/// `@unchecked Sendable` because the wrapped `EVP_PKEY` is never modified after init, and
/// OpenSSL 3 allows concurrent signing with one unmodified key (each signature has its own context).
package final class RSASigningKey: @unchecked Sendable {
    /// The owned `EVP_PKEY *`.
    private let pointer: OpaquePointer

    /// Parses a PEM private key (PKCS#8 or PKCS#1), refusing anything that is not RSA.
    package init(pem: String) throws(PlayAPIError) {
        let bytes = Array(pem.utf8)
        let parsed: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key = parsed else {
            ERR_clear_error()
            throw .permanent("service account key: private_key is not a readable PEM private key")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else {
            EVP_PKEY_free(key)
            throw .permanent("service account key: private_key is not an RSA key")
        }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The RS256 signature of `message`.
    package func signatureRS256(of message: [UInt8]) throws(PlayAPIError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .permanent("RS256: out of memory") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else {
            ERR_clear_error()
            throw .permanent("RS256: EVP_DigestSignInit failed")
        }
        var signatureByteCount = 0
        let sized = message.withUnsafeBufferPointer { messageBuffer in
            EVP_DigestSign(context, nil, &signatureByteCount, messageBuffer.baseAddress, messageBuffer.count)
        }
        guard sized == 1, signatureByteCount > 0 else {
            ERR_clear_error()
            throw .permanent("RS256: cannot size the signature")
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
            throw .permanent("RS256: EVP_DigestSign failed")
        }
        return Array(signature.prefix(signatureByteCount))
    }
}
