import Foundation

/// A compact JWS (`header.payload.signature`) split and base64url-decoded, nothing verified.
struct CompactJWS {
    /// The longest JWS accepted; a notification carrying two nested JWS is about 14 KB.
    static let maximumByteCount = 128 * 1024
    /// Segments in a compact JWS.
    private static let segmentCount = 3

    /// The protected header fields the verifier reads; others are ignored.
    struct Header: Decodable {
        /// The signature algorithm, which must be `ES256`.
        var alg: String?
        /// Standard-base64 DER certificates: leaf, intermediate, root.
        var x5c: [String]?
    }

    /// The decoded header.
    let header: Header
    /// The decoded payload bytes (JSON).
    let payload: [UInt8]
    /// The decoded signature bytes.
    let signature: [UInt8]
    /// The ASCII bytes of `header.payload`, which the signature covers.
    let signingInput: [UInt8]

    /// Splits and decodes `text`; every malformation is a `verificationFailure`.
    init(_ text: String) throws(AppStoreVerificationError) {
        guard text.utf8.count <= Self.maximumByteCount else {
            throw AppStoreVerificationError(.verificationFailure, "JWS longer than \(Self.maximumByteCount) bytes")
        }
        // One contiguous copy: splitting and decoding then run over plain bytes.
        let bytes = Array(text.utf8)
        // maxSplits one past the expected count, so a fourth segment is seen and refused.
        let segments = bytes.split(
            separator: UInt8(ascii: "."), maxSplits: Self.segmentCount, omittingEmptySubsequences: false)
        guard segments.count == Self.segmentCount else {
            throw AppStoreVerificationError(.verificationFailure, "JWS has \(segments.count) segments, not 3")
        }
        guard let headerBytes = Base64Decoder.decode(segments[0], alphabet: .url),
            let payload = Base64Decoder.decode(segments[1], alphabet: .url),
            let signature = Base64Decoder.decode(segments[2], alphabet: .url)
        else {
            throw AppStoreVerificationError(.verificationFailure, "JWS segment is not base64url")
        }
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(headerBytes))
        } catch {
            throw AppStoreVerificationError(.verificationFailure, "JWS header is not the expected JSON")
        }
        self.payload = payload
        self.signature = signature
        signingInput = Array(bytes[..<segments[1].endIndex])
    }

    /// Decodes the payload as `Payload`; malformed JSON or a wrongly typed field is a
    /// `verificationFailure`.
    func decodePayload<Payload: Decodable>(as type: Payload.Type) throws(AppStoreVerificationError) -> Payload {
        do {
            return try JSONDecoder().decode(type, from: Data(payload))
        } catch {
            throw AppStoreVerificationError(.verificationFailure, "JWS payload does not decode: \(error)")
        }
    }
}
