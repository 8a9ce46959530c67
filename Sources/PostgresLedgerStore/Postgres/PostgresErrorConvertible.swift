/// An error a connection or transaction body may throw: `PostgresError` itself, or a caller's error
/// type that can wrap one, so that the pool can report its own failures in the caller's type and
/// still see which failures allow a retry.
public protocol PostgresErrorConvertible: Error {
    /// Wraps a PostgreSQL failure.
    init(postgresError: PostgresError)
    /// The PostgreSQL failure inside, if this error is one.
    var postgresError: PostgresError? { get }
}

extension PostgresError: PostgresErrorConvertible {
    /// The error itself.
    public init(postgresError: PostgresError) { self = postgresError }

    /// The error itself.
    public var postgresError: PostgresError? { self }
}
