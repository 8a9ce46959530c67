import CSQLite

extension SQLiteFaultVFS {
    /// A file operation the VFS counts and can fail.
    public enum Operation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// `xWrite`; fails with `SQLITE_IOERR_WRITE` (or `SQLITE_FULL` for a disk-full fault).
        case write
        /// `xSync`; fails with `SQLITE_IOERR_FSYNC`.
        case sync
        /// `xRead`; fails with `SQLITE_IOERR_READ`.
        case read
        /// `xTruncate`; fails with `SQLITE_IOERR_TRUNCATE`.
        case truncate

        /// The raw value, for test names and reports.
        public var description: String { rawValue }

        /// The extended result code of an I/O error in this operation.
        var ioErrorCode: Int32 {
            // Spelled out because the SQLITE_IOERR_* macros are composite and the values are
            // fixed by SQLite's stable ABI: SQLITE_IOERR | (n << 8).
            switch self {
            case .read: SQLITE_IOERR | (1 << 8)
            case .write: SQLITE_IOERR | (3 << 8)
            case .sync: SQLITE_IOERR | (4 << 8)
            case .truncate: SQLITE_IOERR | (6 << 8)
            }
        }
    }

    /// Whether an armed fault fails one call or every call from then on.
    public enum Persistence: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Only the chosen call fails; the next one succeeds (a glitch).
        case transient
        /// The chosen call and every later call of the same operation fail until `disarm()`
        /// (a dead disk).
        case persistent

        /// The raw value, for test names and reports.
        public var description: String { rawValue }
    }

    /// What a failing call reports.
    public enum Failure: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The operation's `SQLITE_IOERR_*` extended code.
        case ioError
        /// `SQLITE_FULL`, as a write to a full disk reports. Meant for writes; any operation
        /// armed with it returns `SQLITE_FULL`.
        case diskFull

        /// The raw value, for test names and reports.
        public var description: String { rawValue }
    }

    /// One scheduled failure: the `callNumber`-th call of `operation` after arming fails.
    public struct Fault: Sendable, Hashable, CustomStringConvertible {
        /// The operation to fail.
        public var operation: Operation
        /// Which call fails, 1-based, counted from the moment the fault is armed.
        public var callNumber: Int
        /// One call, or that call and all later ones.
        public var persistence: Persistence
        /// The error returned.
        public var failure: Failure

        /// Creates a fault. `callNumber` below 1 is treated as 1: the next call fails.
        public init(
            _ operation: Operation, callNumber: Int, persistence: Persistence = .transient,
            failure: Failure = .ioError
        ) {
            self.operation = operation
            self.callNumber = max(1, callNumber)
            self.persistence = persistence
            self.failure = failure
        }

        /// The SQLite result code a failing call returns.
        public var resultCode: Int32 {
            switch failure {
            case .ioError: operation.ioErrorCode
            case .diskFull: SQLITE_FULL
            }
        }

        /// `write #3 persistent ioError`.
        public var description: String { "\(operation) #\(callNumber) \(persistence) \(failure)" }
    }
}
