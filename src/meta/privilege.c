/*-------------------------------------------------------------------------
 *
 * privilege.c
 *		Who may see and steer which work, and how many workers a role may
 *		hold at once.
 *
 * Every run, suite, schedule and custom workload belongs to the role that
 * made it (the created_by or defined_by column of its row).  A role sees
 * and steers (cancels, runs, unschedules, replaces) its own work and that
 * of the roles whose privileges it has; members of pgbenchkit_admin and
 * superusers see and steer all of it.  The row level security policies of
 * schema bench call bench._visible, the functions that steer call
 * bk_may_steer: one rule for both.
 *
 * pgbenchkit.max_workers_per_role caps the background workers of
 * pgbenchkit one role holds at once, so that one role cannot take every
 * slot of max_worker_processes from the server's own background work and
 * from the other roles.  It is checked when a call is about to start
 * workers.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "catalog/pg_type.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "meta/catalog.h"
#include "core/pgbenchkit.h"
#include "meta/privilege.h"

PG_FUNCTION_INFO_V1(bench_visible);
PG_FUNCTION_INFO_V1(bench_import);

/*
 * bk_admin_role
 *		The role whose members see and steer every role's work, or
 *		InvalidOid when it was dropped.
 */
static Oid
bk_admin_role(void)
{
	return get_role_oid(BK_ADMIN_ROLE, true);
}

/*
 * bk_may_steer
 *		Whether the current role may see and steer work that role OWNER
 *		(a name, as created_by keeps it) made: a superuser, a role with
 *		the privileges of OWNER, or of pgbenchkit_admin.  A role that no
 *		longer exists is nobody's but the admins'.
 */
bool
bk_may_steer(const char *owner)
{
	Oid			me = GetUserId();
	Oid			ownerid;
	Oid			admin;

	if (superuser())
		return true;
	if (owner != NULL)
	{
		ownerid = get_role_oid(owner, true);
		if (OidIsValid(ownerid) && has_privs_of_role(me, ownerid))
			return true;
	}
	admin = bk_admin_role();
	return OidIsValid(admin) && has_privs_of_role(me, admin);
}

/*
 * bench_visible
 *		SQL function bench._visible(owner name): whether the current role
 *		may see the rows of OWNER's work; the row level security policies
 *		of schema bench are made of it.
 */
Datum
bench_visible(PG_FUNCTION_ARGS)
{
	bk_check_call(fcinfo, 1, "bench._visible");
	if (PG_ARGISNULL(0))
		PG_RETURN_BOOL(bk_may_steer(NULL));
	PG_RETURN_BOOL(bk_may_steer(NameStr(*PG_GETARG_NAME(0))));
}

/*
 * bk_role_workers
 *		The background workers of pgbenchkit the current role holds now, as
 *		pg_stat_activity shows them (its own rows are always visible to it).
 */
static int64
bk_role_workers(void)
{
	Oid			types[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(GetUserId())};

	pgstat_clear_snapshot();
	return bk_spi_int64("SELECT count(*) FROM pg_catalog.pg_stat_activity"
						" WHERE usesysid = $1 AND backend_type LIKE 'pgbenchkit %'",
						1, types, values);
}

/*
 * bk_check_role_workers
 *		Refuse FN, before it starts anything, when it would take the
 *		current role over pgbenchkit.max_workers_per_role: it needs NEEDED
 *		more workers now, or, with AT_ONCE false (a schedule, which runs
 *		later), NEEDED at most at once.  Superusers are not capped.
 */
void
bk_check_role_workers(const char *fn, int64 needed, bool at_once)
{
	int64		held = 0;

	if (bk_max_workers_per_role < 0 || superuser())
		return;
	if (at_once)
		held = bk_role_workers();
	if (held + needed > bk_max_workers_per_role)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("%s needs %lld background workers, but role \"%s\" may hold at most %d (pgbenchkit.max_workers_per_role)%s",
						fn, (long long) needed, GetUserNameFromId(GetUserId(), false),
						bk_max_workers_per_role,
						held > 0 ? psprintf(" and holds %lld already", (long long) held) : ""),
				 errhint("Use fewer clients or jobs, wait for the role's other runs to end, or ask an administrator to raise pgbenchkit.max_workers_per_role for the role (ALTER ROLE ... SET).")));
}

/*
 * bench_import
 *		SQL function bench.import(document): the document's run or suite
 *		inserted as the calling role's work.  bench._import writes it, as
 *		the owner of schema bench, with created_by the calling role: an
 *		import can neither write as another role nor place rows among
 *		another role's work.
 */
Datum
bench_import(PG_FUNCTION_ARGS)
{
	Oid			types[2] = {JSONBOID, NAMEOID};
	Datum		values[2];
	char		nulls[2] = {' ', ' '};
	Datum		result;
	bool		isnull;
	BkOwnerSwitch sw;

	bk_check_call(fcinfo, 1, "bench.import");
	if (PG_ARGISNULL(0))
		nulls[0] = 'n';
	else
		values[0] = PG_GETARG_DATUM(0);
	values[1] = DirectFunctionCall1(namein, CStringGetDatum(GetUserNameFromId(GetUserId(), false)));

	bk_become_owner(&sw);
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT bench._import($1, $2)", 2, types, values, nulls,
							  false, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not import the document");
	result = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	bk_spi_finish();
	bk_restore_user(&sw);
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}
