import AppStoreAdapter
import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// `ledger appstore verify|fulfill|notify`: real App Store signed data, offline.
enum AppStoreCommands {
    /// Largest JWS read, in bytes.
    static let inputByteCountMax = 256 * 1024

    static let verifierOptions: Set<String> = ["root", "bundle-id", "environment", "app-apple-id"]
    static let verifierHelp = """
          --root CERT.der      a trusted root certificate (repeatable); in production Apple Root
                               CA - G3, SHA-256 63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:
                               7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79
          --bundle-id ID       the app's bundle ID
          --environment E      Production | Sandbox | Xcode | LocalTesting (the last two skip
                               the chain, as Apple does, and are never accepted otherwise)
          --app-apple-id N     the app's Apple ID (required for Production)
        """

    /// The signed-data verifier the options describe.
    static func signedDataVerifier(_ arguments: Arguments, environmentOption: String = "environment")
        throws(Arguments.UsageError) -> (SignedDataVerifier, AppStoreEnvironment)
    {
        let roots = arguments.values("root")
        guard !roots.isEmpty else { throw Arguments.UsageError(message: "--root is required (DER certificate)") }
        var certificates: [[UInt8]] = []
        for path in roots {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Arguments.UsageError(message: "cannot read root certificate \(path)")
            }
            certificates.append(Array(data))
        }
        let environment = AppStoreEnvironment(rawValue: try arguments.required(environmentOption))
        guard [.production, .sandbox, .xcode, .localTesting].contains(environment) else {
            throw Arguments.UsageError(message: "--\(environmentOption) must be Production, Sandbox, Xcode or LocalTesting")
        }
        var appAppleID: Int64?
        if let text = arguments.value("app-apple-id") {
            guard let value = Int64(text) else { throw Arguments.UsageError(message: "--app-apple-id needs a number") }
            appAppleID = value
        }
        let configuration = AppStoreVerifierConfiguration(
            rootCertificates: certificates, bundleID: try arguments.required("bundle-id"), environment: environment,
            appAppleID: appAppleID)
        do throws(AppStoreVerificationError) {
            return (try SignedDataVerifier(configuration), environment)
        } catch {
            throw Arguments.UsageError(message: "cannot build the verifier: \(error)")
        }
    }

    /// The JWS in FILE, or on stdin for `-`.
    static func readJWS(_ arguments: Arguments, io: CommandIO) throws(Arguments.UsageError) -> String {
        guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
            throw Arguments.UsageError(message: "one FILE (or - for stdin) is required")
        }
        let data = file == "-" ? io.readInput(inputByteCountMax) : FileManager.default.contents(atPath: file)
        guard let data, data.count <= inputByteCountMax else {
            throw Arguments.UsageError(message: "cannot read \(file), or it is larger than \(inputByteCountMax) bytes")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func printFailure(_ error: AppStoreVerificationError, io: CommandIO) -> ExitCode {
        io.printJSON(LedgerErrorBody(error))
        return .dataError
    }
}
