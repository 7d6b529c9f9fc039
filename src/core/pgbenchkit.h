/*-------------------------------------------------------------------------
 *
 * pgbenchkit.h
 *		Declarations shared by the C files of pgbenchkit.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_H
#define PGBENCHKIT_H

#include "fmgr.h"

/* the library's version, the Makefile's EXTVERSION */
#ifndef BK_VERSION
#error "BK_VERSION must be defined (the Makefile passes EXTVERSION)"
#endif

extern void _PG_init(void);
extern void bk_check_call(FunctionCallInfo fcinfo, int nargs, const char *fn);
extern void bk_refuse_call(const char *fn, const char *message);
extern void bk_refuse_call_count(FunctionCallInfo fcinfo, int nargs, const char *fn);

/* pgbenchkit.test_pause: moments a run's coordinator waits at, for tests */
extern PGDLLIMPORT char *bk_test_pause;
extern PGDLLIMPORT bool bk_time_phases;

/* pgbenchkit.max_workers_per_role: -1, no cap (meta/privilege.c) */
extern PGDLLIMPORT int bk_max_workers_per_role;

/* pgbenchkit.init_direct_writes: whether a load writes around the page cache */
typedef enum BkDirectWrites
{
	BK_DIRECT_WRITES_OFF,
	BK_DIRECT_WRITES_ON,
	BK_DIRECT_WRITES_AUTO		/* when the dataset is large (bench.init decides) */
} BkDirectWrites;

extern PGDLLIMPORT int bk_init_direct_writes;

/*
 * The price of the server a run runs on (pgbenchkit.price_per_hour and
 * pgbenchkit.currency here, a target's options of the same names there):
 * a decimal number of at most BK_PRICE_MAX_LEN characters, and three
 * upper-case letters (ISO 4217's form); "" for none.
 */
#define BK_PRICE_MAX_LEN		24
#define BK_CURRENCY_LEN			3
extern PGDLLIMPORT char *bk_price_per_hour;
extern PGDLLIMPORT char *bk_currency;
extern bool bk_price_valid(const char *value);
extern bool bk_currency_valid(const char *value);
extern void bk_price_check_pair(const char *price, const char *currency,
								const char *price_name, const char *currency_name);

/* how an error message quotes a value it refuses */
#define BK_MAX_SHOWN_CHARS		64		/* of a bad value echoed in an error */
extern const char *bk_shown(const char *value);

#endif							/* PGBENCHKIT_H */
