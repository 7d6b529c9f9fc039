/*-------------------------------------------------------------------------
 *
 * histogram.h
 *		Log-linear latency histograms: fixed size, under 1% relative error.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_HISTOGRAM_H
#define PGBENCHKIT_HISTOGRAM_H

#include "port/atomics.h"

/*
 * Values are nanoseconds.  Below 128 ns every value has its own bucket;
 * above, each power of two is split into 64 buckets, so a bucket is at most
 * 1/64 of its lower bound wide and its midpoint is within 0.8% of any value
 * in it.  Values of 2^37 ns (137 s) and more share the last bucket; the
 * exact minimum and maximum are kept beside the histogram.
 */
#define BK_HIST_SUB_BITS	6
#define BK_HIST_LINEAR		128
#define BK_HIST_MAX_SHIFT	30
#define BK_HIST_BUCKETS		(BK_HIST_LINEAR + BK_HIST_MAX_SHIFT * (1 << BK_HIST_SUB_BITS))

/* a histogram in shared memory, written by several clients at once */
typedef struct BkSharedHist
{
	pg_atomic_uint64 counts[BK_HIST_BUCKETS];
} BkSharedHist;

/* a histogram in local memory */
typedef struct BkHist
{
	uint64		counts[BK_HIST_BUCKETS];
} BkHist;

extern int	bk_hist_bucket(int64 ns);
extern double bk_hist_lower(int bucket);
extern double bk_hist_upper(int bucket);
extern void bk_hist_record(BkSharedHist *hist, int64 ns);
extern void bk_hist_add_shared(BkHist *dst, BkSharedHist *src);
extern void bk_hist_sub(BkHist *dst, const BkHist *a, const BkHist *b);
extern uint64 bk_hist_total(const BkHist *hist);
extern double bk_hist_percentile(const BkHist *hist, double fraction,
								 double min_ns, double max_ns);
extern double bk_hist_max(const BkHist *hist);

#endif							/* PGBENCHKIT_HISTOGRAM_H */
