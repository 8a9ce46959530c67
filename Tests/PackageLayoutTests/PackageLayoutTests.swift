import Foundation
import Testing

/// Production products ship no test or bench code: no file of a production library target or
/// of the operator CLI imports a testing module, no production target depends on one in
/// `Package.swift`, even through another target, and every library product is one or the other.
@Suite("package layout")
struct PackageLayoutTests {
    /// The package's root folder, found from this file's location.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What a game server or an operator links: the production libraries and the operator commands.
    static let productionTargets = [
        "FulfillmentLedger", "SQLiteLedgerStore", "PostgresLedgerStore", "AppStoreAdapter", "PlayStoreAdapter",
        "StripeAdapter", "SteamAdapter", "TestStoreAdapter", "LedgerHTTP", "LedgerHTTPServer", "LedgerCommandLine",
        "LedgerHTTPClient",
    ]
    /// The production library products.
    static let productionProducts: Set = [
        "FulfillmentLedger", "LedgerSQL", "SQLiteLedgerStore", "PostgresLedgerStore", "AppStoreAdapter", "PlayStoreAdapter",
        "StripeAdapter", "SteamAdapter", "TestStoreAdapter", "LedgerHTTP", "LedgerHTTPServer", "LedgerConsole",
    ]
    /// The testing library products.
    static let testingProducts: Set = [
        "FulfillmentLedgerTesting", "SQLiteFaultVFS", "AppStoreSimulator", "PlayStoreSimulator", "StripeSimulator",
        "SteamSimulator", "LedgerSimulation", "PostgresLedgerStoreTesting", "LedgerStoreConformance",
    ]
    /// Every module of test, simulation, development or bench machinery.
    static let testingModules = testingProducts.union(["LedgerDevCommands", "LedgerBench", "LedgerEngineTesting"])
    /// Most source files read under one target's folder.
    static let fileCountMax = 2_000

    static func manifest() throws -> PackageManifest {
        PackageManifest(try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
    }

    /// The Swift files under `Sources/<target>`.
    static func sources(of target: String) throws -> [URL] {
        let folder = root.appendingPathComponent("Sources").appendingPathComponent(target)
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var files: [URL] = []
        while files.count < fileCountMax, let url = enumerator.nextObject() as? URL {
            if url.pathExtension == "swift" { files.append(url) }
        }
        return files
    }

    /// Expects `target` to have sources, none of which imports any of `modules`.
    static func expectNoFileOf(_ target: String, toImport modules: Set<String>) throws {
        let files = try sources(of: target)
        #expect(!files.isEmpty, "no sources found for \(target)")
        for file in files {
            let imported = ImportScanner.modules(in: try String(contentsOf: file, encoding: .utf8))
            let forbidden = imported.intersection(modules)
            #expect(forbidden.isEmpty, "\(target)/\(file.lastPathComponent) imports \(forbidden.sorted())")
        }
    }

    @Test("no file of a production target imports a testing module", arguments: productionTargets)
    func productionSourcesImportNoTestingModule(target: String) throws {
        try Self.expectNoFileOf(target, toImport: Self.testingModules)
    }

    @Test("no production target depends on a testing module", arguments: productionTargets)
    func productionTargetsDependOnNoTestingModule(target: String) throws {
        let manifest = try Self.manifest()
        #expect(manifest.dependencies[target] != nil, "Package.swift declares no target \(target)")
        let testing = manifest.closure(of: target).intersection(Self.testingModules)
        #expect(testing.isEmpty, "\(target) depends on \(testing.sorted())")
    }

    @Test func everyLibraryProductIsProductionOrTesting() throws {
        let libraries = try Self.manifest().libraries
        #expect(Set(libraries.keys) == Self.productionProducts.union(Self.testingProducts))
        for product in Self.productionProducts {
            #expect(libraries[product].map { Set($0).isDisjoint(with: Self.testingModules) } == true, "\(product)")
        }
    }

    @Test func theBenchAndTheDevelopmentCommandsAreTargetsOfTheirOwn() throws {
        let manifest = try Self.manifest()
        #expect(manifest.dependencies["ledger-bench"] == ["LedgerBench"])
        #expect(manifest.closure(of: "LedgerBench").isSuperset(of: ["SQLiteLedgerStore", "SQLiteFaultVFS"]))
        #expect(manifest.dependencies["ledger"]?.sorted() == ["LedgerCommandLine", "LedgerDevCommands"])
        #expect(manifest.closure(of: "LedgerDevCommands").isSuperset(of: ["LedgerCommandLine", "LedgerSimulation"]))
    }

    /// The store conformance suite runs under any test framework, on the core alone.
    @Test func theConformanceSuiteNeedsNoTestFrameworkAndNoEngine() throws {
        #expect(try Self.manifest().dependencies["LedgerStoreConformance"] == ["FulfillmentLedger"])
        try Self.expectNoFileOf("LedgerStoreConformance", toImport: ["Testing", "XCTest"])
    }

    @Test func theArchitectureDiagramHasOneArrowPerDependency() throws {
        let manifest = try Self.manifest()
        var dependencies: [String] = []
        for (target, targets) in manifest.dependencies where !manifest.testTargets.contains(target) {
            dependencies += targets.map { "\(target) --> \($0)" }
        }
        let architecture = try String(
            contentsOf: Self.root.appendingPathComponent("Docs").appendingPathComponent("Architecture.md"), encoding: .utf8)
        let arrows = architecture.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.contains(" --> ") }
        #expect(arrows.sorted() == dependencies.sorted())
        #expect(manifest.testTargets.contains("PackageLayoutTests"))
    }

    /// The checks above see what they must: every form of import, and dependencies through other targets.
    @Test func theScannersFindWhatTheyLookFor() {
        let source = """
            import Foundation
            @testable import FulfillmentLedgerTesting
              @_spi(Testing) import SQLiteFaultVFS
            import struct AppStoreSimulator.AppStoreSimulator
            // import LedgerSimulation
            let text = "import PlayStoreSimulator"
            """
        #expect(
            ImportScanner.modules(in: source)
                == ["Foundation", "FulfillmentLedgerTesting", "SQLiteFaultVFS", "AppStoreSimulator"])
        let manifest = PackageManifest(
            """
            .library(name: "A", targets: ["A"]),
            .target(name: "A", dependencies: ["B"]), // .target(name: "Z", dependencies: ["Q"]),
            .target(
                name: "B",
                dependencies: [
                    "C",
                ]),
            .target(name: "C"),
            """)
        #expect(manifest.closure(of: "A") == ["B", "C"])
        #expect(manifest.dependencies["Z"] == nil)
        #expect(manifest.libraries == ["A": ["A"]])
    }
}
