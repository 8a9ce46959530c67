/// A request head as parsed and checked: the request line, the fields, and what they mean
/// for framing and for the connection.
struct HTTPRequestHead {
    /// The HTTP versions served.
    enum Version: Equatable {
        /// HTTP/1.0: the connection closes after the answer unless the client asks `keep-alive`.
        case http10
        /// HTTP/1.1: the connection stays open unless either side says `close`.
        case http11
    }

    /// How the body is delimited.
    enum BodyFraming: Equatable {
        /// No body.
        case none
        /// `Content-Length` bytes, at most the body limit.
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
    }

    /// The method, as sent.
    var method: String
    /// The request target, as sent.
    var target: String
    /// The version.
    var version: Version
    /// The fields in order, names as sent, values without surrounding whitespace.
    var headers: [(name: String, value: String)]
    /// How the body is delimited.
    var framing: BodyFraming
    /// Whether the client wants the connection kept open after the answer.
    var wantsKeepAlive: Bool
    /// Whether the client waits for `100 Continue` before sending the body.
    var expectsContinue: Bool
}
