import AppStoreAdapter
import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// `ledger appstore verify|fulfill|notify`: real App Store signed data, offline.
enum AppStoreCommands {
    /// Largest JWS read, in bytes.
    static let inputByteCountMax = 256 * 1024

    /// The group of the signed-data verifier's options.
    static let verifierGroup = OptionGroup(
        title: "App Store signed data",
        summary: "The offline verifier of StoreKit 2 signed data: Apple's root, the app, and the environment. In "
            + "production the root is Apple Root CA - G3, SHA-256 63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:"
            + "7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79. Xcode and LocalTesting skip the chain, as Apple does, "
            + "and are never accepted otherwise.")
    /// The environments a verifier accepts.
    static let environments = ["Production", "Sandbox", "Xcode", "LocalTesting"]
    /// `--root CERT.der`.
    static let root = CommandOption(
        "root", "CERT.der", kind: .repeatable, required: true, help: "a trusted root certificate (DER)", group: verifierGroup)
    /// `--bundle-id ID`.
    static let bundleID = CommandOption("bundle-id", "ID", required: true, help: "the app's bundle ID", group: verifierGroup)
    /// `--environment E`.
    static let environment = CommandOption(
        "environment", "E", required: true, constraint: .choices(environments), help: "the App Store environment",
        group: verifierGroup)
    /// `--app-apple-id N`.
    static let appAppleID = CommandOption(
        "app-apple-id", "N", help: "the app's Apple ID (required for Production)", group: verifierGroup)
    /// The verifier's options.
    static let verifierOptions = [root, bundleID, environment, appAppleID]

    /// The signed-data verifier the options describe, its environment read from `environmentOption`.
    static func signedDataVerifier(_ arguments: Arguments, environmentOption: CommandOption = environment)
        throws(Arguments.UsageError) -> (SignedDataVerifier, AppStoreEnvironment)
    {
        let roots = arguments.values(root)
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
            throw Arguments.UsageError(message: "--\(environmentOption.name) must be Production, Sandbox, Xcode or LocalTesting")
        }
        var appAppleID: Int64?
        if let text = arguments.value(Self.appAppleID) {
            guard let value = Int64(text) else { throw Arguments.UsageError(message: "--app-apple-id needs a number") }
            appAppleID = value
        }
        let configuration = AppStoreVerifierConfiguration(
            rootCertificates: certificates, bundleID: try arguments.required(bundleID), environment: environment,
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
