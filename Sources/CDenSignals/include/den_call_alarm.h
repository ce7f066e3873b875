/* The call alarm: a limit on a module call made on the calling thread, for a process that ends
 * when the call does not return in time (`den render`). A call on a thread of its own can be
 * given up while the process goes on; a call on the calling thread cannot, since the thread that
 * would give up is the one stuck in module code. So the alarm ends the process instead: a POSIX
 * timer sends DEN_CALL_ALARM_SIGNAL when the limit passes, and its handler writes the message
 * prepared before the call to standard error and calls _exit. Only async-signal-safe calls run in
 * the handler (write, _exit); everything it needs is copied in before the call starts.
 *
 * One alarm per process. Arming fails while it is armed (a nested call, or a call on another
 * thread): that call must be guarded some other way (a thread of its own). */
#ifndef DEN_CALL_ALARM_H
#define DEN_CALL_ALARM_H

#include <signal.h>
#include <stddef.h>

/** The signal the alarm's timer sends (a real-time signal, so a module's alarm() or SIGALRM
 *  handler does not touch it). Once the handler is installed (at the first arming), the signal
 *  from anything but the alarm's own timer is ignored, though it still ends a blocking call that
 *  is never restarted (nanosleep, poll, epoll_wait, a timed wait) with EINTR; before that, it
 *  ends the process as the signal's default action does. */
#define DEN_CALL_ALARM_SIGNAL (SIGRTMAX - 2)

/** The longest message the alarm keeps; a longer one is cut there. */
#define DEN_CALL_ALARM_MESSAGE_MAX 4096

/** Arms the alarm: unless `den_call_alarm_disarm` is called within `seconds`, the process writes
 *  `message` (`length` bytes, copied) to standard error and ends with `_exit(status)` (no atexit
 *  handlers, no stdio flush). Unblocks the signal on the calling thread.
 *  Returns 0 when armed; -1 with errno EBUSY when it is armed already, EINVAL when `seconds` is
 *  not above 0 or is over a day (86,400), or the error of the system refusing the timer or the
 *  handler. */
int den_call_alarm_arm(double seconds, const char *message, size_t length, int status);

/** Disarms the alarm. Call it only after a `den_call_alarm_arm` that returned 0, from the thread
 *  that armed it: it disarms whatever is armed. When the limit passed at that very moment and the
 *  handler is already ending the process, this never returns.
 *  On systems without POSIX timers and real-time signals (not Linux) arming always fails with
 *  ENOSYS, and callers guard their calls some other way. */
void den_call_alarm_disarm(void);

#endif
