/// Exit codes in the style of BSD sysexits(3), plus 3 for a rejected transaction.
public enum ExitCode: Int32, Sendable {
    /// Success: granted, already fulfilled, valid, healthy.
    case ok = 0
    /// An infrastructure failure: the ledger, a port or the file system failed.
    case failure = 1
    /// The transaction was rejected; nothing changed.
    case rejected = 3
    /// EX_USAGE: the command line was wrong.
    case usage = 64
    /// EX_DATAERR: the input (catalog, transaction JSON) is invalid.
    case dataError = 65
    /// EX_NOINPUT: an input file does not exist or cannot be read.
    case noInput = 66
    /// EX_SOFTWARE: an internal check failed (a demo step did not behave as promised).
    case software = 70
    /// EX_CANTCREAT: the output cannot be made (`ledger migrate` to a database that already
    /// holds a ledger's rows).
    case cannotCreate = 73
    /// EX_NOPERM: a push was refused because it did not authenticate.
    case noPermission = 77
}
