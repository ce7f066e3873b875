#ifndef DEN_TEST_SPAWN_H
#define DEN_TEST_SPAWN_H

#include <sys/types.h>

/* Starts `path` with `argv` and `envp` (NULL-terminated), its standard input, output and error on
 * new pipes, in a process group of its own, with every other descriptor of this process closed
 * in the child (closefrom). Our ends are close-on-exec: `fds[0]` writes its input, `fds[1]` reads
 * its output, `fds[2]` its error. Returns 0, or an errno value (nothing is left open then). */
int den_test_spawn(const char *path, char *const argv[], char *const envp[], pid_t *pid, int fds[3]);

/* A new pseudo-terminal, `columns` wide: returns its controlling end (close-on-exec), with the
 * terminal end's path in `name` (at most `capacity` bytes), or -1 with errno set. */
int den_test_open_terminal(unsigned short columns, char *name, size_t capacity);

#endif
