import Foundation

/// The fields of a Google service-account JSON key file that the OAuth 2.0 JWT bearer flow needs.
///
/// `description` redacts the private key, so logging a credentials value never leaks it.
public struct ServiceAccountCredentials: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// Google's token endpoint, used when the key file has no `token_uri`.
    public static let defaultTokenURI = URL(string: "https://oauth2.googleapis.com/token")!

    /// `client_email`: the service account, the JWT's `iss`.
    public var clientEmail: String
    /// `private_key`: the RSA private key as PEM (PKCS#8 `BEGIN PRIVATE KEY` in Google's files).
    public var privateKeyPEM: String
    /// `private_key_id`: the JWT header's `kid`, when present.
    public var privateKeyID: String?
    /// `token_uri`: where assertions are exchanged for access tokens, the JWT's `aud`.
    public var tokenURI: URL

    /// Creates credentials from their parts.
    public init(clientEmail: String, privateKeyPEM: String, privateKeyID: String?, tokenURI: URL = defaultTokenURI) {
        self.clientEmail = clientEmail
        self.privateKeyPEM = privateKeyPEM
        self.privateKeyID = privateKeyID
        self.tokenURI = tokenURI
    }

    /// Decodes a service-account key file's JSON, refusing one without an email or a key.
    public init(jsonData: Data) throws(PlayAPIError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: jsonData)
        } catch {
            throw .permanent("service account key: not a service account JSON key (\(error))")
        }
        guard !clientEmail.isEmpty, privateKeyPEM.contains("PRIVATE KEY") else {
            throw .permanent("service account key: client_email or private_key is missing")
        }
    }

    /// Reads and decodes a service-account key file.
    public init(contentsOfFile path: String) throws(PlayAPIError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .permanent("service account key \(path): cannot read (\(error.localizedDescription))")
        }
        try self.init(jsonData: data)
    }

    private enum CodingKeys: String, CodingKey {
        case clientEmail = "client_email"
        case privateKeyPEM = "private_key"
        case privateKeyID = "private_key_id"
        case tokenURI = "token_uri"
    }

    /// Decodes the key file's fields; a missing or unparsable `token_uri` means Google's default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientEmail = try container.decode(String.self, forKey: .clientEmail)
        privateKeyPEM = try container.decode(String.self, forKey: .privateKeyPEM)
        privateKeyID = try container.decodeIfPresent(String.self, forKey: .privateKeyID)
        let tokenURIString = try container.decodeIfPresent(String.self, forKey: .tokenURI)
        tokenURI = tokenURIString.flatMap(URL.init(string:)) ?? Self.defaultTokenURI
    }

    /// The email, key ID and token URI; never the private key.
    public var description: String {
        "ServiceAccountCredentials(clientEmail: \(clientEmail), privateKeyID: \(privateKeyID ?? "none"), "
            + "tokenURI: \(tokenURI.absoluteString), privateKey: <redacted>)"
    }
}
