/* The tests' process starter (Tests/DenTestSupport/Spawn.swift says why it is not Foundation's
 * Process). C for pipe2 and posix_spawn_file_actions_addclosefrom_np, GNU extensions Swift's
 * Glibc module does not show, and the pseudo-terminal calls (posix_openpt…), which it does not
 * show either. */
#define _GNU_SOURCE
#include "den_test_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int den_test_spawn(const char *path, char *const argv[], char *const envp[], pid_t *pid, int fds[3]) {
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
    int status = 0;
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
        status = errno;
        goto fail;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    status = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (status != 0) goto fail;
    close(in[0]);
    close(out[1]);
    close(err[1]);
    fds[0] = in[1];
    fds[1] = out[0];
    fds[2] = err[0];
    return 0;
fail:
    for (int i = 0; i < 2; i++) {
        if (in[i] >= 0) close(in[i]);
        if (out[i] >= 0) close(out[i]);
        if (err[i] >= 0) close(err[i]);
    }
    return status;
}

int den_test_open_terminal(unsigned short columns, char *name, size_t capacity) {
    int controller = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (controller < 0) return -1;
    struct winsize size = {.ws_row = 40, .ws_col = columns};
    if (grantpt(controller) != 0 || unlockpt(controller) != 0 || ptsname_r(controller, name, capacity) != 0
        || ioctl(controller, TIOCSWINSZ, &size) != 0) {
        int saved = errno;
        close(controller);
        errno = saved;
        return -1;
    }
    return controller;
}
