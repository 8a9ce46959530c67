import Foundation

/// Apple's error answer: the HTTP status and the body `{"errorCode": N, "errorMessage": "…"}`.
public struct AppStoreAPIErrorResponse: Hashable, Sendable, CustomStringConvertible {
    /// Bytes of a body quoted in `errorMessage` when it is not Apple's JSON.
    static let quotedBodyByteCountMax = 200

    /// The HTTP status code.
    public var httpStatusCode: Int
    /// Apple's error code; nil when the body carried none. An unknown code keeps its number.
    public var errorCode: AppStoreAPIErrorCode?
    /// Apple's message, or the start of a body that is not Apple's JSON.
    public var errorMessage: String?

    /// Creates a response.
    public init(httpStatusCode: Int, errorCode: AppStoreAPIErrorCode?, errorMessage: String?) {
        self.httpStatusCode = httpStatusCode
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }

    /// Decodes Apple's body; anything else keeps only the status and the body's start.
    init(httpStatusCode: Int, body: Data) {
        self.httpStatusCode = httpStatusCode
        if let decoded = try? JSONDecoder().decode(Wire.self, from: body) {
            errorCode = decoded.errorCode.map(AppStoreAPIErrorCode.init(rawValue:))
            errorMessage = decoded.errorMessage
        } else {
            errorCode = nil
            let text = String(decoding: body.prefix(Self.quotedBodyByteCountMax), as: UTF8.self)
            errorMessage = text.isEmpty ? nil : text
        }
    }

    /// A short message for retry logs: `errorCode errorMessage`.
    static func message(in body: Data) -> String? {
        let response = AppStoreAPIErrorResponse(httpStatusCode: 0, body: body)
        let parts = [response.errorCode?.description, response.errorMessage].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// `HTTP 404 4040010 Transaction id not found.`
    public var description: String {
        (["HTTP \(httpStatusCode)", errorCode?.description, errorMessage].compactMap { $0 }).joined(separator: " ")
    }

    private struct Wire: Decodable {
        var errorCode: Int?
        var errorMessage: String?
    }
}
