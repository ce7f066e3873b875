/*
 * den_process.h — starting and watching an isolated module's worker process (docs/ISOLATION.md).
 * C because posix_spawn's attributes and the pidfd_open system call have no Swift overlay.
 */
#ifndef DEN_PROCESS_H
#define DEN_PROCESS_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

/* A connected pair of AF_UNIX stream sockets, both close-on-exec. 0, or -errno. */
int den_socket_pair(int fds[2]);

/*
 * Starts `path` with `argv` (NULL-terminated) in a process group of its own, with `child_fd`
 * as its file descriptor 3 (the only descriptor it inherits besides 0, 1 and 2, which it shares),
 * and every signal unblocked and at its default. The child's pid, or -errno.
 */
pid_t den_spawn_worker(const char *path, char *const argv[], int child_fd);

/* pidfd_open(pid, 0): a descriptor that polls readable once the process ended. -errno on failure. */
int den_pidfd_open(pid_t pid);

/*
 * Waits for `pid` (which must have ended or be about to) and describes how it ended:
 * *signal_number is the signal that ended it (0 for an exit), *exit_status its exit status.
 * 0, or -errno.
 */
int den_reap(pid_t pid, int *signal_number, int *exit_status, int block);

/* kill(-pgid, SIGKILL) then kill(pid, SIGKILL): ends the worker and anything it forked. */
void den_kill_worker(pid_t pid);

/* poll() on up to two descriptors; revents written back. The poll result, or -errno. */
int den_poll2(int fd_a, short events_a, short *revents_a, int fd_b, short events_b, short *revents_b, int timeout_ms);

/* The path of the loaded image that defines `symbol` (dladdr), into `out`. 0, or -1. */
int den_image_path_of_symbol(const char *symbol, char *out, size_t size);

#endif
