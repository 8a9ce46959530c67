import COpenSSL
import Foundation
import LedgerHTTPClient

/// The App Store Server API's private key: the `.p8` file App Store Connect issues, a PKCS #8
/// PEM EC key on P-256, which signs each request's ES256 JWT.
///
/// `@unchecked Sendable` because the wrapped `EVP_PKEY` is never modified after init, and
/// OpenSSL 3 allows concurrent signing with one unmodified key (each signature has its own context).
public final class AppStoreAPISigningKey: @unchecked Sendable {
    /// The most bytes read from a key file: a `.p8` key is about 250 bytes, so anything far
    /// larger is not one.
    public static let keyFileByteCountMax = 16_384
    /// Bytes of one of r or s in an ES256 signature (RFC 7518 §3.4).
    static let scalarByteCount = 32

    /// The owned `EVP_PKEY *`.
    private let pointer: OpaquePointer

    /// Reads and parses the key file at `path`, once.
    public convenience init(contentsOfFile path: String) throws(AppStoreServerAPIError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .keyFile(.missing, "no key file at the given path")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .keyFile(.unreadable, "the key file cannot be opened")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: Self.keyFileByteCountMax + 1) ?? Data()
        } catch {
            throw .keyFile(.unreadable, "the key file cannot be read: \(error)")
        }
        guard data.count <= Self.keyFileByteCountMax else {
            throw .keyFile(.unreadable, "the key file is larger than \(Self.keyFileByteCountMax) bytes")
        }
        guard let pem = String(data: data, encoding: .utf8) else {
            throw .keyFile(.unreadable, "the key file is not text")
        }
        try self.init(pem: pem)
    }

    /// Parses a PEM private key, refusing anything that is not an EC key on P-256.
    public init(pem: String) throws(AppStoreServerAPIError) {
        guard let key = EVPSigning.privateKey(pem: pem) else {
            throw .keyFile(.notPrivateKey, "the key is not a readable PEM private key")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC,
            ES256PublicKey.groupName(of: key) == ES256PublicKey.p256GroupName
        else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw .keyFile(.notECP256, "the key is not an EC P-256 key")
        }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The ES256 signature of `message` as JOSE writes it: the raw 64 bytes r ‖ s, not DER.
    func signatureES256(of message: [UInt8]) throws(AppStoreServerAPIError) -> [UInt8] {
        let der: [UInt8]
        do {
            der = try EVPSigning.signSHA256(message, with: pointer)
        } catch {
            throw .configuration("ES256: signing failed (\(error))")
        }
        guard let raw = Self.rawSignature(fromDER: der) else {
            throw .configuration("ES256: OpenSSL's signature is not an ECDSA-Sig-Value")
        }
        return raw
    }

    /// Converts a DER `ECDSA-Sig-Value` into JOSE's fixed-size r ‖ s, each left-padded to 32
    /// bytes; nil when `der` is not one.
    package static func rawSignature(fromDER der: [UInt8]) -> [UInt8]? {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            ERR_clear_error()
            return nil
        }
        defer { ECDSA_SIG_free(parsed) }
        let size = Int32(scalarByteCount)
        var raw = [UInt8](repeating: 0, count: 2 * scalarByteCount)
        let written = raw.withUnsafeMutableBufferPointer { buffer -> (Int32, Int32) in
            guard let base = buffer.baseAddress else { return (-1, -1) }
            return (
                BN_bn2binpad(ECDSA_SIG_get0_r(parsed), base, size),
                BN_bn2binpad(ECDSA_SIG_get0_s(parsed), base + scalarByteCount, size)
            )
        }
        return written == (size, size) ? raw : nil
    }
}
