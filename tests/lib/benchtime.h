/* benchtime.h: what the benchmarks measure with: the monotonic clock, this process's resident memory, and percentiles of sorted samples. */
#ifndef HF_TEST_BENCHTIME_H
#define HF_TEST_BENCHTIME_H

#include <stddef.h>

/* The monotonic clock, in microseconds and in milliseconds (fractional). */
double bench_now_us(void);
double bench_now_ms(void);
/* This process's resident set in KiB (0 if /proc cannot say). */
long   bench_rss_kb(void);
/* Sorts n samples in ascending order. */
void   bench_sort(double *v, size_t n);
/* The sample at per_mille of n sorted samples (500: the median; 990: p99):
 * v[n * per_mille / 1000], or -1 when there is none. */
double bench_pct(const double *v, size_t n, int per_mille);

#endif
