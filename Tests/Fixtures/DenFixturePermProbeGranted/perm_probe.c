/* permprobe 2.0.0: asks for every permission (see shared/perm_probe.h). */
#define PROBE_VERSION "2.0.0"
#define PROBE_PERMISSIONS ", \"permissions\": {\"http\": [\"127.0.0.1\"], \"exports\": [\"exporter.*\"], \"auth\": true, \"plugins\": true}"
#include "../shared/perm_probe.h"
