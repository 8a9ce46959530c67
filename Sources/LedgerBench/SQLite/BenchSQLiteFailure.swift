/// A SQLite call of the bench's raw baselines or bulk load failed, or the file or plan was refused.
public struct BenchSQLiteFailure: Error, CustomStringConvertible {
    /// SQLite's result code, or `SQLITE_MISUSE` for a plan or file that is refused.
    public var code: Int32
    /// What failed, with SQLite's message.
    public var description: String

    /// Creates a failure.
    public init(code: Int32, description: String) {
        self.code = code
        self.description = description
    }
}
