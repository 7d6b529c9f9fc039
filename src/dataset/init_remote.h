/*-------------------------------------------------------------------------
 *
 * init_remote.h
 *		bench.init into a target: a dataset kind's tables made on another
 *		server over libpq, as pgbench -i makes them (init_remote.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_INIT_REMOTE_H
#define PGBENCHKIT_INIT_REMOTE_H

#include "nodes/pg_list.h"
#include "port/atomics.h"

#include "dataset/dataset.h"
#include "target/target.h"

/* the phases a load times, in the order of bench.init_result */
#define BK_INIT_PH_CREATE	0
#define BK_INIT_PH_LOAD		1
#define BK_INIT_PH_VACUUM	2
#define BK_INIT_PH_PKEYS	3
#define BK_INIT_PH_FKEYS	4
#define BK_INIT_PH_COUNT	5

/* one load into a target, from the check to the end */
typedef struct BkRemoteLoad
{
	/* what to load, set before bk_remote_open */
	const BkDatasetKind *kind;
	const void *opts;
	const char *target;			/* the target's name */
	bool		force;			/* drop the kind's tables found there */
	bool		server_side;	/* generate => 'server' (pgbench -I G) */
	pg_atomic_uint32 *cancel;	/* set by someone else: stop; or NULL */
	void		(*notice) (void *arg, const char *message);	/* or NULL */
	void	   *notice_arg;

	/* the connection and what bk_remote_open found on the target */
	ForeignServer *server;
	BkTargetParams *params;
	PGconn	   *conn;
	char	   *user;			/* the user it connected as */
	char	   *dbname;
	char	   *schema;			/* where the tables go: current_schema() */
	int			version;		/* server_version_num */
	char	   *server_version; /* server_version */
	List	   *existing;		/* the kind's tables found there, to drop */

	/* what bk_remote_load did */
	bool		committed;		/* the tables with their rows are committed */
	bool		in_copy;		/* a COPY is under way */
	int64		rows;
	double		secs[BK_INIT_PH_COUNT];
} BkRemoteLoad;

extern void bk_remote_open(BkRemoteLoad *load, const char *appname);
extern void bk_remote_load(BkRemoteLoad *load);
extern void bk_remote_close(BkRemoteLoad *load);
extern char *bk_remote_abort(BkRemoteLoad *load);
extern char *bk_remote_table(BkRemoteLoad *load, int table);

#endif							/* PGBENCHKIT_INIT_REMOTE_H */
