import ArgumentParser
import TimelineKit

/// `timeline vote REF CHOICE...`: a vote in a post's poll, at its server (issue 27). The
/// library reads the poll and refuses a vote the server would (``AccountSession/vote(in:choices:in:)``);
/// a network without polls says so (``SourceAction/vote``).
struct VoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vote",
        abstract: "Vote in a post's poll (Mastodon).",
        discussion: """
            `show` and `thread` list a poll's options under the post's text (`Poll, 12 votes, \
            open:` then one line per option); choices are their numbers counted from 1 in that \
            order. Several choices are for a poll that takes several. The poll is read from the \
            server first: a poll that has ended, that has your vote already (a vote cannot be \
            changed) or a choice it does not have is refused before anything is sent (exit 65). \
            The post is then stored again, so the next `show` paints the new counts (a poll \
            that hides its counts until it ends shows none).

            Mastodon: `POST /api/v1/polls/:id/votes`. Bluesky posts have no polls: refused with \
            a message saying so (exit 64).

            Offline: when the server cannot be reached, the vote is kept, the post painted as \
            pending (⋯ pending), and the next `timeline sync` sends it after reading the poll: a \
            vote already there (an earlier try's answer was lost) is done, not sent again; a poll \
            that ended meanwhile is refused, said, and nothing waits. The exit status is 0 \
            (--json: "pending": true, "reason").

            One line says what was done; --json prints {"action", "id", "account", "choices", \
            "options"} with each option's title and votes (null while hidden).

            Examples:
              timeline vote bkd 2
              timeline vote bkd 1 3 --json
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "The post with the poll: its short reference (as `show` paints it), stored ID, the server's own ID or its web address.")
    var reference: String

    @Argument(help: ArgumentHelp("The options chosen, by their number in the poll (1 is the first).", valueName: "choice"))
    var choices: [Int] = []

    @Option(name: .long, help: ArgumentHelp("The account to vote as (its name in `timeline accounts`).", valueName: "name"))
    var account: String?

    @Flag(name: .long, help: "Print one JSON object: {\"action\", \"id\", \"account\", \"choices\", \"options\"}.")
    var json = false

    func validate() throws {
        if choices.isEmpty { throw ValidationError("Give the number of at least one option (1 is the first, as `show` lists them).") }
        if let wrong = choices.first(where: { $0 < 1 }) { throw ValidationError("Choices are counted from 1: \(wrong) is not one.") }
        if Set(choices).count != choices.count { throw ValidationError("Each choice once: \(choices.map(String.init).joined(separator: " ")) repeats one.") }
    }

    func run() throws {
        // A hashtag's or a list's post (`rust:bkd`) is found in the database it is kept in.
        let (store, id) = try location.storesHolding([reference], verb: "vote in")[0]
        let session = try MessageSessions.open(account: account, verb: "vote in", policy: OutboxRequest.policy).session(for: id, named: reference)
        if let refusal = session.refusal(of: .vote) { throw fail(refusal) }
        let chosen = choices.map { $0 - 1 }
        // Through the outbox (issue 27): a vote whose server cannot be reached is kept, its post
        // painted as pending, and sent by the next sync, which reads the poll first (a vote the
        // lost answer hid is there: done; a poll that ended meanwhile: refused, said).
        let request = OutboxRequest(session: session, store: store, what: "the vote in \(MessageSessions.name(of: id, in: store))")
        let vote: PollVote
        do {
            let outcome = try request.perform(.vote(messageID: id, choices: chosen))
            switch outcome.delivery {
            case let .done(.voted(answer)):
                vote = answer
            case let .waiting(reason):
                request.waiting(reason, json: json) { object in
                    object.add("action", "vote")
                    object.add("id", id)
                    object.add("choices", choices)
                }
                return
            case .done:
                return
            }
        } catch let exit as ExitCode {
            throw exit
        } catch let refusal as PostChangeRefusal {
            Terminal.emitError("timeline: \(QuotedValue.quoted(reference)): \(refusal)\n")
            throw ExitCode(ExitStatus.dataError)
        } catch {
            Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): could not vote in \(QuotedValue.quoted(reference)): \(error) Nothing was changed here.\n")
            throw ExitCode(exitStatus(for: error))
        }
        if json {
            var object = JSONObjectWriter()
            object.add("action", "vote")
            object.add("id", vote.messageID)
            object.add("account", session.account.name)
            object.add("choices", vote.choices.map { $0 + 1 })
            object.add("options", objects: vote.options.map { option in
                var entry = JSONObjectWriter()
                entry.add("title", option.title)
                entry.add("votes", option.votes)
                return entry
            })
            Terminal.emit(object.finish() + "\n")
            return
        }
        let titles = vote.choices.map { choice in
            "\(choice + 1) (\(TerminalText.line(vote.options.indices.contains(choice) ? vote.options[choice].title : "?")))"
        }
        Terminal.emit("Voted \(titles.joined(separator: ", ")) in \(MessageSessions.name(of: vote.messageID, in: store)) as \(TerminalText.line(session.account.name)).\n")
    }
}
