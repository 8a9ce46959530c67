import FulfillmentLedger
import Testing

@testable import PostgresLedgerStore

/// Connection strings as libpq parses them, and their redaction. Needs no server.
@Suite struct PostgresConnectionStringTests {
    @Test func uriPasswordsAreRedactedAndTLSSettingsPassThrough() {
        let text =
            "postgresql://ledger:s3cr%40t@db.example:6432/economy?sslmode=verify-full&sslrootcert=/etc/ledger/ca.pem&sslpassword=keypass"
        let description = PostgresConnectionString(text).redactedDescription
        #expect(!description.contains("s3cr"))
        #expect(!description.contains("keypass"))
        #expect(description.contains("password=***"))
        #expect(description.contains("sslpassword=***"))
        #expect(description.contains("user=ledger"))
        #expect(description.contains("host=db.example"))
        #expect(description.contains("port=6432"))
        #expect(description.contains("sslmode=verify-full"))
        #expect(description.contains("sslrootcert=/etc/ledger/ca.pem"))
        // Interpolation and printing use the redacted form too.
        #expect("\(PostgresConnectionString(text))" == description)
    }

    @Test func keyValuePasswordsAreRedactedAndValuesQuoted() {
        let text = "host=/var/run/postgresql dbname='game ledger' user=svc password='with space \\' quote'"
        let connectionString = PostgresConnectionString(text)
        let description = connectionString.redactedDescription
        #expect(!description.contains("with space"))
        #expect(description.contains("password=***"))
        #expect(description.contains("dbname='game ledger'"))
        #expect(connectionString.secrets == ["with space ' quote"])
        #expect(connectionString.scrubbed("auth with space ' quote failed") == "auth *** failed")
    }

    @Test func unparseableTextNeverQuotesAPassword() {
        // libpq's own message for these quotes the text, password included.
        for text in ["postgresql://u:hunter2%zz@h/d", "host=h password=hunter2 oops", "postgres://u:hunter2@h/d?nosuchoption=1"] {
            let description = PostgresConnectionString(text).redactedDescription
            #expect(!description.contains("hunter2"), "\(description)")
            #expect(description.hasPrefix("(an invalid connection string"))
        }
        // Without a password libpq's reason is shown.
        let plain = PostgresConnectionString("host=h port").redactedDescription
        #expect(plain.contains("missing \"=\" after \"port\""), "\(plain)")
    }

    @Test func bareDatabaseNameAndEmptyString() {
        #expect(PostgresConnectionString("ledger").redactedDescription == "dbname=ledger")
        #expect(PostgresConnectionString("").redactedDescription.contains("defaults"))
    }

    @Test func invalidConnectionStringIsAConfigurationError() {
        let configuration = PostgresPoolConfiguration(connectionString: PostgresConnectionString("postgresql://u:hunter2%zz@h/d"))
        #expect {
            _ = try PostgresConnectionPool(configuration: configuration)
        } throws: { error in
            guard let error = error as? PostgresError else { return false }
            guard case .configuration(let message) = error.ledgerError else { return false }
            return error.kind == .invalidConnectionString && !message.contains("hunter2")
        }
    }

    @Test func poolLimitsOutOfRangeAreRefused() {
        let base = PostgresConnectionString("host=localhost")
        let configurations = [
            PostgresPoolConfiguration(connectionString: base, connectionCountMax: 0),
            PostgresPoolConfiguration(connectionString: base, acquireTimeoutMilliseconds: 0),
            PostgresPoolConfiguration(connectionString: base, waiterCountMax: -1),
            PostgresPoolConfiguration(connectionString: base, connectTimeoutSeconds: 0),
            PostgresPoolConfiguration(connectionString: base, statementCacheCountMax: 0),
        ]
        for configuration in configurations {
            #expect(throws: PostgresError.self) { _ = try PostgresConnectionPool(configuration: configuration) }
        }
        let refused = Result { () throws(PostgresError) in try PostgresPoolConfiguration(connectionString: base, connectionCountMax: 0).validate() }
        if case .failure(let error) = refused {
            #expect(error.kind == .invalidConfiguration)
            #expect(error.description.contains("connectionCountMax"))
        } else {
            Issue.record("connectionCountMax 0 was accepted")
        }
    }

    @Test func refusedConnectionIsRetryableAndNeverShowsThePassword() async throws {
        // Port 1 on loopback refuses at once; no server is needed.
        let connectionString = PostgresConnectionString("postgresql://svc:hunter2-refused@127.0.0.1:1/ledger?connect_timeout=2")
        let pool = try PostgresConnectionPool(configuration: PostgresPoolConfiguration(connectionString: connectionString))
        do {
            _ = try await pool.withConnection { (connection) throws(PostgresError) in connection.backendProcessID }
            Issue.record("connected to port 1")
        } catch {
            #expect(error.kind == .connectFailed)
            #expect(error.isConnectionFailure)
            #expect(error.isRetryable)
            #expect(!error.statementSent)
            #expect(!error.description.contains("hunter2"))
            #expect(!error.ledgerError.description.contains("hunter2"))
        }
        #expect(pool.statistics.connectionOpenCount == 0)
        await pool.close()
    }
}
