/* The list is common-passwords.txt beside this file, put into the binary by clang's #embed: the
 * host ships it, and nothing reads a file at run time. README.md says where it comes from. */
#include "den_common_passwords.h"

#pragma clang diagnostic ignored "-Wc23-extensions"
const unsigned char den_common_passwords[] = {
#embed "common-passwords.txt"
};
const size_t den_common_passwords_size = sizeof(den_common_passwords);

const unsigned char *den_common_passwords_pointer(void) { return den_common_passwords; }
