import COpenSSL
import Foundation

/// An RSA public key built from a JWK's modulus `n` and exponent `e` (OpenSSL 3
/// `EVP_PKEY_fromdata`) that checks RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signatures.
///
/// `@unchecked Sendable` because the wrapped `EVP_PKEY` is never modified after init, and
/// OpenSSL 3 allows concurrent verifications with one unmodified key (each has its own context).
package final class RSAPublicKey: @unchecked Sendable {
    /// Smallest modulus accepted; Google's keys are 2048-bit.
    package static let modulusBitCountMin: Int32 = 2048
    /// Largest modulus accepted, so a hostile key set cannot make verification slow.
    package static let modulusBitCountMax: Int32 = 8192
    /// Longest public exponent accepted, in bytes (Google's is 65537, `AQAB`).
    package static let exponentByteCountMax = 8

    /// `EVP_PKEY_PUBLIC_KEY`, which Swift cannot import (a macro of macros).
    private static let publicKeySelection = Int32(OSSL_KEYMGMT_SELECT_ALL_PARAMETERS | OSSL_KEYMGMT_SELECT_PUBLIC_KEY)

    /// The owned `EVP_PKEY *`.
    private let pointer: OpaquePointer

    /// Builds the key from big-endian `modulus` and `exponent` bytes; nil when OpenSSL refuses
    /// them or the modulus or exponent is outside the limits above.
    package init?(modulus: [UInt8], exponent: [UInt8]) {
        guard !modulus.isEmpty, !exponent.isEmpty, exponent.count <= Self.exponentByteCountMax,
            modulus.count <= Int(Self.modulusBitCountMax / 8) + 1,
            let key = Self.makeKey(modulus: modulus, exponent: exponent)
        else { return nil }
        let bits = EVP_PKEY_get_bits(key)
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA, bits >= Self.modulusBitCountMin, bits <= Self.modulusBitCountMax
        else {
            EVP_PKEY_free(key)
            return nil
        }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// Bits in the modulus.
    package var modulusBitCount: Int32 { EVP_PKEY_get_bits(pointer) }

    /// Whether `signature` is this key's RS256 signature over `message`. A signature whose
    /// length is not the modulus length is refused before OpenSSL sees it.
    package func isValidRS256Signature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == Int(EVP_PKEY_get_size(pointer)), let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else {
            ERR_clear_error()
            return false
        }
        let result = signature.withUnsafeBufferPointer { signatureBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                EVP_DigestVerify(
                    context, signatureBuffer.baseAddress, signatureBuffer.count, messageBuffer.baseAddress,
                    messageBuffer.count)
            }
        }
        // 0 is a wrong signature and a negative value a malformed one: both are refusals.
        guard result == 1 else {
            ERR_clear_error()
            return false
        }
        return true
    }

    /// `OSSL_PKEY_PARAM_RSA_N` and `OSSL_PKEY_PARAM_RSA_E`, in static storage.
    private static let modulusParameterName: StaticString = "n"
    private static let exponentParameterName: StaticString = "e"

    private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    private static func makeKey(modulus: [UInt8], exponent: [UInt8]) -> OpaquePointer? {
        defer { ERR_clear_error() }
        guard let n = BN_bin2bn(modulus, Int32(modulus.count), nil) else { return nil }
        defer { BN_free(n) }
        guard let e = BN_bin2bn(exponent, Int32(exponent.count), nil) else { return nil }
        defer { BN_free(e) }
        guard let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        // The builder keeps the name pointers until `to_param`, so they must outlive the call:
        // static strings, not Swift's temporary C strings.
        guard OSSL_PARAM_BLD_push_BN(builder, cString(modulusParameterName), n) == 1,
            OSSL_PARAM_BLD_push_BN(builder, cString(exponentParameterName), e) == 1,
            let parameters = OSSL_PARAM_BLD_to_param(builder)
        else { return nil }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, publicKeySelection, parameters) == 1
        else { return nil }
        return key
    }
}
