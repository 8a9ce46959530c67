/// A request head as parsed and checked: the request line, the fields, and what they mean
/// for framing and for the connection.
package struct HTTPRequestHead {
    /// The HTTP versions served.
    package enum Version: Equatable {
        /// HTTP/1.0: the connection closes after the answer unless the client asks `keep-alive`.
        case http10
        /// HTTP/1.1: the connection stays open unless either side says `close`.
        case http11
    }

    /// How the body is delimited.
    package enum BodyFraming: Equatable {
        /// No body.
        case none
        /// `Content-Length` bytes, at most the body limit.
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
    }

    /// The method, as sent.
    package var method: String
    /// The request target, as sent.
    package var target: String
    /// The version.
    package var version: Version
    /// The fields in order, names as sent, values without surrounding whitespace.
    package var headers: [(name: String, value: String)]
    /// How the body is delimited.
    package var framing: BodyFraming
    /// Whether the client wants the connection kept open after the answer.
    package var wantsKeepAlive: Bool
    /// Whether the client waits for `100 Continue` before sending the body.
    package var expectsContinue: Bool
}
