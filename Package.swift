// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "FulfillmentLedger",
    // Synchronization.Mutex needs these on Apple platforms; Linux has no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "FulfillmentLedger", targets: ["FulfillmentLedger"]),
        .library(name: "SQLiteLedgerStore", targets: ["SQLiteLedgerStore"]),
        .library(name: "FulfillmentLedgerTesting", targets: ["FulfillmentLedgerTesting"]),
        .executable(name: "ledger", targets: ["ledger"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "FulfillmentLedger"),
        .target(name: "SQLiteLedgerStore", dependencies: ["FulfillmentLedger", "CSQLite"]),
        .target(name: "FulfillmentLedgerTesting", dependencies: ["FulfillmentLedger"]),
        .target(
            name: "LedgerCommandLine",
            dependencies: ["FulfillmentLedger", "SQLiteLedgerStore", "FulfillmentLedgerTesting"]
        ),
        .executableTarget(name: "ledger", dependencies: ["LedgerCommandLine"]),
        .testTarget(
            name: "FulfillmentLedgerTests",
            dependencies: ["FulfillmentLedger", "FulfillmentLedgerTesting", "SQLiteLedgerStore"]
        ),
        .testTarget(
            name: "SQLiteLedgerStoreTests",
            dependencies: ["SQLiteLedgerStore", "FulfillmentLedger", "CSQLite"]
        ),
        .testTarget(
            name: "LedgerCommandLineTests",
            dependencies: ["LedgerCommandLine", "FulfillmentLedger", "FulfillmentLedgerTesting", "SQLiteLedgerStore"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
