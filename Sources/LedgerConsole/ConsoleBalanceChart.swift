import Foundation
import FulfillmentLedger

/// A player's balances over time (`Ledger.balanceHistory`) as inline SVG: one stepped line per
/// currency, a dashed line at zero when a balance went below it (debt), and each change a dot
/// whose tooltip says what it was. Drawn on the server, so the page needs no charting script.
enum ConsoleBalanceChart {
    /// Most currencies drawn; the rest are listed as left out.
    static let currencyCountMax = 6
    /// The drawing's size, in SVG units.
    static let width = 640.0
    static let height = 220.0
    static let margin = (left: 56.0, right: 16.0, top: 16.0, bottom: 40.0)
    /// One colour per drawn currency, distinguishable in print and for common colour blindness.
    static let colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]

    /// The chart's HTML: a figure holding the SVG and a caption, or a line saying there is
    /// nothing to draw.
    static func html(_ history: BalanceHistory) -> String {
        let drawn = history.currencies.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        guard !drawn.isEmpty else {
            return "<div id=\"balance-chart\"><p>No currency balance has changed.</p></div>"
        }
        let series = Array(drawn.prefix(currencyCountMax))
        let points = series.flatMap(\.value)
        let times = points.map { $0.at.timeIntervalSince1970 }
        let (firstTime, lastTime) = (times.min() ?? 0, times.max() ?? 0)
        let balances = points.map(\.balance)
        let low = min(0, balances.min() ?? 0)
        let high = max(balances.max() ?? 1, low + 1)
        let plotWidth = width - margin.left - margin.right
        let plotHeight = height - margin.top - margin.bottom
        func x(_ date: Date) -> Double {
            lastTime > firstTime ? margin.left + (date.timeIntervalSince1970 - firstTime) / (lastTime - firstTime) * plotWidth : margin.left + plotWidth
        }
        func y(_ balance: Int64) -> Double {
            margin.top + (1 - Double(balance - low) / Double(high - low)) * plotHeight
        }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="balance-chart-title">\
            <title id="balance-chart-title">Balances over time</title>\
            <line class="axis" x1="\(margin.left)" y1="\(margin.top)" x2="\(margin.left)" y2="\(height - margin.bottom)"/>\
            <line class="axis" x1="\(margin.left)" y1="\(height - margin.bottom)" x2="\(width - margin.right)" y2="\(height - margin.bottom)"/>\
            <text x="\(margin.left - 6)" y="\(y(high) + 4)" text-anchor="end">\(high)</text>\
            <text x="\(margin.left - 6)" y="\(y(low) + 4)" text-anchor="end">\(low)</text>
            """
        if low < 0 {
            svg += "<line class=\"zero\" x1=\"\(margin.left)\" y1=\"\(y(0))\" x2=\"\(width - margin.right)\" y2=\"\(y(0))\"/>"
            svg += "<text x=\"\(margin.left - 6)\" y=\"\(y(0) + 4)\" text-anchor=\"end\">0</text>"
        }
        svg += "<text x=\"\(margin.left)\" y=\"\(height - 8)\">\(ConsoleHTML.escape(Date(timeIntervalSince1970: firstTime).formatted(.iso8601)))</text>"
        svg += "<text x=\"\(width - margin.right)\" y=\"\(height - 8)\" text-anchor=\"end\">\(ConsoleHTML.escape(Date(timeIntervalSince1970: lastTime).formatted(.iso8601)))</text>"
        for (index, (currency, line)) in series.enumerated() {
            let colour = colours[index % colours.count]
            var path = ""
            for (position, point) in line.enumerated() {
                let (px, py) = (x(point.at), y(point.balance))
                path += position == 0 ? "M\(px) \(py)" : " H\(px) V\(py)"
            }
            svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" data-currency=\"\(ConsoleHTML.escape(currency))\"/>"
            for point in line {
                let tip = "\(currency) \(point.balance) after \(point.cause), \(point.at.formatted(.iso8601))"
                svg += "<circle cx=\"\(x(point.at))\" cy=\"\(y(point.balance))\" r=\"3\" fill=\"\(colour)\"><title>\(ConsoleHTML.escape(tip))</title></circle>"
            }
            svg += "<text x=\"\(margin.left + 8 + Double(index) * 100)\" y=\"\(margin.top + 10)\" fill=\"\(colour)\">\(ConsoleHTML.escape(String(currency.prefix(16))))</text>"
        }
        svg += "</svg>"
        var caption = "Balances after each purchase, refund, reversal, spend, grant and reset, from the ledger's records; the last point is the balance now."
        if !history.isComplete { caption += " Older changes are not drawn (a reset, or more changes than the chart reads)." }
        if drawn.count > series.count {
            caption += " Not drawn: " + drawn.dropFirst(currencyCountMax).map(\.key).joined(separator: ", ") + "."
        }
        return "<figure id=\"balance-chart\">\(svg)<figcaption>\(ConsoleHTML.escape(caption))</figcaption></figure>"
    }
}
