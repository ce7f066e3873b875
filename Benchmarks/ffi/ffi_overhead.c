/* The libffi core of an export call, without Swift: the same export of the same plugin called
 * directly through a typed function pointer (the baseline) and through ffi_call with the cif the
 * host prepares for it (Sources/DenHost/Exports/FFICallInterface.swift), in the same run.
 * den-bench's `--only exports` section measures the whole host and service paths in release;
 * this one needs only cc and libffi:
 *
 *   cc -O2 -shared -fPIC -I Sources/CDenABI/include Tests/Fixtures/DenFixtureExports/exports.c -o /tmp/libexp.so
 *   cc -O2 -I Sources/CDenABI/include Benchmarks/ffi/ffi_overhead.c -ldl -lffi -o /tmp/ffi_overhead
 *   /tmp/ffi_overhead /tmp/libexp.so
 */
#include "den_module.h"

#include <dlfcn.h>
#include <ffi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static den_export_fn add_fn, greet_fn;

static int32_t describe(void *ctx, const char *id, const char *version, const char *summary) {
    (void)ctx; (void)id; (void)version; (void)summary;
    return DEN_OK;
}

static int32_t add_export(void *ctx, const char *name, const char *signature, const char *summary, den_export_fn fn) {
    (void)ctx; (void)signature; (void)summary;
    if (strcmp(name, "add") == 0) add_fn = fn;
    if (strcmp(name, "greet") == 0) greet_fn = fn;
    return DEN_OK;
}

static uint64_t now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { BATCH = 20000, SAMPLES = 41 };

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: ffi_overhead <libDenFixtureExports.so>\n"); return 2; }
    void *image = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (image == NULL) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    den_module_entry_fn entry = (den_module_entry_fn)dlsym(image, DEN_ENTRY_SYMBOL);
    den_host host = {DEN_ABI_VERSION, DEN_ABI_REVISION, NULL, NULL};
    den_registrar registrar = {NULL, describe, NULL, NULL, add_export};
    if (entry == NULL || entry(&host, &registrar) != DEN_OK || add_fn == NULL || greet_fn == NULL) {
        fprintf(stderr, "the fixture did not register add and greet\n");
        return 1;
    }

    /* add(i64 a, i64 b) -> i64: host, a, b, result, error -> int32 (as FFICallInterface builds it). */
    ffi_type *add_types[] = {&ffi_type_pointer, &ffi_type_sint64, &ffi_type_sint64, &ffi_type_pointer, &ffi_type_pointer};
    ffi_cif add_cif;
    ffi_type *greet_types[] = {&ffi_type_pointer, &ffi_type_pointer, &ffi_type_pointer, &ffi_type_pointer};
    ffi_cif greet_cif;
    if (ffi_prep_cif(&add_cif, FFI_DEFAULT_ABI, 5, &ffi_type_sint32, add_types) != FFI_OK ||
        ffi_prep_cif(&greet_cif, FFI_DEFAULT_ABI, 4, &ffi_type_sint32, greet_types) != FFI_OK) return 1;

    typedef int32_t (*add_t)(const den_host *, int64_t, int64_t, int64_t *, den_owned *);
    typedef int32_t (*greet_t)(const den_host *, const char *, den_owned *, den_owned *);
    add_t add_direct = (add_t)add_fn;
    greet_t greet_direct = (greet_t)greet_fn;

    double add_d[SAMPLES], add_f[SAMPLES], greet_d[SAMPLES], greet_f[SAMPLES];
    volatile int64_t sink = 0;
    const den_host *host_ptr = &host;
    const char *name = "Ada";
    for (int s = -3; s < SAMPLES; s++) { /* 3 warm-up rounds */
        uint64_t t0 = now();
        for (int i = 0; i < BATCH; i++) {
            int64_t r = 0;
            add_direct(host_ptr, i, 2, &r, NULL);
            sink += r;
        }
        uint64_t t1 = now();
        for (int i = 0; i < BATCH; i++) {
            int64_t a = i, b = 2, r = 0;
            int64_t *rp = &r;
            den_owned *ep = NULL;
            void *values[] = {&host_ptr, &a, &b, &rp, &ep};
            ffi_arg status;
            ffi_call(&add_cif, FFI_FN(add_fn), &status, values);
            sink += r;
        }
        uint64_t t2 = now();
        for (int i = 0; i < BATCH; i++) {
            den_owned out = {NULL, 0, NULL}, err = {NULL, 0, NULL};
            greet_direct(host_ptr, name, &out, &err);
            sink += (int64_t)out.len;
            out.release(out.ptr, out.len);
        }
        uint64_t t3 = now();
        for (int i = 0; i < BATCH; i++) {
            den_owned out = {NULL, 0, NULL}, err = {NULL, 0, NULL};
            den_owned *op = &out, *ep = &err;
            void *values[] = {&host_ptr, &name, &op, &ep};
            ffi_arg status;
            ffi_call(&greet_cif, FFI_FN(greet_fn), &status, values);
            sink += (int64_t)out.len;
            out.release(out.ptr, out.len);
        }
        uint64_t t4 = now();
        if (s < 0) continue;
        add_d[s] = (double)(t1 - t0) / BATCH;
        add_f[s] = (double)(t2 - t1) / BATCH;
        greet_d[s] = (double)(t3 - t2) / BATCH;
        greet_f[s] = (double)(t4 - t3) / BATCH;
    }
    qsort(add_d, SAMPLES, sizeof(double), compare);
    qsort(add_f, SAMPLES, sizeof(double), compare);
    qsort(greet_d, SAMPLES, sizeof(double), compare);
    qsort(greet_f, SAMPLES, sizeof(double), compare);
    int m = SAMPLES / 2, p = (SAMPLES * 9) / 10;
    printf("%d samples of %d calls; per-call median (p90)\n", SAMPLES, BATCH);
    printf("add(i64, i64) -> i64     direct %.1f ns (%.1f)   ffi_call %.1f ns (%.1f)   ratio %.2fx   overhead %.1f ns\n",
           add_d[m], add_d[p], add_f[m], add_f[p], add_f[m] / add_d[m], add_f[m] - add_d[m]);
    printf("greet(string) -> string  direct %.1f ns (%.1f)   ffi_call %.1f ns (%.1f)   ratio %.2fx   overhead %.1f ns\n",
           greet_d[m], greet_d[p], greet_f[m], greet_f[p], greet_f[m] / greet_d[m], greet_f[m] - greet_d[m]);
    return sink == 0;
}
