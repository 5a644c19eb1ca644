/*
 * host_cuda.c - the CUDA toolkits NVIDIA released and the drivers that run
 * them (CUDA Toolkit release notes, "CUDA Toolkit and Corresponding Driver
 * Versions"), for what a driver of a described machine runs and what a
 * GPU release's code needs (bundle_gpu_release.c).
 */
#include "host_cuda.h"

#include <stdlib.h>

/* Each toolkit's own minimum driver and the PTX ISA it writes. */
static const ortkit__cuda_toolkit toolkits[] = {
    {12000, 80, "525.60.13"}, {12010, 81, "530.30.02"}, {12020, 82, "535.54.03"},
    {12030, 83, "545.23.06"}, {12040, 84, "550.54.14"}, {12050, 85, "555.42.02"},
    {12060, 85, "560.28.03"}, {12080, 87, "570.26"},    {12090, 88, "575.51.03"},
    {13000, 90, "580.65.06"},
};
#define TOOLKITS (sizeof toolkits / sizeof toolkits[0])

const ortkit__cuda_toolkit *ortkit__cuda_toolkits(size_t *count)
{
    *count = TOOLKITS;
    return toolkits;
}

/* By branch, not by full version: a driver runs the CUDA of its branch
 * whatever its minor (nvidia-smi says "CUDA Version: 13.0" for Jetson
 * Thor's 580.00, below 580.65.06, the first of the branch for servers). */
int ortkit__cuda_of_driver(const char *driver)
{
    char *end;
    long branch = driver ? strtol(driver, &end, 10) : 0;
    if (!driver || end == driver || (*end && *end != '.'))
        return 0;
    int cuda = 0;
    for (size_t i = 0; i < TOOLKITS; i++)
        if (atol(toolkits[i].driver) <= branch)
            cuda = toolkits[i].cuda;
    return cuda;
}
