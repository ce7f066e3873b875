#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include "den_threads.h"

void den_name_current_thread(const char *name) {
    if (name == NULL || name[0] == '\0') return;
    char short_name[16];
    size_t length = strlen(name);
    if (length > 15) {
        length = 15;
        /* Back up over UTF-8 continuation bytes so no character is cut in half. */
        while (length > 0 && ((unsigned char)name[length] & 0xC0) == 0x80) length--;
    }
    memcpy(short_name, name, length);
    short_name[length] = '\0';
    pthread_setname_np(pthread_self(), short_name);
}
