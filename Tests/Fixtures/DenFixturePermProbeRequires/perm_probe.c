/* permprobe 3.0.0: asks for no permission and requires main ^1 (see shared/perm_probe.h): a
 * catalog install of it brings main first (docs/CATALOG.md). */
#define PROBE_VERSION "3.0.0"
#define PROBE_PERMISSIONS ", \"requires\": {\"main\": \"^1\"}"
#include "../shared/perm_probe.h"
