/// How much of a Checkout Session a charge's cumulative refund takes back, in whole units.
///
/// Stripe refunds an amount, not items, and an event names no line item. The ledger takes back
/// whole units, line by line in the session's order, as many of each as the refunded amount
/// pays for at the line's own unit price (its `amount_total` over its quantity, so discounts
/// and taxes count): the full amount takes back everything, and a remainder smaller than the
/// next unit takes back nothing more (an operator may revoke it by hand). Because the amount is
/// cumulative, applying the same state twice takes nothing more.
public enum StripeRefundMapping {
    /// Units of one line item refunded in all.
    public struct LineUnits: Hashable, Sendable {
        /// The line item.
        public var lineItemID: String
        /// Units refunded in all, 0 to the line's quantity.
        public var units: Int
        /// The line's quantity.
        public var quantity: Int
    }

    /// The units each line of `lines` has refunded in all when `amountRefunded` (cumulative,
    /// smallest currency unit) of the session's charge is refunded. A line without an amount
    /// or quantity counts one unit at its whole amount (or nothing when it has none).
    public static func units(amountRefunded: Int64, of lines: [StripeLineItem]) -> [LineUnits] {
        var remaining = max(0, amountRefunded)
        var result: [LineUnits] = []
        for line in lines {
            let quantity = max(1, line.quantity ?? 1)
            let total = max(0, line.amountTotal ?? 0)
            guard total > 0 else {
                // A free line (a 100 % discount) is taken back only with a full refund of the rest.
                result.append(LineUnits(lineItemID: line.id, units: 0, quantity: quantity))
                continue
            }
            // The unit price rounded up, so a unit is taken back only once it is paid back in full.
            let unitPrice = (total + Int64(quantity) - 1) / Int64(quantity)
            let units = remaining >= total ? quantity : Int(min(Int64(quantity), remaining / unitPrice))
            remaining -= units == quantity ? total : Int64(units) * unitPrice
            result.append(LineUnits(lineItemID: line.id, units: units, quantity: quantity))
        }
        // Everything refunded: free lines go too.
        if amountRefunded > 0, result.allSatisfy({ $0.units == $0.quantity || lineTotal(lines, $0.lineItemID) == 0 }) {
            result = result.map { LineUnits(lineItemID: $0.lineItemID, units: $0.quantity, quantity: $0.quantity) }
        }
        return result
    }

    private static func lineTotal(_ lines: [StripeLineItem], _ id: String) -> Int64 {
        max(0, lines.first { $0.id == id }?.amountTotal ?? 0)
    }
}
