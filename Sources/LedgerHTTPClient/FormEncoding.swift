import Foundation

/// `application/x-www-form-urlencoded` encoding (only unreserved characters left bare).
package enum FormEncoding {
    /// Characters left unescaped in a form value or a path segment (RFC 3986 unreserved).
    package static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `name=value&…`, each side percent-encoded.
    package static func encode(_ fields: [(String, String)]) -> String {
        fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// `text` with every character outside `unreserved` percent-encoded as UTF-8.
    package static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
