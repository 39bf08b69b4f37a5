import ArgumentParser
import GesturePicture

#if canImport(Glibc)
import Glibc
#endif

/// `gesturekit diagrams`: the built-in recognizers' state machines, drawn by exploring them
/// (`StateMachineDiagram`), as DOT, and as SVG through Graphviz's `dot` when asked.
struct Diagrams: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw the built-in recognizers' state machines, explored from their code, as Graphviz DOT (and SVG).")

    @Option(help: "Where to write <recognizer>.dot.")
    var dot: String

    @Option(help: "Where to write <recognizer>.svg, rendered by Graphviz's dot (Debian's graphviz).")
    var svg: String?

    @Option(help: "How many inputs deep to explore.")
    var depth = 6

    func run() throws {
        for (file, diagram) in StateMachineDiagram.builtIn(depth: depth) {
            let dotPath = "\(dot)/\(file).dot"
            try writeFile(dotPath, diagram.dot)
            guard let svg else { continue }
            let svgPath = "\(svg)/state-machine-\(file).svg"
            let status = system("dot -Tsvg '\(dotPath)' -o '\(svgPath)'")
            if status != 0 {
                throw fail("\(svgPath): Graphviz's dot failed (exit \(status)); install it with: sudo apt-get install graphviz")
            }
        }
    }
}
