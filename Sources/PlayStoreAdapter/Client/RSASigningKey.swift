import COpenSSL
import Foundation
import LedgerHTTPClient

/// An RSA private key that makes RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signatures.
///
/// `@unchecked Sendable` because the wrapped `EVP_PKEY` is never modified after init, and
/// OpenSSL 3 allows concurrent signing with one unmodified key (each signature has its own context).
package final class RSASigningKey: @unchecked Sendable {
    /// The owned `EVP_PKEY *`.
    private let pointer: OpaquePointer

    /// Parses a PEM private key (PKCS#8 or PKCS#1), refusing anything that is not RSA.
    package init(pem: String) throws(PlayAPIError) {
        guard let key = EVPSigning.privateKey(pem: pem) else {
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
        do {
            return try EVPSigning.signSHA256(message, with: pointer)
        } catch {
            switch error {
            case .outOfMemory: throw .permanent("RS256: out of memory")
            case .initFailed: throw .permanent("RS256: EVP_DigestSignInit failed")
            case .sizeFailed: throw .permanent("RS256: cannot size the signature")
            case .signFailed: throw .permanent("RS256: EVP_DigestSign failed")
            }
        }
    }
}
