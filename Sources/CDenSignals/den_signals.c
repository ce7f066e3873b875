#include "den_signals.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t busy;
static volatile sig_atomic_t pending;

static void on_sigint(int signal_number) {
    (void)signal_number;
    if (busy) {
        pending = 1;
    } else {
        _exit(130);
    }
}

void den_sigint_install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    /* A parent may start den with SIGINT blocked (a mask is inherited, e.g. from a thread pool
     * thread); den asks for Ctrl-C, so it receives it. */
    sigset_t interrupt;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &interrupt, NULL);
}

void den_sigint_set_busy(int value) {
    if (!value) pending = 0;
    busy = value;
}

int den_sigint_take(void) {
    if (!pending) return 0;
    pending = 0;
    return 1;
}
