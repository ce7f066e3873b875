#ifndef DEN_COMMON_PASSWORDS_H
#define DEN_COMMON_PASSWORDS_H

#include <stddef.h>

/* Common and breached passwords the host's auth service refuses as new passwords (OWASP ASVS
 * 2.1.7): one lower-case password per line, each 8 characters or longer (shorter ones are refused
 * by length already). Not NUL-terminated; den_common_passwords_size bytes. */
extern const unsigned char den_common_passwords[];
/* The list's first byte (Swift cannot take the address of an array of unknown size). */
const unsigned char *den_common_passwords_pointer(void);
extern const size_t den_common_passwords_size;

#endif
