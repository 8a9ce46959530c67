import Foundation

/// The RSA signing keys of a JSON Web Key Set (RFC 7517), such as Google's at
/// `https://www.googleapis.com/oauth2/v3/certs`, by key ID.
///
/// Only keys with `kty` `RSA`, an `alg` of `RS256` (or none), a `use` of `sig` (or none), a
/// `kid`, and a modulus and exponent OpenSSL accepts are kept; every other entry is ignored, so
/// a key type Google adds later does not break the set.
public struct JSONWebKeySet: Sendable {
    /// Largest key-set document read, in bytes.
    public static let byteCountMax = 64 * 1024
    /// Most entries read from `keys`; Google publishes two or three.
    public static let keyCountMax = 32

    /// The usable keys by `kid`.
    let keys: [String: RSAPublicKey]

    /// The key IDs of the usable keys, sorted.
    public var keyIDs: [String] { keys.keys.sorted() }

    /// Parses a key-set document, throwing `permanent` when it is too large, not JSON, has no
    /// `keys` array or more than `keyCountMax` entries, or holds no usable key.
    public init(jsonData: Data) throws(PlayAPIError) {
        guard jsonData.count <= Self.byteCountMax else {
            throw .permanent("JWKS: larger than \(Self.byteCountMax) bytes")
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: jsonData)
        } catch {
            throw .permanent("JWKS: not a JSON Web Key Set (\(error))")
        }
        guard document.keys.count <= Self.keyCountMax else {
            throw .permanent("JWKS: more than \(Self.keyCountMax) keys")
        }
        var keys: [String: RSAPublicKey] = [:]
        for entry in document.keys {
            guard let kid = entry.kid, !kid.isEmpty, let key = entry.rsaKey else { continue }
            keys[kid] = key
        }
        guard !keys.isEmpty else { throw .permanent("JWKS: no usable RS256 key") }
        self.keys = keys
    }

    private struct Document: Decodable {
        var keys: [Entry]
    }

    /// One JWK; every field optional so an unusable entry is skipped, not fatal.
    private struct Entry: Decodable {
        var kty: String?
        var alg: String?
        var use: String?
        var kid: String?
        var n: String?
        var e: String?

        var rsaKey: RSAPublicKey? {
            guard kty == "RSA", alg == nil || alg == JOSEHeader.rs256, use == nil || use == "sig",
                let modulus = n.flatMap(Base64URL.decode), let exponent = e.flatMap(Base64URL.decode)
            else { return nil }
            return RSAPublicKey(modulus: modulus, exponent: exponent)
        }
    }
}
