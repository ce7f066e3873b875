#define _GNU_SOURCE
#include "den_process.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

int den_socket_pair(int fds[2]) {
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0 ? 0 : -errno;
}

pid_t den_spawn_worker(const char *path, char *const argv[], int child_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    sigset_t none, all;
    pid_t pid = -1;
    int result;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    /* dup2 onto 3 clears close-on-exec; when child_fd is 3 already, dup2 would keep the flag. */
    if (child_fd == 3) {
        posix_spawn_file_actions_adddup2(&actions, child_fd, 100);
        posix_spawn_file_actions_adddup2(&actions, 100, 3);
        posix_spawn_file_actions_addclose(&actions, 100);
    } else {
        posix_spawn_file_actions_adddup2(&actions, child_fd, 3);
    }
    /* Nothing else of den's crosses: not a client's socket, a database file or a pipe another
     * thread opened without close-on-exec. A sandbox cannot take back a descriptor a worker has. */
    posix_spawn_file_actions_addclosefrom_np(&actions, 4);
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    /* The worker's crash is reported by den, from how it ended: the Swift runtime's backtracer
     * would only delay its end (and the restart) and print a second report. */
    extern char **environ;
    size_t count = 0;
    while (environ[count] != NULL) count++;
    char **environment = calloc(count + 2, sizeof *environment);
    size_t kept = 0;
    if (environment != NULL) {
        for (size_t index = 0; index < count; index++) {
            if (strncmp(environ[index], "SWIFT_BACKTRACE=", 16) != 0) environment[kept++] = environ[index];
        }
        environment[kept++] = "SWIFT_BACKTRACE=enable=no";
        environment[kept] = NULL;
    }
    result = posix_spawn(&pid, path, &actions, &attributes, argv, environment != NULL ? environment : environ);
    free(environment);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return result == 0 ? pid : -result;
}

int den_pidfd_open(pid_t pid) {
    long fd = syscall(SYS_pidfd_open, pid, 0);
    return fd >= 0 ? (int)fd : -errno;
}

int den_reap(pid_t pid, int *signal_number, int *exit_status, int block) {
    int status = 0;
    pid_t done;
    do { done = waitpid(pid, &status, block ? 0 : WNOHANG); } while (done < 0 && errno == EINTR);
    if (done < 0) return -errno;
    if (done == 0) return -EAGAIN;
    *signal_number = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    *exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    return 0;
}

void den_kill_worker(pid_t pid) {
    if (pid <= 0) return;
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

int den_poll2(int fd_a, short events_a, short *revents_a, int fd_b, short events_b, short *revents_b, int timeout_ms) {
    struct pollfd fds[2] = {{fd_a, events_a, 0}, {fd_b, events_b, 0}};
    int count = fd_b >= 0 ? 2 : 1;
    int result = poll(fds, count, timeout_ms);
    if (result < 0) return -errno;
    *revents_a = fds[0].revents;
    *revents_b = count == 2 ? fds[1].revents : 0;
    return result;
}

int den_image_path_of_symbol(const char *symbol, char *out, size_t size) {
    void *address = dlsym(RTLD_DEFAULT, symbol);
    Dl_info info;
    if (address == NULL || dladdr(address, &info) == 0 || info.dli_fname == NULL) return -1;
    snprintf(out, size, "%s", info.dli_fname);
    return 0;
}
