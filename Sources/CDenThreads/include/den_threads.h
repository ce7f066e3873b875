/* Names the calling thread, as gdb, top -H and /proc/<pid>/task/<tid>/comm show it. In C because
 * pthread_setname_np is a GNU extension that Swift's Glibc module does not expose. */
#ifndef DEN_THREADS_H
#define DEN_THREADS_H

/** Sets the calling thread's name to the first 15 bytes of `name` (the kernel's limit), cut at
 *  a UTF-8 character boundary. A NULL or empty name leaves the name as it is. */
void den_name_current_thread(const char *name);

#endif
