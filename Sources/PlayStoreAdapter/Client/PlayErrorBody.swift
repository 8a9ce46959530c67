import Foundation

/// Google's JSON error body, `{"error":{"code":…,"message":…,"status":…}}` or OAuth's
/// `{"error":"invalid_grant","error_description":…}`.
enum PlayErrorBody {
    /// Bytes of a body quoted in an error when it is not Google's JSON.
    static let quotedBodyByteCountMax = 200

    /// The most useful human-readable message in `body`, if any.
    static func message(in body: Data) -> String? {
        guard !body.isEmpty else { return nil }
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            if let error = object["error"] as? [String: Any] {
                let status = error["status"] as? String
                let message = error["message"] as? String
                return [status, message].compactMap { $0 }.joined(separator: " ").nilIfEmpty
            }
            if let error = object["error"] as? String {
                let description = object["error_description"] as? String
                return [error, description].compactMap { $0 }.joined(separator: ": ").nilIfEmpty
            }
            return nil
        }
        return String(decoding: body.prefix(quotedBodyByteCountMax), as: UTF8.self).nilIfEmpty
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
