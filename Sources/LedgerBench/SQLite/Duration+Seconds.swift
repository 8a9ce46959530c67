extension Duration {
    /// The duration in seconds, never zero, so a rate computed from it stays finite.
    var secondsNeverZero: Double {
        let parts = components
        return max(Double(parts.seconds) + Double(parts.attoseconds) / 1e18, 1e-9)
    }
}
