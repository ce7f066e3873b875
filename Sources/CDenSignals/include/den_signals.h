/* Ctrl-C for the terminal front-end, handled in C because a signal handler may only touch
 * volatile sig_atomic_t and async-signal-safe calls. While a module call runs ("busy"), SIGINT is
 * recorded for the host to give the call up; at the prompt it ends the process (exit status 130)
 * as Ctrl-C always does. No other signal's disposition or mask is touched. */
#ifndef DEN_SIGNALS_H
#define DEN_SIGNALS_H

/** Installs the SIGINT handler (SA_RESTART, so a read at the prompt is not disturbed). */
void den_sigint_install(void);

/** Marks whether a module call is running (1) or den waits at the prompt (0). */
void den_sigint_set_busy(int busy);

/** 1 once after a SIGINT that arrived while busy; clears it. */
int den_sigint_take(void);

#endif
