/* host_libs.h - what the modules above use of host_libs.c. */
#ifndef ORTKIT_HOST_LIBS_H
#define ORTKIT_HOST_LIBS_H

/* *out (malloc'd): the file this machine's dynamic loader would load for
 * name, a library name without a slash ("libonnxruntime.so.1"), looked for
 * as ld.so looks: the directories of LD_LIBRARY_PATH, the ld.so cache
 * (/etc/ld.so.cache, this architecture's entries), the default directories.
 * ORTKIT_E_RUNTIME_NOT_FOUND (nothing recorded) when there is none. */
int ortkit__host_library_path(char **out, const char *name);

#endif
