/// Runs an account's `token_command` (`/bin/sh -c COMMAND`) and takes the first line it prints
/// as the access token, so the token can live in a password manager instead of the accounts
/// file.
///
/// The command's standard input and error are the caller's (a password manager may ask for a
/// passphrase there); its output is read through a pipe, at most 64 KiB, and never shown: an
/// error says that it failed and how, not what it printed.
enum TokenCommand {
    static func run(_ command: String, account: String, timeout: Duration = .seconds(120)) throws(AccountError) -> AccessToken {
        func failure(_ reason: String) -> AccountError {
            .tokenCommandFailed(account: account, command: command, reason: reason)
        }
        let child: ChildProcess
        do throws(ChildProcess.SpawnError) {
            child = try ChildProcess(executable: "/bin/sh", arguments: ["sh", "-c", command],
                                     descriptors: [0: .inherit, 1: .output, 2: .inherit])
        } catch {
            throw failure("could not be started (\(error.reason))")
        }
        var output: [UInt8] = []
        let limit = 64 << 10
        let end = child.pump(deadline: ContinuousClock.now + timeout) { _, bytes in
            output += bytes
            return output.count <= limit
        }
        if end != .finished { child.kill() }
        let termination = child.wait()
        switch (end, termination) {
        case (.timedOut, _):
            throw failure("did not finish within \(timeout)")
        case (.stopped, _):
            throw failure("printed more than \(limit) bytes")
        case (_, .signalled(let signal)):
            throw failure("was ended by signal \(signal)")
        case (_, .exited(let status)) where status != 0:
            throw failure("failed with exit status \(status)")
        default:
            break
        }
        guard let token = AccessToken(reading: String(decoding: output, as: UTF8.self)) else {
            throw failure("did not print a token (its first line is empty or holds spaces or control characters)")
        }
        return token
    }
}
