// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "FulfillmentLedger",
    // Synchronization.Mutex needs these on Apple platforms; Linux has no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // Production: what a game server links. None of these depends on a testing product
        // (PackageLayoutTests checks it).
        .library(name: "FulfillmentLedger", targets: ["FulfillmentLedger"]),
        .library(name: "SQLiteLedgerStore", targets: ["SQLiteLedgerStore"]),
        .library(name: "PostgresLedgerStore", targets: ["PostgresLedgerStore"]),
        // What the SQL engines share beyond the core's data layer: the doctor's contents,
        // `ledger migrate`'s copy, the statement canceller and the check that a store was closed.
        .library(name: "LedgerSQL", targets: ["LedgerSQL"]),
        .library(name: "AppStoreAdapter", targets: ["AppStoreAdapter"]),
        .library(name: "PlayStoreAdapter", targets: ["PlayStoreAdapter"]),
        .library(name: "StripeAdapter", targets: ["StripeAdapter"]),
        .library(name: "SteamAdapter", targets: ["SteamAdapter"]),
        .library(name: "TestStoreAdapter", targets: ["TestStoreAdapter"]),
        // HTTP-ready handlers: (method, path, headers, body) in, (status, headers, body) out.
        .library(name: "LedgerHTTP", targets: ["LedgerHTTP"]),
        // A small bounded HTTP/1.1 server on POSIX sockets that runs any LedgerHTTP handler.
        .library(name: "LedgerHTTPServer", targets: ["LedgerHTTPServer"]),
        // The operator console: support pages over a ledger, for any LedgerHTTP server.
        .library(name: "LedgerConsole", targets: ["LedgerConsole"]),
        // Testing: fakes, simulators and fault machinery for test suites.
        .library(name: "FulfillmentLedgerTesting", targets: ["FulfillmentLedgerTesting"]),
        .library(name: "SQLiteFaultVFS", targets: ["SQLiteFaultVFS"]),
        .library(name: "AppStoreSimulator", targets: ["AppStoreSimulator"]),
        .library(name: "PlayStoreSimulator", targets: ["PlayStoreSimulator"]),
        .library(name: "StripeSimulator", targets: ["StripeSimulator"]),
        .library(name: "SteamSimulator", targets: ["SteamSimulator"]),
        .library(name: "LedgerSimulation", targets: ["LedgerSimulation"]),
        .library(name: "PostgresLedgerStoreTesting", targets: ["PostgresLedgerStoreTesting"]),
        .library(name: "LedgerStoreConformance", targets: ["LedgerStoreConformance"]),
        // Tools: the operator CLI (with the development commands apart) and the benchmark.
        .executable(name: "ledger", targets: ["ledger"]),
        .executable(name: "ledger-bench", targets: ["ledger-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),

        // Production library targets.
        // The core, with the data layer: every table's SQL, reads and writes, over a SQL session.
        .target(name: "FulfillmentLedger"),
        // What both store adapters' HTTPS clients share: the transport seam, bounded retries,
        // base64url JWT segments and the OpenSSL signing steps of their request tokens.
        .target(name: "LedgerHTTPClient", dependencies: ["FulfillmentLedger", "COpenSSL"]),
        .target(name: "AppStoreAdapter", dependencies: ["FulfillmentLedger", "LedgerHTTPClient", "COpenSSL"]),
        .target(name: "PlayStoreAdapter", dependencies: ["FulfillmentLedger", "LedgerHTTPClient", "COpenSSL"]),
        // Stripe Checkout (web shops): webhooks authenticated by their signature, events and objects.
        .target(name: "StripeAdapter", dependencies: ["FulfillmentLedger", "LedgerHTTPClient", "COpenSSL"]),
        // Steam microtransactions (PC): InitTxn, FinalizeTxn before the grant, QueryTxn, GetReport.
        .target(name: "SteamAdapter", dependencies: ["FulfillmentLedger", "LedgerHTTPClient"]),
        // What the SQL engines share beyond the data layer (which the core holds: Storage/).
        .target(name: "LedgerSQL", dependencies: ["FulfillmentLedger"]),
        .target(name: "SQLiteLedgerStore", dependencies: ["FulfillmentLedger", "LedgerSQL", "CSQLite"]),
        .target(name: "PostgresLedgerStore", dependencies: ["FulfillmentLedger", "LedgerSQL", "CLibPQ"]),
        .target(name: "TestStoreAdapter", dependencies: ["FulfillmentLedger"]),
        .target(
            name: "LedgerHTTP",
            dependencies: [
                "FulfillmentLedger", "AppStoreAdapter", "PlayStoreAdapter", "StripeAdapter", "SteamAdapter", "TestStoreAdapter",
            ]),
        .target(name: "LedgerHTTPServer", dependencies: ["LedgerHTTP"]),
        .target(name: "LedgerConsole", dependencies: ["FulfillmentLedger", "LedgerHTTP"]),

        // Testing library targets.
        .target(name: "FulfillmentLedgerTesting", dependencies: ["FulfillmentLedger", "TestStoreAdapter", "SQLiteLedgerStore"]),
        .target(name: "SQLiteFaultVFS", dependencies: ["SQLiteLedgerStore", "CSQLite"]),
        // Scratch schemas on a test server, for the PostgreSQL suites and simulation runs.
        .target(name: "PostgresLedgerStoreTesting", dependencies: ["PostgresLedgerStore", "FulfillmentLedger"]),
        // The store engines a test suite runs on (memory, SQLite, PostgreSQL): for this package's
        // own suites only, so no product.
        .target(
            name: "LedgerEngineTesting",
            dependencies: [
                "FulfillmentLedger", "FulfillmentLedgerTesting", "SQLiteLedgerStore", "PostgresLedgerStore",
                "PostgresLedgerStoreTesting",
            ]),
        // The store port's conformance suite, for any test framework: it imports neither Testing nor XCTest.
        .target(name: "LedgerStoreConformance", dependencies: ["FulfillmentLedger"]),
        .target(
            name: "AppStoreSimulator",
            dependencies: ["FulfillmentLedger", "AppStoreAdapter", "LedgerHTTPClient", "LedgerHTTP", "LedgerHTTPServer", "COpenSSL"]),
        // Its RSA test keys report OpenSSL failures through the App Store simulator's helper.
        .target(
            name: "PlayStoreSimulator",
            dependencies: ["FulfillmentLedger", "PlayStoreAdapter", "AppStoreSimulator", "COpenSSL"]),
        // A simulated Stripe account: sessions, refunds and disputes, signed webhooks, its API.
        .target(
            name: "StripeSimulator",
            dependencies: ["FulfillmentLedger", "StripeAdapter", "LedgerHTTPClient", "AppStoreSimulator"]),
        // A simulated Steam partner API: orders authorised, finalised, refunded and charged back.
        .target(name: "SteamSimulator", dependencies: ["FulfillmentLedger", "SteamAdapter", "LedgerHTTPClient"]),
        .target(
            name: "LedgerSimulation",
            dependencies: [
                "FulfillmentLedger", "FulfillmentLedgerTesting", "TestStoreAdapter", "AppStoreAdapter", "AppStoreSimulator",
                "PlayStoreAdapter", "PlayStoreSimulator", "StripeAdapter", "StripeSimulator", "SteamAdapter", "SteamSimulator",
                "LedgerHTTPClient",
            ]),

        // The operator commands: production targets only.
        .target(
            name: "LedgerCommandLine",
            dependencies: [
                "FulfillmentLedger", "SQLiteLedgerStore", "PostgresLedgerStore", "TestStoreAdapter", "AppStoreAdapter",
                "PlayStoreAdapter", "StripeAdapter", "SteamAdapter", "LedgerHTTP", "LedgerHTTPServer", "LedgerConsole",
            ]
        ),
        // demo, simulate and workload: built on the testing products, registered apart by `ledger`.
        .target(
            name: "LedgerDevCommands",
            dependencies: [
                "LedgerCommandLine", "FulfillmentLedger", "SQLiteLedgerStore", "PostgresLedgerStore", "PostgresLedgerStoreTesting",
                "FulfillmentLedgerTesting", "TestStoreAdapter", "AppStoreAdapter", "AppStoreSimulator", "PlayStoreAdapter",
                "PlayStoreSimulator", "LedgerSimulation", "StripeAdapter", "StripeSimulator", "SteamAdapter", "SteamSimulator",
                "LedgerHTTPClient",
            ]),
        .executableTarget(name: "ledger", dependencies: ["LedgerCommandLine", "LedgerDevCommands"]),
        // The benchmark: the raw-SQLite baselines, the bulk pre-fill and the timed workloads.
        .target(
            name: "LedgerBench",
            dependencies: [
                "LedgerCommandLine", "FulfillmentLedger", "LedgerSQL", "SQLiteLedgerStore", "SQLiteFaultVFS", "AppStoreAdapter",
                "AppStoreSimulator", "PostgresLedgerStore", "PostgresLedgerStoreTesting", "LedgerHTTP", "LedgerHTTPServer",
            ]),
        .executableTarget(name: "ledger-bench", dependencies: ["LedgerBench"]),
        // Docs/Integration.md's whole game server as a program (WholeServerExampleTests runs it):
        // production modules only, like the game server it stands for.
        .executableTarget(
            name: "whole-server-example",
            dependencies: ["FulfillmentLedger", "SQLiteLedgerStore", "AppStoreAdapter", "PlayStoreAdapter", "LedgerHTTP", "LedgerHTTPServer"],
            path: "Examples/swift/whole-server"),

        .testTarget(
            name: "FulfillmentLedgerTests",
            dependencies: [
                "FulfillmentLedger", "FulfillmentLedgerTesting", "TestStoreAdapter", "SQLiteLedgerStore", "SQLiteFaultVFS",
                "LedgerSimulation", "PostgresLedgerStore", "PostgresLedgerStoreTesting", "LedgerStoreConformance",
                "LedgerEngineTesting",
            ],
            // Ledger files written by earlier releases, read in place by the migration tests.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "PostgresLedgerStoreTests",
            dependencies: [
                "PostgresLedgerStore", "PostgresLedgerStoreTesting", "FulfillmentLedger", "FulfillmentLedgerTesting",
                "TestStoreAdapter",
            ]
        ),
        .testTarget(
            name: "SQLiteLedgerStoreTests",
            dependencies: [
                "SQLiteLedgerStore", "SQLiteFaultVFS", "FulfillmentLedger", "FulfillmentLedgerTesting", "LedgerSQL", "CSQLite",
            ]
        ),
        .testTarget(
            name: "LedgerCommandLineTests",
            dependencies: [
                "LedgerCommandLine", "LedgerDevCommands", "FulfillmentLedger", "FulfillmentLedgerTesting", "LedgerSQL", "SQLiteLedgerStore",
                "PostgresLedgerStore", "PostgresLedgerStoreTesting", "AppStoreAdapter", "AppStoreSimulator", "PlayStoreAdapter",
                "PlayStoreSimulator", "LedgerSimulation", "LedgerHTTP", "LedgerHTTPServer", "StripeAdapter", "StripeSimulator",
                "SteamAdapter", "SteamSimulator",
            ]
        ),
        .testTarget(
            name: "LedgerBenchTests",
            dependencies: [
                "LedgerBench", "LedgerCommandLine", "FulfillmentLedger", "SQLiteLedgerStore", "PostgresLedgerStore",
                "PostgresLedgerStoreTesting",
            ]
        ),
        .testTarget(
            name: "PlayStoreAdapterTests",
            dependencies: [
                "PlayStoreAdapter", "PlayStoreSimulator", "FulfillmentLedger", "FulfillmentLedgerTesting", "LedgerSimulation",
                "COpenSSL", "SQLiteLedgerStore", "PostgresLedgerStore", "PostgresLedgerStoreTesting", "LedgerEngineTesting",
                "LedgerSQL",
            ]
        ),
        .testTarget(
            name: "StripeAdapterTests",
            dependencies: [
                "StripeAdapter", "StripeSimulator", "FulfillmentLedger", "FulfillmentLedgerTesting", "LedgerHTTPClient",
                "LedgerSimulation", "LedgerEngineTesting",
            ]
        ),
        .testTarget(
            name: "SteamAdapterTests",
            dependencies: [
                "SteamAdapter", "SteamSimulator", "FulfillmentLedger", "FulfillmentLedgerTesting", "LedgerHTTPClient",
                "LedgerEngineTesting", "LedgerSimulation",
            ]
        ),
        .testTarget(
            name: "AppStoreAdapterTests",
            dependencies: [
                "AppStoreAdapter", "AppStoreSimulator", "FulfillmentLedger", "FulfillmentLedgerTesting", "LedgerHTTPClient",
                "COpenSSL", "LedgerEngineTesting",
            ]
        ),
        .testTarget(
            name: "LedgerConsoleTests",
            dependencies: ["LedgerConsole", "LedgerHTTP", "FulfillmentLedger", "FulfillmentLedgerTesting"]
        ),
        .testTarget(
            name: "LedgerHTTPTests",
            dependencies: [
                "LedgerHTTP", "FulfillmentLedger", "FulfillmentLedgerTesting", "TestStoreAdapter", "AppStoreAdapter",
                "AppStoreSimulator", "PlayStoreAdapter", "PlayStoreSimulator", "SQLiteLedgerStore",
            ]
        ),
        .testTarget(
            name: "LedgerHTTPServerTests",
            dependencies: [
                "LedgerHTTPServer", "LedgerHTTP", "FulfillmentLedger", "AppStoreAdapter", "PlayStoreAdapter",
                "SQLiteLedgerStore", "FulfillmentLedgerTesting", "AppStoreSimulator", "PlayStoreSimulator", "LedgerSimulation",
            ]
        ),
        // The Swift examples of README.md and Docs/, compiled line for line and run.
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "FulfillmentLedger", "FulfillmentLedgerTesting", "SQLiteLedgerStore", "PostgresLedgerStore", "AppStoreAdapter",
                "AppStoreSimulator", "PlayStoreAdapter", "PlayStoreSimulator", "LedgerHTTP", "LedgerHTTPServer",
                "LedgerStoreConformance", "StripeAdapter", "SteamAdapter", "SteamSimulator", "LedgerHTTPClient",
            ]
        ),
        // Reads Package.swift and Sources/ to keep testing modules out of the production targets.
        .testTarget(name: "PackageLayoutTests"),
    ],
    swiftLanguageModes: [.v6]
)
