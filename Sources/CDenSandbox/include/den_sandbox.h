/*
 * den_sandbox.h — the isolated worker's sandbox (docs/ISOLATION.md, "Sandbox"): no_new_privs, a
 * seccomp filter (libseccomp) and, where the kernel has it, a landlock ruleset. Applied once, by
 * the worker, after the module and its libraries are loaded and before any of its code runs.
 */
#ifndef DEN_SANDBOX_H
#define DEN_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

/* The layers, as bits of den_sandbox_apply's result. */
enum {
    DEN_SANDBOX_NO_NEW_PRIVS = 1u << 0,
    DEN_SANDBOX_SECCOMP = 1u << 1,
    DEN_SANDBOX_LANDLOCK = 1u << 2,
};

/*
 * Applies every layer it can. `readable` lists `readable_count` paths (files or folders) the
 * worker may still read below; everything else on the file system is refused by landlock.
 * Returns the layers engaged; on a layer that failed to engage although the kernel offers it,
 * writes why into `problem` (NUL-terminated, at most `problem_size` bytes). A kernel without
 * landlock is not a problem: the bit is simply missing.
 */
uint32_t den_sandbox_apply(const char *const *readable, size_t readable_count, char *problem, size_t problem_size);

/* The landlock ABI version this kernel offers (0: none). */
int den_sandbox_landlock_abi(void);

/* setrlimit(RLIMIT_AS, bytes) for soft and hard limit; 0 or -errno. */
int den_sandbox_limit_memory(uint64_t bytes);

#endif
