/* See den_crash_note.h. Only async-signal-safe calls in the handler: write, sigaction, raise. */
#include "den_crash_note.h"

#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

static _Thread_local const char *current_note;
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
static struct sigaction previous[sizeof crash_signals / sizeof crash_signals[0]];
static int installed;

static void write_all(const char *text, size_t length) {
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, text, length);
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

static void on_crash(int sig, siginfo_t *info, void *context) {
    (void)context;
    const char *note = current_note;
    if (note) {
        static const char prefix[] = "\nden: ";
        write_all(prefix, sizeof prefix - 1);
        write_all(note, strlen(note));
        write_all("\n", 1);
    }
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) {
        if (crash_signals[i] == sig) sigaction(sig, &previous[i], NULL);
    }
    /* A signal that was sent (abort(), kill) is sent again: it is blocked in this handler, so
     * the previous handler gets it as soon as this one returns. A fault needs nothing: returning
     * runs the faulting instruction again, which faults into the previous handler with its
     * real context. */
    if (info == NULL || info->si_code <= 0) raise(sig);
}

void den_crash_note_install(void) {
    if (installed) return;
    installed = 1;
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_crash;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        sigaction(crash_signals[i], &action, &previous[i]);
    }
}

const char *den_crash_note_swap(const char *note) {
    const char *before = current_note;
    current_note = note;
    return before;
}
