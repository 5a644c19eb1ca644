/*
 * host_internal.h - what the host modules share: host.c (names, memory, OS,
 * the detect entry point), host_cpu.c, host_gpu.c (NVML, Jetson) and
 * host_json.c.  Not installed.
 */
#ifndef ORTKIT_HOST_INTERNAL_H
#define ORTKIT_HOST_INTERNAL_H

#include "internal.h"

#include <stddef.h>

#define X86 ORTKIT_ARCH_X86_64
#define ARM ORTKIT_ARCH_AARCH64
#define B ORTKIT_CPU_BIT

/* Copy, cutting what does not fit: the struct's fields have fixed sizes. */
void ortkit__host_copy_str(char *dst, size_t size, const char *src);
/* Trim leading and trailing white space in place. */
char *ortkit__host_trim(char *s);
/* Read a small file below the test root prefix; returns bytes or -1. */
long ortkit__host_read_text(const char *path, char *buf, size_t size);
int ortkit__host_read_long(const char *path, long *out);
/* Whether a test moved the root prefix. */
int ortkit__host_root_moved(void);

/* psABI level (1..4) implied by a set of x86-64 features. */
int ortkit__host_x86_level(uint64_t features);

void ortkit__host_detect_cpu(ortkit_host *h);
void ortkit__host_detect_memory_os(ortkit_host *h);
void ortkit__host_detect_nvidia(ortkit_host *h);
void ortkit__host_detect_tegra(ortkit_host *h);

/* Test hooks.  Not thread-safe: set them before detecting. */
void ortkit__host_set_root(const char *root);
void ortkit__host_set_nvml_library(const char *path);
void ortkit__host_set_nvml_resolver(void *(*resolve)(const char *symbol));
int ortkit__host_arm_cpu_name(const char *cpuinfo, char *vendor, size_t vendor_size,
                              char *model, size_t model_size);

#endif
