import FulfillmentLedger

/// `ledger_meta`: what the database is (the application's name) and its schema version.
enum MetaTable {
    static let createSQL = """
        CREATE TABLE ledger_meta (
            name text COLLATE "C" PRIMARY KEY,
            value text NOT NULL
        );
        """

    static let existsSQL = "SELECT to_regclass('ledger_meta') IS NOT NULL"
    static let selectSQL = "SELECT name, value FROM ledger_meta WHERE name IN ('application', 'schema_version') LIMIT 2"
    static let upsertSQL = """
        INSERT INTO ledger_meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value
        """

    /// What `ledger_meta` says, if it exists.
    enum Stamp {
        case absent
        case stamped(application: String, version: Int)
    }

    static func stamp(in session: PostgresLedgerSession) throws(LedgerError) -> Stamp {
        let exists = try session.query(existsSQL, [], rowCountMax: 1).first?.bool(0) ?? false
        guard exists else { return .absent }
        let values = try session.query(selectSQL, [], rowCountMax: 2).map { (row) throws(LedgerError) in
            (try row.text(0), try row.text(1))
        }
        let stamp = Dictionary(values, uniquingKeysWith: { first, _ in first })
        guard let application = stamp["application"], let text = stamp["schema_version"], let version = Int(text),
            version >= 0
        else {
            throw LedgerError.notALedger(location: session.location, detail: "ledger_meta holds no application and version")
        }
        return .stamped(application: application, version: version)
    }

    static func setVersion(_ version: Int, application: String, in session: PostgresLedgerSession) throws(LedgerError) {
        try session.execute(upsertSQL, [.text("application"), .text(application)])
        try session.execute(upsertSQL, [.text("schema_version"), .text(String(version))])
    }
}
