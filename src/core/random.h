/*-------------------------------------------------------------------------
 *
 * random.h
 *		The random numbers of pgbench's script language (random.c): the
 *		generator, the distributions, hashes and permutation behind the
 *		functions of expressions, and the generators of a client.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_RANDOM_H
#define PGBENCHKIT_RANDOM_H

/*
 * The random generator: pgbench's (PostgreSQL's pg_prng, xoroshiro128**
 * seeded through splitmix64), so that one seed gives pgbench's numbers.
 * Its state is copyable: a client restores a saved copy to retry a
 * transaction with the same values.
 */
typedef struct BkPrng
{
	uint64		s0;
	uint64		s1;
} BkPrng;

/*
 * the generators and seeds of one client, as pgbench -c N -j J gives them:
 * choose and throttle are its thread's, shared with the thread's other
 * clients
 */
typedef struct BkClientRandom
{
	BkPrng		func;			/* random() and friends (cs_func_rs) */
	BkPrng		choose;			/* which script of a mix (ts_choose_rs) */
	BkPrng		throttle;		/* the rate limit's schedule (ts_throttle_rs) */
	int64		default_seed;	/* :default_seed */
} BkClientRandom;

/* the generator */
extern void bk_prng_seed(BkPrng *prng, uint64 seed);

/*
 * bk_prng_next
 *		The next 64 random bits (xoroshiro128**, as pg_prng_uint64); inline:
 *		the loaders draw it for every two characters they generate.
 */
static inline uint64
bk_prng_next(BkPrng *prng)
{
	uint64		s0 = prng->s0;
	uint64		sx = prng->s1 ^ s0;
	uint64		val = ((s0 * 5) << 7 | (s0 * 5) >> 57) * 9;

	prng->s0 = (s0 << 24 | s0 >> 40) ^ sx ^ (sx << 16);
	prng->s1 = sx << 37 | sx >> 27;
	return val;
}
extern double bk_prng_double(BkPrng *prng);

/* distributions, hashes, permutation (the evaluator checks the arguments) */
extern int64 bk_random_uniform(BkPrng *prng, int64 min, int64 max);
extern int64 bk_random_exponential(BkPrng *prng, int64 min, int64 max,
								   double parameter);
extern int64 bk_random_gaussian(BkPrng *prng, int64 min, int64 max,
								double parameter);
extern int64 bk_random_zipfian(BkPrng *prng, int64 min, int64 max, double s);
extern int64 bk_sb_gaussian(BkPrng *prng, int64 min, int64 max, int iter);
extern int64 bk_sb_special(BkPrng *prng, int64 min, int64 max, int pct, int res,
						   int iter);
extern int64 bk_sb_pareto(BkPrng *prng, int64 min, int64 max, double h);
extern int64 bk_sb_zipfian(BkPrng *prng, int64 min, int64 max, double e);
extern void bk_sb_string(BkPrng *prng, const char *pattern, char *out);
extern int64 bk_hash_fnv1a(int64 val, uint64 seed);
extern int64 bk_hash_murmur2(int64 val, uint64 seed);
extern int64 bk_permute(int64 val, int64 isize, int64 seed);

/* the generators of a client */
extern void bk_client_random(uint64 seed, int nclients, int nthreads, int client,
							 int thread, bool draw_default_seed, BkClientRandom *out);
extern uint64 bk_strong_seed(void);

#endif							/* PGBENCHKIT_RANDOM_H */
