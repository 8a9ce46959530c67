/// The release of this package: the one place its version is written. `ledger --version` prints
/// it with the schema versions each engine writes; CHANGELOG.md has an entry for each release.
public enum LedgerVersion {
    /// The release, as semantic versioning: a breaking change to the public API, the CLI's
    /// output or the stored data bumps the major version (the minor one while it is 0).
    public static let current = "0.1.0"
}
