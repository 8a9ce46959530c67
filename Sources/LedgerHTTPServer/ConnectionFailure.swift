/// Why reading or writing a connection stopped short.
package enum ConnectionFailure: Error {
    /// The request is one the server answers itself with this error, then closes.
    case rejected(HTTPRejection)
    /// The deadline passed first.
    case timedOut
    /// The peer closed the connection, or the socket failed.
    case closed
    /// The server began to shut down while the connection was idle.
    case woken
}
