import AppStoreAdapter
import COpenSSL
import Foundation
import LedgerHTTPClient

/// A generated App Store Connect API key for tests: its `.p8` PEM for the client, and a check
/// that a request JWT is signed by it, as Apple's server checks.
public final class AppStoreAPITestKey: Sendable {
    /// The key as PKCS #8 PEM, as App Store Connect's `.p8` download.
    public let privateKeyPEM: String
    /// The public key, checking signatures.
    private let publicKey: ES256PublicKey

    /// A fresh P-256 key.
    public init() throws {
        let key = try OpenSSLPrivateKey.generateP256()
        // The key is freed with its object: keep it alive while OpenSSL reads its pointer.
        let (pem, spki) = try withExtendedLifetime(key) {
            (
                try OpenSSLFailure.pkcs8PEM(of: key.pointer),
                try OpenSSLFailure.derEncode("i2d_PUBKEY") { output in i2d_PUBKEY(key.pointer, output) }
            )
        }
        privateKeyPEM = pem
        let parsed: OpaquePointer? = spki.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw OpenSSLFailure.error("d2i_PUBKEY") }
        publicKey = try ES256PublicKey(owning: parsed)
    }

    /// A PKCS #8 PEM EC key on another curve (such as `P-384`), which the client must refuse.
    public static func privateKeyPEM(ecGroup group: String) throws -> String {
        let key = try OpenSSLPrivateKey.generateEC(group: group)
        return try withExtendedLifetime(key) { try OpenSSLFailure.pkcs8PEM(of: key.pointer) }
    }

    /// The decoded header and claims of `jwt` when its ES256 signature (raw r ‖ s) is this
    /// key's; nil otherwise.
    public func verifiedJWT(_ jwt: String) -> (header: [String: Any], claims: [String: Any])? {
        let segments = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let headerBytes = Base64URL.decode(segments[0]),
            let claimsBytes = Base64URL.decode(segments[1]), let signature = Base64URL.decode(segments[2]),
            publicKey.isValidSignature(signature, for: Array("\(segments[0]).\(segments[1])".utf8)),
            let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: Data(claimsBytes)) as? [String: Any]
        else { return nil }
        return (header, claims)
    }
}
