import Foundation

/// Port: where the Pub/Sub push authenticator gets Google's public signing keys.
/// `GoogleSigningKeys` fetches and caches Google's published set; `StaticSigningKeys`
/// serves a fixed set (a file for offline trials, a test signer's keys in tests).
public protocol PubSubSigningKeySource: Sendable {
    /// The current key set. `refresh` asks for a fresh copy because a token named a key the
    /// cached set lacks (Google rotates its keys); a source may refuse to refetch that often.
    /// Throws `PlayAPIError` when no usable set can be had.
    func keySet(refresh: Bool) async throws(PlayAPIError) -> JSONWebKeySet
}

/// A fixed key set.
public struct StaticSigningKeys: PubSubSigningKeySource {
    /// The set served.
    public let keys: JSONWebKeySet

    /// Serves `keys`.
    public init(_ keys: JSONWebKeySet) { self.keys = keys }

    /// Reads a key-set file (`--jwks FILE`), throwing `permanent` when it cannot be read or parsed.
    public init(contentsOfFile path: String) throws(PlayAPIError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .permanent("JWKS \(path): cannot read")
        }
        keys = try JSONWebKeySet(jsonData: data)
    }

    /// The fixed set; `refresh` changes nothing.
    public func keySet(refresh: Bool) async throws(PlayAPIError) -> JSONWebKeySet { keys }
}
