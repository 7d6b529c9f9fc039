/*-------------------------------------------------------------------------
 *
 * tpcc_functions.c
 *		The server-side functions of a TPC-C dataset (tpcc_functions.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "dataset/tpcc_functions.h"

List *
bk_tpcc_functions_sql(const char *nspname, int version)
{
	/* none yet: the transactions' functions come with mode 'procedures' */
	return NIL;
}
