import ArgumentParser
import TimelineKit

extension MessageTemplate {
    /// `--format`'s check for every command that takes it: a template that parses, and not
    /// together with `--json` (each says how to print).
    static func validate(_ format: String?, json: Bool) throws(ValidationError) {
        guard let format else { return }
        do throws(MessageTemplate.ParseError) {
            _ = try MessageTemplate(format)
        } catch {
            throw ValidationError("--format: \(error)")
        }
        if json { throw ValidationError("--format and --json each say how to print; give one.") }
    }
}
