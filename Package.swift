// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "FulfillmentLedger",
    // Synchronization.Mutex needs these on Apple platforms; Linux has no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "FulfillmentLedger", targets: ["FulfillmentLedger"]),
        .library(name: "SQLiteLedgerStore", targets: ["SQLiteLedgerStore"]),
        .library(name: "PostgresLedgerStore", targets: ["PostgresLedgerStore"]),
        .library(name: "AppStoreAdapter", targets: ["AppStoreAdapter"]),
        .library(name: "PlayStoreAdapter", targets: ["PlayStoreAdapter"]),
        .library(name: "FulfillmentLedgerTesting", targets: ["FulfillmentLedgerTesting"]),
        .executable(name: "ledger", targets: ["ledger"]),
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
        .target(name: "FulfillmentLedger"),
        .target(name: "AppStoreAdapter", dependencies: ["FulfillmentLedger", "COpenSSL"]),
        .target(name: "PlayStoreAdapter", dependencies: ["FulfillmentLedger", "COpenSSL"]),
        .target(name: "SQLiteLedgerStore", dependencies: ["FulfillmentLedger", "CSQLite"]),
        .target(name: "PostgresLedgerStore", dependencies: ["FulfillmentLedger", "CLibPQ"]),
        .target(
            name: "FulfillmentLedgerTesting",
            dependencies: ["FulfillmentLedger", "AppStoreAdapter", "PlayStoreAdapter", "COpenSSL"]),
        .target(
            name: "LedgerCommandLine",
            dependencies: [
                "FulfillmentLedger", "SQLiteLedgerStore", "FulfillmentLedgerTesting", "AppStoreAdapter", "PlayStoreAdapter",
            ]
        ),
        .executableTarget(name: "ledger", dependencies: ["LedgerCommandLine"]),
        .testTarget(
            name: "FulfillmentLedgerTests",
            dependencies: ["FulfillmentLedger", "FulfillmentLedgerTesting", "SQLiteLedgerStore"],
            // Ledger files written by earlier releases, read in place by the migration tests.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "PostgresLedgerStoreTests",
            dependencies: ["PostgresLedgerStore", "FulfillmentLedger"]
        ),
        .testTarget(
            name: "SQLiteLedgerStoreTests",
            dependencies: ["SQLiteLedgerStore", "FulfillmentLedger", "CSQLite"]
        ),
        .testTarget(
            name: "LedgerCommandLineTests",
            dependencies: [
                "LedgerCommandLine", "FulfillmentLedger", "FulfillmentLedgerTesting", "SQLiteLedgerStore", "AppStoreAdapter",
                "PlayStoreAdapter",
            ]
        ),
        .testTarget(
            name: "PlayStoreAdapterTests",
            dependencies: ["PlayStoreAdapter", "FulfillmentLedger", "FulfillmentLedgerTesting", "COpenSSL"]
        ),
        .testTarget(
            name: "AppStoreAdapterTests",
            dependencies: ["AppStoreAdapter", "FulfillmentLedger", "FulfillmentLedgerTesting", "COpenSSL"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
