/* A note printed when den dies of a signal inside module code. Modules run in den's process,
 * so one that aborts or faults (in its ELF constructor, den_module_entry, a builder, a handler
 * or an export) takes den down with it; the note names the module and what it was doing, so
 * the user knows which file to remove. The note is per thread: a thread sets it around module
 * code and clears it after. The handler writes it to standard error and hands the signal on to
 * whatever handled it before (the Swift runtime's backtrace, or the default: exit by signal). */
#ifndef DEN_CRASH_NOTE_H
#define DEN_CRASH_NOTE_H

/** Installs the handler for SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP, chained to
 *  the handlers already installed. Idempotent; not thread-safe (call it once, early). */
void den_crash_note_install(void);

/** Makes `note` (a NUL-terminated string that must stay valid until replaced, or NULL) this
 *  thread's note; returns the previous one. */
const char *den_crash_note_swap(const char *note);

#endif
