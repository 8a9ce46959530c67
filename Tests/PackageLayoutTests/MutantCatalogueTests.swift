import Foundation
import Testing

/// Scripts/mutants.json names each mutant by a search text in a source file; a refactor that
/// moves that text leaves the mutant unable to apply, which the mutation run refuses only in CI.
/// This checks it in every test run.
@Suite("mutant catalogue")
struct MutantCatalogueTests {
    struct Catalogue: Decodable {
        struct Mutant: Decodable {
            var id: String
            var file: String
            var search: String
        }

        var mutants: [Mutant]
    }

    @Test("every mutant's search text occurs exactly once in its file")
    func everySearchTextOccursOnce() throws {
        let data = try Data(contentsOf: PackageLayoutTests.root.appendingPathComponent("Scripts/mutants.json"))
        let catalogue = try JSONDecoder().decode(Catalogue.self, from: data)
        #expect(!catalogue.mutants.isEmpty)
        for mutant in catalogue.mutants {
            let source = try? String(contentsOf: PackageLayoutTests.root.appendingPathComponent(mutant.file), encoding: .utf8)
            let count = source.map { $0.components(separatedBy: mutant.search).count - 1 } ?? 0
            #expect(count == 1, "mutant \(mutant.id): its search text occurs \(count) times in \(mutant.file)")
        }
    }
}
