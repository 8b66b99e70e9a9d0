import Foundation
import Testing

/// Issue 37, rough edge 6: help examples are read at 80 columns, where ArgumentParser wraps a
/// discussion and starts the rest of a line at the margin (`--token-stdin` alone on a line read
/// as an option of the help); and the shell hook is one line everywhere.
@Suite struct HelpExampleTests {
    private let timeline = TimelineProcess(databasePath: "/nonexistent/timeline.sqlite", extra: ["COLUMNS": "80"])

    /// Every command of the tree with its discussion, from ArgumentParser's own dump of the help.
    private func discussions() throws -> [(command: String, discussion: String)] {
        let dump = try timeline.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.errors)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
        var found: [(String, String)] = []
        func walk(_ command: [String: Any], _ path: String) {
            found.append((path, command["discussion"] as? String ?? ""))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path + " " + (sub["commandName"] as? String ?? "?"))
            }
        }
        walk(try #require(root["command"] as? [String: Any]), "timeline")
        return found
    }

    @Test func everyExampleOfEveryHelpFitsEightyColumnsOrBreaksBetweenWordsWithABackslash() throws {
        let all = try discussions()
        #expect(all.count > 30)
        for (command, discussion) in all {
            let indent = { (text: Substring) in text.prefix { $0 == " " }.count }
            var brokenExampleIndent: Int?
            for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
                if let first = brokenExampleIndent {
                    #expect(indent(line) > first, "\(command): the rest of a broken example is indented under it: \(line)")
                }
                guard line.hasPrefix("  ") else { continue }
                #expect(line.count <= 79, "\(command): \(line.count) columns, which ArgumentParser wraps at the margin: \(line)")
                if line.hasSuffix(" \\") {
                    if brokenExampleIndent == nil { brokenExampleIndent = indent(line) }
                } else {
                    brokenExampleIndent = nil
                }
            }
        }
        // And as printed: no line of an example left at the margin.
        let login = try timeline.run(["login", "--help"]).output.split(separator: "\n").map(String.init)
        let piped = login.indices.filter { login[$0].hasPrefix("  pass show ") }
        #expect(piped.count == 2, "\(login)")
        for index in piped where index + 1 < login.count {
            // The rest of the example, under it, not an option's name at the margin.
            #expect(login[index].hasSuffix(" \\") && login[index + 1].hasPrefix("      --"), "\(login[index])\n\(login[index + 1])")
        }
    }

    @Test func theInitHelpsLineJoinedAgainIsTheREADMEsLineAndTheRootHelpPointsToIt() throws {
        let help = try timeline.run(["init", "--help"]).output
        let lines = help.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.contains("bash (~/.bashrc):") })
        var joined = ""
        for line in lines[(start + 1)...] {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasSuffix("\\") {
                joined += String(text.dropLast())
            } else {
                joined += text
                break
            }
        }
        let readme = try String(contentsOfFile: Scenario.repositoryPath("README.md"), encoding: .utf8)
        #expect(readme.contains("echo '\(joined)' >> ~/.bashrc"), "\(joined)")
        let root = try timeline.run(["--help"]).output
        #expect(!root.contains("eval \"$(timeline init bash)\"' >>"), "the root help gives another line: \(root)")
        #expect(root.contains("timeline init --help"))
    }
}
