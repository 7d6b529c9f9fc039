/*-------------------------------------------------------------------------
 *
 * client.c
 *		A client of a benchmark run: one background worker running the
 *		workload's script in a loop, as one pgbench client does.
 *
 * A client connects to the run's database as the role that started the
 * run, parses the script, works out the types of its statements'
 * parameters (as the server does for a Parse message without types) and,
 * with protocol 'prepared', plans them once.  Then it waits for the
 * coordinator's go and runs the script until the run's end, timing each
 * transaction on the monotonic clock and counting it in its own counters
 * and in a shared histogram of the run's segment (run.h).
 *
 * The script is run as pgbench runs it: \set evaluates an expression, a
 * SQL statement outside BEGIN ... END is a transaction of its own, and one
 * execution of the script is one "transaction" of the results.  Protocols:
 * 'simple' puts the variables' values into the text and parses and plans
 * it every time, 'extended' parses it with parameters every time,
 * 'prepared' executes the plan made once (SPI_prepare + SPI_keepplan).
 *
 * Serialization failures and deadlocks are retried up to max_tries with
 * the same random values (the generator's state is restored), as pgbench
 * --max-tries; when the tries run out the transaction counts as failed and
 * the client goes on.  Any other error ends the client, and the
 * coordinator ends the run as 'failed' with that error.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "parser/analyze.h"
#include "parser/parse_node.h"
#include "parser/parse_param.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/pmsignal.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "compat.h"
#include "run.h"
#include "script.h"
#include "worker.h"

PGDLLEXPORT void bench_run_client_main(Datum main_arg);

/* how a bind value is made from a variable, per parameter type */
typedef struct ClientParam
{
	Oid			type;
	Oid			typinput;
	Oid			typioparam;
} ClientParam;

/* a SQL command of the script, ready to run */
typedef struct ClientStmt
{
	ClientParam *params;
	SPIPlanPtr	plan;			/* protocol 'prepared' */
	Oid		   *types;
} ClientStmt;

typedef struct Client
{
	RunShared  *sh;
	RunClient  *me;
	int			index;
	BkScript   *script;
	ClientStmt *stmts;			/* one per command; used for SQL commands */
	BkValue    *vars;
	BkPrng		prng;
	BkSharedHist *hist[2];
	MemoryContext xact_cxt;		/* reset for every try */
	bool		in_block;		/* between BEGIN and END */
} Client;

/* set by SIGTERM: the client was terminated (or the server shuts down) */
static volatile sig_atomic_t client_terminated = false;

/*
 * client_sigterm
 *		SIGTERM: stop the statement in progress with an error (as a query
 *		cancel does), so that the client can say why it ended before it
 *		exits; die() would exit without a word.
 */
static void
client_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	client_terminated = true;
	QueryCancelPending = true;
	InterruptPending = true;
	SetLatch(MyLatch);
	errno = save_errno;
}

/*
 * bk_now_ns
 *		The monotonic clock, in nanoseconds, the same in every process.
 */
int64
bk_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ------------------------------------------------------------------------
 * Preparing the statements
 * ------------------------------------------------------------------------
 */

/* the types of a statement's parameters, inferred as for PREPARE without types */
typedef struct ParamInference
{
	Oid		   *types;
	int			ntypes;
} ParamInference;

static void
client_parser_setup(ParseState *pstate, void *arg)
{
	ParamInference *pi = (ParamInference *) arg;

#if PG_VERSION_NUM >= 150000
	setup_parse_variable_parameters(pstate, &pi->types, &pi->ntypes);
#else
	parse_variable_parameters(pstate, &pi->types, &pi->ntypes);
#endif
}

/*
 * client_prepare
 *		Work out every SQL command's parameter types and, for 'prepared',
 *		plan it once.  Runs in a transaction; errors (a missing table, a
 *		syntax error) end the client before the run starts.
 */
static void
client_prepare(Client *c, MemoryContext cxt)
{
	BkScript   *script = c->script;

	c->stmts = MemoryContextAllocZero(cxt, sizeof(ClientStmt) * script->ncommands);
	for (int i = 0; i < script->ncommands; i++)
	{
		BkStatement *cmd = &script->commands[i].stmts[0];
		ClientStmt *st = &c->stmts[i];
		ParamInference pi = {NULL, 0};

		if (script->commands[i].kind != BK_CMD_SQL)
			continue;
		pgstat_report_activity(STATE_RUNNING, cmd->sql_params);
		(void) SPI_prepare_params(cmd->sql_params, client_parser_setup, &pi, 0);
		if (SPI_result < 0)
			elog(ERROR, "could not prepare script statement: %s", cmd->sql_params);

		st->params = MemoryContextAllocZero(cxt, sizeof(ClientParam) * Max(cmd->nparams, 1));
		st->types = MemoryContextAllocZero(cxt, sizeof(Oid) * Max(cmd->nparams, 1));
		for (int p = 0; p < cmd->nparams; p++)
		{
			Oid			type = p < pi.ntypes ? pi.types[p] : InvalidOid;

			/* a parameter nothing constrains is text, as a literal would be */
			if (!OidIsValid(type) || type == UNKNOWNOID)
				type = TEXTOID;
			st->types[p] = type;
			st->params[p].type = type;
			getTypeInputInfo(type, &st->params[p].typinput, &st->params[p].typioparam);
		}
		if (c->sh->protocol == RUN_PROTO_PREPARED)
		{
			st->plan = SPI_prepare(cmd->sql_params, cmd->nparams, st->types);
			if (st->plan == NULL)
				elog(ERROR, "could not prepare script statement: %s", cmd->sql_params);
			if (SPI_keepplan(st->plan) != 0)
				elog(ERROR, "could not keep the plan of: %s", cmd->sql_params);
		}
	}
}

/* ------------------------------------------------------------------------
 * Running the script
 * ------------------------------------------------------------------------
 */

/*
 * client_bind
 *		The value of a variable as a datum of a parameter's type: integers
 *		directly, anything else through the type's input function, as the
 *		server reads a text parameter.
 */
static Datum
client_bind(const BkScript *script, int var, const BkValue *v, const ClientParam *p,
			char *isnull)
{
	char		buf[64];

	*isnull = ' ';
	switch (v->kind)
	{
		case BK_VAL_UNDEF:
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("undefined variable \"%s\"", script->vt->names[var]),
					 errhint("Set it with \\set before the statement that uses it.")));
			break;
		case BK_VAL_NULL:
			*isnull = 'n';
			return (Datum) 0;
		case BK_VAL_INT:
			if (p->type == INT8OID)
				return Int64GetDatum(v->i);
			if (p->type == INT4OID && v->i >= PG_INT32_MIN && v->i <= PG_INT32_MAX)
				return Int32GetDatum((int32) v->i);
			break;
		default:
			break;
	}
	return OidInputFunctionCall(p->typinput, bk_value_text(v, buf, sizeof(buf)),
								p->typioparam, -1);
}

/* start a transaction: an implicit one around a statement, or BEGIN's */
static void
client_xact_start(void)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
}

static void
client_xact_commit(void)
{
	PopActiveSnapshot();
	SPI_finish();
	CommitTransactionCommand();
}

/*
 * client_exec_sql
 *		One SQL command of the script, in the protocol of the run.
 */
static void
client_exec_sql(Client *c, int ci)
{
	BkStatement *cmd = &c->script->commands[ci].stmts[0];
	ClientStmt *st = &c->stmts[ci];
	Datum		values[FUNC_MAX_ARGS];
	char		nulls[FUNC_MAX_ARGS];
	Datum	   *vals = values;
	char	   *nls = nulls;
	int			rc;

	if (cmd->nparams > FUNC_MAX_ARGS)
	{
		vals = palloc(sizeof(Datum) * cmd->nparams);
		nls = palloc(cmd->nparams);
	}
	pgstat_report_activity(STATE_RUNNING,
						   c->sh->protocol == RUN_PROTO_SIMPLE ? cmd->sql : cmd->sql_params);
	if (c->sh->protocol == RUN_PROTO_SIMPLE)
		rc = SPI_execute(bk_sql_substitute(c->script, cmd, c->vars), false, 0);
	else
	{
		for (int p = 0; p < cmd->nparams; p++)
		{
			int			var = cmd->param_vars[p];

			vals[p] = client_bind(c->script, var, &c->vars[var], &st->params[p], &nls[p]);
		}
		if (c->sh->protocol == RUN_PROTO_PREPARED)
			rc = SPI_execute_plan(st->plan, vals, nls, false, 0);
		else
			rc = SPI_execute_with_args(cmd->sql_params, cmd->nparams, st->types,
									   vals, nls, false, 0);
	}
	if (rc < 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("statement at line %d of the script cannot run in a benchmark client (%s)",
						c->script->commands[ci].line, SPI_result_code_string(rc)),
				 errhint("Transaction control other than BEGIN, END, COMMIT and ROLLBACK, COPY to or from the client, and cursors are not supported.")));
	SPI_freetuptable(SPI_tuptable);
}

/*
 * client_run_script
 *		One execution of the script from its first command to its last.
 */
static void
client_run_script(Client *c)
{
	BkScript   *script = c->script;

	c->in_block = false;
	for (int i = 0; i < script->ncommands; i++)
	{
		BkCommand  *cmd = &script->commands[i];

		switch (cmd->kind)
		{
			case BK_CMD_SET:
				{
					BkValue		v;

					bk_expr_eval(script, i, cmd->expr, c->vars, &c->prng, &v);
					bk_var_assign(&c->vars[cmd->var], &v, TopMemoryContext);
				}
				break;
			case BK_CMD_BEGIN:
				if (c->in_block)
					ereport(ERROR,
							(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
							 errmsg("BEGIN at line %d of script \"%s\" inside a transaction block",
									cmd->line, script->name),
							 errhint("End the transaction with END or COMMIT before the next BEGIN.")));
				client_xact_start();
				c->in_block = true;
				break;
			case BK_CMD_COMMIT:
				if (c->in_block)
					client_xact_commit();
				c->in_block = false;
				break;
			case BK_CMD_ROLLBACK:
				if (c->in_block)
				{
					SPI_finish();
					AbortCurrentTransaction();
				}
				c->in_block = false;
				break;
			case BK_CMD_SQL:
				if (c->in_block)
					client_exec_sql(c, i);
				else
				{
					client_xact_start();
					client_exec_sql(c, i);
					client_xact_commit();
				}
				break;
			default:
				elog(ERROR, "meta-command at line %d is not supported yet", cmd->line);
		}
	}
	if (c->in_block)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_TERMINATION),
				 errmsg("script \"%s\" ended inside a transaction block", script->name),
				 errhint("End every BEGIN with END or COMMIT in the same script.")));
}

/*
 * client_claim_error
 *		Put an error that ends this client into the run's error slot,
 *		unless another client's error is there already (the first wins).
 */
static void
client_claim_error(RunShared *sh, int index, int sqlerrcode, const char *message,
				   const char *detail, const char *hint, const char *context)
{
	if (pg_atomic_exchange_u32(&sh->client_error_claimed, 1) != 0)
		return;
	sh->client_error_index = index;
	sh->client_error.sqlerrcode = sqlerrcode;
	strlcpy(sh->client_error.message, message ? message : "", sizeof(sh->client_error.message));
	strlcpy(sh->client_error.detail, detail ? detail : "", sizeof(sh->client_error.detail));
	strlcpy(sh->client_error.hint, hint ? hint : "", sizeof(sh->client_error.hint));
	strlcpy(sh->client_error.context, context ? context : "", sizeof(sh->client_error.context));
	pg_write_barrier();
	sh->client_error.set = true;
}

/*
 * client_try
 *		One try of the script.  Returns 0 when it completed, else the
 *		SQLSTATE of the error that stopped it (the transaction is rolled
 *		back).  An error that is neither retriable nor the client's own
 *		termination is copied into the run's error slot first, if free.
 */
static int
client_try(Client *c)
{
	volatile int code = 0;
	MemoryContext oldcxt = MemoryContextSwitchTo(c->xact_cxt);

	PG_TRY();
	{
		client_run_script(c);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(c->xact_cxt);
		edata = CopyErrorData();
		code = edata->sqlerrcode;
		if (code != ERRCODE_T_R_SERIALIZATION_FAILURE &&
			code != ERRCODE_T_R_DEADLOCK_DETECTED &&
			!client_terminated && pg_atomic_read_u32(&c->sh->stop) == 0)
		{
			/* the server log has it, as for any backend's error */
			EmitErrorReport();
			client_claim_error(c->sh, c->index, edata->sqlerrcode, edata->message,
							   edata->detail, edata->hint, edata->context);
		}
		FlushErrorState();
		AbortCurrentTransaction();
		c->in_block = false;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(c->xact_cxt);
	return code;
}

/* counter updates: only this client writes its counters */
static inline void
counter_add(pg_atomic_uint64 *counter, uint64 n)
{
	pg_atomic_write_u64(counter, pg_atomic_read_u64(counter) + n);
}

/*
 * client_loop
 *		Run the script until the run's end, the client's transaction count,
 *		or an error that ends the client.  Returns false after such an
 *		error.
 */
static bool
client_loop(Client *c)
{
	RunShared  *sh = c->sh;
	RunClient  *me = c->me;
	int64		end_ns = sh->duration_ns > 0 ? sh->start_ns + sh->duration_ns : PG_INT64_MAX;
	int64		done = 0;

	me->min_ns = PG_INT64_MAX;
	me->max_ns = 0;
	for (;;)
	{
		int64		t0 = bk_now_ns();
		int64		t1;
		int			tries = 0;
		int			code;
		BkPrng		saved = c->prng;
		RunCounters *ctr;
		int			phase;

		if (t0 >= end_ns || pg_atomic_read_u32(&sh->stop) != 0 || client_terminated)
			break;
		if (sh->transactions > 0 && done >= sh->transactions)
			break;

		for (;;)
		{
			tries++;
			code = client_try(c);
			if (code == 0 || client_terminated || pg_atomic_read_u32(&sh->stop) != 0)
				break;
			if (code != ERRCODE_T_R_SERIALIZATION_FAILURE &&
				code != ERRCODE_T_R_DEADLOCK_DETECTED)
				break;
			if (sh->max_tries != 0 && tries >= sh->max_tries)
				break;
			if (bk_now_ns() >= end_ns)
				break;
			c->prng = saved;	/* the same random values again */
		}
		t1 = bk_now_ns();
		me->end_ns = t1;
		phase = t1 < sh->measure_ns ? PHASE_WARMUP : PHASE_MEASURED;
		ctr = &me->phase[phase];
		done++;

		if (code == 0)
		{
			int64		lat = t1 - t0;
			double		ms = lat / 1e6;

			bk_hist_record(c->hist[phase], lat);
			counter_add(&ctr->lat_sum_ns, lat);
			ctr->lat_sumsq += ms * ms;
			if (phase == PHASE_MEASURED)
			{
				if (lat < me->min_ns)
					me->min_ns = lat;
				if (lat > me->max_ns)
					me->max_ns = lat;
			}
			if (tries > 1)
			{
				counter_add(&ctr->retried, 1);
				counter_add(&ctr->retries, tries - 1);
			}
			pg_write_barrier();
			counter_add(&ctr->xacts, 1);
		}
		else if (client_terminated || pg_atomic_read_u32(&sh->stop) != 0)
			break;				/* cut short by the end of the run */
		else if (code == ERRCODE_T_R_SERIALIZATION_FAILURE ||
				 code == ERRCODE_T_R_DEADLOCK_DETECTED)
		{
			counter_add(&ctr->failures[code == ERRCODE_T_R_SERIALIZATION_FAILURE ?
									   FAIL_SERIALIZATION : FAIL_DEADLOCK], 1);
			if (tries > 1)
			{
				counter_add(&ctr->retried, 1);
				counter_add(&ctr->retries, tries - 1);
			}
		}
		else
		{
			counter_add(&ctr->failures[FAIL_OTHER], 1);
			return false;
		}

		/*
		 * Interrupts are served inside the next try (a cancel fails that
		 * transaction; SIGTERM sets client_terminated), never out here where
		 * an error would end the worker without a word.
		 */
		pgstat_report_activity(STATE_IDLE, NULL);
		pgstat_report_stat(false);
		/* a busy client never waits on its latch: look for the postmaster */
		if (!PostmasterIsAlive())
			proc_exit(1);
	}
	return true;
}

/*
 * bench_run_client_main
 *		Entry point of a client worker.
 */
void
bench_run_client_main(Datum main_arg)
{
	dsm_segment *seg;
	RunShared  *sh;
	Client		c;
	MemoryContext cxt;
	char		appname[NAMEDATALEN];

	pqsignal(SIGTERM, client_sigterm);
	BackgroundWorkerUnblockSignals();
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		return;					/* the run is over already */
	sh = (RunShared *) dsm_segment_address(seg);
	if (sh->magic != RUN_MAGIC)
		return;

	memset(&c, 0, sizeof(c));
	c.sh = sh;
	c.index = bk_worker_index();
	c.me = &RUN_CLIENTS(sh)[c.index];
	c.me->pid = MyProcPid;
	c.hist[PHASE_WARMUP] = RUN_HIST(sh, PHASE_WARMUP, c.index % sh->nshards);
	c.hist[PHASE_MEASURED] = RUN_HIST(sh, PHASE_MEASURED, c.index % sh->nshards);

	snprintf(appname, sizeof(appname), "pgbenchkit run %lld client %d",
			 (long long) sh->run_id, c.index);
	bk_worker_connect(sh->dboid, sh->roleid, appname);

	cxt = AllocSetContextCreate(TopMemoryContext, "pgbenchkit client", ALLOCSET_DEFAULT_SIZES);
	c.xact_cxt = AllocSetContextCreate(cxt, "pgbenchkit client transaction",
									   ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(cxt);

	PG_TRY();
	{
		/* the caller's search_path, so that the script finds what the caller found */
		SetConfigOption("search_path", RUN_TEXT(sh, sh->search_path_off),
						PGC_USERSET, PGC_S_SESSION);

		c.script = bk_script_parse(RUN_TEXT(sh, sh->script_off), sh->workload,
								   bk_vartable_create());
		c.vars = palloc0(sizeof(BkValue) * c.script->vt->nvars);
		c.vars[BK_VAR_SCALE].kind = BK_VAL_INT;
		c.vars[BK_VAR_SCALE].i = sh->scale;
		c.vars[BK_VAR_CLIENT_ID].kind = BK_VAL_INT;
		c.vars[BK_VAR_CLIENT_ID].i = c.index;
		c.vars[BK_VAR_RANDOM_SEED].kind = BK_VAL_INT;
		c.vars[BK_VAR_RANDOM_SEED].i = (int64) sh->seed;
		bk_prng_seed(&c.prng, sh->seed ^ ((uint64) (c.index + 1) * UINT64CONST(0x9E3779B97F4A7C15)));

		client_xact_start();
		pgstat_report_activity(STATE_RUNNING, "pgbenchkit: preparing the script");
		client_prepare(&c, cxt);
		client_xact_commit();
		pgstat_report_activity(STATE_IDLE, NULL);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		EmitErrorReport();
		FlushErrorState();
		client_claim_error(sh, c.index, edata->sqlerrcode, edata->message,
						   edata->detail, edata->hint, edata->context);
		AbortOutOfAnyTransaction();
		pg_atomic_write_u32(&c.me->state, CLIENT_DONE);
		bk_set_latch_of(sh->coordinator_pid);
		proc_exit(1);
	}
	PG_END_TRY();

	/* ready: wait for the coordinator's go */
	pg_write_barrier();
	pg_atomic_write_u32(&c.me->state, CLIENT_READY);
	bk_set_latch_of(sh->coordinator_pid);
	while (pg_atomic_read_u32(&sh->go) == 0)
	{
		if (pg_atomic_read_u32(&sh->stop) != 0 || client_terminated)
		{
			pg_atomic_write_u32(&c.me->state, CLIENT_DONE);
			bk_set_latch_of(sh->coordinator_pid);
			proc_exit(0);
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	pg_read_barrier();

	(void) client_loop(&c);
	if (client_terminated && pg_atomic_read_u32(&sh->stop) == 0)
		client_claim_error(sh, c.index, ERRCODE_ADMIN_SHUTDOWN,
						   "terminating connection due to administrator command",
						   NULL, "The client was terminated (pg_terminate_backend or a server shutdown).",
						   NULL);

	pgstat_report_activity(STATE_IDLE, NULL);
	pgstat_report_stat(true);
	pg_write_barrier();
	pg_atomic_write_u32(&c.me->state, CLIENT_DONE);
	bk_set_latch_of(sh->coordinator_pid);
}
