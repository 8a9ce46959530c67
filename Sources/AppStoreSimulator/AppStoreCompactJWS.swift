import Foundation

/// A compact JWS split into its three base64url segments, for tests that inspect or tamper
/// with a signed payload without re-signing it.
public struct AppStoreCompactJWS: Sendable, Hashable {
    /// The encoded header segment.
    public var header: String
    /// The encoded payload segment.
    public var payload: String
    /// The encoded signature segment.
    public var signature: String

    /// Splits `compact`; nil unless it has exactly three dot-separated segments.
    public init?(_ compact: String) {
        let segments = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { return nil }
        header = String(segments[0])
        payload = String(segments[1])
        signature = String(segments[2])
    }

    /// The compact serialization `header.payload.signature`.
    public var compact: String { header + "." + payload + "." + signature }

    /// The decoded header bytes (JSON), or nil when the segment is not base64url.
    public var headerBytes: [UInt8]? { Self.base64URLDecoded(header) }
    /// The decoded payload bytes (JSON), or nil when the segment is not base64url.
    public var payloadBytes: [UInt8]? { Self.base64URLDecoded(payload) }
    /// The decoded signature bytes, or nil when the segment is not base64url.
    public var signatureBytes: [UInt8]? { Self.base64URLDecoded(signature) }

    /// A copy whose header segment encodes `bytes`; the signature is left as it was.
    public func replacingHeader(with bytes: [UInt8]) -> AppStoreCompactJWS {
        var copy = self
        copy.header = Self.base64URLEncoded(bytes)
        return copy
    }

    /// A copy whose payload segment encodes `bytes`; the signature is left as it was.
    public func replacingPayload(with bytes: [UInt8]) -> AppStoreCompactJWS {
        var copy = self
        copy.payload = Self.base64URLEncoded(bytes)
        return copy
    }

    /// A copy whose signature segment encodes `bytes`.
    public func replacingSignature(with bytes: [UInt8]) -> AppStoreCompactJWS {
        var copy = self
        copy.signature = Self.base64URLEncoded(bytes)
        return copy
    }

    /// A copy whose payload is the JSON object of the original with `edit` applied to its
    /// top-level members; nil when the payload is not a JSON object.
    public func editingPayload(_ edit: (inout [String: Any]) -> Void) -> AppStoreCompactJWS? {
        guard let bytes = payloadBytes,
            var object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
        else { return nil }
        edit(&object)
        guard let edited = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return nil
        }
        return replacingPayload(with: Array(edited))
    }

    /// `bytes` in base64url without padding (RFC 7515 §2).
    public static func base64URLEncoded(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// The bytes of unpadded base64url `text`, or nil when it is not base64url.
    public static func base64URLDecoded(_ text: String) -> [UInt8]? {
        guard !text.contains("="), !text.contains("+"), !text.contains("/") else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard.append("=") }
        return Data(base64Encoded: standard).map { Array($0) }
    }
}
