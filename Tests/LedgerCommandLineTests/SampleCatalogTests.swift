import Foundation
import FulfillmentLedger
import LedgerCommandLine
import Testing

/// The catalog built into the tool is the package's `ProductCatalog.json`, byte for byte.
@Suite struct SampleCatalogTests {
    @Test("SampleCatalog.json is byte-identical to ProductCatalog.json at the package root")
    func builtInSampleMatchesTheFile() throws {
        let file = try Data(contentsOf: URL(fileURLWithPath: repoCatalogPath))
        let builtIn = Data(SampleCatalog.json.utf8)
        let firstDifference = zip(file, builtIn).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(
            builtIn == file,
            "Sources/LedgerCommandLine/SampleCatalog.swift differs from ProductCatalog.json (\(builtIn.count) vs \(file.count) bytes, first difference at byte \(firstDifference.map(String.init) ?? "the end")): paste the file's text into it again")
    }

    @Test("the built-in sample loads with the file's version hash")
    func builtInSampleLoadsAsTheFile() throws {
        let loaded = try SampleCatalog.load()
        #expect(loaded == (try CatalogLoader.load(path: repoCatalogPath)))
        #expect(loaded.versionHash == (try CatalogLoader.load(path: repoCatalogPath)).versionHash)
    }
}
