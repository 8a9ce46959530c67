import AppStoreSimulator
import COpenSSL
import Foundation

/// A freshly generated RSA key pair for tests: as PEM (what a Google key file or a signer
/// reads), as a JWK's modulus and exponent (what a key set publishes), and as an `EVP_PKEY`.
///
/// `@unchecked Sendable` because the key is never modified after generation.
package final class RSATestKey: @unchecked Sendable {
    /// Bits in the modulus of a generated key, the size Google uses.
    package static let modulusBitCount: Int32 = 2048

    /// The owned `EVP_PKEY *`.
    package let pointer: OpaquePointer

    /// Generates a key (OpenSSL 3 `EVP_PKEY_generate`).
    package init() throws {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
            throw OpenSSLFailure.error("EVP_PKEY_CTX_new_from_name(RSA)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, Self.modulusBitCount) == 1 else {
            throw OpenSSLFailure.error("EVP_PKEY_keygen_init")
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else { throw OpenSSLFailure.error("EVP_PKEY_generate") }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The private key as PKCS#8 PEM (`BEGIN PRIVATE KEY`), the form Google's key files carry.
    package func privateKeyPEM() throws -> String { try OpenSSLFailure.pkcs8PEM(of: pointer) }

    /// The big-endian bytes of the modulus `n` and the public exponent `e`.
    package func publicComponents() throws -> (modulus: [UInt8], exponent: [UInt8]) {
        (try parameter(OSSL_PKEY_PARAM_RSA_N), try parameter(OSSL_PKEY_PARAM_RSA_E))
    }

    private func parameter(_ name: String) throws -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number else {
            throw OpenSSLFailure.error("EVP_PKEY_get_bn_param(\(name))")
        }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
        let written = BN_bn2bin(number, &bytes)
        return Array(bytes.prefix(Int(written)))
    }
}
