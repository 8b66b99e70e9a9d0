// Where the Swift standard library finds the command line (`CommandLine.arguments`), for the
// static Linux build of `timeline`.
//
// Why: in a static executable, the Swift runtime's own definition of these two functions
// (libswiftCore.a, CommandLine.cpp) comes with a global constructor that, before `main`, opens
// and reads /proc/self/maps and scans it with `sscanf` to find the stack and, on it, argv: some
// C libraries do not hand argv to constructors. glibc does (its static start calls each
// `.init_array` entry with argc, argv and envp, as its dynamic loader does), so on glibc the
// arguments are kept here instead. Defined in an object file of the executable, these symbols
// keep the linker from taking CommandLine.cpp's member out of libswiftCore.a at all, and with it
// its constructor: measured 2026-11-29, 51 k instructions and five system calls (the kernel
// writing the map) of every `show`, about 3% of its first paint (issue 38).
//
// The signatures are the runtime's (swift/shims/RuntimeStubs.h). Every test of the command line
// runs the binary with arguments, so a runtime that changed them would fail them all. Elsewhere
// (macOS, or another C library) nothing is defined and the runtime's own code is used.
#if defined(__linux__)
#include <features.h>  // defines __GLIBC__ on glibc
#endif
#if defined(__linux__) && defined(__GLIBC__)

static int savedArgumentCount;
static char **savedArguments;
static char *noArguments[] = { 0 };

__attribute__((constructor))
static void timelineKeepArguments(int argc, char **argv, char **envp) {
    (void)envp;
    savedArgumentCount = argc;
    savedArguments = argv;
}

__attribute__((visibility("default")))
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (savedArguments == 0) {
        *outArgLen = 0;
        return noArguments;
    }
    *outArgLen = savedArgumentCount;
    return savedArguments;
}

__attribute__((visibility("default")))
void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    savedArguments = argv;
    savedArgumentCount = argc;
}

#endif
