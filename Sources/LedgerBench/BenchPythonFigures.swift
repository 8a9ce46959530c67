/// R5 measured with Apple's App Store Server Library for Python on the same signed
/// transactions, and how the Swift verifier compares.
struct BenchPythonFigures: Codable {
    /// The PyPI package measured.
    var library: String
    /// Its installed version.
    var libraryVersion: String
    /// The Python interpreter's version.
    var pythonVersion: String
    /// Median verifications per second with a new `SignedDataVerifier` each.
    var coldPerSecond: Double
    /// Median verifications per second reusing one `SignedDataVerifier`.
    var warmPerSecond: Double
    /// Every repeat's cold rate.
    var coldSamples: [Double]
    /// Every repeat's warm rate.
    var warmSamples: [Double]
    /// Whether the Python verifier caches verified chains in this mode (it does not with
    /// online checks off).
    var warmCachesChain: Bool
    /// Swift R5 cold over Python cold.
    var swiftOverPythonCold: Double?
    /// Swift R5 warm over Python warm.
    var swiftOverPythonWarm: Double?

    /// Sets the Swift/Python ratios from the Swift medians.
    mutating func compare(swiftCold: Double, swiftWarm: Double) {
        swiftOverPythonCold = swiftCold / max(coldPerSecond, .leastNonzeroMagnitude)
        swiftOverPythonWarm = swiftWarm / max(warmPerSecond, .leastNonzeroMagnitude)
    }

    /// The text report's lines.
    var textLines: [String] {
        let ratio = { (value: Double?) in value.map { String(format: "%.2f", $0) } ?? "-" }
        return [
            "R5 in Python (\(library) \(libraryVersion), Python \(pythonVersion), online checks off):",
            String(format: "  cold %.1f/s, warm %.1f/s", coldPerSecond, warmPerSecond)
                + "   Swift/Python cold \(ratio(swiftOverPythonCold)), warm \(ratio(swiftOverPythonWarm))",
            "  (the Python library caches chains only with online checks on, so its warm run still verifies the chain;"
                + " the Swift warm run uses its chain cache)",
        ]
    }
}
