#ifndef CBENCH_SUPPORT_H
#define CBENCH_SUPPORT_H

#include <stddef.h>

/// What one run of a child process cost.
typedef struct {
    /// Wall time from just before posix_spawn to the moment the child's exit is seen (pidfd), in ns.
    long long wall_ns;
    /// Peak resident set size of the child (wait4's ru_maxrss), in KiB.
    long maxrss_kib;
    /// Exit status (0...255), or -signal when a signal ended the child, or -1000 - errno when it could not start.
    int status;
    /// Bytes the child wrote to the terminal (after the terminal's output processing, e.g. \n -> \r\n).
    long long bytes;
} bench_run_result;

/// Runs `argv[0]` (a path) with `envp`, its standard input, output and error on a new pseudo-terminal
/// of `cols` x `rows`, draining everything it writes (copied to `capture_fd` when it is >= 0). No
/// sleeps and no polling timeouts: the parent blocks in poll(2) on the terminal and a pidfd.
/// Returns 0, or -1 with errno set when the terminal or the process could not be set up.
int bench_pty_run(char *const argv[], char *const envp[], int cols, int rows, int capture_fd,
                  bench_run_result *result);

/// Runs `argv[0]` on a new pseudo-terminal of `cols` x `rows` that is its controlling terminal (as
/// a terminal emulator starts a shell, so that a full-screen program may take it), and measures
/// the wall time from just before posix_spawn to the moment `marker` has arrived on the terminal
/// (`wall_ns`): a first paint, for programs that stay (`timeline browse`). Then writes `quit` to
/// the terminal, as a person's key, and waits for the exit; after 10 s without the marker or the
/// exit the child is killed (status -9). `bytes` counts what arrived before the marker.
int bench_pty_until(char *const argv[], char *const envp[], int cols, int rows,
                    const char *marker, size_t marker_length, const char *quit, size_t quit_length,
                    bench_run_result *result);

/// Runs `argv[0]` with its standard output and error on /dev/null (standard input too). Same result.
int bench_plain_run(char *const argv[], char *const envp[], bench_run_result *result);

/// Flushes `path` and drops its pages from the page cache (posix_fadvise POSIX_FADV_DONTNEED).
/// Returns 0, 1 when the file does not exist, or -1 with errno set.
int bench_evict(const char *path);

/// The fraction (0...1) of `path`'s pages in the page cache (mmap + mincore), or -1 on error;
/// 1 for an empty file.
double bench_resident_fraction(const char *path);

/// CLOCK_MONOTONIC in nanoseconds.
long long bench_now_ns(void);

#endif
