import FulfillmentLedger
import Foundation
import PostgresLedgerStoreTesting
import Testing

@testable import PostgresLedgerStore

extension PostgresServerTests {
    /// What a caller is told about retrying: a mistake in the configuration (a wrong password, a
    /// database that does not exist, a malformed port) is never retryable, since the same
    /// attempt fails the same way; a statement timeout is, since the next attempt may finish.
    @Suite struct RetryableTests {
        /// The test server's URL with one part replaced.
        static func serverURL(_ change: (inout URLComponents) -> Void) throws -> String {
            let server = try #require(PostgresScratchSchema.serverURL)
            var components = try #require(URLComponents(string: server))
            change(&components)
            return try #require(components.string)
        }

        /// The error of opening a store at `url`.
        static func openingError(_ url: String) async -> LedgerError? {
            var options = PostgresLedgerStore.Options(connectionString: url)
            options.pool.connectTimeoutSeconds = 2
            do throws(LedgerError) {
                let store = try await PostgresLedgerStore(options: options)
                await store.close()
                return nil
            } catch {
                return error
            }
        }

        static func isRetryable(_ error: LedgerError?) -> Bool? {
            guard let error else { return nil }
            if case .storage(let failure) = error { return failure.isRetryable }
            return false
        }

        @Test func configurationMistakesAreNotRetryable() async throws {
            let wrongPassword = try Self.serverURL { $0.password = "not-the-password" }
            let missingDatabase = try Self.serverURL { $0.path = "/no_such_database_here" }
            let malformedPort = try #require(PostgresScratchSchema.serverURL).replacingOccurrences(
                of: #":(\d+)/"#, with: ":54x32/", options: .regularExpression)
            for url in [wrongPassword, missingDatabase, malformedPort] {
                let error = await Self.openingError(url)
                #expect(error != nil, "\(url) opened")
                #expect(Self.isRetryable(error) == false, "\(String(describing: error))")
                if case .storage(let failure) = error { #expect(failure.kind == .configuration, "\(failure)") }
            }
        }

        @Test func aStatementTimeoutIsRetryable() async throws {
            let schema = try PostgresScratchSchema.create(prefix: "ledger_timeout")
            defer { try? schema.drop() }
            let connection = try PostgresConnection(connectionString: PostgresConnectionString(schema.connectionString))
            defer { connection.close() }
            _ = try connection.execute("SET statement_timeout = '20ms'")
            do throws(PostgresError) {
                _ = try connection.execute("SELECT pg_sleep(2)")
                Issue.record("the statement outlived its timeout")
            } catch {
                #expect(error.sqlState == "57014")
                #expect(Self.isRetryable(error.ledgerError) == true, "\(error)")
                #expect(error.storageKind == .timeout)
                // The pool does not run it again by itself: a timeout may take long each time.
                #expect(!error.allowsTransactionRetry)
            }
        }
    }
}
