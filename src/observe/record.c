/*-------------------------------------------------------------------------
 *
 * record.c
 *		What a run's observer records with the run's row and after its
 *		clients stopped (bk_obs_begin, bk_obs_end): the settings and host
 *		facts, what was prewarmed, the sizes of the workload's tables and
 *		indexes before and after (bench.relation_sizes), the first and the
 *		last sample, what could not be read (bench.runs.unavailable); and
 *		the query of a target's settings.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"

#include "meta/catalog.h"
#include "core/compat.h"
#include "observe/observe.h"
#include "observe/cpu.h"
#include "observe/record.h"
#include "observe/sample.h"

/* settings every run records, default or not (those that exist) */
static const char *const notable_settings =
"{server_version,server_version_num,wal_level,shared_buffers,max_wal_size,"
"min_wal_size,checkpoint_timeout,checkpoint_completion_target,"
"synchronous_commit,wal_compression,wal_buffers,data_checksums,huge_pages,"
"huge_pages_status,fsync,full_page_writes,io_method,effective_io_concurrency,"
"work_mem,max_connections,autovacuum,block_size,wal_segment_size}";

static char *
obs_unavailable_json(BkObserver *o)
{
	return psprintf("%s}", o->unavailable.data);
}

/* sizes of the workload's tables and indexes into bench.relation_sizes */
static void
obs_sizes(BkObserver *o, const char *phase)
{
	Oid			types[3] = {OIDARRAYOID, TEXTOID, TEXTOID};
	Datum		values[3];
	char	   *json;
	BkOwnerSwitch sw;

	if (o->ntables == 0)
		return;
	values[0] = obs_oid_array(o->tables, o->ntables);
	json = obs_text(o, psprintf("%s SELECT pg_catalog.jsonb_agg(x) FROM ("
								   " SELECT c.oid AS relid, pg_catalog.format('%%I.%%I', n.nspname, c.relname) AS relation,"
								   " 'table' AS kind, pg_catalog.format('%%I.%%I', n.nspname, c.relname) AS table_name,"
								   " pg_catalog.pg_relation_size(c.oid) AS main_bytes,"
								   " CASE WHEN c.reltoastrelid <> 0 THEN pg_catalog.pg_total_relation_size(c.reltoastrelid)"
								   " ELSE 0 END AS toast_bytes,"
								   " pg_catalog.pg_indexes_size(c.oid) AS indexes_bytes,"
								   " pg_catalog.pg_total_relation_size(c.oid) AS total_bytes"
								   " FROM t JOIN pg_catalog.pg_class c ON c.oid = t.relid"
								   " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
								   " UNION ALL"
								   " SELECT i.indexrelid, pg_catalog.format('%%I.%%I', n.nspname, x.relname), 'index',"
								   " pg_catalog.format('%%I.%%I', n.nspname, c.relname), pg_catalog.pg_relation_size(i.indexrelid),"
								   " NULL, NULL, pg_catalog.pg_total_relation_size(i.indexrelid)"
								   " FROM t JOIN pg_catalog.pg_index i ON i.indrelid = t.relid"
								   " JOIN pg_catalog.pg_class c ON c.oid = i.indrelid"
								   " JOIN pg_catalog.pg_class x ON x.oid = i.indexrelid"
								   " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace) x",
								   leaf_tables_cte),
					1, types, values);
	if (json == NULL)
		return;
	values[0] = Int64GetDatum(o->run_id);
	values[1] = CStringGetTextDatum(phase);
	values[2] = CStringGetTextDatum(json);
	types[0] = INT8OID;
	types[1] = TEXTOID;
	bk_become_owner(&sw);
	bk_spi_exec("INSERT INTO bench.relation_sizes"
				" SELECT $1, $2, x.relid, x.relation, x.kind, x.table_name, x.main_bytes,"
				" x.toast_bytes, x.indexes_bytes, x.total_bytes"
				" FROM pg_catalog.jsonb_to_recordset($3::pg_catalog.jsonb) AS x (relid oid,"
				" relation text, kind text, table_name text, main_bytes bigint,"
				" toast_bytes bigint, indexes_bytes bigint, total_bytes bigint)",
				3, types, values, NULL, SPI_OK_INSERT);
	bk_restore_user(&sw);
}

/*
 * The settings only superusers and pg_read_all_settings may read (paths,
 * primary_conninfo, ssl_passphrase_command ...), as a text[] literal: they
 * are not recorded, since everyone may read bench.runs.
 */
static char *
obs_hidden_settings(void)
{
	StringInfoData buf;
	int			nvars;
	struct config_generic **vars = get_guc_variables_compat(&nvars);

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (int i = 0; i < nvars; i++)
	{
		if ((vars[i]->flags & GUC_SUPERUSER_ONLY) == 0)
			continue;
		if (buf.len > 1)
			appendStringInfoChar(&buf, ',');
		appendStringInfo(&buf, "\"%s\"", vars[i]->name);
	}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/* bench.runs.unavailable, when it changed */
static void
obs_write_unavailable(BkObserver *o)
{
	Oid			types[2] = {INT8OID, TEXTOID};
	Datum		values[2];
	BkOwnerSwitch sw;

	if (!o->unavailable_changed)
		return;
	values[0] = Int64GetDatum(o->run_id);
	values[1] = CStringGetTextDatum(obs_unavailable_json(o));
	bk_become_owner(&sw);
	bk_spi_exec(psprintf("UPDATE %s SET unavailable = $2::pg_catalog.jsonb WHERE id = $1",
						 bk_runs_table()),
				2, types, values, NULL, SPI_OK_UPDATE);
	bk_restore_user(&sw);
	o->unavailable_changed = false;
}

/*
 * bk_obs_begin
 *		With the run's row, before the clients go: what was prewarmed, the
 *		settings and host facts, the sizes before, and the first sample.
 */
void
bk_obs_begin(BkObserver *o, TimestampTz at, double elapsed_s, int64 xacts)
{
	Oid			types[4] = {INT8OID, TEXTOID, TEXTOID, TEXTOID};
	Datum		values[4];
	char		nulls[4] = {' ', ' ', ' ', ' '};
	char	   *settings = NULL;
	BkOwnerSwitch sw;

	if (o->remote == NULL)
	{
		Oid			t[2] = {TEXTOID, TEXTOID};
		Datum		v[2] = {CStringGetTextDatum(notable_settings),
		CStringGetTextDatum(obs_hidden_settings())};

		settings = obs_query_text("SELECT pg_catalog.jsonb_object_agg(s.name, pg_catalog.current_setting(s.name))"
								  " FROM pg_catalog.pg_settings s"
								  " WHERE (s.source NOT IN ('default', 'override', 'client', 'session', 'interactive')"
								  " OR s.name = ANY ($1::pg_catalog.text[]))"
								  " AND s.name <> ALL ($2::pg_catalog.text[])",
								  2, t, v);
	}
	values[0] = Int64GetDatum(o->run_id);
	if (settings != NULL)
		values[1] = CStringGetTextDatum(settings);
	else
		nulls[1] = 'n';
	if (o->stats_priv && o->remote == NULL)
		values[2] = CStringGetTextDatum(obs_host_json());
	else
		nulls[2] = 'n';
	values[3] = CStringGetTextDatum(obs_unavailable_json(o));
	bk_become_owner(&sw);
	/* a target's settings were read by the coordinator; its host is not here */
	bk_spi_exec(psprintf(o->remote ?
						 "UPDATE %s SET unavailable = $4::pg_catalog.jsonb WHERE id = $1" :
						 "UPDATE %s SET settings = $2::pg_catalog.jsonb, host = $3::pg_catalog.jsonb,"
						 " unavailable = $4::pg_catalog.jsonb WHERE id = $1",
						 bk_runs_table()),
				4, types, values, nulls, SPI_OK_UPDATE);
	if (o->prewarm_json != NULL)
	{
		types[1] = TEXTOID;
		values[1] = CStringGetTextDatum(o->prewarm_json);
		bk_spi_exec("INSERT INTO bench.prewarms (run_id, relid, relation, kind, blocks, seconds)"
					" SELECT $1, p.relid, p.relation, p.kind, p.blocks, p.seconds"
					" FROM pg_catalog.jsonb_to_recordset($2::pg_catalog.jsonb) AS p (relid oid,"
					" relation text, kind text, blocks bigint, seconds double precision)",
					2, types, values, NULL, SPI_OK_INSERT);
	}
	bk_restore_user(&sw);
	o->unavailable_changed = false;

	obs_sizes(o, "before");
	bk_obs_sample(o, "before", at, elapsed_s, xacts);
	obs_write_unavailable(o);
}

/*
 * bk_obs_end
 *		After the clients stopped: the last sample and the sizes after.
 */
void
bk_obs_end(BkObserver *o, TimestampTz at, double elapsed_s, int64 xacts)
{
	if (o->remote_lost)
	{
		obs_write_unavailable(o);
		return;
	}
	/* one more try after a sample that failed: the run needs this one */
	o->sampling = true;
	bk_obs_sample(o, "after", at, elapsed_s, xacts);
	obs_sizes(o, "after");
	obs_write_unavailable(o);
}

/*
 * bk_obs_settings_sql
 *		The query that reads a server's settings as runs record them (those
 *		set other than by default, and the notable ones), for a target: the
 *		same as bk_obs_begin's, the values inlined.  Settings only
 *		superusers may read are left out there too.
 */
char *
bk_obs_settings_sql(void)
{
	return psprintf("SELECT pg_catalog.jsonb_object_agg(s.name, pg_catalog.current_setting(s.name))"
					" FROM pg_catalog.pg_settings s"
					" WHERE (s.source NOT IN ('default', 'override', 'client', 'session', 'interactive')"
					" OR s.name OPERATOR(pg_catalog.=) ANY (%s::pg_catalog.text[]))"
					" AND s.name OPERATOR(pg_catalog.<>) ALL (%s::pg_catalog.text[])",
					quote_literal_cstr(notable_settings),
					quote_literal_cstr(obs_hidden_settings()));
}
