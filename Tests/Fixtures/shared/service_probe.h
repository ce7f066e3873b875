/* The parts the service-probing fixtures share (perm_probe.h, Tests/RequirementFixture): an export
 * call(service, request) that calls any host service and answers "<status> <answer or message>",
 * and a route builder of the counter instance. Include it after counter_instance.h. */

/* call(service, request): the host's status, a space, then its answer or message. */
static int32_t probe_call(const den_host *host, const char *service, const char *request, den_owned *result,
                          den_owned *error) {
    (void)error;
    den_owned answer = {NULL, 0, NULL};
    int32_t status = host->call(host->ctx, service, (den_bytes){(const uint8_t *)request, strlen(request)}, &answer);
    size_t len = answer.len + 16;
    uint8_t *text = malloc(len);
    int head = snprintf((char *)text, len, "%d ", status);
    if (answer.len > 0) memcpy(text + head, answer.ptr, answer.len);
    if (answer.release != NULL) answer.release(answer.ptr, answer.len);
    *result = (den_owned){text, (size_t)head + answer.len, den_free_release};
    return DEN_OK;
}

static const den_instance_api api = {
    .struct_size = sizeof(den_instance_api),
    .handle = handle,
    .snapshot = snapshot,
    .restore = restore,
    .destroy = destroy,
};

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)ctx; (void)host; (void)params; (void)error;
    *self = calloc(1, sizeof(instance));
    *out_api = &api;
    return DEN_OK;
}
