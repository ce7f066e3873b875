/* permprobe 1.0.0: asks for no permission (see shared/perm_probe.h). */
#define PROBE_VERSION "1.0.0"
#define PROBE_PERMISSIONS ""
#include "../shared/perm_probe.h"
