#include "den_module.h"
#include <stdlib.h>

void den_free_release(uint8_t *ptr, size_t len) {
    (void)len;
    free(ptr);
}
