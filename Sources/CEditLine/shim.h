/* libedit (Debian libedit-dev) through its readline-compatible API: line editing and history
 * for `den run` on a terminal. Its settings are C globals, set here so Swift 6 code never touches
 * shared mutable state. */
#include <stdio.h>
#include <editline/readline.h>

/* Names den in ~/.editrc, keeps the last 500 lines, and makes Tab insert a tab instead of
 * completing file names (den has no files to complete). */
static inline void den_editline_setup(void) {
    rl_readline_name = "den";
    using_history();
    stifle_history(500);
    rl_bind_key('\t', rl_insert);
}
