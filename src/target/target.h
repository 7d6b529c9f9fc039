/*-------------------------------------------------------------------------
 *
 * target.h
 *		Targets: remote PostgreSQL servers stored as foreign servers of the
 *		wrapper bench_target, with the credentials of each role in its user
 *		mapping (target.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_TARGET_H
#define PGBENCHKIT_TARGET_H

#include "foreign/foreign.h"
#include "libpq-fe.h"

/*
 * How often a run's sessions on a target have the target check that their
 * client is still there while a query runs (PostgreSQL 14+), so that the
 * queries of a run whose driver died end within about that long.
 */
#define BK_TARGET_CHECK_EVERY		"1s"
#define BK_TARGET_CHECK_INTERVAL	"client_connection_check_interval=" BK_TARGET_CHECK_EVERY

/* the name of the foreign-data wrapper the extension creates */
#define BK_TARGET_FDW "bench_target"

/* the libpq keyword/value arrays of a target, for one role */
typedef struct BkTargetParams
{
	const char **keywords;		/* NULL-terminated, as PQconnectdbParams takes */
	const char **values;
	int			n;
	int			connect_wait_ms;	/* > 0: a connect waits at most this, in
									 * all, below connect_timeout */
} BkTargetParams;

/* a target as one role uses it: its server, user mapping and libpq options */
typedef struct BkTarget
{
	ForeignServer *server;
	UserMapping *um;
	BkTargetParams *params;
	bool		own_fds;		/* its connections' sockets are not counted
								 * among the server's file descriptors: a
								 * client worker raised its limit for them */
} BkTarget;

extern BkTarget *bk_target_open(const char *name, Oid userid,
								const char *application_name);
extern PGconn *bk_target_open_conn(BkTarget *target);
extern void bk_target_add_setting(BkTarget *target, const char *setting);
extern ForeignServer *bk_target_lookup(const char *name);
extern UserMapping *bk_target_user_mapping(ForeignServer *server, Oid userid);
extern void bk_target_price(ForeignServer *server, const char **price, const char **currency);
extern BkTargetParams *bk_target_params(ForeignServer *server, UserMapping *um);
extern void bk_target_check_params(ForeignServer *server, UserMapping *um,
								   BkTargetParams *params);
extern PGconn *bk_target_connect(ForeignServer *server, UserMapping *um,
								 BkTargetParams *params);
extern void bk_target_check_used_password(ForeignServer *server, UserMapping *um,
										  PGconn *conn);
extern void bk_target_finish(PGconn *conn);
extern void bk_target_set_exec_timeout(int ms);
extern PGconn *bk_target_start_conn(BkTarget *target);
extern int64 bk_target_connect_wait_ms(BkTarget *target);
extern void bk_target_conn_failed(BkTarget *target, PGconn *conn, bool timed_out,
								  int64 wait_ms);
extern void bk_target_conn_ready(BkTarget *target, PGconn *conn);
extern void bk_target_close_conn(BkTarget *target, PGconn *conn);
extern PGresult *bk_target_exec(PGconn *conn, const char *sql);
extern double bk_target_rtt_ms(PGconn *conn);
extern int	bk_libpq_wait_socket(PGconn *conn, int io_flag, long timeout_ms);
extern bool bk_libpq_connect_poll(PGconn *conn, int64 timeout_ms);
extern PGresult *bk_target_exec_params(PGconn *conn, const char *sql, int nparams,
									   const Oid *types, const char *const *values);
extern char *bk_target_value(PGconn *conn, const char *name, const char *what,
							 const char *sql, int nparams, const Oid *types,
							 const char *const *values);
extern char *bk_target_redact(const char *message, BkTargetParams *params);
extern char *bk_mask_secret(const char *text, const char *secret);

#endif							/* PGBENCHKIT_TARGET_H */
