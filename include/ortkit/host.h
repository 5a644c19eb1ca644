/*
 * ortkit/host.h - the machine: CPU and its instruction sets, memory, OS,
 * NVIDIA GPUs and driver, Jetson boards, and the CUDA platform they take.
 *
 * ortkit_host_detect() describes this machine; JSON lets tests and users
 * describe others.
 *
 * Part of the stable API; programs include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_HOST_H
#define ORTKIT_INCLUDE_HOST_H

#include "ortkit/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ortkit_arch {
    ORTKIT_ARCH_UNKNOWN = 0,
    ORTKIT_ARCH_X86_64 = 1,
    ORTKIT_ARCH_AARCH64 = 2
} ortkit_arch;

/* "x86_64", "aarch64", "unknown". */
ORTKIT_API const char *ortkit_arch_name(ortkit_arch arch);
/* The architecture this program runs on: the one libortkit was built for. */
ORTKIT_API ortkit_arch ortkit_arch_here(void);

/* CPU features, as bit numbers in ortkit_host.cpu_features.  x86-64
 * features count only when the OS saves their registers (XCR0).  New
 * features are added before ORTKIT_CPU_FEATURE_COUNT. */
typedef enum ortkit_cpu_feature {
    /* x86-64 */
    ORTKIT_CPU_SSE3 = 0,
    ORTKIT_CPU_SSSE3,
    ORTKIT_CPU_SSE4_1,
    ORTKIT_CPU_SSE4_2,
    ORTKIT_CPU_POPCNT,
    ORTKIT_CPU_CX16,
    ORTKIT_CPU_LAHF,
    ORTKIT_CPU_MOVBE,
    ORTKIT_CPU_LZCNT,
    ORTKIT_CPU_BMI1,
    ORTKIT_CPU_BMI2,
    ORTKIT_CPU_AVX,
    ORTKIT_CPU_AVX2,
    ORTKIT_CPU_FMA,
    ORTKIT_CPU_F16C,
    ORTKIT_CPU_AVX512F,
    ORTKIT_CPU_AVX512CD,
    ORTKIT_CPU_AVX512BW,
    ORTKIT_CPU_AVX512DQ,
    ORTKIT_CPU_AVX512VL,
    ORTKIT_CPU_AVX512VNNI,
    ORTKIT_CPU_AVX512BF16,
    ORTKIT_CPU_AVXVNNI,
    ORTKIT_CPU_AMX_TILE,
    ORTKIT_CPU_AMX_INT8,
    ORTKIT_CPU_AMX_BF16,
    /* arm64 */
    ORTKIT_CPU_ASIMD,
    ORTKIT_CPU_FP16,    /* half-precision scalar and vector arithmetic */
    ORTKIT_CPU_DOTPROD,
    ORTKIT_CPU_I8MM,
    ORTKIT_CPU_BF16,
    ORTKIT_CPU_SVE,
    ORTKIT_CPU_SVE2,
    ORTKIT_CPU_FEATURE_COUNT
} ortkit_cpu_feature;

#define ORTKIT_CPU_BIT(f) (UINT64_C(1) << (f))

/* Short name used in JSON and tables: "avx512bf16", "amx-int8", "sve2";
 * NULL when out of range. */
ORTKIT_API const char *ortkit_cpu_feature_name(ortkit_cpu_feature f);
/* Label for people: "AVX-512 BF16", "SVE2". */
ORTKIT_API const char *ortkit_cpu_feature_label(ortkit_cpu_feature f);
/* The architecture a feature belongs to. */
ORTKIT_API ortkit_arch ortkit_cpu_feature_arch(ortkit_cpu_feature f);
/* Parse a short name; -1 when unknown. */
ORTKIT_API int ortkit_cpu_feature_from_name(const char *name);

/*
 * The CUDA a machine takes, and a CUDA build is made for.  NVIDIA ships one
 * CUDA toolkit per platform, and a build made with one never runs on
 * another: an arm64 server (Grace, GB10) and a Jetson on Orin are both
 * aarch64 with an NVIDIA GPU, and neither runs the other's builds.  New
 * platforms are added at the end.
 */
typedef enum ortkit_cuda_platform {
    ORTKIT_CUDA_PLATFORM_UNKNOWN = 0,
    ORTKIT_CUDA_PLATFORM_X86_64 = 1, /* x86-64 Linux */
    ORTKIT_CUDA_PLATFORM_SBSA = 2,   /* arm64 servers (SBSA: Grace, GB10), and Jetson from
                                      * JetPack 7 (Thor): NVIDIA's one CUDA for Arm from CUDA 13 */
    ORTKIT_CUDA_PLATFORM_L4T = 3     /* Jetson's own CUDA, part of Linux for Tegra up to
                                      * JetPack 6 (Orin, Xavier) */
} ortkit_cuda_platform;

/* "x86_64", "sbsa", "l4t"; "unknown" for anything else. */
ORTKIT_API const char *ortkit_cuda_platform_name(ortkit_cuda_platform p);
/* Parse one of those names (not "unknown"); -1 when it is none. */
ORTKIT_API int ortkit_cuda_platform_from_name(const char *name);
/* For people: "NVIDIA's SBSA CUDA", "Jetson's L4T CUDA", "NVIDIA's x86_64 CUDA". */
ORTKIT_API const char *ortkit_cuda_platform_label(ortkit_cuda_platform p);

/* One NVIDIA GPU.  Made by the library and reached through a pointer, so
 * later versions may add fields at the end. */
typedef struct ortkit_gpu {
    const char *name;       /* "NVIDIA H100 80GB HBM3" */
    int cc_major;           /* compute capability 9.0: 9 and 0 */
    int cc_minor;
    uint64_t memory_bytes;  /* 0 when unknown */
} ortkit_gpu;

/*
 * A machine.  Library-allocated: only ortkit_host_detect, _from_json and
 * _load make one, and ortkit_host_free frees it, so later versions add
 * fields at the end without breaking a program; a program never declares,
 * copies or takes the size of an ortkit_host.  Every library function
 * reads the host through these fields, so a program may change them to
 * ask about a slightly different machine (whatever it points a field at
 * must outlive those calls).  Strings are never NULL: "" when unknown.
 */
typedef struct ortkit_host {
    ortkit_arch arch;
    /* CPU */
    const char *cpu_vendor; /* "GenuineIntel", "AuthenticAMD", "ARM", ... */
    const char *cpu_model;  /* "Intel(R) Xeon(R) Platinum 8480+", "Neoverse-V1" */
    int logical_cpus;       /* online hardware threads; 0 when unknown */
    int physical_cores;
    uint64_t cache_l1d;     /* bytes, as seen by one core; 0 when unknown */
    uint64_t cache_l1i;
    uint64_t cache_l2;
    uint64_t cache_l3;
    uint64_t cpu_features;  /* ORTKIT_CPU_BIT(feature) for each feature present */
    int x86_64_level;       /* psABI level 1..4 (x86-64-v4); 0 on other architectures */
    /* memory and OS */
    uint64_t mem_total;     /* bytes */
    uint64_t mem_available;
    const char *os_name;    /* "Linux" */
    const char *os_release; /* kernel release */
    const char *os_distro;  /* PRETTY_NAME of /etc/os-release */
    const char *glibc;      /* "2.36"; "" without glibc */
    /* NVIDIA */
    const char *driver_version; /* "570.124.06"; "" without a driver */
    int cuda_driver;            /* highest CUDA the driver runs, 1000*major + 10*minor: 12080 */
    size_t gpu_count;
    const ortkit_gpu *const *gpus; /* gpu_count entries */
    const char *gpu_note;       /* why no GPU was found, or other remarks; "" when none */
    /* Jetson: Linux for Tegra */
    int tegra;                  /* 1 on a Jetson */
    const char *l4t_release;    /* "36.4.3" (from /etc/nv_tegra_release) */
    const char *board;          /* "NVIDIA Jetson AGX Orin Developer Kit" */
    /* C++ library (added in 0.1: read it only when the library's version is known to have it) */
    const char *glibcxx;        /* "3.4.30": the highest GLIBCXX_ version the system's
                                 * libstdc++.so.6 defines; "" without one */
    /* Shared libraries (added in 0.1, like glibcxx): the file names the
     * dynamic loader finds (LD_LIBRARY_PATH, the ld.so cache, the default
     * directories), sorted.  libraries_known 0: the host does not say (a
     * description without os.libraries), and nothing is judged by them. */
    size_t library_count;
    const char *const *libraries;
    int libraries_known;
    /* The CUDA it takes (added in 0.5: read it only when the library's
     * version is known to have it): L4T on a Jetson up to
     * JetPack 6, SBSA on a Jetson from JetPack 7 (tegra stays 1: it is a
     * Jetson board) and on any other aarch64 machine, X86_64 on x86-64.
     * UNKNOWN is read as what arch, tegra and l4t_release say. */
    ortkit_cuda_platform cuda_platform;
} ortkit_host;

/* Does the host's dynamic loader find a library of this file name?  1 yes,
 * 0 no, -1 when the host does not say (libraries_known 0). */
ORTKIT_API int ortkit_host_has_library(const ortkit_host *host, const char *name);

/* Detect this machine.  Missing information is left zero or ""; no NVIDIA
 * driver is a normal answer (gpu_count 0, gpu_note says why). */
ORTKIT_API int ortkit_host_detect(ortkit_host **out);
/*
 * Detect the machine a directory tree describes, read as ortkit_host_detect
 * reads "/": root/proc, root/sys, root/etc and the rest, and nothing of the
 * running machine (no cpuid, AT_HWCAP, uname, NVML or loader cache: the CPU
 * comes from root/proc/cpuinfo, NVIDIA GPUs from root/proc/driver/nvidia;
 * docs/HOST_AND_VARIANTS.md says which file gives what).  root "/" reads
 * this machine's files the same way.  ORTKIT_E_IO when root is not a
 * readable directory.
 */
ORTKIT_API int ortkit_host_detect_root(ortkit_host **out, const char *root);
/* What the host takes, in words, for messages: "Jetson's L4T CUDA (JetPack 6,
 * L4T R36.4.3)", "NVIDIA's SBSA CUDA (an arm64 server)".  Writes "" when size
 * is too small for any of it; returns buf. */
ORTKIT_API const char *ortkit_host_platform_text(const ortkit_host *host, char *buf, size_t size);
ORTKIT_API void ortkit_host_free(ortkit_host *host);
/* Does the host have feature f? */
ORTKIT_API int ortkit_host_has(const ortkit_host *host, ortkit_cpu_feature f);
/* The host as JSON (pretty-printed); free *json_out with ortkit_free(). */
ORTKIT_API int ortkit_host_to_json(const ortkit_host *host, char **json_out);
/* Read a host from JSON as written by ortkit_host_to_json.  Unknown keys,
 * unknown features and wrong types fail with ORTKIT_E_FORMAT. */
ORTKIT_API int ortkit_host_from_json(ortkit_host **out, const char *json);
/* Read a host from a JSON file. */
ORTKIT_API int ortkit_host_load(ortkit_host **out, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_HOST_H */
