// rss-probe OUT-FILE PROGRAM [ARG…]: runs PROGRAM (fork + exec, same standard descriptors), waits
// for it, writes its peak RSS in KiB (wait4's ru_maxrss), its minor page faults (ru_minflt) and
// its user and system CPU time in microseconds (ru_utime, ru_stime) to OUT-FILE, and exits with
// its status.
//
// Why: the bench spawns children with posix_spawn, which uses clone(CLONE_VM | CLONE_VFORK), and
// Linux credits the parent's memory (the bench's tens of MiB) to the child's ru_maxrss at exec.
// This probe is tiny, and its forked child starts with a fresh maxrss and the probe's small memory.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: rss-probe OUT-FILE PROGRAM [ARG...]\n");
        return 64;
    }
    pid_t pid = fork();
    if (pid < 0) return 71;
    if (pid == 0) {
        execv(argv[2], argv + 2);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) return 71;
    FILE *out = fopen(argv[1], "w");
    if (out) {
        fprintf(out, "%ld %ld %lld %lld\n", usage.ru_maxrss, usage.ru_minflt,
                (long long)usage.ru_utime.tv_sec * 1000000 + usage.ru_utime.tv_usec,
                (long long)usage.ru_stime.tv_sec * 1000000 + usage.ru_stime.tv_usec);
        fclose(out);
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
