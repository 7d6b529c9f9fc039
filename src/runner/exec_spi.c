/*-------------------------------------------------------------------------
 *
 * exec_spi.c
 *		The SPI executor (executor.h): the session is this worker's own
 *		backend, which runs the script's SQL through SPI in transactions it
 *		starts and commits itself, as the server would for a connection.
 *
 * Before the run, every statement gets its parameter types, worked out as
 * the server does for a Parse message without types, and with protocol
 * 'prepared' its plan, made once (SPI_prepare + SPI_keepplan).  Protocols:
 * 'simple' puts the variables' values into the text and parses and plans
 * it every time, 'extended' parses it with parameters every time,
 * 'prepared' executes the plan made once.
 *
 * A statement with identifier variables, :{name}, can be parsed only once
 * they have values: it is made ready when it first runs, and then for each
 * text its identifiers give it (a variant), which keeps its parameter
 * types and, with 'prepared', its plan for the rest of the session, at most
 * BK_IDENT_MAX_VARIANTS of them.  With 'simple' its text is made anew
 * every time, as any statement's.
 *
 * A request runs when it is fetched, one statement per fetch, so the
 * session is always ready.  An error is caught where it happens: the
 * transaction is aborted and the error copied out for the runner; unless
 * the runner may retry it, or the client is stopping (QUIET says so), it
 * goes to the server log first, as the server logs its sessions' errors.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "optimizer/planner.h"
#include "parser/analyze.h"
#include "parser/parse_node.h"
#include "parser/parse_param.h"
#include "pgstat.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "core/compat.h"
#include "runner/exec_spi.h"
#include "core/clock.h"
#include "runner/segment.h"
#include "script/meta.h"
#include "script/subst.h"
#include "script/value.h"
#include "script/variant.h"
#include "script/vars.h"

/* how a bind value is made from a variable, per parameter type */
typedef struct SpiParam
{
	Oid			type;
	Oid			typinput;
	Oid			typioparam;
} SpiParam;

/* a SQL statement of the script, ready to run */
typedef struct SpiStmt
{
	bool		prepared;		/* types known (and planned, for 'prepared') */
	VariableSetStmt *set_xact;	/* SET TRANSACTION ...: run without a snapshot */
	SpiParam   *params;
	SPIPlanPtr	plan;			/* protocol 'prepared' */
	Oid		   *types;
	BkVariants	variants;		/* with :{name}s: a SpiStmt of each text */
} SpiStmt;

/* the request in progress */
typedef enum SpiRequest
{
	SPI_REQ_NONE,
	SPI_REQ_COMMAND,
	SPI_REQ_ABORT
} SpiRequest;

typedef struct SpiSession
{
	BkExecSession base;
	int			protocol;
	bool		(*quiet) (void *arg);
	void	   *quiet_arg;
	bool		time_phases;	/* time each statement's phases (BkResult) */
	MemoryContext cxt;			/* statements and plans, for the session's life */
	MemoryContext req_cxt;		/* reset for every request */
	int			nscripts;
	BkScript  **scripts;
	SpiStmt  ***stmts;			/* [script][command][statement] */

	/* the transaction, as the server would keep it for a connection */
	bool		xact_open;		/* a transaction is in progress */
	bool		in_block;		/* between BEGIN and END */
	bool		in_pipeline;	/* between \startpipeline and \endpipeline */
	bool		snapshot_pushed;	/* the transaction's outer snapshot */

	/* the request */
	SpiRequest	req;
	int			script;
	int			cmdno;
	const BkCommand *cmd;
	const BkValue *vars;
	int			next_stmt;		/* of cmd, to run at the next fetch */
} SpiSession;

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
spi_parser_setup(ParseState *pstate, void *arg)
{
	ParamInference *pi = (ParamInference *) arg;

#if PG_VERSION_NUM >= 150000
	setup_parse_variable_parameters(pstate, &pi->types, &pi->ntypes);
#else
	parse_variable_parameters(pstate, &pi->types, &pi->ntypes);
#endif
}

/*
 * spi_prepare_stmt
 *		Work out the parameter types of statement SQL, with NPARAMS
 *		parameters, and, for 'prepared', plan it once; what it keeps is
 *		allocated in CXT.  RAW is its raw parse tree, or NULL to parse it
 *		here.
 */
static void
spi_prepare_stmt(SpiSession *ss, const char *sql, int nparams, SpiStmt *st,
				 List *raw, MemoryContext cxt)
{
	ParamInference pi = {NULL, 0};
	bool		snap = !ActiveSnapshotSet();

	pgstat_report_activity(STATE_RUNNING, sql);

	/* SET TRANSACTION runs as the server runs it, before any snapshot */
	if (raw == NIL)
		raw = pg_parse_query(sql);
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

	/*
	 * Parse analysis as the server does it, with a snapshot.  The types it
	 * infers go to an array of ours: the parser's own would be allocated in
	 * SPI's executor context, which SPI_prepare_params resets before it
	 * returns (the parser only extends an array it is given, with repalloc,
	 * which keeps it in our context).
	 */
	pi.ntypes = nparams;
	pi.types = palloc0(sizeof(Oid) * Max(nparams, 1));
	if (snap)
		PushActiveSnapshot(GetTransactionSnapshot());
	(void) SPI_prepare_params(sql, spi_parser_setup, &pi, 0);
	if (SPI_result < 0)
		elog(ERROR, "could not prepare script statement: %s", sql);

	st->params = MemoryContextAllocZero(cxt, sizeof(SpiParam) * Max(nparams, 1));
	st->types = MemoryContextAllocZero(cxt, sizeof(Oid) * Max(nparams, 1));
	for (int p = 0; p < nparams; p++)
	{
		Oid			type = p < pi.ntypes ? pi.types[p] : InvalidOid;

		/* a parameter nothing constrains is text, as a literal would be */
		if (!OidIsValid(type) || type == UNKNOWNOID)
			type = TEXTOID;
		st->types[p] = type;
		st->params[p].type = type;
		getTypeInputInfo(type, &st->params[p].typinput, &st->params[p].typioparam);
	}
	if (ss->protocol == RUN_PROTO_PREPARED)
	{
		st->plan = SPI_prepare(sql, nparams, st->types);
		if (st->plan == NULL)
			elog(ERROR, "could not prepare script statement: %s", sql);
		if (SPI_keepplan(st->plan) != 0)
			elog(ERROR, "could not keep the plan of: %s", sql);
	}
	if (snap)
		PopActiveSnapshot();
	st->prepared = true;
}

/*
 * spi_is_utility
 *		Whether a statement (its raw parse trees) is anything but SELECT,
 *		INSERT, UPDATE, DELETE (and MERGE): what may create or change what
 *		later statements use.
 */
static bool
spi_is_utility(List *raw)
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
 * spi_prepare_all
 *		Prepare every SQL statement of every script.  Runs in a transaction;
 *		errors (a missing table, a syntax error) end the client before the
 *		run starts.  A statement after a utility statement of its script
 *		(CREATE TABLE, say), or inside an \if block, is prepared when it
 *		first runs instead, as pgbench prepares each command when it first
 *		runs it: what it needs may not exist before, and a branch may never
 *		run.  So is a statement with identifier variables, whose text is not
 *		known yet; and when its first word does not say it is SELECT,
 *		INSERT, UPDATE, DELETE or MERGE, it counts as a utility statement.
 */
static void
spi_prepare_all(SpiSession *ss)
{
	ss->stmts = MemoryContextAllocZero(ss->cxt, sizeof(SpiStmt **) * ss->nscripts);
	for (int s = 0; s < ss->nscripts; s++)
	{
		BkScript   *script = ss->scripts[s];
		bool		after_utility = false;
		int			depth = 0;	/* of \if blocks */

		ss->stmts[s] = MemoryContextAllocZero(ss->cxt, sizeof(SpiStmt *) * Max(script->ncommands, 1));
		for (int i = 0; i < script->ncommands; i++)
		{
			BkCommand  *cmd = &script->commands[i];

			if (cmd->kind == BK_CMD_IF || cmd->kind == BK_CMD_WHILE)
				depth++;
			else if (cmd->kind == BK_CMD_ENDIF || cmd->kind == BK_CMD_ENDWHILE)
				depth--;
			if (cmd->kind != BK_CMD_SQL)
				continue;
			ss->stmts[s][i] = MemoryContextAllocZero(ss->cxt, sizeof(SpiStmt) * cmd->nstmts);
			for (int j = 0; j < cmd->nstmts && !after_utility; j++)
			{
				const BkStatement *stmt = &cmd->stmts[j];
				List	   *raw;

				if (stmt->dynamic)
				{
					after_utility = stmt->ident_utility;
					continue;
				}
				raw = pg_parse_query(stmt->sql_params);
				/* a branch may never run: its statements wait for their turn */
				if (depth == 0)
					spi_prepare_stmt(ss, stmt->sql_params, stmt->nparams,
									 &ss->stmts[s][i][j], raw, ss->cxt);
				after_utility = spi_is_utility(raw);
			}
		}
	}
}

/* ------------------------------------------------------------------------
 * Bind values and transactions
 * ------------------------------------------------------------------------
 */

/*
 * spi_bind
 *		The value of a variable as a datum of a parameter's type: integers
 *		directly, anything else through the type's input function, as the
 *		server reads a text parameter.
 */
static Datum
spi_bind(const BkValue *v, const SpiParam *p, char *isnull)
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
spi_xact_mode(const char *name, const char *value)
{
	if (value != NULL)
		(void) set_config_option(name, value, PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_LOCAL, true, 0, false);
}

/* the transaction modes of a BEGIN (ISOLATION LEVEL, READ ONLY, DEFERRABLE) */
static void
spi_begin_modes(const BkCommand *begin_cmd)
{
	spi_xact_mode("transaction_isolation", begin_cmd->xact_isolation);
	spi_xact_mode("transaction_read_only", begin_cmd->xact_read_only);
	spi_xact_mode("transaction_deferrable", begin_cmd->xact_deferrable);
}

/*
 * spi_xact_start
 *		Start a transaction: an implicit one around a statement, or BEGIN's
 *		(BEGIN_CMD, whose modes it applies: BEGIN ISOLATION LEVEL ...).
 *		No snapshot is taken here: the transaction's first one comes with
 *		its first query (spi_exec_stmt), so that SET TRANSACTION may follow
 *		BEGIN and REPEATABLE READ sees the database as of its first query,
 *		as in a session.
 */
static void
spi_xact_start(SpiSession *ss, const BkCommand *begin_cmd)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (begin_cmd != NULL)
		spi_begin_modes(begin_cmd);
	SPI_connect();
	ss->xact_open = true;
}

/* commit the transaction in progress */
static void
spi_xact_commit(SpiSession *ss)
{
	if (ss->snapshot_pushed)
		PopActiveSnapshot();
	ss->snapshot_pushed = false;
	SPI_finish();
	CommitTransactionCommand();
	ss->xact_open = ss->in_block = false;
}

/*
 * spi_xact_abort
 *		Roll back the transaction in progress, if any, and leave the
 *		pipeline: after an error, or for ROLLBACK.
 */
static void
spi_xact_abort(SpiSession *ss)
{
	AbortCurrentTransaction();
	ss->xact_open = ss->in_block = ss->in_pipeline = false;
	ss->snapshot_pushed = false;
}

/* ------------------------------------------------------------------------
 * Running the requests
 * ------------------------------------------------------------------------
 */

/*
 * spi_variant
 *		For statement ST with identifier variables or lists, whose text is
 *		SQL this time, with NPARAMS parameters (bk_sql_dynamic): what is
 *		kept for that text, made ready the first time.  'prepared' keeps a plan of each text, at most
 *		BK_IDENT_MAX_VARIANTS; 'extended' keeps as many parameter types, and
 *		works the types of any further text out every time.
 */
static SpiStmt *
spi_variant(SpiSession *ss, SpiStmt *st, const char *sql, int nparams)
{
	BkVariant  *var = bk_variant_find(&st->variants, sql);
	SpiStmt    *vst;

	if (var != NULL)
		return (SpiStmt *) var->data;
	if (st->variants.n >= BK_IDENT_MAX_VARIANTS)
	{
		if (ss->protocol == RUN_PROTO_PREPARED)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("statement took more than %d texts from its identifier variables and lists in one session",
							BK_IDENT_MAX_VARIANTS),
					 errdetail("Protocol 'prepared' keeps a plan of each text for the rest of the session."),
					 errhint("Draw the identifiers from fewer values, or use protocol => 'extended'.")));
		vst = palloc0(sizeof(SpiStmt));
		spi_prepare_stmt(ss, sql, nparams, vst, NIL, ss->req_cxt);
		return vst;
	}
	vst = MemoryContextAllocZero(ss->cxt, sizeof(SpiStmt));
	spi_prepare_stmt(ss, sql, nparams, vst, NIL, ss->cxt);
	/* added once made: a text that failed is tried again, not kept */
	var = bk_variant_add(&st->variants, sql, ss->cxt);
	var->data = vst;
	return vst;
}

/* ------------------------------------------------------------------------
 * Where a statement's time goes
 *
 * While a client's statement runs (SPI_execute, SPI_execute_with_args or
 * SPI_execute_plan), the hooks note when its parse analysis ended, when
 * its planning began and ended, and when its execution began (ExecutorStart)
 * and ended (ExecutorEnd), at its own level only: what functions it calls
 * parse, plan and execute belongs to its execution.  The phases are then
 * parse and analysis (from the statement's start to the end of analysis),
 * rewrite (from there to the planner), planning, and execution; the rest
 * (SPI's own work, the plan cache's checks) is the command's latency less
 * these.  A prepared statement whose cached plan serves has no parse,
 * analysis or rewrite, and planning only when its plan is custom or
 * invalidated.
 * ------------------------------------------------------------------------
 */
typedef struct PhaseTimer
{
	bool		active;			/* a client's statement is running */
	int64		start_ns;
	int64		analyzed_ns;	/* 0: not analyzed */
	int64		plan_start_ns;	/* the first planning's start, 0: none */
	int64		plan_ns;
	bool		in_plan;
	QueryDesc  *exec_query;		/* the statement's own execution, if started */
	int64		exec_start_ns;
	int64		exec_ns;
} PhaseTimer;

static PhaseTimer phase_timer;
static bool phase_hooks_installed = false;
static post_parse_analyze_hook_type prev_post_parse_analyze = NULL;
static planner_hook_type prev_planner = NULL;
static ExecutorStart_hook_type prev_executor_start = NULL;
static ExecutorEnd_hook_type prev_executor_end = NULL;

/* not inside the statement's planning or execution: its own level */
static inline bool
phase_own_level(void)
{
	return phase_timer.active && !phase_timer.in_plan && phase_timer.exec_query == NULL;
}

static void
phase_post_parse_analyze(ParseState *pstate, Query *query, JumbleState *jstate)
{
	if (prev_post_parse_analyze)
		prev_post_parse_analyze(pstate, query, jstate);
	if (phase_own_level() && phase_timer.analyzed_ns == 0)
		phase_timer.analyzed_ns = bk_now_ns();
}

static PlannedStmt *
phase_planner(Query *parse, const char *query_string, int cursorOptions,
			  ParamListInfo boundParams)
{
	PlannedStmt *result;
	int64		t0;

	if (!phase_own_level())
		return prev_planner ? prev_planner(parse, query_string, cursorOptions, boundParams) :
			standard_planner(parse, query_string, cursorOptions, boundParams);
	t0 = bk_now_ns();
	if (phase_timer.plan_start_ns == 0)
		phase_timer.plan_start_ns = t0;
	phase_timer.in_plan = true;
	result = prev_planner ? prev_planner(parse, query_string, cursorOptions, boundParams) :
		standard_planner(parse, query_string, cursorOptions, boundParams);
	phase_timer.in_plan = false;
	phase_timer.plan_ns += bk_now_ns() - t0;
	return result;
}

static void
phase_executor_start(QueryDesc *queryDesc, int eflags)
{
	if (phase_own_level())
	{
		phase_timer.exec_query = queryDesc;
		phase_timer.exec_start_ns = bk_now_ns();
	}
	if (prev_executor_start)
		prev_executor_start(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
}

static void
phase_executor_end(QueryDesc *queryDesc)
{
	if (prev_executor_end)
		prev_executor_end(queryDesc);
	else
		standard_ExecutorEnd(queryDesc);
	if (phase_timer.active && phase_timer.exec_query == queryDesc)
	{
		phase_timer.exec_ns += bk_now_ns() - phase_timer.exec_start_ns;
		phase_timer.exec_query = NULL;
	}
}

/* the hooks, once per process (a client worker's) */
static void
phase_install_hooks(void)
{
	if (phase_hooks_installed)
		return;
	prev_post_parse_analyze = post_parse_analyze_hook;
	post_parse_analyze_hook = phase_post_parse_analyze;
	prev_planner = planner_hook;
	planner_hook = phase_planner;
	prev_executor_start = ExecutorStart_hook;
	ExecutorStart_hook = phase_executor_start;
	prev_executor_end = ExecutorEnd_hook;
	ExecutorEnd_hook = phase_executor_end;
	phase_hooks_installed = true;
}

/* a statement starts: nothing of another one stays (it may have failed) */
static inline void
phase_begin(void)
{
	memset(&phase_timer, 0, sizeof(phase_timer));
	phase_timer.start_ns = bk_now_ns();
	phase_timer.active = true;
}

/* the statement ended: its phases into RES */
static inline void
phase_end(BkResult *res)
{
	PhaseTimer *t = &phase_timer;

	t->active = false;
	if (t->analyzed_ns > 0)
	{
		res->phase_ns[BK_PHASE_PARSE] = t->analyzed_ns - t->start_ns;
		if (t->plan_start_ns > t->analyzed_ns)
			res->phase_ns[BK_PHASE_REWRITE] = t->plan_start_ns - t->analyzed_ns;
	}
	res->phase_ns[BK_PHASE_PLAN] = t->plan_ns;
	res->phase_ns[BK_PHASE_EXECUTE] = t->exec_ns;
}

/*
 * spi_take_all
 *		The columns of the NROWS rows of TT into RES, row after row (in
 *		CXT), for \garray.
 */
static void
spi_take_all(SPITupleTable *tt, uint64 nrows, BkResult *res, MemoryContext cxt)
{
	TupleDesc	desc = tt->tupdesc;
	MemoryContext old = MemoryContextSwitchTo(cxt);

	res->ncols = desc->natts;
	res->names = palloc(sizeof(char *) * Max(desc->natts, 1));
	res->values = palloc(sizeof(char *) * Max((int64) desc->natts * nrows, 1));
	for (int f = 0; f < desc->natts; f++)
		res->names[f] = SPI_fname(desc, f + 1);
	for (uint64 r = 0; r < nrows; r++)
	{
		for (int f = 0; f < desc->natts; f++)
			res->values[r * desc->natts + f] = SPI_getvalue(tt->vals[r], desc, f + 1);
	}
	MemoryContextSwitchTo(old);
}

/*
 * spi_exec_stmt
 *		Statement J of the command of the request, in the protocol of the
 *		run; RES gets the number of rows it returned and, when the command
 *		has \gset or \aset, the columns of its last row.
 */
static void
spi_exec_stmt(SpiSession *ss, int j, BkResult *res)
{
	const BkCommand *cmd = ss->cmd;
	const BkStatement *stmt = &cmd->stmts[j];
	SpiStmt    *st = &ss->stmts[ss->script][ss->cmdno][j];
	Datum		values[FUNC_MAX_ARGS];
	char		nulls[FUNC_MAX_ARGS];
	Datum	   *vals = values;
	char	   *nls = nulls;
	int			rc;
	const char *sql = stmt->sql_params;
	int			nparams = stmt->nparams;
	const BkValue **params = NULL;

	res->nrows = 0;
	res->ncols = 0;
	memset(res->phase_ns, 0, sizeof(res->phase_ns));
	if (stmt->dynamic)
	{
		/* the text its identifier variables and lists give it, what it keeps */
		MemoryContextSwitchTo(ss->req_cxt);
		if (ss->protocol == RUN_PROTO_SIMPLE)
			sql = bk_sql_substitute(stmt, ss->vars);
		else
		{
			BkSqlText	text;

			bk_sql_dynamic(stmt, ss->vars, &text);
			sql = text.sql;
			nparams = text.nparams;
			params = text.params;
			st = spi_variant(ss, st, sql, nparams);
		}
	}
	else
	{
		if (!st->prepared)
			spi_prepare_stmt(ss, stmt->sql_params, stmt->nparams, st, NIL, ss->cxt);
		if (ss->protocol == RUN_PROTO_SIMPLE)
			sql = stmt->sql;
	}
	if (st->set_xact != NULL)
	{
		pgstat_report_activity(STATE_RUNNING, stmt->sql);
		ExecSetVariableStmt(st->set_xact, false);
		return;
	}
	/* the outer snapshot SPI needs, taken at the first query */
	if (!ss->snapshot_pushed)
	{
		PushActiveSnapshot(GetTransactionSnapshot());
		ss->snapshot_pushed = true;
	}
	MemoryContextSwitchTo(ss->req_cxt);
	if (nparams > FUNC_MAX_ARGS)
	{
		vals = palloc(sizeof(Datum) * nparams);
		nls = palloc(nparams);
	}
	pgstat_report_activity(STATE_RUNNING, sql);
	if (ss->protocol == RUN_PROTO_SIMPLE)
	{
		const char *text = stmt->dynamic ? sql : bk_sql_substitute(stmt, ss->vars);

		if (ss->time_phases)
			phase_begin();
		rc = SPI_execute(text, false, 0);
	}
	else
	{
		for (int p = 0; p < nparams; p++)
		{
			const BkValue *v;

			if (params != NULL)
				v = params[p];
			else
			{
				v = &ss->vars[stmt->param_vars[p]];
				if (unlikely(v->kind == BK_VAL_ARRAY))
					bk_var_not_array(ss->scripts[ss->script]->vt->names[stmt->param_vars[p]]);
			}
			vals[p] = spi_bind(v, &st->params[p], &nls[p]);
		}
		if (ss->time_phases)
			phase_begin();
		if (ss->protocol == RUN_PROTO_PREPARED)
			rc = SPI_execute_plan(st->plan, vals, nls, false, 0);
		else
			rc = SPI_execute_with_args(sql, nparams, st->types,
									   vals, nls, false, 0);
	}
	if (ss->time_phases)
		phase_end(res);
	if (rc < 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("statement at line %d of the script cannot run in a benchmark client (%s)",
						cmd->line, SPI_result_code_string(rc)),
				 errhint("Transaction control other than BEGIN, END, COMMIT and ROLLBACK, COPY to or from the client, and cursors are not supported.")));

	if (SPI_tuptable != NULL)
	{
		res->nrows = SPI_processed;
		if (cmd->gset == BK_GSET_ARRAY)
			spi_take_all(SPI_tuptable, SPI_processed, res, ss->req_cxt);
		else if (cmd->gset != BK_GSET_NONE && SPI_processed > 0)
		{
			TupleDesc	desc = SPI_tuptable->tupdesc;
			HeapTuple	tup = SPI_tuptable->vals[SPI_processed - 1];

			MemoryContextSwitchTo(ss->req_cxt);
			res->ncols = desc->natts;
			res->names = palloc(sizeof(char *) * Max(desc->natts, 1));
			res->values = palloc(sizeof(char *) * Max(desc->natts, 1));
			for (int f = 0; f < desc->natts; f++)
			{
				res->names[f] = SPI_fname(desc, f + 1);
				res->values[f] = SPI_getvalue(tup, desc, f + 1);
			}
		}
		SPI_freetuptable(SPI_tuptable);
	}
}

/*
 * spi_step
 *		The next step of the request: the next statement of a SQL command
 *		(BK_FETCH_RESULT), or the rest of it (BK_FETCH_DONE).  A SQL command
 *		outside a block and a pipeline commits when it is done; \syncpipeline
 *		and \endpipeline commit the pipeline's implicit transaction.
 */
static BkFetch
spi_step(SpiSession *ss, BkResult *res)
{
	const BkCommand *cmd = ss->cmd;

	if (ss->req == SPI_REQ_NONE)
		return BK_FETCH_DONE;
	if (ss->req == SPI_REQ_ABORT)
	{
		spi_xact_abort(ss);
		ss->req = SPI_REQ_NONE;
		return BK_FETCH_DONE;
	}

	if (cmd->kind == BK_CMD_SQL && ss->next_stmt < cmd->nstmts)
	{
		if (!ss->xact_open)
			spi_xact_start(ss, NULL);
		spi_exec_stmt(ss, ss->next_stmt++, res);
		return BK_FETCH_RESULT;
	}
	switch (cmd->kind)
	{
		case BK_CMD_SQL:
			if (ss->xact_open && !ss->in_block && !ss->in_pipeline)
				spi_xact_commit(ss);
			break;
		case BK_CMD_BEGIN:
			if (!ss->xact_open)
				spi_xact_start(ss, cmd);
			else
			{
				/* a BEGIN that turns a pipeline's implicit transaction into a block */
				spi_begin_modes(cmd);
			}
			ss->in_block = true;
			break;
		case BK_CMD_COMMIT:
			if (ss->xact_open)
				spi_xact_commit(ss);
			ss->in_block = false;
			break;
		case BK_CMD_ROLLBACK:
			if (ss->xact_open)
			{
				SPI_finish();
				AbortCurrentTransaction();
			}
			ss->xact_open = ss->in_block = false;
			ss->snapshot_pushed = false;
			break;
		case BK_CMD_START_PIPELINE:
			ss->in_pipeline = true;
			break;
		case BK_CMD_SYNC_PIPELINE:
		case BK_CMD_END_PIPELINE:
			/* a sync ends the implicit transaction of the pipeline */
			if (ss->xact_open && !ss->in_block)
				spi_xact_commit(ss);
			if (cmd->kind == BK_CMD_END_PIPELINE)
				ss->in_pipeline = false;
			break;
		default:
			elog(ERROR, "unexpected script command %d sent to SPI", (int) cmd->kind);
	}
	ss->req = SPI_REQ_NONE;
	return BK_FETCH_DONE;
}

/*
 * spi_error
 *		In a PG_CATCH block: the request failed.  The error goes to the log
 *		(unless retriable, or the client is stopping) and to RES; the
 *		transaction and the pipeline are rolled back; the request is over.
 */
static void
spi_error(SpiSession *ss, BkResult *res)
{
	ErrorData  *edata;

	phase_timer.active = false;	/* a failed statement's phases are not kept */
	MemoryContextSwitchTo(ss->req_cxt);
	edata = CopyErrorData();
	if (edata->sqlerrcode == ERRCODE_T_R_SERIALIZATION_FAILURE)
		res->error = BK_ERR_SERIALIZATION;
	else if (edata->sqlerrcode == ERRCODE_T_R_DEADLOCK_DETECTED)
		res->error = BK_ERR_DEADLOCK;
	else
		res->error = BK_ERR_OTHER;
	/*
	 * the server log has it, as for any backend's error; not one the
	 * script ignores, as sysbench says nothing of those, nor the rollback
	 * it means
	 */
	if (res->error == BK_ERR_OTHER && !ss->quiet(ss->quiet_arg) &&
		!bk_script_ignores(ss->scripts[ss->script], edata->sqlerrcode) &&
		!bk_script_rolls_back(ss->scripts[ss->script], edata->sqlerrcode))
		EmitErrorReport();
	FlushErrorState();
	bk_error_copy(&res->err, edata);
	spi_xact_abort(ss);
	ss->req = SPI_REQ_NONE;
}

/*
 * spi_send
 *		Take command CMDNO of script SCRIPT as the request; it runs when
 *		fetched.
 */
static void
spi_send(BkExecSession *xs, int script, int cmdno, const BkCommand *cmd,
		 const BkValue *vars)
{
	SpiSession *ss = (SpiSession *) xs;

	MemoryContextReset(ss->req_cxt);
	ss->req = SPI_REQ_COMMAND;
	ss->script = script;
	ss->cmdno = cmdno;
	ss->cmd = cmd;
	ss->vars = vars;
	ss->next_stmt = 0;
}

/* spi_send_abort: roll back what is open when fetched */
static void
spi_send_abort(BkExecSession *xs)
{
	((SpiSession *) xs)->req = SPI_REQ_ABORT;
}

/*
 * spi_fetch
 *		Run the next step of the request; an error fails it.  Always ready.
 *		Returns in the caller's memory context.
 */
static BkFetch
spi_fetch(BkExecSession *xs, BkResult *res)
{
	SpiSession *ss = (SpiSession *) xs;
	MemoryContext oldcxt = CurrentMemoryContext;
	volatile BkFetch r = BK_FETCH_DONE;

	res->cmdno = -1;
	res->error = BK_ERR_NONE;
	PG_TRY();
	{
		r = spi_step(ss, res);
	}
	PG_CATCH();
	{
		spi_error(ss, res);
		r = BK_FETCH_RESULT;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(oldcxt);
	return r;
}

/*
 * spi_prepare
 *		Prepare every statement of the scripts, in a transaction of its own;
 *		an error (a missing table, a syntax error) goes to the log and to
 *		ERR.
 */
static bool
spi_prepare(BkExecSession *xs, BkScript **scripts, int nscripts, BkError *err)
{
	SpiSession *ss = (SpiSession *) xs;
	MemoryContext oldcxt = CurrentMemoryContext;
	volatile bool ok = true;

	ss->scripts = scripts;
	ss->nscripts = nscripts;
	PG_TRY();
	{
		spi_xact_start(ss, NULL);
		pgstat_report_activity(STATE_RUNNING, "pgbenchkit: preparing the script");
		MemoryContextSwitchTo(ss->req_cxt);
		spi_prepare_all(ss);
		spi_xact_commit(ss);
		pgstat_report_activity(STATE_IDLE, NULL);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(ss->req_cxt);
		edata = CopyErrorData();
		EmitErrorReport();
		FlushErrorState();
		bk_error_copy(err, edata);
		spi_xact_abort(ss);
		ok = false;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(ss->req_cxt);
	return ok;
}

static const BkExecutor bk_exec_spi = {
	.prepare = spi_prepare,
	.send = spi_send,
	.send_abort = spi_send_abort,
	.fetch = spi_fetch,
};

/*
 * bk_exec_spi_create
 *		An SPI session in CXT for a run of protocol PROTOCOL (RUN_PROTO_*),
 *		which times its statements' phases when TIME_PHASES.
 *		QUIET(QUIET_ARG) tells, when an error is caught, whether the client
 *		is stopping: such errors stay out of the server log.
 */
BkExecSession *
bk_exec_spi_create(int protocol, bool time_phases, bool (*quiet) (void *arg), void *quiet_arg,
				   MemoryContext cxt)
{
	SpiSession *ss = MemoryContextAllocZero(cxt, sizeof(SpiSession));

	ss->base.exec = &bk_exec_spi;
	ss->protocol = protocol;
	ss->time_phases = time_phases;
	if (time_phases)
		phase_install_hooks();
	ss->quiet = quiet;
	ss->quiet_arg = quiet_arg;
	ss->cxt = cxt;
	ss->req_cxt = AllocSetContextCreate(cxt, "pgbenchkit SPI request",
										ALLOCSET_DEFAULT_SIZES);
	return &ss->base;
}
