#define _GNU_SOURCE
#include "CBenchSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

long long bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int decode_status(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return -WTERMSIG(status);
    return -999;
}

static void drain(int fd, int capture_fd, long long *bytes, int nonblocking) {
    char buffer[65536];
    for (;;) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n > 0) {
            *bytes += n;
            if (capture_fd >= 0) {
                ssize_t off = 0;
                while (off < n) {
                    ssize_t w = write(capture_fd, buffer + off, (size_t)(n - off));
                    if (w < 0 && errno == EINTR) continue;
                    if (w <= 0) break;
                    off += w;
                }
            }
            if (!nonblocking) return;  // one read per poll wake-up
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        return;  // EAGAIN (drained), EIO (no slave left) or EOF
    }
}

/// Spawns with the three standard descriptors on `fd`, waits for the exit while draining `drain_fd`
/// (when >= 0), and fills `result`.
static int spawn_and_wait(char *const argv[], char *const envp[], int fd, int drain_fd, int capture_fd,
                          bench_run_result *result) {
    memset(result, 0, sizeof *result);
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fd, 0);
    posix_spawn_file_actions_adddup2(&actions, fd, 1);
    posix_spawn_file_actions_adddup2(&actions, fd, 2);
    posix_spawnattr_init(&attr);
    // A new session, as a terminal emulator gives its shell; default signal mask and dispositions.
    sigset_t empty;
    sigemptyset(&empty);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);

    pid_t pid;
    long long start = bench_now_ns();
    int rc = posix_spawn(&pid, argv[0], &actions, &attr, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        result->status = -1000 - rc;
        errno = rc;
        return -1;
    }
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    if (pidfd < 0) {
        // No pidfd: fall back to a blocking wait (only correct when the output fits the buffer).
        wait4(pid, &status, 0, &usage);
        result->wall_ns = bench_now_ns() - start;
    } else {
        for (;;) {
            struct pollfd fds[2] = {{pidfd, POLLIN, 0}, {drain_fd, POLLIN, 0}};
            int count = drain_fd >= 0 ? 2 : 1;
            int n = poll(fds, (nfds_t)count, -1);
            if (n < 0) {
                if (errno == EINTR) continue;
                break;
            }
            if (fds[0].revents) {
                result->wall_ns = bench_now_ns() - start;
                break;
            }
            if (count == 2 && fds[1].revents) drain(drain_fd, capture_fd, &result->bytes, 0);
        }
        while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {}
        close(pidfd);
    }
    if (drain_fd >= 0) {
        int flags = fcntl(drain_fd, F_GETFL);
        fcntl(drain_fd, F_SETFL, flags | O_NONBLOCK);
        drain(drain_fd, capture_fd, &result->bytes, 1);
    }
    result->maxrss_kib = usage.ru_maxrss;
    result->status = decode_status(status);
    return 0;
}

int bench_pty_run(char *const argv[], char *const envp[], int cols, int rows, int capture_fd,
                  bench_run_result *result) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0) {
        close(master);
        return -1;
    }
    char name[128];
    if (ptsname_r(master, name, sizeof name) != 0) {
        close(master);
        return -1;
    }
    int slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) {
        close(master);
        return -1;
    }
    struct winsize size = {(unsigned short)rows, (unsigned short)cols, 0, 0};
    ioctl(master, TIOCSWINSZ, &size);
    // The parent keeps `slave` open until the child's exit is seen, so nothing the child wrote is
    // lost, and drains the rest after.
    int rc = spawn_and_wait(argv, envp, slave, master, capture_fd, result);
    int saved = errno;
    close(slave);
    close(master);
    errno = saved;
    return rc;
}

int bench_plain_run(char *const argv[], char *const envp[], bench_run_result *result) {
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0) return -1;
    int rc = spawn_and_wait(argv, envp, null, -1, -1, result);
    int saved = errno;
    close(null);
    errno = saved;
    return rc;
}

int bench_evict(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? 1 : -1;
    // Dirty pages cannot be dropped: write them first.
    fdatasync(fd);
    int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return 0;
}

double bench_resident_fraction(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return -1;
    }
    if (st.st_size == 0) {
        close(fd);
        return 1;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return -1;
    long page = sysconf(_SC_PAGESIZE);
    size_t pages = ((size_t)st.st_size + (size_t)page - 1) / (size_t)page;
    unsigned char *vec = malloc(pages);
    double fraction = -1;
    if (vec && mincore(map, (size_t)st.st_size, vec) == 0) {
        size_t resident = 0;
        for (size_t i = 0; i < pages; i++) resident += vec[i] & 1;
        fraction = (double)resident / (double)pages;
    }
    free(vec);
    munmap(map, (size_t)st.st_size);
    return fraction;
}

int bench_pty_until(char *const argv[], char *const envp[], int cols, int rows,
                    const char *marker, size_t marker_length, const char *quit, size_t quit_length,
                    bench_run_result *result) {
    memset(result, 0, sizeof *result);
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    char name[128];
    if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, sizeof name) != 0) {
        close(master);
        return -1;
    }
    // Kept open by the parent so that the terminal outlives the child's last write.
    int slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) {
        close(master);
        return -1;
    }
    struct winsize size = {(unsigned short)rows, (unsigned short)cols, 0, 0};
    ioctl(master, TIOCSWINSZ, &size);

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    // glibc runs setsid before the file actions: opening the terminal without O_NOCTTY in the new
    // session makes it the controlling terminal, its process group the foreground one.
    posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0);
    posix_spawn_file_actions_adddup2(&actions, 0, 1);
    posix_spawn_file_actions_adddup2(&actions, 0, 2);
    posix_spawnattr_init(&attr);
    sigset_t empty;
    sigemptyset(&empty);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    long long start = bench_now_ns();
    int rc = posix_spawn(&pid, argv[0], &actions, &attr, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        close(slave);
        close(master);
        result->status = -1000 - rc;
        errno = rc;
        return -1;
    }
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    // The last marker_length - 1 bytes seen, then what was read: a marker split across reads is found.
    char window[65536 + 256];
    size_t kept = 0;
    int seen = 0, exited = 0, status = 0;
    long long deadline = start + 10000000000LL;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (!exited) {
        long long now = bench_now_ns();
        if (now >= deadline) {
            kill(pid, SIGKILL);
            break;
        }
        struct pollfd fds[2] = {{master, POLLIN, 0}, {pidfd, POLLIN, 0}};
        int n = poll(fds, pidfd >= 0 ? 2 : 1, (int)((deadline - now) / 1000000) + 1);
        if (n < 0 && errno != EINTR) break;
        if (n <= 0) continue;
        if (fds[0].revents & POLLIN) {
            ssize_t count = read(master, window + kept, 65536);
            if (count > 0) {
                if (!seen) result->bytes += count;
                size_t total = kept + (size_t)count;
                if (!seen && marker_length > 0 && memmem(window, total, marker, marker_length) != NULL) {
                    result->wall_ns = bench_now_ns() - start;
                    seen = 1;
                    if (quit_length > 0) {
                        ssize_t written = write(master, quit, quit_length);
                        (void)written;
                    }
                }
                kept = marker_length > 1 && total >= marker_length - 1 ? marker_length - 1 : 0;
                if (kept > 0) memmove(window, window + total - kept, kept);
            }
        }
        if (pidfd >= 0 && (fds[1].revents & POLLIN)) exited = 1;
    }
    if (exited && !seen) {
        // The child ended with its paint still in the terminal's buffer: the paint was there by
        // the exit, which is when it is counted.
        long long at = bench_now_ns() - start;
        fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
        ssize_t count;
        while (!seen && (count = read(master, window + kept, 65536)) > 0) {
            result->bytes += count;
            size_t total = kept + (size_t)count;
            if (memmem(window, total, marker, marker_length) != NULL) {
                result->wall_ns = at;
                seen = 1;
            }
            kept = marker_length > 1 && total >= marker_length - 1 ? marker_length - 1 : 0;
            if (kept > 0) memmove(window, window + total - kept, kept);
        }
    }
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {}
    if (pidfd >= 0) close(pidfd);
    close(slave);
    close(master);
    result->maxrss_kib = usage.ru_maxrss;
    result->status = seen ? decode_status(status) : -9;
    return 0;
}
