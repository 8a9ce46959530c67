import Foundation
import FulfillmentLedgerTesting
import Testing

/// The operator console (`ledger serve --console`) in a real browser: the seven support cases
/// and a player whose ID is markup are written into a SQLite ledger, the built `ledger` serves
/// them, and `Scripts/console-browser-test` drives headless Chromium through Selenium over it
/// (login, a search and the player page per case, "Retry finish", forged posts, escaping).
///
/// It needs Debian's `chromium` and `chromium-driver` and a python with `selenium`
/// (`LEDGER_BROWSER_PYTHON`, default `python3`). `.ci/run` installs them and sets
/// `LEDGER_REQUIRE_BROWSER=1`, so there the test runs or fails; elsewhere it is skipped when one
/// is missing.
struct ConsoleBrowserTests {
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"
    static let isRequired = ProcessInfo.processInfo.environment["LEDGER_REQUIRE_BROWSER"] == "1"
    /// The python that runs the script: `LEDGER_BROWSER_PYTHON`, a path or a name on PATH.
    static let python: String? = {
        let name = ProcessInfo.processInfo.environment["LEDGER_BROWSER_PYTHON"] ?? "python3"
        let candidates = name.contains("/")
            ? [name] : (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// What the browser test lacks, in words; nil when it can run.
    static let missing: String? = {
        var lacking: [String] = []
        if !FileManager.default.isExecutableFile(atPath: chromium) { lacking.append("\(chromium) (apt install chromium)") }
        if !FileManager.default.isExecutableFile(atPath: chromedriver) {
            lacking.append("\(chromedriver) (apt install chromium-driver)")
        }
        if let python {
            if ProcessLaunchGuard.spawn(python, ["-c", "import selenium"])?.status != 0 {
                lacking.append("selenium for \(python) (pip install selenium, or set LEDGER_BROWSER_PYTHON)")
            }
        } else {
            lacking.append("a python (LEDGER_BROWSER_PYTHON or python3 on PATH)")
        }
        return lacking.isEmpty ? nil : lacking.joined(separator: ", ")
    }()

    /// A known player whose ID the pages must show as text, never run.
    static let scriptPlayer = "<script>alert(1)</script>"
    static let tokenVariable = "LEDGER_CONSOLE_TEST_TOKEN"
    static let token = "console-operator-token-0123456789"
    /// Longest the script may run: it takes seconds; a hung browser is killed at this.
    static let scriptSecondsMax = 300.0
    /// The test's temporary folder for screenshots, kept after the test (unlike its scratch
    /// folder, which holds the ledger) so that they can be looked at; the test prints its path.
    static let screenshots = FileManager.default.temporaryDirectory
        .appendingPathComponent("ledger-console-screenshots-\(ProcessInfo.processInfo.processIdentifier)").path

    @Test(
        .enabled(
            if: missing == nil || isRequired,
            "skipped: chromium, chromium-driver or selenium is missing (apt install chromium chromium-driver; LEDGER_BROWSER_PYTHON names a python with selenium)"
        ))
    func theSupportCasesInARealBrowser() async throws {
        try #require(Self.missing == nil, "the browser test is required here (LEDGER_REQUIRE_BROWSER=1): missing \(Self.missing ?? "")")
        let python = try #require(Self.python)
        let scratch = try ScratchDirectory()
        let (db, cases) = try await LookupCommandTests.supportLedger(in: scratch, buyers: [Self.scriptPlayer])
        let casesJSON = try JSONSerialization.data(
            withJSONObject: cases.map {
                ["name": $0.name, "playerID": $0.playerID, "transactionID": $0.transactionID, "expected": $0.expected]
            }, options: [.prettyPrinted, .sortedKeys])
        let casesFile = try scratch.write(String(decoding: casesJSON, as: UTF8.self), to: "cases.json")
        try? FileManager.default.removeItem(atPath: Self.screenshots)

        let served = try await onOwnThread {
            try ServeCommandTests.Served(
                db: db, environment: [Self.tokenVariable: Self.token],
                extra: ["--console", "--console-token-env", Self.tokenVariable, "--no-recover"])
        }
        let started = Date()
        let run: ChildProcess.Exit
        do {
            let child = try await ChildProcess.launch(
                URL(fileURLWithPath: python),
                [
                    packageRoot.appendingPathComponent("Scripts/console-browser-test").path,
                    "--base-url", "http://127.0.0.1:\(served.port)", "--token", Self.token, "--cases", casesFile,
                    "--xss-player", Self.scriptPlayer, "--screenshots", Self.screenshots,
                ])
            run = try await child.exit(timeoutSeconds: Self.scriptSecondsMax)
        } catch {
            _ = try? await onOwnThread { served.terminate() }
            throw error
        }
        let seconds = Date().timeIntervalSince(started)
        let stopped = try await onOwnThread { served.terminate() }

        #expect(run.status == 0 && !run.killed, "console-browser-test failed:\n\(run.output)\nserve:\n\(stopped.error)")
        #expect(stopped.status == 0, "ledger serve did not stop cleanly on SIGTERM: \(stopped.error)")
        let summary = run.output.split(separator: "\n").last { $0.hasPrefix("console browser test:") } ?? "no summary"
        print("\(summary) in \(String(format: "%.1f", seconds)) s; screenshots in \(Self.screenshots)")
    }
}
