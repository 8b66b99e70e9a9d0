// What the C library declares outside the headers Swift's Glibc module imports: `statfs(2)`,
// which names a file's file system by type (`f_type`), in <sys/vfs.h>. Used only by
// TimelineKit's Files/FileSystem.swift (`FileSystem.keepsLocalFileTimes`). macOS declares it in
// <sys/mount.h>, which Darwin imports.
#if defined(__linux__)
#include <sys/vfs.h>
#endif
