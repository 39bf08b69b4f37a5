import GestureFormat
import GestureKit
import GestureReplay
import GestureLayout

/// Draws a scene's flow layout as it stands at the end of a replay: what the first root view
/// shows (its bounds, scrolled to where a scrolling layout came to rest), with every cell
/// labelled by its item id and index path, header and footer bars with their titles, the
/// selected items filled and the last moved item outlined.
public enum LayoutPicture {
    /// Pixels per point are chosen so the picture is this wide.
    public static let widthPixels = 800.0

    public static func svg(_ live: LiveScene, title: String) -> String? {
        guard let layout = live.layout else { return nil }
        let offset = live.scrollView?.contentOffset ?? .zero
        let bounds = Rect(origin: offset, size: layout.boundsSize)
        let k = widthPixels / max(bounds.width, 1)
        let top = 40.0
        let height = top + bounds.height * k + 30
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(n(widthPixels + 20))" height="\(n(height))" font-family="DejaVu Sans, sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="white"/>
        <text x="10" y="24" font-size="15" font-weight="bold">\(xmlText(title))</text>
        <g transform="translate(10 \(n(top)))">
        <rect x="0" y="0" width="\(n(bounds.width * k))" height="\(n(bounds.height * k))" fill="#fafafa" stroke="#333"/>

        """
        if offset != .zero {
            // Elements cut by the view's edges are clipped to it.
            svg += "<clipPath id=\"bounds\"><rect x=\"0\" y=\"0\" width=\"\(n(bounds.width * k))\" height=\"\(n(bounds.height * k))\"/></clipPath>\n<g clip-path=\"url(#bounds)\">\n"
        }
        for a in layout.layoutAttributesForElements(in: bounds) {
            let f = a.frame
            let x = (f.minX - offset.x) * k, y = (f.minY - offset.y) * k, w = f.width * k, h = f.height * k
            switch a.category {
            case .header, .footer:
                let label = "Section \(a.indexPath.section) \(a.category == .header ? "header" : "footer")"
                svg += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"\(a.category == .header ? "#34495e" : "#95a5a6")\"/>\n"
                svg += "<text x=\"\(n(x + 8))\" y=\"\(n(y + h / 2 + 4))\" fill=\"white\" font-size=\"13\">\(label)</text>\n"
            case .cell:
                let s = a.indexPath.section, i = a.indexPath.item
                guard s < live.items.count, i < live.items[s].count else { continue }
                let id = live.items[s][i]
                let selected = live.selectedItems.contains(id)
                let moved = live.movedItem == id
                let hue = (id * 47) % 360
                svg += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"hsl(\(hue),55%,\(selected ? 35 : 70)%)\" stroke=\"\(moved ? "#e67e22" : selected ? "#111" : "none")\" stroke-width=\"\(moved || selected ? 4 : 0)\"/>\n"
                svg += "<text x=\"\(n(x + 4))\" y=\"\(n(y + 14))\" fill=\"\(selected ? "white" : "#222")\">\(id)</text>\n"
                svg += "<text x=\"\(n(x + 4))\" y=\"\(n(y + h - 5))\" fill=\"\(selected ? "white" : "#555")\" font-size=\"9\">[\(s),\(i)]\(selected ? " selected" : "")\(moved ? " moved" : "")</text>\n"
            }
        }
        if offset != .zero { svg += "</g>\n" }
        let scrolled = offset != .zero ? ", contentOffset \(value(offset.x)), \(value(offset.y))" : ""
        svg += "</g>\n<text x=\"10\" y=\"\(n(height - 10))\" fill=\"#555\">itemSize \(value(layout.itemSize.width))×\(value(layout.itemSize.height)), contentSize \(value(layout.contentSize.width))×\(value(layout.contentSize.height))\(scrolled)</text>\n</svg>\n"
        return svg
    }

    private static func n(_ v: Double) -> String { value(v) }
}

/// `s` with the characters XML gives meaning to escaped.
func xmlText(_ s: String) -> String {
    var out = ""
    for c in s {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        default: out.append(c)
        }
    }
    return out
}

/// A number in a picture: at most two decimals.
func value(_ x: Double) -> String { DecimalText.trimmed(x, digits: 2) }
