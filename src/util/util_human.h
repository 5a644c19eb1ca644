/* util_human.h - figures for people (human.c). */
#ifndef ORTKIT_UTIL_HUMAN_H
#define ORTKIT_UTIL_HUMAN_H

#include "util_base.h"

/* "12.3 us", "1.23 ms", "1.23 s": two decimals, one below a millisecond. */
void ortkit__human_duration(char *buf, size_t size, double seconds);
/* "1.23 ms", "12.3 ms", "123 ms": three significant digits, so that two
 * close latencies still differ in print. */
void ortkit__human_duration3(char *buf, size_t size, double seconds);
/* "512 B", "4.5 MiB", "1.2 TiB": one decimal from KiB up. */
void ortkit__human_bytes(char *buf, size_t size, double bytes);
/* "100 B", "12 KiB", "600 MiB", "1.50 GiB": memory budgets and peaks, whole
 * numbers below a GiB. */
void ortkit__human_memory(char *buf, size_t size, uint64_t bytes);
/* "1.5G", "600M", "2GiB", "512k", "1000000": bytes, in binary units (memory
 * is counted in pages); ORTKIT_E_INVALID_ARG when s is no size. */
int ortkit__human_parse_size(const char *s, uint64_t *out);
/* "2025-11-23T10:00:00Z" <-> seconds since the epoch ("?" for a time
 * that cannot be written). */
int ortkit__time_parse(int64_t *out, const char *text);
void ortkit__time_format(char out[32], int64_t t);

#endif
