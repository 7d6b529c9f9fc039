/*-------------------------------------------------------------------------
 *
 * histogram.c
 *		Log-linear latency histograms, after HdrHistogram.
 *
 * Every client adds each transaction's latency to a histogram in the run's
 * shared memory with one atomic increment; the coordinator merges them per
 * progress interval (the difference from the previous merge) and at the end.
 * Memory is fixed whatever the length of the run, and a percentile read
 * from the histogram is within 0.8% of the true value (see histogram.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "port/pg_bitutils.h"

#include "core/histogram.h"

/*
 * bk_hist_bucket
 *		The bucket of a value in nanoseconds.
 */
int
bk_hist_bucket(int64 ns)
{
	int			msb;
	int			shift;

	if (ns < BK_HIST_LINEAR)
		return ns < 0 ? 0 : (int) ns;
	msb = pg_leftmost_one_pos64((uint64) ns);
	shift = msb - BK_HIST_SUB_BITS;
	if (shift > BK_HIST_MAX_SHIFT)
		return BK_HIST_BUCKETS - 1;
	return BK_HIST_LINEAR + (shift - 1) * (1 << BK_HIST_SUB_BITS) +
		(int) ((ns >> shift) - (1 << BK_HIST_SUB_BITS));
}

/*
 * bk_hist_lower
 *		Smallest value (ns) of a bucket.
 */
double
bk_hist_lower(int bucket)
{
	int			shift;
	int			mantissa;

	if (bucket < BK_HIST_LINEAR)
		return bucket;
	shift = (bucket - BK_HIST_LINEAR) / (1 << BK_HIST_SUB_BITS) + 1;
	mantissa = (bucket - BK_HIST_LINEAR) % (1 << BK_HIST_SUB_BITS) + (1 << BK_HIST_SUB_BITS);
	return ldexp((double) mantissa, shift);
}

/*
 * bk_hist_upper
 *		First value (ns) past a bucket.
 */
double
bk_hist_upper(int bucket)
{
	int			shift;

	if (bucket < BK_HIST_LINEAR)
		return bucket + 1;
	shift = (bucket - BK_HIST_LINEAR) / (1 << BK_HIST_SUB_BITS) + 1;
	return bk_hist_lower(bucket) + ldexp(1.0, shift);
}

/*
 * bk_hist_record
 *		Count one value.  Several clients may share a histogram, hence the
 *		atomic add (uncontended when each client has its own).
 */
void
bk_hist_record(BkSharedHist *hist, int64 ns)
{
	pg_atomic_fetch_add_u64(&hist->counts[bk_hist_bucket(ns)], 1);
}

/*
 * bk_hist_add_shared
 *		Add a shared histogram into a local one.
 */
void
bk_hist_add_shared(BkHist *dst, BkSharedHist *src)
{
	for (int i = 0; i < BK_HIST_BUCKETS; i++)
		dst->counts[i] += pg_atomic_read_u64(&src->counts[i]);
}

/*
 * bk_hist_sub
 *		dst = a - b, bucket by bucket (what was counted between two merges).
 */
void
bk_hist_sub(BkHist *dst, const BkHist *a, const BkHist *b)
{
	for (int i = 0; i < BK_HIST_BUCKETS; i++)
		dst->counts[i] = a->counts[i] - b->counts[i];
}

/*
 * bk_hist_total
 *		Number of values counted.
 */
uint64
bk_hist_total(const BkHist *hist)
{
	uint64		n = 0;

	for (int i = 0; i < BK_HIST_BUCKETS; i++)
		n += hist->counts[i];
	return n;
}

/*
 * bk_hist_percentile
 *		The value below which FRACTION of the counted values lie: the
 *		midpoint of the bucket holding the value of rank ceil(FRACTION * n),
 *		kept within the exact minimum and maximum when they are known
 *		(pass 0 and -1 otherwise).  -1 for an empty histogram.
 */
double
bk_hist_percentile(const BkHist *hist, double fraction, double min_ns, double max_ns)
{
	uint64		n = bk_hist_total(hist);
	uint64		rank;
	uint64		seen = 0;

	if (n == 0)
		return -1;
	rank = (uint64) ceil(fraction * (double) n);
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < BK_HIST_BUCKETS; i++)
	{
		seen += hist->counts[i];
		if (seen >= rank)
		{
			double		v = i < BK_HIST_LINEAR ? i :
				(bk_hist_lower(i) + bk_hist_upper(i)) / 2.0;

			if (max_ns >= 0 && v > max_ns)
				v = max_ns;
			if (v < min_ns)
				v = min_ns;
			return v;
		}
	}
	return max_ns;
}

/*
 * bk_hist_max
 *		Midpoint of the highest non-empty bucket (-1 when empty): the maximum
 *		of an interval, within the histogram's precision.
 */
double
bk_hist_max(const BkHist *hist)
{
	for (int i = BK_HIST_BUCKETS - 1; i >= 0; i--)
		if (hist->counts[i] > 0)
			return i < BK_HIST_LINEAR ? i : (bk_hist_lower(i) + bk_hist_upper(i)) / 2.0;
	return -1;
}
