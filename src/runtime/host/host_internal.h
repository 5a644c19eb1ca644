/*
 * host_internal.h - what the host modules share: host.c (names, memory, OS,
 * the detect entry point), host_cpu.c, host_cpuinfo.c, host_gpu.c (NVML,
 * Jetson), host_driver_files.c, host_platform.c, host_cuda.c and
 * host_json.c.  Not installed.
 */
#ifndef ORTKIT_HOST_INTERNAL_H
#define ORTKIT_HOST_INTERNAL_H

#include "core.h"

#include <stddef.h>

/*
 * What detection and the JSON reader fill: fixed-size buffers that stay
 * inside the library.  ortkit_host, what callers see, is made from one by
 * ortkit__host_publish and points into it; the two live in one allocation.
 */
#define ORTKIT__HOST_MAX_GPUS 16

typedef struct ortkit__gpu_data {
    char name[96];
    int cc_major;
    int cc_minor;
    uint64_t memory_bytes;
} ortkit__gpu_data;

typedef struct ortkit__host_data {
    ortkit_arch arch;
    char cpu_vendor[32];
    char cpu_model[96];
    int logical_cpus;
    int physical_cores;
    uint64_t cache_l1d;
    uint64_t cache_l1i;
    uint64_t cache_l2;
    uint64_t cache_l3;
    uint64_t cpu_features;
    int x86_64_level;
    uint64_t mem_total;
    uint64_t mem_available;
    char os_name[32];
    char os_release[64];
    char os_distro[96];
    char glibc[16];
    char driver_version[32];
    int cuda_driver;
    int gpu_count;
    ortkit__gpu_data gpus[ORTKIT__HOST_MAX_GPUS];
    char gpu_note[160];
    int tegra;
    char l4t_release[32];
    ortkit_cuda_platform cuda_platform;
    char board[96];
    char glibcxx[24];
    /* The libraries the dynamic loader finds, by file name, sorted and
     * unique (malloc'd, freed with the host); libraries_known 0: not said. */
    char **libraries;
    size_t library_count;
    int libraries_known;
} ortkit__host_data;

/* Zeroed data for a new host; NULL (ORTKIT_E_NOMEM recorded) when memory runs out. */
ortkit__host_data *ortkit__host_new(void);
/* The caller's view of filled data; ortkit_host_free frees both. */
ortkit_host *ortkit__host_publish(ortkit__host_data *d);

/* Copy, cutting what does not fit: the struct's fields have fixed sizes. */
void ortkit__host_copy_str(char *dst, size_t size, const char *src);
/* Trim leading and trailing white space in place. */
char *ortkit__host_trim(char *s);
/* The longest root a tree may be read below, with its NUL. */
#define ORTKIT__HOST_ROOT_MAX 1024
/* path below the root, into buf; -1 when it does not fit. */
int ortkit__host_file_path(char *buf, size_t size, const char *path);
/* The root into buf ("" for "/"); whether one is set. */
int ortkit__host_root_get(char *buf, size_t size);
/* Read a small file below the root; returns bytes or -1. */
long ortkit__host_read_text(const char *path, char *buf, size_t size);
int ortkit__host_read_long(const char *path, long *out);
/* Whether the files are read below a root (a test's, or
 * ortkit_host_detect_root's): then nothing comes from the running machine. */
int ortkit__host_root_moved(void);
/* Each name in a directory below the root (not "." or ".."), sorted, into
 * a NULL-terminated malloc'd list; NULL when there is none or memory runs out. */
char **ortkit__host_list_dir(const char *path);
void ortkit__host_list_free(char **list);

/* host_platform.c: the CUDA platform facts about a machine say it takes,
 * and the JetPack release of an L4T one (0 when unknown). */
ortkit_cuda_platform ortkit__host_platform_of(ortkit_arch arch, int tegra, const char *l4t_release);
int ortkit__jetpack_of_l4t(const char *l4t_release);

/* psABI level (1..4) implied by a set of x86-64 features. */
int ortkit__host_x86_level(uint64_t features);

void ortkit__host_detect_cpu(ortkit__host_data *h);
/* host_libs.c: what LD_LIBRARY_PATH, the ld.so cache and the default
 * directories hold; the list (taken over: sorted, duplicates dropped). */
void ortkit__host_detect_libraries(ortkit__host_data *h);
int ortkit__host_set_libraries(ortkit__host_data *h, char **list, size_t n);
void ortkit__host_libraries_free(ortkit__host_data *h);
void ortkit__host_detect_nvidia(ortkit__host_data *h);
/* host_driver_files.c: the NVIDIA driver and GPUs of a described tree, from
 * the kernel module's files (NVML describes only the running machine). */
void ortkit__host_detect_nvidia_files(ortkit__host_data *h);
void ortkit__host_detect_tegra(ortkit__host_data *h);
/* The L4T release /etc/nv_tegra_release names (R36, REVISION 4.3: 36, 4, 3;
 * any pointer may be NULL); -1 when there is none. */
int ortkit__host_l4t_release(int *major, int *minor, int *patch);
/* host_cpuinfo.c: the CPU of a described tree, from its /proc/cpuinfo. */
void ortkit__host_cpuinfo(ortkit__host_data *h, const char *cpuinfo);

/* Test hooks.  Not thread-safe: set them before detecting. */
void ortkit__host_set_root(const char *root);
void ortkit__host_set_nvml_library(const char *path);
void ortkit__host_set_nvml_resolver(void *(*resolve)(const char *symbol));
int ortkit__host_arm_cpu_name(const char *cpuinfo, char *vendor, size_t vendor_size,
                              char *model, size_t model_size);

#endif
