/*-------------------------------------------------------------------------
 *
 * random.c
 *		The random numbers of pgbench's script language: the generator
 *		(pg_prng's), the distributions behind random() and friends, the
 *		hashes, permute(), and the seeding of a client's generators.
 *
 * From one seed these give pgbench's numbers exactly (PostgreSQL 17's
 * src/bin/pgbench/pgbench.c and src/common/pg_prng.c): the generator is
 * pg_prng's xoroshiro128**, the distributions and hashes are pgbench's
 * formulas, and a client's generators are seeded in the order pgbench
 * draws their seeds.  Every random number comes from the BkPrng handed in,
 * so that a client restoring a saved copy of its generator replays the
 * same values.  The range checks of the arguments are the evaluator's
 * (script/expr_func.c), which calls these only with arguments pgbench
 * would accept.
 *
 * What is still not quite pgbench: where pgbench's C is undefined we give
 * the results of pgbench on x86-64: a double result of
 * random_exponential() or random_gaussian() beyond the range of bigint
 * (only reachable with an infinite or NaN parameter) is the smallest
 * bigint.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/timestamp.h"

#include "core/random.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* pgbench's hashing constants */
#define BK_FNV_PRIME			UINT64CONST(0x100000001b3)
#define BK_FNV_OFFSET_BASIS		UINT64CONST(0xcbf29ce484222325)
#define BK_MM2_MUL				UINT64CONST(0xc6a4a7935bd1e995)
#define BK_MM2_MUL_TIMES_8		UINT64CONST(0x35253c9ade8f4ca8)
#define BK_MM2_ROT				47


/* ------------------------------------------------------------------------
 * The random generator: pg_prng's xoroshiro128**, seeded through splitmix64
 * ------------------------------------------------------------------------
 */

/*
 * bk_splitmix64
 *		The next number of the splitmix64 sequence at *STATE.
 */
static inline uint64
bk_splitmix64(uint64 *state)
{
	uint64		z = (*state += UINT64CONST(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64CONST(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64CONST(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/*
 * bk_prng_seed
 *		Fill the state from SEED as pg_prng_seed does, with splitmix64,
 *		replacing the all-zero state xoroshiro cannot leave by pg_prng's
 *		(Knuth's LCG constants).
 */
void
bk_prng_seed(BkPrng *prng, uint64 seed)
{
	prng->s0 = bk_splitmix64(&seed);
	prng->s1 = bk_splitmix64(&seed);
	if (prng->s0 == 0 && prng->s1 == 0)
	{
		prng->s0 = UINT64CONST(0x5851F42D4C957F2D);
		prng->s1 = UINT64CONST(0x14057B7EF767814F);
	}
}

/*
 * bk_prng_upto
 *		A uniform number in [0, RANGE], as pg_prng_uint64_range(prng, 0,
 *		RANGE): draws keep the bits RANGE needs and are refused when over
 *		it, so fewer than two draws are needed on average; RANGE 0 draws
 *		nothing.
 */
static uint64
bk_prng_upto(BkPrng *prng, uint64 range)
{
	int			rshift;
	uint64		val;

	if (range == 0)
		return 0;
	rshift = 63 - pg_leftmost_one_pos64(range);
	do
	{
		val = bk_prng_next(prng) >> rshift;
	} while (val > range);
	return val;
}

/*
 * bk_prng_double
 *		A uniform double in [0, 1), from 52 random bits as pg_prng_double.
 */
double
bk_prng_double(BkPrng *prng)
{
	return ldexp((double) (bk_prng_next(prng) >> (64 - 52)), -52);
}

/*
 * bk_prng_normal
 *		A standard normal deviate, by the Box-Muller transform of two
 *		uniforms in (0, 1], as pg_prng_double_normal.
 */
static double
bk_prng_normal(BkPrng *prng)
{
	double		u1 = 1.0 - bk_prng_double(prng);
	double		u2 = 1.0 - bk_prng_double(prng);

	return sqrt(-2.0 * log(u1)) * sin(2.0 * M_PI * u2);
}

/* ------------------------------------------------------------------------
 * Distributions, hashes, permutation: pgbench's formulas
 * ------------------------------------------------------------------------
 */

/* A + B in bigint, wrapping around as pgbench's -fwrapv arithmetic does */
static inline int64
bk_wrap_add(int64 a, int64 b)
{
	return (int64) ((uint64) a + (uint64) b);
}

/*
 * bk_trunc_int64
 *		D truncated to a bigint, as C's cast; where the cast is undefined
 *		(NaN, out of range) the smallest bigint, which is what x86-64 gives.
 */
static inline int64
bk_trunc_int64(double d)
{
	if (!FLOAT8_FITS_IN_INT64(d))
		return PG_INT64_MIN;
	return (int64) d;
}

/*
 * bk_random_uniform
 *		random(MIN, MAX): uniform over [MIN, MAX], whose width the caller
 *		has checked to fit in a bigint (pgbench's getrand).
 */
int64
bk_random_uniform(BkPrng *prng, int64 min, int64 max)
{
	return (int64) ((uint64) min +
					bk_prng_upto(prng, (uint64) max - (uint64) min));
}

/*
 * bk_random_exponential
 *		random_exponential(MIN, MAX, PARAMETER): the density at MAX is
 *		exp(-PARAMETER) times that at MIN (pgbench's getExponentialRand).
 */
int64
bk_random_exponential(BkPrng *prng, int64 min, int64 max, double parameter)
{
	double		cut = exp(-parameter);
	double		uniform = 1.0 - bk_prng_double(prng);	/* (0, 1] */
	double		rand = -log(cut + (1.0 - cut) * uniform) / parameter;

	return bk_wrap_add(min, bk_trunc_int64((double) (max - min + 1) * rand));
}

/*
 * bk_random_gaussian
 *		random_gaussian(MIN, MAX, PARAMETER): a normal deviate cut at
 *		+/- PARAMETER standard deviations, mapped onto [MIN, MAX]
 *		(pgbench's getGaussianRand).
 */
int64
bk_random_gaussian(BkPrng *prng, int64 min, int64 max, double parameter)
{
	double		stdev;
	double		rand;

	do
	{
		stdev = bk_prng_normal(prng);
		CHECK_FOR_INTERRUPTS();
	} while (stdev < -parameter || stdev >= parameter);

	rand = (stdev + parameter) / (parameter * 2.0);
	return bk_wrap_add(min, bk_trunc_int64((double) (max - min + 1) * rand));
}

/*
 * bk_random_zipfian
 *		random_zipfian(MIN, MAX, S): Devroye's rejection method
 *		("Non-Uniform Random Variate Generation", p. 550), as pgbench's
 *		getZipfianRand and computeIterativeZipfian.
 */
int64
bk_random_zipfian(BkPrng *prng, int64 min, int64 max, double s)
{
	int64		n = max - min + 1;
	double		b = pow(2.0, s - 1.0);
	double		x;

	if (n <= 1)
		x = 1.0;
	else
	{
		for (;;)
		{
			double		u = bk_prng_double(prng);
			double		v = bk_prng_double(prng);
			double		t;

			x = floor(pow(u, -1.0 / (s - 1.0)));
			t = pow(1.0 + 1.0 / x, s - 1.0);
			/* refuse when too large or out of bound */
			if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= n)
				break;
			CHECK_FOR_INTERRUPTS();
		}
	}
	/* MIN - 1 + x, x in [1, n] */
	return bk_wrap_add(bk_wrap_add(min, -1), (int64) x);
}

/* ------------------------------------------------------------------------
 * sysbench's distributions (sysbench 1.0's sb_rand.c, its formulas and
 * its truncations to uint32): the caller keeps 0 <= MIN <= MAX <= 2^32 - 1
 * ------------------------------------------------------------------------
 */

/*
 * bk_sb_gaussian
 *		--rand-type=gaussian: MIN plus the mean of ITER uniform draws over
 *		[0, MAX - MIN + 1), truncated.
 */
int64
bk_sb_gaussian(BkPrng *prng, int64 min, int64 max, int iter)
{
	double		t = (double) (max - min + 1);
	double		sum = 0.0;

	for (int i = 0; i < iter; i++)
		sum += bk_prng_double(prng) * t;
	return min + (int64) (uint32) (sum * (1.0 / iter));
}

/*
 * bk_sb_special
 *		--rand-type=special: RES percent of the draws fall uniformly in the
 *		PCT percent of the range around its middle, the others follow the
 *		mean of ITER uniform draws over the whole range.
 */
int64
bk_sb_special(BkPrng *prng, int64 min, int64 max, int pct, int res, int iter)
{
	double		t = (double) (max - min);
	double		rnd = bk_prng_double(prng);
	double		r;

	/* the range stretched so that its extra part is RES percent of it */
	if (res < 100 && rnd * (t * (100.0 / (100 - res))) < t)
	{
		double		sum = 0.0;

		for (int i = 0; i < iter; i++)
			sum += bk_prng_double(prng);
		/* MIN + a double, made a uint32 as sysbench's return makes it */
		return (int64) (uint32) ((double) min + sum * t * (1.0 / iter));
	}
	r = rnd * (t * (pct / 100.0) + 1.0);
	r += t / 2 - t * (pct / 200.0);
	return min + (int64) (uint32) r;
}

/*
 * bk_sb_pareto
 *		--rand-type=pareto with shape H: MIN + (MAX - MIN + 1) * u^(log(H) /
 *		log(1 - H)), truncated.
 */
int64
bk_sb_pareto(BkPrng *prng, int64 min, int64 max, double h)
{
	double		power = log(h) / log(1.0 - h);

	return min + (int64) (uint32) ((double) (max - min + 1) *
								   pow(bk_prng_double(prng), power));
}

/* the integral of 1/x^E and its inverse, with their Taylor forms near 0 */
static double
sb_zipf_helper1(double x)
{
	if (fabs(x) > 1e-8)
		return log1p(x) / x;
	return 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double
sb_zipf_helper2(double x)
{
	if (fabs(x) > 1e-8)
		return expm1(x) / x;
	return 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1 + 0.25 * x));
}

static double
sb_zipf_H(double x, double e)
{
	double		logx = log(x);

	return sb_zipf_helper2((1 - e) * logx) * logx;
}

static double
sb_zipf_h(double x, double e)
{
	return exp(-e * log(x));
}

static double
sb_zipf_H_inverse(double x, double e)
{
	double		t = Max(x * (1 - e), -1.0);

	return exp(sb_zipf_helper1(t) * x);
}

/*
 * bk_sb_zipfian
 *		--rand-type=zipfian with exponent E (sysbench 1.1; any E >= 0): the
 *		rejection-inversion method of Hörmann and Derflinger, P(MIN + k - 1)
 *		proportional to 1 / k^E for k in [1, MAX - MIN + 1].
 */
int64
bk_sb_zipfian(BkPrng *prng, int64 min, int64 max, double e)
{
	/* the constants of an exponent and a range, kept for the next draw */
	static double last_e = -1.0;
	static double last_n = -1.0;
	static double s;
	static double hx1;
	static double hn;
	double		n = (double) (max - min + 1);

	if (e != last_e || n != last_n)
	{
		s = 2 - sb_zipf_H_inverse(sb_zipf_H(2.5, e) - sb_zipf_h(2, e), e);
		hx1 = sb_zipf_H(1.5, e) - 1;
		hn = sb_zipf_H(n + 0.5, e);
		last_e = e;
		last_n = n;
	}
	for (;;)
	{
		double		u = hn + bk_prng_double(prng) * (hx1 - hn);
		double		x = sb_zipf_H_inverse(u, e);
		double		k = floor(x + 0.5);

		if (k < 1)
			k = 1;
		else if (k > n)
			k = n;
		if (k - x <= s || u >= sb_zipf_H(k + 0.5, e) - sb_zipf_h(k, e))
			return min + (int64) k - 1;
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * bk_sb_string
 *		sysbench.rand.string(PATTERN) into OUT (as long as PATTERN, and its
 *		terminator): each '#' a random digit, each '@' a random lower-case
 *		letter, anything else as it is.
 */
void
bk_sb_string(BkPrng *prng, const char *pattern, char *out)
{
	for (; *pattern; pattern++, out++)
	{
		if (*pattern == '#')
			*out = (char) ('0' + (int) (bk_prng_double(prng) * 10));
		else if (*pattern == '@')
			*out = (char) ('a' + (int) (bk_prng_double(prng) * 26));
		else
			*out = *pattern;
	}
	*out = '\0';
}

/*
 * bk_hash_fnv1a
 *		hash_fnv1a(VAL, SEED): FNV-1a over the 8 bytes of VAL.
 */
int64
bk_hash_fnv1a(int64 val, uint64 seed)
{
	uint64		result = BK_FNV_OFFSET_BASIS ^ seed;
	uint64		v = (uint64) val;

	for (int i = 0; i < 8; i++)
	{
		result ^= v & 0xff;
		result *= BK_FNV_PRIME;
		v >>= 8;
	}
	return (int64) result;
}

/*
 * bk_hash_murmur2
 *		hash_murmur2(VAL, SEED): MurmurHash64A of VAL (Austin Appleby).
 */
int64
bk_hash_murmur2(int64 val, uint64 seed)
{
	uint64		result = seed ^ BK_MM2_MUL_TIMES_8;
	uint64		k = (uint64) val;

	k *= BK_MM2_MUL;
	k ^= k >> BK_MM2_ROT;
	k *= BK_MM2_MUL;

	result ^= k;
	result *= BK_MM2_MUL;

	result ^= result >> BK_MM2_ROT;
	result *= BK_MM2_MUL;
	result ^= result >> BK_MM2_ROT;

	return (int64) result;
}

/*
 * bk_permute
 *		permute(VAL, SIZE, SEED), SIZE > 0: the image of VAL modulo SIZE by
 *		a pseudorandom permutation of [0, SIZE) chosen by SEED.  pgbench's
 *		six rounds of multiply, xor and rotate on overlapping halves and a
 *		random offset, with a generator of its own seeded by SEED (not the
 *		client's: the same arguments always give the same result).
 */
int64
bk_permute(int64 val, int64 isize, int64 seed)
{
	BkPrng		prng;
	uint64		size;
	uint64		v;
	int			masklen;
	uint64		mask;

	if (isize < 2)
		return 0;

	bk_prng_seed(&prng, (uint64) seed);
	size = (uint64) isize;
	v = (uint64) val % size;

	/* work modulo the largest power of 2 not above size */
	masklen = pg_leftmost_one_pos64(size);
	mask = (((uint64) 1) << masklen) - 1;

	for (int i = 0; i < 6; i++)
	{
		uint64		m,
					r,
					t;

		/* random multiply (by an odd number), xor and rotate: lower half */
		m = (bk_prng_next(&prng) & mask) | 1;
		r = bk_prng_next(&prng) & mask;
		if (v <= mask)
		{
			v = ((v * m) ^ r) & mask;
			v = ((v << 1) & mask) | (v >> (masklen - 1));
		}

		/* the same on the upper half */
		m = (bk_prng_next(&prng) & mask) | 1;
		r = bk_prng_next(&prng) & mask;
		t = size - 1 - v;
		if (t <= mask)
		{
			t = ((t * m) ^ r) & mask;
			t = ((t << 1) & mask) | (t >> (masklen - 1));
			v = size - 1 - t;
		}

		/* random offset */
		r = bk_prng_upto(&prng, size - 1);
		v = (v + r) % size;
	}
	return (int64) v;
}

/* ------------------------------------------------------------------------
 * The generators of a client, as pgbench seeds them
 * ------------------------------------------------------------------------
 */

/*
 * bk_client_random
 *		The generators and :default_seed of client CLIENT (from 0) of
 *		NCLIENTS, run by thread THREAD (from 0) of NTHREADS, as pgbench -c
 *		NCLIENTS -j NTHREADS --random-seed=SEED gives them.  pgbench seeds a
 *		sequence with SEED and draws from it, in this order, the seed of
 *		each client's generator (cs_func_rs), then :default_seed unless -D
 *		set it (DRAW_DEFAULT_SEED false), then for each thread the seeds of
 *		its generators for choosing scripts, for the rate limit and for log
 *		sampling, which the clients of the thread share.
 */
void
bk_client_random(uint64 seed, int nclients, int nthreads, int client, int thread,
				 bool draw_default_seed, BkClientRandom *out)
{
	BkPrng		base;

	if (nclients < 1 || client < 0 || client >= nclients)
		elog(ERROR, "client %d out of range for %d clients", client, nclients);
	if (nthreads < 1 || thread < 0 || thread >= nthreads)
		elog(ERROR, "thread %d out of range for %d threads", thread, nthreads);

	bk_prng_seed(&base, seed);
	for (int i = 0; i < nclients; i++)
	{
		uint64		s = bk_prng_next(&base);

		if (i == client)
			bk_prng_seed(&out->func, s);
	}
	out->default_seed = draw_default_seed ? (int64) bk_prng_next(&base) : 0;
	for (int t = 0; t <= thread; t++)
	{
		uint64		choose = bk_prng_next(&base);
		uint64		throttle = bk_prng_next(&base);

		(void) bk_prng_next(&base); /* log sampling */
		if (t == thread)
		{
			bk_prng_seed(&out->choose, choose);
			bk_prng_seed(&out->throttle, throttle);
		}
	}
}

/*
 * bk_strong_seed
 *		A seed nobody can guess, for a run without random_seed.
 */
uint64
bk_strong_seed(void)
{
	uint64		seed;

	if (!pg_strong_random(&seed, sizeof(seed)))
		seed = ((uint64) MyProcPid << 32) ^ (uint64) GetCurrentTimestamp();
	return seed;
}
