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
#include "workload.h"

PGDLLEXPORT void bench_run_client_main(Datum main_arg);

/* how a bind value is made from a variable, per parameter type */
typedef struct ClientParam
{
	Oid			type;
	Oid			typinput;
	Oid			typioparam;
} ClientParam;

/* a SQL statement of the script, ready to run */
typedef struct ClientStmt
{
	bool		prepared;		/* types known (and planned, for 'prepared') */
	VariableSetStmt *set_xact;	/* SET TRANSACTION ...: run without a snapshot */
	ClientParam *params;
	SPIPlanPtr	plan;			/* protocol 'prepared' */
	Oid		   *types;
} ClientStmt;

typedef struct Client
{
	RunShared  *sh;
	RunClient  *me;
	int			index;
	int			nscripts;
	BkScript  **scripts;
	int		   *command_base;	/* each script's first command in the stats */
	ClientStmt ***stmts;		/* [script][command][statement] */
	BkVarTable *vt;
	BkValue    *vars;
	MemoryContext vars_cxt;		/* the variables' strings */
	BkClientRandom rnd;			/* rnd.func is random()'s generator */
	int64		total_weight;
	RunScriptStat *script_stats;
	RunCommandStat *command_stats;
	BkSharedHist *hist[2];
	MemoryContext cxt;			/* the client's own, for its whole life */
	MemoryContext xact_cxt;		/* reset for every try */

	/* where the script is */
	int			cur_script;
	int			cur_command;
	int			failed_command;	/* of the last try that failed, or -1 */
	bool		xact_open;		/* a transaction is in progress */
	bool		in_block;		/* between BEGIN and END */
	bool		in_pipeline;	/* between \startpipeline and \endpipeline */
	bool		snapshot_pushed;	/* the transaction's outer snapshot */
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
 * client_prepare_stmt
 *		Work out a statement's parameter types and, for 'prepared', plan it
 *		once.  RAW is its raw parse tree, or NULL to parse it here.
 */
static void
client_prepare_stmt(Client *c, BkStatement *stmt, ClientStmt *st, MemoryContext cxt,
					List *raw)
{
	ParamInference pi = {NULL, 0};
	bool		snap = !ActiveSnapshotSet();

	pgstat_report_activity(STATE_RUNNING, stmt->sql_params);

	/* SET TRANSACTION runs as the server runs it, before any snapshot */
	if (raw == NIL)
		raw = pg_parse_query(stmt->sql_params);
	if (list_length(raw) == 1 && IsA(linitial_node(RawStmt, raw)->stmt, VariableSetStmt))
	{
		VariableSetStmt *vs = (VariableSetStmt *) linitial_node(RawStmt, raw)->stmt;

		if (vs->kind == VAR_SET_MULTI && strcmp(vs->name, "TRANSACTION") == 0)
		{
			MemoryContext old = MemoryContextSwitchTo(cxt);

			st->set_xact = copyObject(vs);
			MemoryContextSwitchTo(old);
			st->prepared = true;
			return;
		}
	}

	/* parse analysis as the server does it, with a snapshot */
	if (snap)
		PushActiveSnapshot(GetTransactionSnapshot());
	(void) SPI_prepare_params(stmt->sql_params, client_parser_setup, &pi, 0);
	if (SPI_result < 0)
		elog(ERROR, "could not prepare script statement: %s", stmt->sql_params);

	st->params = MemoryContextAllocZero(cxt, sizeof(ClientParam) * Max(stmt->nparams, 1));
	st->types = MemoryContextAllocZero(cxt, sizeof(Oid) * Max(stmt->nparams, 1));
	for (int p = 0; p < stmt->nparams; p++)
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
		st->plan = SPI_prepare(stmt->sql_params, stmt->nparams, st->types);
		if (st->plan == NULL)
			elog(ERROR, "could not prepare script statement: %s", stmt->sql_params);
		if (SPI_keepplan(st->plan) != 0)
			elog(ERROR, "could not keep the plan of: %s", stmt->sql_params);
	}
	if (snap)
		PopActiveSnapshot();
	st->prepared = true;
}

/*
 * client_is_utility
 *		Whether a statement (its raw parse trees) is anything but SELECT,
 *		INSERT, UPDATE, DELETE (and MERGE): what may create or change what
 *		later statements use.
 */
static bool
client_is_utility(List *raw)
{
	ListCell   *lc;

	foreach(lc, raw)
	{
		Node	   *stmt = ((RawStmt *) lfirst(lc))->stmt;

		switch (nodeTag(stmt))
		{
			case T_SelectStmt:
			case T_InsertStmt:
			case T_UpdateStmt:
			case T_DeleteStmt:
#if PG_VERSION_NUM >= 150000
			case T_MergeStmt:
#endif
				break;
			default:
				return true;
		}
	}
	return false;
}

/*
 * client_prepare
 *		Prepare every SQL statement of every script.  Runs in a transaction;
 *		errors (a missing table, a syntax error) end the client before the
 *		run starts.  A statement after a utility statement of its script
 *		(CREATE TABLE, say), or inside an \if block, is prepared when it
 *		first runs instead, as pgbench prepares each command when it first
 *		runs it: what it needs may not exist before, and a branch may never
 *		run.
 */
static void
client_prepare(Client *c, MemoryContext cxt)
{
	c->stmts = MemoryContextAllocZero(cxt, sizeof(ClientStmt **) * c->nscripts);
	for (int s = 0; s < c->nscripts; s++)
	{
		BkScript   *script = c->scripts[s];
		bool		after_utility = false;
		int			depth = 0;	/* of \if blocks */

		c->stmts[s] = MemoryContextAllocZero(cxt, sizeof(ClientStmt *) * Max(script->ncommands, 1));
		for (int i = 0; i < script->ncommands; i++)
		{
			BkCommand  *cmd = &script->commands[i];

			if (cmd->kind == BK_CMD_IF)
				depth++;
			else if (cmd->kind == BK_CMD_ENDIF)
				depth--;
			if (cmd->kind != BK_CMD_SQL)
				continue;
			c->stmts[s][i] = MemoryContextAllocZero(cxt, sizeof(ClientStmt) * cmd->nstmts);
			for (int j = 0; j < cmd->nstmts && !after_utility; j++)
			{
				List	   *raw = pg_parse_query(cmd->stmts[j].sql_params);

				/* a branch may never run: its statements wait for their turn */
				if (depth == 0)
					client_prepare_stmt(c, &cmd->stmts[j], &c->stmts[s][i][j], cxt, raw);
				after_utility = client_is_utility(raw);
			}
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
client_bind(const BkVarTable *vt, int var, const BkValue *v, const ClientParam *p,
			char *isnull)
{
	char		buf[BK_VALUE_TEXT_LEN];

	*isnull = ' ';
	switch (v->kind)
	{
		case BK_VAL_UNDEF:
			/* a variable never set is a NULL parameter, as pgbench binds it */
			*isnull = 'n';
			return (Datum) 0;
		case BK_VAL_NULL:
			/* the word NULL, as pgbench sends a NULL variable in any protocol */
			break;
		case BK_VAL_STRING:
			return OidInputFunctionCall(p->typinput, v->s, p->typioparam, -1);
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

/* set a transaction mode of BEGIN, before the transaction's first snapshot */
static void
client_xact_mode(const char *name, const char *value)
{
	if (value != NULL)
		(void) set_config_option(name, value, PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_LOCAL, true, 0, false);
}

/* the transaction modes of a BEGIN (ISOLATION LEVEL, READ ONLY, DEFERRABLE) */
static void
client_begin_modes(const BkCommand *begin_cmd)
{
	client_xact_mode("transaction_isolation", begin_cmd->xact_isolation);
	client_xact_mode("transaction_read_only", begin_cmd->xact_read_only);
	client_xact_mode("transaction_deferrable", begin_cmd->xact_deferrable);
}

/*
 * client_xact_start
 *		Start a transaction: an implicit one around a statement, or BEGIN's
 *		(BEGIN_CMD, whose modes it applies: BEGIN ISOLATION LEVEL ...).
 *		No snapshot is taken here: the transaction's first one comes with
 *		its first query (client_exec_sql), so that SET TRANSACTION may
 *		follow BEGIN and REPEATABLE READ sees the database as of its first
 *		query, as in a session.
 */
static void
client_xact_start(const BkCommand *begin_cmd)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (begin_cmd != NULL)
		client_begin_modes(begin_cmd);
	SPI_connect();
}

static void
client_xact_commit(Client *c)
{
	if (c != NULL && c->snapshot_pushed)
		PopActiveSnapshot();
	if (c != NULL)
		c->snapshot_pushed = false;
	SPI_finish();
	CommitTransactionCommand();
}

/*
 * client_sleep_until
 *		Wait until the monotonic clock reads UNTIL_NS, or the run ends:
 *		on the latch for the bulk, then a precise short sleep.  Interrupts
 *		wait for the next statement.
 */
static void
client_sleep_until(Client *c, int64 until_ns)
{
	for (;;)
	{
		int64		now = bk_now_ns();
		int64		left = until_ns - now;

		if (left <= 0 || client_terminated || QueryCancelPending ||
			pg_atomic_read_u32(&c->sh->stop) != 0)
			return;
		if (left > 2 * INT64CONST(1000000))
		{
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 (long) (left / 1000000 - 1), PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
		}
		else
			pg_usleep((long) ((left + 999) / 1000));
	}
}

/*
 * client_gset
 *		Store the last row of the statement just run into variables, one per
 *		column, named prefix + column name (pgbench's \gset and \aset): as
 *		text, as pgbench stores them.  A column no command of the workload
 *		names is read by nobody and skipped.
 */
static void
client_gset(Client *c, const BkCommand *cmd, int row)
{
	TupleDesc	desc = SPI_tuptable->tupdesc;
	HeapTuple	tup = SPI_tuptable->vals[row];

	for (int f = 1; f <= desc->natts; f++)
	{
		char	   *name = psprintf("%s%s", cmd->gset_prefix, SPI_fname(desc, f));
		char	   *value;
		int			var;

		if (!bk_valid_var_name(name))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_NAME),
					 errmsg("invalid variable name: \"%s\"", name),
					 errhint("Name the column with AS, as in SELECT count(*) AS n ... \\gset.")));
		var = bk_var_lookup(c->vt, name, false);
		if (var < 0)
			continue;
		value = SPI_getvalue(tup, desc, f);
		bk_var_set_string(&c->vars[var], value ? value : "", c->vars_cxt);
	}
}

/*
 * client_exec_sql
 *		The statements of one SQL command, in the protocol of the run, with
 *		its \gset or \aset.
 */
static void
client_exec_sql(Client *c, const BkCommand *cmd, ClientStmt *sts)
{
	for (int j = 0; j < cmd->nstmts; j++)
	{
		const BkStatement *stmt = &cmd->stmts[j];
		ClientStmt *st = &sts[j];
		Datum		values[FUNC_MAX_ARGS];
		char		nulls[FUNC_MAX_ARGS];
		Datum	   *vals = values;
		char	   *nls = nulls;
		int			rc;
		bool		last = (j == cmd->nstmts - 1);

		if (!st->prepared)
			client_prepare_stmt(c, (BkStatement *) stmt, st, c->cxt, NIL);
		if (st->set_xact != NULL)
		{
			pgstat_report_activity(STATE_RUNNING, stmt->sql);
			ExecSetVariableStmt(st->set_xact, false);
			continue;
		}
		/* the outer snapshot SPI needs, taken at the first query */
		if (!c->snapshot_pushed)
		{
			PushActiveSnapshot(GetTransactionSnapshot());
			c->snapshot_pushed = true;
		}
		if (stmt->nparams > FUNC_MAX_ARGS)
		{
			vals = palloc(sizeof(Datum) * stmt->nparams);
			nls = palloc(stmt->nparams);
		}
		pgstat_report_activity(STATE_RUNNING,
							   c->sh->protocol == RUN_PROTO_SIMPLE ? stmt->sql : stmt->sql_params);
		if (c->sh->protocol == RUN_PROTO_SIMPLE)
			rc = SPI_execute(bk_sql_substitute(stmt, c->vars), false, 0);
		else
		{
			for (int p = 0; p < stmt->nparams; p++)
			{
				int			var = stmt->param_vars[p];

				vals[p] = client_bind(c->vt, var, &c->vars[var], &st->params[p], &nls[p]);
			}
			if (c->sh->protocol == RUN_PROTO_PREPARED)
				rc = SPI_execute_plan(st->plan, vals, nls, false, 0);
			else
				rc = SPI_execute_with_args(stmt->sql_params, stmt->nparams, st->types,
										   vals, nls, false, 0);
		}
		if (rc < 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("statement at line %d of the script cannot run in a benchmark client (%s)",
							cmd->line, SPI_result_code_string(rc)),
					 errhint("Transaction control other than BEGIN, END, COMMIT and ROLLBACK, COPY to or from the client, and cursors are not supported.")));

		if (cmd->gset == BK_GSET_ONE && last)
		{
			uint64		rows = SPI_tuptable != NULL ? SPI_processed : 0;

			if (rows != 1)
				ereport(ERROR,
						(errcode(ERRCODE_CARDINALITY_VIOLATION),
						 errmsg("expected one row, got %llu", (unsigned long long) rows),
						 errhint("The query before \\gset must return exactly one row; \\aset accepts any number (it keeps the last).")));
			client_gset(c, cmd, 0);
		}
		else if (cmd->gset == BK_GSET_ALL && SPI_tuptable != NULL && SPI_processed > 0)
			client_gset(c, cmd, (int) SPI_processed - 1);
		SPI_freetuptable(SPI_tuptable);
	}
}

/*
 * client_count_command
 *		Command I of the current script ran from T0 until now: count it,
 *		when the run is measuring.
 */
static inline void
client_count_command(Client *c, int i, int64 t0)
{
	if (t0 >= c->sh->measure_ns)
	{
		RunCommandStat *st = &c->command_stats[c->command_base[c->cur_script] + i];

		st->count++;
		st->sum_ns += bk_now_ns() - t0;
	}
}

/*
 * client_false_branch
 *		Where a false \if or \elif at PC goes: the first \elif whose
 *		condition holds, else past the \else, else past the \endif.
 */
static int
client_false_branch(Client *c, BkScript *script, int pc)
{
	for (;;)
	{
		int			next = script->commands[pc].next_branch;
		BkCommand  *cmd = &script->commands[next];
		BkValue		v;
		int64		t0;
		bool		truth;

		if (cmd->kind != BK_CMD_ELIF)
			return next + 1;
		/* an \elif evaluated is an execution of it, as pgbench counts */
		t0 = bk_now_ns();
		c->cur_command = next;
		memset(&v, 0, sizeof(v));
		bk_expr_eval(script, next, cmd->expr, c->vars, &c->rnd.func, &v);
		truth = bk_value_truth(script, next, &v);
		client_count_command(c, next, t0);
		if (truth)
			return next + 1;
		pc = next;
	}
}

/*
 * client_run_script
 *		One execution of script S from its first command to its last.  Each
 *		command's time goes to its statistics when the run is measuring.
 */
static void
client_run_script(Client *c, int s)
{
	BkScript   *script = c->scripts[s];
	int			pc = 0;

	c->cur_script = s;
	c->xact_open = c->in_block = c->in_pipeline = false;
	while (pc < script->ncommands)
	{
		BkCommand  *cmd = &script->commands[pc];
		int			next = pc + 1;
		int64		t0 = bk_now_ns();

		c->cur_command = pc;
		switch (cmd->kind)
		{
			case BK_CMD_SET:
				{
					BkValue		v;

					memset(&v, 0, sizeof(v));
					bk_expr_eval(script, pc, cmd->expr, c->vars, &c->rnd.func, &v);
					bk_var_assign(&c->vars[cmd->var], &v, c->vars_cxt);
				}
				break;
			case BK_CMD_SLEEP:
				client_sleep_until(c, t0 + bk_sleep_usec(script, cmd, c->vars) * 1000);
				CHECK_FOR_INTERRUPTS();
				break;
			case BK_CMD_IF:
				{
					BkValue		v;

					memset(&v, 0, sizeof(v));
					bk_expr_eval(script, pc, cmd->expr, c->vars, &c->rnd.func, &v);
					if (!bk_value_truth(script, pc, &v))
						next = client_false_branch(c, script, pc);
				}
				break;
			case BK_CMD_ELIF:
			case BK_CMD_ELSE:
				/* reached from the branch before, which ran */
				next = cmd->endif + 1;
				break;
			case BK_CMD_ENDIF:
				break;
			case BK_CMD_START_PIPELINE:
				c->in_pipeline = true;
				break;
			case BK_CMD_SYNC_PIPELINE:
			case BK_CMD_END_PIPELINE:
				/* a sync ends the implicit transaction of the pipeline */
				if (c->xact_open && !c->in_block)
				{
					client_xact_commit(c);
					c->xact_open = false;
				}
				if (cmd->kind == BK_CMD_END_PIPELINE)
					c->in_pipeline = false;
				break;
			case BK_CMD_BEGIN:
				if (c->in_block)
					ereport(ERROR,
							(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
							 errmsg("BEGIN at line %d of script \"%s\" inside a transaction block",
									cmd->line, script->name),
							 errhint("End the transaction with END or COMMIT before the next BEGIN.")));
				if (!c->xact_open)
					client_xact_start(cmd);
				else
				{
					/* a BEGIN that turns a pipeline's implicit transaction into a block */
					client_begin_modes(cmd);
				}
				c->xact_open = c->in_block = true;
				break;
			case BK_CMD_COMMIT:
				if (c->xact_open)
					client_xact_commit(c);
				c->xact_open = c->in_block = false;
				break;
			case BK_CMD_ROLLBACK:
				if (c->xact_open)
				{
					SPI_finish();
					AbortCurrentTransaction();
				}
				c->xact_open = c->in_block = false;
				c->snapshot_pushed = false;
				break;
			case BK_CMD_SQL:
				if (!c->xact_open)
				{
					client_xact_start(NULL);
					c->xact_open = true;
				}
				client_exec_sql(c, cmd, c->stmts[s][pc]);
				if (!c->in_block && !c->in_pipeline)
				{
					client_xact_commit(c);
					c->xact_open = false;
				}
				break;
		}
		client_count_command(c, pc, t0);
		pc = next;
	}
	if (c->in_block)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_TERMINATION),
				 errmsg("script \"%s\" ended inside a transaction block", script->name),
				 errhint("End every BEGIN with END or COMMIT in the same script.")));
	if (c->xact_open)
	{
		client_xact_commit(c);
		c->xact_open = false;
	}
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
 *		One try of script S.  Returns 0 when it completed, else the SQLSTATE
 *		of the error that stopped it (the transaction is rolled back).  An
 *		error that is neither retriable nor the client's own termination is
 *		copied into the run's error slot first, if free, with the script and
 *		line where it happened.
 */
static int
client_try(Client *c, int s)
{
	volatile int code = 0;
	MemoryContext oldcxt = MemoryContextSwitchTo(c->xact_cxt);

	c->failed_command = -1;
	PG_TRY();
	{
		client_run_script(c, s);
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		BkScript   *script = c->scripts[c->cur_script];

		MemoryContextSwitchTo(c->xact_cxt);
		edata = CopyErrorData();
		code = edata->sqlerrcode;
		c->failed_command = c->command_base[c->cur_script] + c->cur_command;
		if (code != ERRCODE_T_R_SERIALIZATION_FAILURE &&
			code != ERRCODE_T_R_DEADLOCK_DETECTED &&
			!client_terminated && pg_atomic_read_u32(&c->sh->stop) == 0)
		{
			char	   *message;

			/* the server log has it, as for any backend's error */
			EmitErrorReport();
			message = psprintf("%s (script \"%s\", line %d)", edata->message,
							   script->name, script->commands[c->cur_command].line);
			client_claim_error(c->sh, c->index, edata->sqlerrcode, message,
							   edata->detail, edata->hint, edata->context);
		}
		FlushErrorState();
		AbortCurrentTransaction();
		c->xact_open = c->in_block = c->in_pipeline = false;
		c->snapshot_pushed = false;
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
 * client_count_failure
 *		A transaction of script S failed for good (its tries are over): a
 *		failure of the script and, as pgbench -r counts them, of the command
 *		its last try failed in.
 */
static void
client_count_failure(Client *c, int s)
{
	c->script_stats[s].failures++;
	if (c->failed_command >= 0)
		c->command_stats[c->failed_command].failures++;
}

/*
 * client_choose
 *		The script of the next transaction, drawn by weight from the
 *		choosing generator (pgbench's chooseScript).
 */
static int
client_choose(Client *c)
{
	int64		w;
	int			i = 0;

	if (c->nscripts == 1)
		return 0;
	w = bk_random_uniform(&c->rnd.choose, 0, c->total_weight - 1);
	do
	{
		w -= c->sh->weights[i++];
	} while (w >= 0);
	return i - 1;
}

/*
 * client_poisson_ns
 *		The wait until the next scheduled transaction under a rate limit:
 *		pgbench's getPoissonRand, in whole microseconds, around CENTER_US.
 */
static int64
client_poisson_ns(Client *c, double center_us)
{
	double		uniform = 1.0 - bk_prng_double(&c->rnd.throttle);

	return (int64) (-log(uniform) * center_us + 0.5) * 1000;
}

/*
 * client_loop
 *		Run the workload until the run's end, the client's transaction
 *		count, or an error that ends the client.  Returns false after such
 *		an error.
 *
 * Under a rate limit (pgbench -R) each client keeps a schedule of its own
 * share of the rate, with exponentially distributed gaps (a Poisson
 * process, as pgbench with one thread per client): a transaction starts at
 * its scheduled time or, when the client is behind, at once; its latency
 * counts from the scheduled time and the difference is the schedule lag.
 * With latency_limit too, a transaction already later than the limit when
 * its turn comes is skipped (pgbench -L).
 */
static bool
client_loop(Client *c)
{
	RunShared  *sh = c->sh;
	RunClient  *me = c->me;
	int64		end_ns = sh->duration_ns > 0 ? sh->start_ns + sh->duration_ns : PG_INT64_MAX;
	int64		done = 0;
	double		center_us = sh->rate > 0 ? 1e6 * sh->clients / sh->rate : 0;
	int64		scheduled = sh->start_ns;

	me->min_ns = PG_INT64_MAX;
	me->max_ns = 0;
	for (;;)
	{
		int64		t0;
		int64		t1;
		int64		started;
		int			tries = 0;
		int			code;
		int			s;
		BkPrng		saved;
		RunCounters *ctr;
		int			phase;

		if (bk_now_ns() >= end_ns || pg_atomic_read_u32(&sh->stop) != 0 || client_terminated)
			break;
		if (sh->transactions > 0 && done >= sh->transactions)
			break;
		s = client_choose(c);

		if (center_us > 0)
		{
			scheduled += client_poisson_ns(c, center_us);
			if (sh->latency_limit_ns > 0)
			{
				int64		now = bk_now_ns();

				while (scheduled < now - sh->latency_limit_ns &&
					   !(sh->transactions > 0 && done >= sh->transactions) &&
					   scheduled <= end_ns && pg_atomic_read_u32(&sh->stop) == 0 &&
					   !client_terminated)
				{
					phase = now < sh->measure_ns ? PHASE_WARMUP : PHASE_MEASURED;
					counter_add(&me->phase[phase].skipped, 1);
					if (phase == PHASE_MEASURED)
						c->script_stats[s].skipped++;
					done++;
					scheduled += client_poisson_ns(c, center_us);
				}
				if (sh->transactions > 0 && done >= sh->transactions)
					break;
			}
			if (scheduled > end_ns)
				break;
			pgstat_report_activity(STATE_IDLE, NULL);
			client_sleep_until(c, scheduled);
			if (pg_atomic_read_u32(&sh->stop) != 0 || client_terminated)
				break;
			t0 = scheduled;
		}
		else
			t0 = bk_now_ns();

		started = bk_now_ns();
		saved = c->rnd.func;
		for (;;)
		{
			tries++;
			code = client_try(c, s);
			if (code == 0 || client_terminated || pg_atomic_read_u32(&sh->stop) != 0)
				break;
			if (code != ERRCODE_T_R_SERIALIZATION_FAILURE &&
				code != ERRCODE_T_R_DEADLOCK_DETECTED)
				break;
			if (sh->max_tries != 0 && tries >= sh->max_tries)
				break;
			if (bk_now_ns() >= end_ns)
				break;
			/* no retry once the transaction is later than latency_limit (pgbench) */
			if (sh->latency_limit_ns > 0 && bk_now_ns() - t0 > sh->latency_limit_ns)
				break;
			/* a retry, counted in the command that failed (pgbench -r) */
			if (c->failed_command >= 0 && bk_now_ns() >= sh->measure_ns)
				c->command_stats[c->failed_command].retries++;
			c->rnd.func = saved;	/* the same random values again */
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
			if (center_us > 0)
			{
				/* when it started, against when it was due */
				int64		lag = started - t0;

				counter_add(&ctr->lag_sum_ns, lag);
				if (lag > ctr->lag_max_ns)
					ctr->lag_max_ns = lag;
			}
			if (phase == PHASE_MEASURED)
			{
				if (lat < me->min_ns)
					me->min_ns = lat;
				if (lat > me->max_ns)
					me->max_ns = lat;
				c->script_stats[s].xacts++;
				c->script_stats[s].lat_sum_ns += lat;
			}
			if (sh->latency_limit_ns > 0 && lat > sh->latency_limit_ns)
				counter_add(&ctr->late, 1);
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
			if (phase == PHASE_MEASURED)
				client_count_failure(c, s);
			if (tries > 1)
			{
				counter_add(&ctr->retried, 1);
				counter_add(&ctr->retries, tries - 1);
			}
		}
		else
		{
			counter_add(&ctr->failures[FAIL_OTHER], 1);
			if (phase == PHASE_MEASURED)
				client_count_failure(c, s);
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
 * client_setup
 *		The workload's scripts parsed, the variables set as pgbench sets
 *		them (the run's variables first: like -D, they win over :scale,
 *		:client_id, :random_seed and :default_seed), the generators seeded.
 */
static void
client_setup(Client *c, MemoryContext cxt)
{
	RunShared  *sh = c->sh;
	BkWorkload *w = bk_run_shared_workload(sh);
	const char *p = RUN_TEXT(sh, sh->variables_off);
	bool		given[4] = {false, false, false, false};

	c->vars_cxt = AllocSetContextCreate(cxt, "pgbenchkit client variables",
										ALLOCSET_SMALL_SIZES);
	c->vt = bk_vartable_create();
	c->nscripts = w->nscripts;
	c->scripts = bk_workload_parse(w, c->vt);
	c->total_weight = w->total_weight;
	c->command_base = palloc(sizeof(int) * c->nscripts);
	for (int i = 0, base = 0; i < c->nscripts; i++)
	{
		c->command_base[i] = base;
		base += c->scripts[i]->ncommands;
	}
	c->script_stats = RUN_SCRIPT_STATS(sh, c->index);
	c->command_stats = RUN_COMMAND_STATS(sh, c->index);
	c->vars = palloc0(sizeof(BkValue) * c->vt->nvars);

	for (int i = 0; i < sh->nvariables; i++)
	{
		const char *name = p;
		const char *value;
		int			var;

		p += strlen(p) + 1;
		value = p + 1;
		var = bk_var_lookup(c->vt, name, false);
		if (var >= 0)
		{
			if (*p == 'n')
				c->vars[var].kind = BK_VAL_NULL;
			else
				bk_var_set_string(&c->vars[var], value, c->vars_cxt);
			if (var < 4)
				given[var] = true;
		}
		p = value + strlen(value) + 1;
	}

	bk_client_random(sh->seed, sh->clients, c->index, !given[BK_VAR_DEFAULT_SEED], &c->rnd);
	if (!given[BK_VAR_SCALE])
	{
		c->vars[BK_VAR_SCALE].kind = BK_VAL_INT;
		c->vars[BK_VAR_SCALE].i = sh->scale > 0 ? sh->scale : 1;
	}
	if (!given[BK_VAR_CLIENT_ID])
	{
		c->vars[BK_VAR_CLIENT_ID].kind = BK_VAL_INT;
		c->vars[BK_VAR_CLIENT_ID].i = c->index;
	}
	if (!given[BK_VAR_RANDOM_SEED])
	{
		c->vars[BK_VAR_RANDOM_SEED].kind = BK_VAL_INT;
		c->vars[BK_VAR_RANDOM_SEED].i = (int64) sh->seed;
	}
	if (!given[BK_VAR_DEFAULT_SEED])
	{
		c->vars[BK_VAR_DEFAULT_SEED].kind = BK_VAL_INT;
		c->vars[BK_VAR_DEFAULT_SEED].i = c->rnd.default_seed;
	}
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
	if (!bk_segment_ours(seg, RUN_MAGIC, RUN_CLIENT_TYPE))
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
	c.cxt = cxt;
	c.xact_cxt = AllocSetContextCreate(cxt, "pgbenchkit client transaction",
									   ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(cxt);

	PG_TRY();
	{
		/* the caller's search_path, so that the script finds what the caller found */
		SetConfigOption("search_path", RUN_TEXT(sh, sh->search_path_off),
						PGC_USERSET, PGC_S_SESSION);

		client_setup(&c, cxt);

		client_xact_start(NULL);
		pgstat_report_activity(STATE_RUNNING, "pgbenchkit: preparing the script");
		client_prepare(&c, cxt);
		client_xact_commit(&c);
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
