/* See den_call_alarm.h. Only async-signal-safe calls in the handler: clock_gettime, write, _exit.
 *
 * The state is one atomic word: a generation (bumped by every arming) above a two-bit phase. The
 * handler claims the alarm with a compare-and-swap on the exact word it read before looking at the
 * deadline, so an expiry of an earlier arming, handled on another thread while a new arming
 * writes its deadline and message, can never claim the new one. */
#define _GNU_SOURCE
#include "den_call_alarm.h"
#include <errno.h>

#if defined(__linux__)
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { IDLE, ARMING, ARMED, FIRING };
#define PHASE(word) ((word) & 3u)
#define NEXT_GENERATION(word) (((word) & ~3u) + 4u)

/* Longer limits are refused: `den` allows an hour; a day leaves room and no overflow. */
#define LONGEST_SECONDS 86400.0

static _Atomic unsigned state = IDLE;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the handler needs a lock-free atomic");
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static int setup_error = 0;
static timer_t timer;
static char message[DEN_CALL_ALARM_MESSAGE_MAX];
static size_t message_length;
static int exit_status;
/* CLOCK_MONOTONIC nanoseconds; atomic because a handler of an earlier arming may read it while
 * a new arming writes it (that handler's compare-and-swap then fails, but the read must be defined). */
static _Atomic int64_t deadline_ns;

static int64_t monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static int before_deadline(void) {
    return monotonic_ns() < atomic_load_explicit(&deadline_ns, memory_order_relaxed);
}

static void on_alarm(int sig, siginfo_t *info, void *context) {
    (void)sig; (void)context;
    /* Only this timer's expiry: not kill(1), not a module's own timer on the same signal. */
    if (info->si_code != SI_TIMER || info->si_value.sival_ptr != (void *)&state) return;
    unsigned seen = atomic_load_explicit(&state, memory_order_acquire);
    if (PHASE(seen) != ARMED) return;
    /* An expiry of an earlier arming, delivered late, comes before this arming's deadline. */
    if (before_deadline()) return;
    if (!atomic_compare_exchange_strong(&state, &seen, (seen & ~3u) | FIRING)) return;
    size_t written = 0;
    while (written < message_length) {
        ssize_t n = write(STDERR_FILENO, message + written, message_length - written);
        if (n > 0) written += (size_t)n;
        else if (n < 0 && errno == EINTR) continue;
        else break;
    }
    _exit(exit_status);
}

static void setup(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_alarm;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(DEN_CALL_ALARM_SIGNAL, &action, NULL) != 0) { setup_error = errno; return; }
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_SIGNAL;
    event.sigev_signo = DEN_CALL_ALARM_SIGNAL;
    event.sigev_value.sival_ptr = (void *)&state; /* the marker the handler checks */
    if (timer_create(CLOCK_MONOTONIC, &event, &timer) != 0) setup_error = errno;
}

int den_call_alarm_arm(double seconds, const char *text, size_t length, int status) {
    if (!(seconds > 0) || !isfinite(seconds) || seconds > LONGEST_SECONDS) { errno = EINVAL; return -1; }
    pthread_once(&setup_once, setup);
    if (setup_error != 0) { errno = setup_error; return -1; }
    unsigned idle = atomic_load(&state);
    if (PHASE(idle) != IDLE || !atomic_compare_exchange_strong(&state, &idle, NEXT_GENERATION(idle) | ARMING)) {
        errno = EBUSY;
        return -1;
    }
    unsigned arming = NEXT_GENERATION(idle) | ARMING;
    message_length = length < sizeof message ? length : sizeof message;
    if (message_length > 0) memcpy(message, text, message_length);
    exit_status = status;
    /* A process may start with signals blocked (a parent's thread mask is inherited across exec):
     * the calling thread, the one the call may get stuck on, must take the signal. */
    sigset_t alarm_signal;
    sigemptyset(&alarm_signal);
    sigaddset(&alarm_signal, DEN_CALL_ALARM_SIGNAL);
    pthread_sigmask(SIG_UNBLOCK, &alarm_signal, NULL);
    struct itimerspec limit;
    memset(&limit, 0, sizeof limit);
    limit.it_value.tv_sec = (time_t)seconds;
    limit.it_value.tv_nsec = (long)((seconds - (double)limit.it_value.tv_sec) * 1e9);
    if (limit.it_value.tv_sec == 0 && limit.it_value.tv_nsec == 0) limit.it_value.tv_nsec = 1;
    /* Read before the timer starts, so its expiry is never before this deadline. */
    atomic_store_explicit(&deadline_ns, monotonic_ns() + (int64_t)limit.it_value.tv_sec * 1000000000 + limit.it_value.tv_nsec,
                          memory_order_relaxed);
    /* ARMED (release) before the timer starts, so an expiry always finds the message in place. */
    atomic_store_explicit(&state, (arming & ~3u) | ARMED, memory_order_release);
    if (timer_settime(timer, 0, &limit, NULL) != 0) {
        int error = errno;
        atomic_store(&state, (arming & ~3u) | IDLE);
        errno = error;
        return -1;
    }
    return 0;
}

void den_call_alarm_disarm(void) {
    unsigned armed = atomic_load(&state);
    if (PHASE(armed) != ARMED || !atomic_compare_exchange_strong(&state, &armed, (armed & ~3u) | ARMING)) {
        /* FIRING: the handler is writing the message and ending the process. */
        if (PHASE(armed) == FIRING) for (;;) pause();
        return;
    }
    struct itimerspec off;
    memset(&off, 0, sizeof off);
    timer_settime(timer, 0, &off, NULL);
    atomic_store(&state, (armed & ~3u) | IDLE);
}

#else
/* No POSIX timers with real-time signals here: every call falls back to a thread of its own. */
int den_call_alarm_arm(double seconds, const char *message, size_t length, int status) {
    (void)seconds; (void)message; (void)length; (void)status;
    errno = ENOSYS;
    return -1;
}

void den_call_alarm_disarm(void) {}
#endif
