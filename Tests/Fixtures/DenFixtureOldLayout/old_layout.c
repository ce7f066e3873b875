/* A module built against an older den_module.h (Tests/Fixtures/abi-revision-3, revision 3), as a
 * module shipped before den_instance_api grew a field would be: its table is 40 bytes. It must
 * keep loading on every later host, which may read no field past its struct_size. To make such a
 * read fail loudly rather than read garbage, the table is laid at the very end of a page whose next
 * page is unmapped: one byte too many faults.
 *   old-layout   "count N, snapshots M": the action "count" adds one; snapshot and restore keep
 *                the count, and M says how often the host asked for a snapshot. */
#define _GNU_SOURCE /* memmem */
#include "den_module.h"

#include <sys/mman.h>
#include <unistd.h>

_Static_assert(DEN_ABI_REVISION == 3, "built against the revision-3 header on purpose");
_Static_assert(sizeof(den_instance_api) == 40, "the revision-3 table");

DEN_DEFINE_ABI_VERSION();

#define COUNTER_TITLE "Old layout"
#include "../shared/counter_instance.h"

/* The table, ending exactly where a PROT_NONE page begins. */
static const den_instance_api *guarded_table(void) {
    static const den_instance_api *table = NULL;
    if (table != NULL) return table;
    long page = sysconf(_SC_PAGESIZE);
    uint8_t *pages = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) return NULL;
    den_instance_api *slot = (den_instance_api *)(pages + page - sizeof(den_instance_api));
    *slot = (den_instance_api){sizeof(den_instance_api), 0, handle, snapshot, restore, destroy};
    if (mprotect(pages + page, (size_t)page, PROT_NONE) != 0) return NULL;
    table = slot;
    return table;
}

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **api, den_owned *error) {
    (void)ctx; (void)host; (void)params;
    const den_instance_api *table = guarded_table();
    if (table == NULL) {
        *error = owned_text("could not map the guarded table");
        return DEN_ERR_INTERNAL;
    }
    *self = calloc(1, sizeof(instance));
    *api = table;
    return DEN_OK;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host;
    int32_t status = registrar->describe(registrar->ctx, "old-layout", "1.0.0", "Built against the revision-3 header");
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "old-layout", build, NULL);
    return status;
}
