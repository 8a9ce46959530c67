import Foundation
import LedgerHTTPClient

/// A compact JWT (`header.claims.signature`, each segment unpadded base64url): signed here for
/// the service-account assertion (and by the test push signer), split and decoded for the
/// Pub/Sub push token. Splitting verifies nothing.
package struct CompactJWT: Sendable {
    /// Segments in a compact JWS.
    static let segmentCount = 3

    /// The decoded header JSON.
    package let header: [UInt8]
    /// The decoded claims JSON.
    package let claims: [UInt8]
    /// The decoded signature.
    package let signature: [UInt8]
    /// The ASCII bytes of `header.claims`, which the signature covers.
    package let signingInput: [UInt8]

    /// Splits and decodes `text`; nil unless it is exactly three base64url segments.
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        // One split past the expected count, so a fourth segment is seen and refused.
        let segments = bytes.split(separator: UInt8(ascii: "."), maxSplits: Self.segmentCount, omittingEmptySubsequences: false)
        guard segments.count == Self.segmentCount,
            let header = Base64URL.decode(String(decoding: segments[0], as: UTF8.self)),
            let claims = Base64URL.decode(String(decoding: segments[1], as: UTF8.self)),
            let signature = Base64URL.decode(String(decoding: segments[2], as: UTF8.self))
        else { return nil }
        self.header = header
        self.claims = claims
        self.signature = signature
        signingInput = Array(bytes[..<segments[1].endIndex])
    }

    /// `base64url(header).base64url(claims).base64url(RS256 signature)`, the JSON with sorted keys.
    package static func signRS256(
        header: some Encodable, claims: some Encodable, key: RSASigningKey
    ) throws(PlayAPIError) -> String {
        let signingInput = try segment(header) + "." + segment(claims)
        let signature = try key.signatureRS256(of: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    private static func segment(_ value: some Encodable) throws(PlayAPIError) -> String {
        do {
            return try Base64URL.encodeJSON(value)
        } catch {
            throw .permanent("JWT: cannot encode \(type(of: value)): \(error)")
        }
    }
}
