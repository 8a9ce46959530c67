import Foundation
import FulfillmentLedger

/// Where a command's catalog comes from: the file `--catalog` names, or, when it names none, a
/// default that works from any folder.
package enum CatalogChoice: Equatable {
    /// A catalog file.
    case file(String)
    /// The sample catalog built into the tool (`SampleCatalog`).
    case builtInSample

    /// `--catalog FILE`, else the built-in sample: for the demo and the simulation, which
    /// narrate the sample game whatever folder they run in.
    package static func sampleByDefault(_ arguments: Arguments) -> CatalogChoice {
        arguments.value(CommonOptions.catalog).map(CatalogChoice.file) ?? .builtInSample
    }

    /// `--catalog FILE`, else `ProductCatalog.json` in the current folder when there is one, else
    /// the built-in sample, said on stderr so nobody mistakes it for their own catalog.
    static func currentFolderOrSample(_ arguments: Arguments, io: CommandIO, command: String) -> CatalogChoice {
        if let path = arguments.value(CommonOptions.catalog) { return .file(path) }
        if FileManager.default.fileExists(atPath: SampleCatalog.fileName) { return .file(SampleCatalog.fileName) }
        io.printError(
            "ledger \(command): no \(SampleCatalog.fileName) in this folder; using the built-in sample catalog (pass --catalog FILE for yours)")
        return .builtInSample
    }

    /// Loads and validates the catalog.
    package func load() throws(LedgerError) -> ProductCatalog {
        switch self {
        case .file(let path): try CatalogLoader.load(path: path)
        case .builtInSample: try SampleCatalog.load()
        }
    }

    /// The file's path, nil for the built-in sample.
    package var path: String? {
        if case .file(let path) = self { return path }
        return nil
    }

    /// How messages name it.
    package var name: String { path ?? "the built-in sample \(SampleCatalog.fileName)" }
}
