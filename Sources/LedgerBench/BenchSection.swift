/// One optional part of the bench report: its figures, or why it has none. Encodes as the
/// figures' object, or as the reason string (`"python": "not installed"`).
enum BenchSection<Figures: Encodable>: Encodable {
    /// It ran.
    case measured(Figures)
    /// It did not run, and why.
    case absent(String)

    /// The figures, if it ran.
    var figures: Figures? {
        if case .measured(let figures) = self { return figures }
        return nil
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .measured(let figures): try container.encode(figures)
        case .absent(let reason): try container.encode(reason)
        }
    }
}
