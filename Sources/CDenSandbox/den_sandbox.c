#define _GNU_SOURCE
#include "den_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

int den_sandbox_limit_memory(uint64_t bytes) {
    struct rlimit limit = {bytes, bytes};
    return setrlimit(RLIMIT_AS, &limit) == 0 ? 0 : -errno;
}

int den_sandbox_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

/* Denied calls fail with an errno instead of killing the worker: a module that tries the network
 * gets an error it can report, and the host hears of it through that module's own messages. */
static int apply_seccomp(char *problem, size_t size) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (filter == NULL) { snprintf(problem, size, "seccomp_init failed"); return -1; }
    int rc = 0;
    /* No network: socket() for anything but AF_UNIX (the host's socket is already open). */
    rc |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX));
    /* No new processes: fork is clone without CLONE_THREAD; clone3 answers ENOSYS so that
     * glibc's pthread_create falls back to clone, which the rule above lets through for threads. */
    rc |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    rc |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    rc |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fork), 0);
    rc |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(vfork), 0);
    rc |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(execve), 0);
    rc |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(execveat), 0);
    /* Nothing that reaches into other processes or the system. */
    const int denied[] = {SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev),
                          SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(pivot_root), SCMP_SYS(chroot),
                          SCMP_SYS(unshare), SCMP_SYS(setns), SCMP_SYS(kexec_load), SCMP_SYS(init_module),
                          SCMP_SYS(finit_module), SCMP_SYS(delete_module), SCMP_SYS(bpf), SCMP_SYS(perf_event_open),
                          SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key), SCMP_SYS(reboot),
                          SCMP_SYS(swapon), SCMP_SYS(swapoff), SCMP_SYS(setrlimit), SCMP_SYS(prlimit64)};
    for (size_t index = 0; index < sizeof denied / sizeof denied[0]; index++) {
        rc |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), denied[index], 0);
    }
    if (rc != 0) {
        snprintf(problem, size, "seccomp: a rule could not be added");
        seccomp_release(filter);
        return -1;
    }
    rc = seccomp_load(filter);
    seccomp_release(filter);
    if (rc != 0) { snprintf(problem, size, "seccomp_load failed: %s", strerror(-rc)); return -1; }
    return 0;
}

static int apply_landlock(int abi, const char *const *readable, size_t count, char *problem, size_t size) {
    uint64_t handled = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE
        | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE
        | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG
        | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK
        | LANDLOCK_ACCESS_FS_MAKE_SYM;
#ifdef LANDLOCK_ACCESS_FS_REFER
    if (abi >= 2) handled |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    if (abi >= 3) handled |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
    struct landlock_ruleset_attr attributes = {.handled_access_fs = handled};
    size_t attributes_size = sizeof attributes;
#ifdef LANDLOCK_ACCESS_NET_CONNECT_TCP
    /* ABI 4 also refuses TCP bind and connect: a second wall behind seccomp's socket rule. */
    if (abi >= 4) attributes.handled_access_net = LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP;
    else attributes_size = offsetof(struct landlock_ruleset_attr, handled_access_net);
#endif
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, attributes_size, 0);
    if (ruleset < 0) { snprintf(problem, size, "landlock_create_ruleset failed: %s", strerror(errno)); return -1; }
    for (size_t index = 0; index < count; index++) {
        int fd = open(readable[index], O_PATH | O_CLOEXEC);
        if (fd < 0) continue; /* a folder this machine does not have needs no rule */
        struct stat info;
        uint64_t allowed = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE;
        if (fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) allowed |= LANDLOCK_ACCESS_FS_READ_DIR;
        struct landlock_path_beneath_attr rule = {.allowed_access = allowed, .parent_fd = fd};
        long rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
        int saved = errno;
        close(fd);
        if (rc != 0) {
            snprintf(problem, size, "landlock_add_rule(%s) failed: %s", readable[index], strerror(saved));
            close(ruleset);
            return -1;
        }
    }
    long rc = syscall(SYS_landlock_restrict_self, ruleset, 0);
    int saved = errno;
    close(ruleset);
    if (rc != 0) { snprintf(problem, size, "landlock_restrict_self failed: %s", strerror(saved)); return -1; }
    return 0;
}

uint32_t den_sandbox_apply(const char *const *readable, size_t readable_count, char *problem, size_t problem_size) {
    uint32_t engaged = 0;
    if (problem_size > 0) problem[0] = 0;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        snprintf(problem, problem_size, "prctl(PR_SET_NO_NEW_PRIVS) failed: %s", strerror(errno));
        return engaged;
    }
    engaged |= DEN_SANDBOX_NO_NEW_PRIVS;
    /* Landlock first: once seccomp is loaded, its own system calls would still pass, but the
     * order keeps each layer's failure message about that layer alone. */
    int abi = den_sandbox_landlock_abi();
    if (abi > 0) {
        if (apply_landlock(abi, readable, readable_count, problem, problem_size) != 0) return engaged;
        engaged |= DEN_SANDBOX_LANDLOCK;
    }
    if (apply_seccomp(problem, problem_size) != 0) return engaged;
    engaged |= DEN_SANDBOX_SECCOMP;
    return engaged;
}
