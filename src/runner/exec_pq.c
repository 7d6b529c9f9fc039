/*-------------------------------------------------------------------------
 *
 * exec_pq.c
 *		The libpq executor (executor.h): the session is a connection to a
 *		target server (target.c), spoken to with asynchronous libpq as
 *		pgbench speaks to its server, so that one worker drives many
 *		sessions.
 *
 * Protocols, as pgbench -M: 'simple' sends the command's text with the
 * variables' values put in (one query, its statements joined by ';'),
 * 'extended' sends each statement with its :names as parameters, unnamed,
 * 'prepared' prepares each statement once per connection (named P<script>_
 * <command>, when the connection is made) and executes it by name.
 * Parameters are sent as text without types, as pgbench sends them: the
 * server infers them.
 *
 * A statement with identifier variables, :{name}, is sent with their
 * values put into its text.  With 'prepared' each text it takes (a
 * variant) is prepared the first time it runs on the connection, named
 * P<script>_<command>_<k> with k its ordinal, and executed by name after
 * that; the connection's variants are forgotten when it closes.  Outside a
 * pipeline the Parse is a request of its own, whose answer the fetch reads
 * before it sends the execution, so that nothing waits; in a pipeline it
 * goes into the pipeline just before the execution.
 *
 * \startpipeline enters libpq's pipeline mode.  A SQL command in a
 * pipeline is only sent: its fetch ends at once, and its results come back
 * with those of the \endpipeline that waits for them (each with its
 * command), as pgbench reads them; \syncpipeline sends a sync and does not
 * wait either.  After an error the abort reads what the server still had
 * to say, leaves the pipeline, and rolls back a transaction left open.
 *
 * With 'per_transaction' (pgbench -C) the session connects before each
 * transaction and disconnects after it; otherwise the connection is made
 * before the run (prepare) and kept.  A connection that breaks fails the
 * request with 08006 and the libpq message, redacted of the target's
 * secrets.  A prepared statement the server does not know (26000) or knows
 * already (42P05) is what a pooler in transaction mode in front of the
 * target causes: the error says so, and which protocol to use.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "libpq-fe.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/elog.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

#include "target/cancel.h"
#include "core/clock.h"
#include "core/compat.h"
#include "runner/exec_pq.h"
#include "runner/segment.h"
#include "target/target.h"
#include "script/subst.h"
#include "script/value.h"
#include "script/variant.h"
#include "script/vars.h"

/* a pipelined command whose results are still to come, or a sync */
typedef struct PqItem
{
	int			cmdno;			/* -1: a sync */
	BkVariant  *prep;			/* the Parse of a variant of cmdno; NULL */
} PqItem;

/* the states of a variant (BkVariant.state) on the connection */
#define PQ_VARIANT_NEW			0	/* not prepared */
#define PQ_VARIANT_SENT			1	/* its Parse is in the pipeline */
#define PQ_VARIANT_READY		2	/* prepared */

/* the request in progress */
typedef enum PqRequest
{
	PQ_REQ_NONE,				/* nothing to fetch: DONE */
	PQ_REQ_FAILED,				/* sending failed: the error, then over */
	PQ_REQ_PREPARE,				/* a variant's Parse, then the query */
	PQ_REQ_QUERY,				/* a query's results, until libpq's NULL */
	PQ_REQ_PIPELINE,			/* the pipeline's results, then leave it */
	PQ_REQ_ABORT				/* read what is left, roll back */
} PqRequest;

typedef struct PqSession
{
	BkExecSession base;
	int			protocol;
	bool		per_transaction;
	BkTarget   *target;
	MemoryContext cxt;
	MemoryContext req_cxt;		/* reset for every request */
	int			nscripts;
	BkScript  **scripts;

	PGconn	   *conn;			/* NULL: not connected */
	bool		quiet;			/* a failed connect is not logged */
	/* on_disconnect 'reconnect': a new connection in progress */
	PGconn	   *pending;		/* NULL: none */
	PostgresPollingStatusType pending_status;
	int64		pending_deadline;	/* bk_now_ns; 0: none */
	int64		pending_wait_ms;
	bool		busy;			/* a query sent, libpq's NULL not read yet */
	bool		just_sent;		/* nothing read since: no answer can be there */
	bool		in_pipeline;
	PqItem	   *queue;			/* pipelined items, in order */
	int			qhead;
	int			qtail;
	int			qsize;

	/* the variants of the connection's statements with identifier variables */
	MemoryContext var_cxt;		/* reset when the connection closes */
	BkVariants ***variants;		/* [script][command]; NULL: none yet */
	/* [script][command]: in an \if block or a loop, prepared when it runs */
	bool	  **deferred;

	PqRequest	req;
	int			cmdno;
	const BkCommand *cmd;
	/* PQ_REQ_PREPARE: the variant, and the execution that follows */
	BkVariant  *prep;
	char		prep_name[48];
	int			prep_nparams;
	const char **prep_values;
	int			abort_phase;	/* 0: draining; 1: ROLLBACK sent */
	BkError		send_err;		/* PQ_REQ_FAILED */
} PqSession;

/* ------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------
 */

/* the connection broke (or libpq failed): ERR says so, redacted */
static void
pq_conn_error(PqSession *ps, BkError *err)
{
	const char *msg = ps->conn ? PQerrorMessage(ps->conn) : "no connection";
	char	   *text = bk_target_redact(pchomp(msg[0] ? msg : "connection lost"),
										ps->target->params);

	memset(err, 0, sizeof(*err));
	err->sqlerrcode = ERRCODE_CONNECTION_FAILURE;
	snprintf(err->message, sizeof(err->message),
			 "connection to target \"%s\" failed: %s",
			 ps->target->server->servername, text);
	bk_text_copy(err->hint,
			"The target closed the connection or could not be reached: the target's log says why.",
			sizeof(err->hint));
	err->set = true;
}

/* the error of result R into RES, classified as the runner retries them */
static void
pq_result_error(PqSession *ps, PGresult *r, BkResult *res)
{
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	const char *primary = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
	const char *detail = PQresultErrorField(r, PG_DIAG_MESSAGE_DETAIL);
	const char *hint = PQresultErrorField(r, PG_DIAG_MESSAGE_HINT);
	const char *context = PQresultErrorField(r, PG_DIAG_CONTEXT);
	BkError    *err = &res->err;

	memset(err, 0, sizeof(*err));
	if (state != NULL && strlen(state) == 5)
		err->sqlerrcode = MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]);
	else
		err->sqlerrcode = ERRCODE_CONNECTION_FAILURE;
	if (primary == NULL)
		primary = pchomp(PQresultErrorMessage(r));
	bk_text_copy(err->message, bk_target_redact(primary, ps->target->params), sizeof(err->message));
	if (detail)
		bk_text_copy(err->detail, bk_target_redact(detail, ps->target->params), sizeof(err->detail));
	if (hint)
		bk_text_copy(err->hint, hint, sizeof(err->hint));
	if (context)
		strlcpy(err->context, context, sizeof(err->context));

	/* the server ended the session (a shutdown, a terminated backend) */
	{
		const char *severity = PQresultErrorField(r, PG_DIAG_SEVERITY_NONLOCALIZED);

		if (severity != NULL &&
			(strcmp(severity, "FATAL") == 0 || strcmp(severity, "PANIC") == 0))
		{
			char		msg[sizeof(err->message)];

			strlcpy(msg, err->message, sizeof(msg));
			snprintf(err->message, sizeof(err->message),
					 "connection to target \"%s\" failed: %s",
					 ps->target->server->servername, msg);
			snprintf(err->detail, sizeof(err->detail),
					 "The target ended the session (%s, SQLSTATE %s).",
					 severity, state ? state : "unknown");
			err->sqlerrcode = ERRCODE_CONNECTION_FAILURE;
		}
	}

	if (ps->protocol == RUN_PROTO_PREPARED &&
		(err->sqlerrcode == ERRCODE_UNDEFINED_PSTATEMENT ||
		 err->sqlerrcode == ERRCODE_DUPLICATE_PSTATEMENT))
	{
		snprintf(err->detail, sizeof(err->detail),
				 "A prepared statement of this connection was %s on the server: target \"%s\" seems to be behind a connection pooler in transaction mode (PgBouncer, Supavisor, Neon's), which runs each transaction on any of its server connections; protocol => 'extended' or 'simple' works with one.",
				 err->sqlerrcode == ERRCODE_UNDEFINED_PSTATEMENT ? "missing" : "there already",
				 ps->target->server->servername);
		bk_text_copy(err->hint,
				"Use protocol => 'extended' (or 'simple') with such a pooler, or connect to the server's own port.",
				sizeof(err->hint));
	}
	err->set = true;

	if (err->sqlerrcode == ERRCODE_T_R_SERIALIZATION_FAILURE)
		res->error = BK_ERR_SERIALIZATION;
	else if (err->sqlerrcode == ERRCODE_T_R_DEADLOCK_DETECTED)
		res->error = BK_ERR_DEADLOCK;
	else
		res->error = BK_ERR_OTHER;
}

/* ------------------------------------------------------------------------
 * Connecting
 * ------------------------------------------------------------------------
 */

/* the name of the prepared statement of command CMDNO of script SCRIPT */
static inline void
pq_stmt_name(char *buf, size_t len, int script, int cmdno)
{
	snprintf(buf, len, "P%d_%d", script, cmdno);
}

/* the name of variant K of that command (one with identifier variables) */
static inline void
pq_variant_name(char *buf, size_t len, int script, int cmdno, int k)
{
	snprintf(buf, len, "P%d_%d_%d", script, cmdno, k);
}

/* forget the variants prepared on the connection: it is closed or new */
static void
pq_forget_variants(PqSession *ps)
{
	MemoryContextReset(ps->var_cxt);
	ps->variants = NULL;
}

/* whether command CMD sends SQL */
static inline bool
pq_is_sql(const BkCommand *cmd)
{
	return cmd->kind == BK_CMD_SQL || cmd->kind == BK_CMD_BEGIN ||
		cmd->kind == BK_CMD_COMMIT || cmd->kind == BK_CMD_ROLLBACK;
}

/*
 * pq_wait_last
 *		The last result of what was sent on the connection (NULL: it broke),
 *		waiting on the latch and the socket, so that a cancel or a
 *		termination stops the wait.
 */
static PGresult *
pq_wait_last(PqSession *ps)
{
	PGresult   *last = NULL;
	PGresult   *r;

	for (;;)
	{
		while (PQisBusy(ps->conn))
		{
			int			rc = WaitLatchOrSocket(MyLatch,
											   WL_LATCH_SET | WL_SOCKET_READABLE | WL_EXIT_ON_PM_DEATH,
											   PQsocket(ps->conn), -1L, PG_WAIT_EXTENSION);

			if (rc & WL_LATCH_SET)
			{
				ResetLatch(MyLatch);
				CHECK_FOR_INTERRUPTS();
			}
			if ((rc & WL_SOCKET_READABLE) && !PQconsumeInput(ps->conn))
			{
				PQclear(last);
				return NULL;
			}
		}
		r = PQgetResult(ps->conn);
		if (r == NULL)
			return last;
		PQclear(last);
		last = r;
	}
}

/*
 * pq_prepare_statements
 *		Protocol 'prepared': every SQL command of the scripts prepared on the
 *		new connection, once (pgbench prepares them when a connection first
 *		runs its script).  One inside an \if block or a \while loop is
 *		prepared when it first runs instead, as the in-server clients do: its
 *		branch may never run (a TPC-C script's other mode calls functions
 *		the dataset may not have).  An error is raised, redacted.
 */
static void
pq_prepare_statements(PqSession *ps)
{
	char		name[32];

	if (ps->deferred == NULL)
	{
		ps->deferred = MemoryContextAllocZero(ps->cxt, sizeof(bool *) * Max(ps->nscripts, 1));
		for (int s = 0; s < ps->nscripts; s++)
		{
			BkScript   *script = ps->scripts[s];
			int			depth = 0;

			ps->deferred[s] = MemoryContextAllocZero(ps->cxt, sizeof(bool) * Max(script->ncommands, 1));
			for (int i = 0; i < script->ncommands; i++)
			{
				BkCommandKind kind = script->commands[i].kind;

				if (kind == BK_CMD_IF || kind == BK_CMD_WHILE)
					depth++;
				else if (kind == BK_CMD_ENDIF || kind == BK_CMD_ENDWHILE)
					depth--;
				ps->deferred[s][i] = depth > 0;
			}
		}
	}
	for (int s = 0; s < ps->nscripts; s++)
	{
		BkScript   *script = ps->scripts[s];

		for (int i = 0; i < script->ncommands; i++)
		{
			const BkCommand *cmd = &script->commands[i];
			PGresult   *r;

			/*
			 * with identifier variables, or in a branch: each text when it
			 * first runs
			 */
			if (!pq_is_sql(cmd) || cmd->nstmts != 1 || cmd->stmts[0].dynamic ||
				ps->deferred[s][i])
				continue;
			pq_stmt_name(name, sizeof(name), s, i);
			if (!PQsendPrepare(ps->conn, name, cmd->stmts[0].sql_params, 0, NULL))
				r = NULL;
			else
				r = pq_wait_last(ps);
			if (r == NULL || PQresultStatus(r) != PGRES_COMMAND_OK)
			{
				BkResult	res;
				BkError		err;

				if (r == NULL)
					pq_conn_error(ps, &err);
				else
				{
					pq_result_error(ps, r, &res);
					err = res.err;
					PQclear(r);
				}
				ereport(ERROR,
						(errcode(err.sqlerrcode),
						 errmsg("could not prepare the statement at line %d of script \"%s\" on target \"%s\": %s",
								cmd->line, script->name, ps->target->server->servername,
								err.message),
						 err.detail[0] ? errdetail_internal("%s", err.detail) : 0,
						 err.hint[0] ? errhint("%s", err.hint) : 0));
			}
			PQclear(r);
		}
	}
}

/* CONN (or none) is the session's connection from now on, nothing sent over it */
static void
pq_use_conn(PqSession *ps, PGconn *conn)
{
	pq_forget_variants(ps);
	ps->conn = conn;
	ps->busy = false;
	ps->in_pipeline = false;
	ps->qhead = ps->qtail = 0;
}

/* connect and prepare, or raise the error */
static void
pq_open(PqSession *ps)
{
	PGconn	   *conn = bk_target_open_conn(ps->target);

	pq_use_conn(ps, conn);
	PG_TRY();
	{
		if (ps->protocol == RUN_PROTO_PREPARED)
			pq_prepare_statements(ps);
	}
	PG_CATCH();
	{
		ps->conn = NULL;
		bk_target_close_conn(ps->target, conn);
		PG_RE_THROW();
	}
	PG_END_TRY();
}

/* close the connection, if any, and one in progress */
static void
pq_close_conn(PqSession *ps)
{
	if (ps->conn != NULL)
		bk_target_close_conn(ps->target, ps->conn);
	if (ps->pending != NULL)
		bk_target_close_conn(ps->target, ps->pending);
	ps->pending = NULL;
	pq_use_conn(ps, NULL);
}

/*
 * pq_try_open
 *		pq_open with its error caught into ERR (and logged, unless it is a
 *		cancel).  Returns whether it connected.
 */
static bool
pq_try_open(PqSession *ps, BkError *err)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	bool		xact = !IsTransactionState();
	volatile bool ok = true;

	/* the password rules read the catalogs */
	if (xact)
		StartTransactionCommand();
	PG_TRY();
	{
		pq_open(ps);
		if (xact)
			CommitTransactionCommand();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(ps->req_cxt);
		edata = CopyErrorData();
		if (edata->sqlerrcode != ERRCODE_QUERY_CANCELED &&
			edata->sqlerrcode != ERRCODE_ADMIN_SHUTDOWN && !ps->quiet)
			EmitErrorReport();
		FlushErrorState();
		bk_error_copy(err, edata);
		if (xact)
			AbortCurrentTransaction();
		ok = false;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(oldcxt);
	return ok;
}

/* ------------------------------------------------------------------------
 * The executor
 * ------------------------------------------------------------------------
 */

/*
 * pq_prepare
 *		Before the run: connect and prepare; with 'per_transaction', only to
 *		find out now that the target and the statements are there (the
 *		connection is closed again).
 */
static bool
pq_prepare(BkExecSession *xs, BkScript **scripts, int nscripts, BkError *err)
{
	PqSession  *ps = (PqSession *) xs;

	ps->scripts = scripts;
	ps->nscripts = nscripts;
	if (!pq_try_open(ps, err))
		return false;
	if (ps->per_transaction)
		pq_close_conn(ps);
	return true;
}

/* the queue of pipelined items: command CMDNO's results, or PREP's Parse */
static void
pq_push(PqSession *ps, int cmdno, BkVariant *prep)
{
	if (ps->qtail == ps->qsize)
	{
		if (ps->qhead > 0)
		{
			memmove(ps->queue, ps->queue + ps->qhead,
					sizeof(PqItem) * (ps->qtail - ps->qhead));
			ps->qtail -= ps->qhead;
			ps->qhead = 0;
		}
		else
		{
			ps->qsize = Max(16, ps->qsize * 2);
			ps->queue = ps->queue == NULL ?
				MemoryContextAlloc(ps->cxt, sizeof(PqItem) * ps->qsize) :
				repalloc(ps->queue, sizeof(PqItem) * ps->qsize);
		}
	}
	ps->queue[ps->qtail].cmdno = cmdno;
	ps->queue[ps->qtail++].prep = prep;
}

/*
 * pq_item_done
 *		The pipelined ITEM is over, answered or not: a Parse whose success
 *		was not seen is to be sent again (the server skipped it after an
 *		error, or it failed).
 */
static inline void
pq_item_done(PqItem *item)
{
	if (item->prep != NULL && item->prep->state == PQ_VARIANT_SENT)
		item->prep->state = PQ_VARIANT_NEW;
}

/*
 * pq_variant
 *		The variant of text SQL of command CMDNO of script SCRIPT on the
 *		connection, added (not prepared yet) the first time: at most
 *		BK_IDENT_MAX_VARIANTS of them.
 */
static BkVariant *
pq_variant(PqSession *ps, int script, int cmdno, const char *sql)
{
	BkVariants *vs;
	BkVariant  *var;

	if (ps->variants == NULL)
		ps->variants = MemoryContextAllocZero(ps->var_cxt,
											  sizeof(BkVariants **) * ps->nscripts);
	if (ps->variants[script] == NULL)
		ps->variants[script] =
			MemoryContextAllocZero(ps->var_cxt,
								   sizeof(BkVariants *) * ps->scripts[script]->ncommands);
	vs = ps->variants[script][cmdno];
	if (vs == NULL)
		vs = ps->variants[script][cmdno] = MemoryContextAllocZero(ps->var_cxt, sizeof(BkVariants));
	var = bk_variant_find(vs, sql);
	if (var != NULL)
		return var;
	if (vs->n >= BK_IDENT_MAX_VARIANTS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("statement took more than %d texts from its identifier variables and lists in one session",
							BK_IDENT_MAX_VARIANTS),
				 errdetail("Protocol 'prepared' keeps a prepared statement of each text for the rest of the connection."),
				 errhint("Draw the identifiers from fewer values, or use protocol => 'extended'.")));
	return bk_variant_add(vs, sql, ps->var_cxt);
}

/*
 * pq_send_sql
 *		Send the statements of SQL command CMD; false if libpq could not.
 *		The first run of a variant on the connection with 'prepared' sends
 *		its Parse: outside a pipeline, only that (the request is then
 *		PQ_REQ_PREPARE, and the fetch sends the rest).  Raises the errors of
 *		identifier variables, before anything is sent.
 */
static bool
pq_send_sql(PqSession *ps, int script, int cmdno, const BkCommand *cmd, const BkValue *vars)
{
	if (ps->protocol == RUN_PROTO_SIMPLE)
	{
		char	   *sql;

		if (cmd->nstmts == 1)
			sql = bk_sql_substitute(&cmd->stmts[0], vars);
		else
		{
			StringInfoData buf;

			initStringInfo(&buf);
			for (int j = 0; j < cmd->nstmts; j++)
			{
				if (j > 0)
					appendStringInfoChar(&buf, ';');
				appendStringInfoString(&buf, bk_sql_substitute(&cmd->stmts[j], vars));
			}
			sql = buf.data;
		}
		return PQsendQuery(ps->conn, sql) != 0;
	}
	else
	{
		const BkStatement *stmt = &cmd->stmts[0];
		const char *sql = stmt->sql_params;
		int			nparams = stmt->nparams;
		const BkValue **params = NULL;
		const char **values;
		BkVariant  *var = NULL;

		if (stmt->dynamic)
		{
			BkSqlText	text;

			bk_sql_dynamic(stmt, vars, &text);
			sql = text.sql;
			nparams = text.nparams;
			params = text.params;
		}
		values = palloc(sizeof(char *) * Max(nparams, 1));
		for (int p = 0; p < nparams; p++)
		{
			const BkValue *v;

			if (params != NULL)
				v = params[p];
			else
			{
				v = &vars[stmt->param_vars[p]];
				if (unlikely(v->kind == BK_VAL_ARRAY))
					bk_var_not_array(ps->scripts[script]->vt->names[stmt->param_vars[p]]);
			}
			if (v->kind == BK_VAL_UNDEF)
				values[p] = NULL;	/* a variable never set: NULL, as pgbench binds it */
			else if (v->kind == BK_VAL_STRING)
				values[p] = v->s;
			else
			{
				char	   *buf = palloc(BK_VALUE_TEXT_LEN);

				values[p] = bk_value_text(v, buf, BK_VALUE_TEXT_LEN);
			}
		}
		if (ps->protocol != RUN_PROTO_PREPARED)
			return PQsendQueryParams(ps->conn, sql, nparams, NULL,
									 values, NULL, NULL, 0) != 0;
		if (!stmt->dynamic && !ps->deferred[script][cmdno])
			pq_stmt_name(ps->prep_name, sizeof(ps->prep_name), script, cmdno);
		else
		{
			var = pq_variant(ps, script, cmdno, sql);
			pq_variant_name(ps->prep_name, sizeof(ps->prep_name), script, cmdno,
							var->ordinal);
		}
		if (var != NULL && var->state == PQ_VARIANT_NEW)
		{
			if (!PQsendPrepare(ps->conn, ps->prep_name, sql, 0, NULL))
				return false;
			if (!ps->in_pipeline)
			{
				/* the execution waits for the Parse's answer (pq_fetch_prepare) */
				ps->prep = var;
				ps->prep_nparams = nparams;
				ps->prep_values = values;
				ps->req = PQ_REQ_PREPARE;
				return true;
			}
			var->state = PQ_VARIANT_SENT;
			pq_push(ps, cmdno, var);
		}
		return PQsendQueryPrepared(ps->conn, ps->prep_name, nparams, values,
								   NULL, NULL, 0) != 0;
	}
}

/* send a sync of the pipeline: \syncpipeline, \endpipeline */
static bool
pq_sync(PqSession *ps, bool flush)
{
#ifdef LIBPQ_HAS_SEND_PIPELINE_SYNC
	if (!flush)
	{
		if (!PQsendPipelineSync(ps->conn))
			return false;
		pq_push(ps, -1, NULL);
		return true;
	}
#endif
	if (!PQpipelineSync(ps->conn))
		return false;
	pq_push(ps, -1, NULL);
	return true;
}

/*
 * pq_send
 *		Send command CMDNO of script SCRIPT.  A failure to send is kept and
 *		reported by the fetch.
 */
static void
pq_send(BkExecSession *xs, int script, int cmdno, const BkCommand *cmd,
		const BkValue *vars)
{
	PqSession  *ps = (PqSession *) xs;
	MemoryContext oldcxt;
	volatile bool ok = true;

	MemoryContextReset(ps->req_cxt);
	oldcxt = MemoryContextSwitchTo(ps->req_cxt);
	ps->cmdno = cmdno;
	ps->cmd = cmd;
	ps->req = PQ_REQ_NONE;

	if (ps->conn == NULL || PQstatus(ps->conn) != CONNECTION_OK)
		ok = false;
	else if (pq_is_sql(cmd))
	{
		/* an identifier variable's error: the request's, nothing sent */
		PG_TRY();
		{
			ok = pq_send_sql(ps, script, cmdno, cmd, vars);
		}
		PG_CATCH();
		{
			ErrorData  *edata;

			MemoryContextSwitchTo(ps->req_cxt);
			edata = CopyErrorData();
			FlushErrorState();
			bk_error_copy(&ps->send_err, edata);
			ps->req = PQ_REQ_FAILED;
		}
		PG_END_TRY();
		if (ps->req != PQ_REQ_FAILED && ok && ps->in_pipeline)
			pq_push(ps, cmdno, NULL);	/* its results come at the pipeline's end */
		else if (ps->req != PQ_REQ_FAILED && ok)
		{
			ps->busy = true;
			ps->just_sent = true;
			if (ps->req != PQ_REQ_PREPARE)
				ps->req = PQ_REQ_QUERY;
		}
	}
	else if (cmd->kind == BK_CMD_START_PIPELINE)
	{
		ok = PQenterPipelineMode(ps->conn) != 0;
		ps->in_pipeline = ok;
	}
	else if (cmd->kind == BK_CMD_SYNC_PIPELINE)
		ok = pq_sync(ps, false);
	else if (cmd->kind == BK_CMD_END_PIPELINE)
	{
		ok = pq_sync(ps, true);
		if (ok)
		{
			ps->just_sent = true;
			ps->req = PQ_REQ_PIPELINE;
		}
	}
	else
		elog(ERROR, "unexpected script command %d sent to libpq", (int) cmd->kind);

	if (!ok && ps->req != PQ_REQ_FAILED)
	{
		pq_conn_error(ps, &ps->send_err);
		ps->req = PQ_REQ_FAILED;
	}
	MemoryContextSwitchTo(oldcxt);
}

/* after an error: read what is left, leave the pipeline, roll back */
static void
pq_send_abort(BkExecSession *xs)
{
	PqSession  *ps = (PqSession *) xs;

	ps->req = PQ_REQ_ABORT;
	ps->abort_phase = 0;
}

/*
 * pq_next
 *		The next result on the connection into *R (NULL: the end of a
 *		query's results), if one is ready.  Returns BK_FETCH_WAIT when not
 *		(RES->fd to wait for), BK_FETCH_DONE when the connection broke, and
 *		BK_FETCH_RESULT with *R otherwise.
 */
static BkFetch
pq_next(PqSession *ps, PGresult **r, BkResult *res)
{
	if (ps->conn == NULL || PQstatus(ps->conn) != CONNECTION_OK)
		return BK_FETCH_DONE;
	if (PQisBusy(ps->conn))
	{
		/*
		 * Right after sending, the answer cannot be there yet: wait for the
		 * socket rather than try a read that would find nothing.
		 */
		if (ps->just_sent)
		{
			ps->just_sent = false;
			res->fd = PQsocket(ps->conn);
			return BK_FETCH_WAIT;
		}
		if (!PQconsumeInput(ps->conn))
			return BK_FETCH_DONE;
		if (PQisBusy(ps->conn))
		{
			res->fd = PQsocket(ps->conn);
			return BK_FETCH_WAIT;
		}
	}
	*r = PQgetResult(ps->conn);
	return BK_FETCH_RESULT;
}

/*
 * pq_take_all
 *		The columns of every row of result R into RES, row after row, for
 *		\garray.
 */
static void
pq_take_all(PqSession *ps, PGresult *r, BkResult *res)
{
	MemoryContext oldcxt = MemoryContextSwitchTo(ps->req_cxt);
	int			nrows = PQntuples(r);

	res->ncols = PQnfields(r);
	res->names = palloc(sizeof(char *) * Max(res->ncols, 1));
	res->values = palloc(sizeof(char *) * Max((int64) res->ncols * nrows, 1));
	for (int f = 0; f < res->ncols; f++)
		res->names[f] = pstrdup(PQfname(r, f));
	for (int row = 0; row < nrows; row++)
	{
		for (int f = 0; f < res->ncols; f++)
			res->values[row * res->ncols + f] = PQgetisnull(r, row, f) ? NULL :
				pstrdup(PQgetvalue(r, row, f));
	}
	MemoryContextSwitchTo(oldcxt);
}

/*
 * pq_take
 *		Result R of command CMDNO into RES: its rows and, with \gset or
 *		\aset, the columns of its last row (with \garray, of every row); or
 *		its error.
 */
static void
pq_take(PqSession *ps, PGresult *r, int cmdno, BkResult *res)
{
	ExecStatusType st = PQresultStatus(r);

	res->cmdno = cmdno;
	res->nrows = 0;
	res->ncols = 0;
	switch (st)
	{
		case PGRES_TUPLES_OK:
			res->nrows = PQntuples(r);
			if (cmdno < 0 && ps->cmd != NULL && ps->cmd->gset == BK_GSET_ARRAY)
				pq_take_all(ps, r, res);
			else if (res->nrows > 0)
			{
				int			last = PQntuples(r) - 1;
				MemoryContext oldcxt = MemoryContextSwitchTo(ps->req_cxt);

				res->ncols = PQnfields(r);
				res->names = palloc(sizeof(char *) * Max(res->ncols, 1));
				res->values = palloc(sizeof(char *) * Max(res->ncols, 1));
				for (int f = 0; f < res->ncols; f++)
				{
					res->names[f] = pstrdup(PQfname(r, f));
					res->values[f] = PQgetisnull(r, last, f) ? NULL :
						pstrdup(PQgetvalue(r, last, f));
				}
				MemoryContextSwitchTo(oldcxt);
			}
			break;
		case PGRES_COMMAND_OK:
		case PGRES_EMPTY_QUERY:
			break;
		case PGRES_FATAL_ERROR:
			pq_result_error(ps, r, res);
			break;
		default:
			memset(&res->err, 0, sizeof(res->err));
			res->err.sqlerrcode = ERRCODE_FEATURE_NOT_SUPPORTED;
			snprintf(res->err.message, sizeof(res->err.message),
					 "unexpected result from target \"%s\": %s",
					 ps->target->server->servername, PQresStatus(st));
			bk_text_copy(res->err.hint,
					"COPY to or from the client is not supported in a benchmark script.",
					sizeof(res->err.hint));
			res->err.set = true;
			res->error = BK_ERR_OTHER;
			break;
	}
}

/* the request failed because the connection broke */
static BkFetch
pq_broken(PqSession *ps, BkResult *res)
{
	pq_conn_error(ps, &res->err);
	res->error = BK_ERR_OTHER;
	ps->req = PQ_REQ_NONE;
	return BK_FETCH_RESULT;
}

/*
 * pq_fetch_abort
 *		The abort: what the failed request still had to say read and
 *		dropped, the pipeline left, an open transaction rolled back.
 */
static BkFetch
pq_fetch_abort(PqSession *ps, BkResult *res)
{
	PGresult   *r;
	BkFetch		f;

	for (;;)
	{
		if (ps->conn == NULL || PQstatus(ps->conn) != CONNECTION_OK)
		{
			ps->busy = false;
			ps->in_pipeline = false;
			ps->qhead = ps->qtail = 0;
			ps->req = PQ_REQ_NONE;
			return BK_FETCH_DONE;
		}
		if (ps->abort_phase == 0 && ps->in_pipeline)
		{
			if (ps->qhead == ps->qtail)
			{
				/* no sync pending: one is needed to leave the pipeline */
				if (PQpipelineStatus(ps->conn) == PQ_PIPELINE_ABORTED ||
					PQisBusy(ps->conn))
				{
					if (!pq_sync(ps, true))
						pq_close_conn(ps);	/* broken: the session is over */
					continue;
				}
				(void) PQexitPipelineMode(ps->conn);
				ps->in_pipeline = false;
				continue;
			}
			f = pq_next(ps, &r, res);
			if (f == BK_FETCH_WAIT)
				return f;
			if (f == BK_FETCH_DONE)
			{
				pq_close_conn(ps);	/* broken: the session is over */
				continue;
			}
			if (r == NULL)
			{
				/* the end of a query's results */
				if (ps->queue[ps->qhead].cmdno >= 0)
					pq_item_done(&ps->queue[ps->qhead++]);
				continue;
			}
			if (PQresultStatus(r) == PGRES_PIPELINE_SYNC)
			{
				/* the sync, and any query before it that never answered */
				while (ps->qhead < ps->qtail && ps->queue[ps->qhead].cmdno >= 0)
					pq_item_done(&ps->queue[ps->qhead++]);
				if (ps->qhead < ps->qtail)
					ps->qhead++;
			}
			else if (PQresultStatus(r) == PGRES_COMMAND_OK &&
					 ps->queue[ps->qhead].prep != NULL)
				ps->queue[ps->qhead].prep->state = PQ_VARIANT_READY;
			PQclear(r);
			continue;
		}
		/* the rest of the failed query's results, or of the ROLLBACK's */
		if (ps->busy)
		{
			f = pq_next(ps, &r, res);
			if (f == BK_FETCH_WAIT)
				return f;
			if (f == BK_FETCH_DONE)
			{
				pq_close_conn(ps);	/* broken: the session is over */
				continue;
			}
			if (r == NULL)
				ps->busy = false;
			PQclear(r);
			continue;
		}
		if (ps->abort_phase == 0)
		{
			PGTransactionStatusType ts = PQtransactionStatus(ps->conn);

			ps->abort_phase = 1;
			if ((ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR) &&
				PQsendQuery(ps->conn, "ROLLBACK"))
			{
				ps->busy = true;
				continue;
			}
		}
		ps->req = PQ_REQ_NONE;
		return BK_FETCH_DONE;
	}
}

/*
 * pq_fetch_prepare
 *		PQ_REQ_PREPARE: the answer to a variant's Parse; once it is over,
 *		the execution is sent and the request becomes PQ_REQ_QUERY (the
 *		return value is then of no account).  A failed Parse fails the
 *		request, the abort reading the rest.
 */
static BkFetch
pq_fetch_prepare(PqSession *ps, BkResult *res)
{
	PGresult   *r;
	BkFetch		f;

	for (;;)
	{
		f = pq_next(ps, &r, res);
		if (f == BK_FETCH_WAIT)
			return f;
		if (f == BK_FETCH_DONE)
			return pq_broken(ps, res);
		if (r == NULL)
			break;
		if (PQresultStatus(r) != PGRES_COMMAND_OK)
		{
			pq_take(ps, r, -1, res);
			PQclear(r);
			ps->req = PQ_REQ_NONE;	/* the abort reads the rest */
			return BK_FETCH_RESULT;
		}
		PQclear(r);
		ps->prep->state = PQ_VARIANT_READY;
	}
	ps->busy = false;
	Assert(ps->prep->state == PQ_VARIANT_READY);
	if (!PQsendQueryPrepared(ps->conn, ps->prep_name, ps->prep_nparams, ps->prep_values,
							 NULL, NULL, 0))
		return pq_broken(ps, res);
	ps->busy = true;
	ps->just_sent = true;
	ps->req = PQ_REQ_QUERY;
	return BK_FETCH_WAIT;
}

/*
 * pq_fetch
 *		What came of the request: a result at a time, never waiting.
 */
static BkFetch
pq_fetch(BkExecSession *xs, BkResult *res)
{
	PqSession  *ps = (PqSession *) xs;
	PGresult   *r;
	BkFetch		f;

	res->cmdno = -1;
	res->error = BK_ERR_NONE;
	res->nrows = 0;
	res->ncols = 0;
	switch (ps->req)
	{
		case PQ_REQ_NONE:
			return BK_FETCH_DONE;

		case PQ_REQ_FAILED:
			res->err = ps->send_err;
			res->error = BK_ERR_OTHER;
			ps->req = PQ_REQ_NONE;
			return BK_FETCH_RESULT;

		case PQ_REQ_ABORT:
			return pq_fetch_abort(ps, res);

		case PQ_REQ_PREPARE:
			f = pq_fetch_prepare(ps, res);
			if (ps->req != PQ_REQ_QUERY)
				return f;
			/* FALLTHROUGH */
		case PQ_REQ_QUERY:
			f = pq_next(ps, &r, res);
			if (f == BK_FETCH_WAIT)
				return f;
			if (f == BK_FETCH_DONE)
				return pq_broken(ps, res);
			if (r == NULL)
			{
				ps->busy = false;
				ps->req = PQ_REQ_NONE;
				return BK_FETCH_DONE;
			}
			pq_take(ps, r, -1, res);
			PQclear(r);
			if (res->error != BK_ERR_NONE)
				ps->req = PQ_REQ_NONE;	/* the abort reads the rest */
			return BK_FETCH_RESULT;

		case PQ_REQ_PIPELINE:
			for (;;)
			{
				PqItem	   *item;

				if (ps->qhead == ps->qtail)
				{
					(void) PQexitPipelineMode(ps->conn);
					ps->in_pipeline = false;
					ps->req = PQ_REQ_NONE;
					return BK_FETCH_DONE;
				}
				f = pq_next(ps, &r, res);
				if (f == BK_FETCH_WAIT)
					return f;
				if (f == BK_FETCH_DONE)
					return pq_broken(ps, res);
				item = &ps->queue[ps->qhead];
				if (r == NULL)
				{
					if (item->cmdno >= 0)
					{
						pq_item_done(item);
						ps->qhead++;	/* the end of that command's results */
					}
					continue;
				}
				if (PQresultStatus(r) == PGRES_PIPELINE_SYNC)
				{
					if (item->cmdno < 0)
						ps->qhead++;
					PQclear(r);
					continue;
				}
				if (PQresultStatus(r) == PGRES_PIPELINE_ABORTED)
				{
					PQclear(r);
					continue;
				}
				if (item->prep != NULL && PQresultStatus(r) == PGRES_COMMAND_OK)
				{
					/* a variant's Parse: it is prepared now */
					item->prep->state = PQ_VARIANT_READY;
					PQclear(r);
					continue;
				}
				pq_take(ps, r, item->cmdno, res);
				PQclear(r);
				if (res->error != BK_ERR_NONE)
					ps->req = PQ_REQ_NONE;	/* the abort reads the rest */
				return BK_FETCH_RESULT;
			}
	}
	return BK_FETCH_DONE;
}

/* per transaction: connect before it */
static int
pq_connect(BkExecSession *xs, BkError *err)
{
	PqSession  *ps = (PqSession *) xs;

	if (ps->conn != NULL)
		return 0;
	return pq_try_open(ps, err) ? 1 : -1;
}

/* per transaction: disconnect after it */
static void
pq_end_tx(BkExecSession *xs)
{
	PqSession  *ps = (PqSession *) xs;

	if (ps->per_transaction)
		pq_close_conn(ps);
}

/*
 * pq_cancel
 *		The request that asks the target to cancel the query in progress,
 *		if any, added to CANCELS (cancel.c sends them).
 */
static void
pq_cancel(BkExecSession *xs, BkCancels *cancels)
{
	PqSession  *ps = (PqSession *) xs;

	if (ps->conn == NULL || (!ps->busy && !ps->in_pipeline) ||
		PQstatus(ps->conn) != CONNECTION_OK)
		return;
	bk_cancels_add(cancels, ps->conn);
}

static void
pq_close(BkExecSession *xs)
{
	pq_close_conn((PqSession *) xs);
}

/*
 * pq_reconnect_step
 *		A step of a new connection (pq_reconnect): started, polled as its
 *		socket became ready, or over.  Returns 0 while it waits (WAIT says
 *		for what), 1 once connected and its statements prepared; raises
 *		the error of one that failed or took longer than the target allows.
 */
static int
pq_reconnect_step(PqSession *ps, BkWait *wait)
{
	int64		now = bk_now_ns();
	PGconn	   *conn;

	if (ps->pending == NULL)
	{
		pq_close_conn(ps);
		ps->pending = bk_target_start_conn(ps->target);
		ps->pending_status = PGRES_POLLING_WRITING;
		ps->pending_wait_ms = bk_target_connect_wait_ms(ps->target);
		ps->pending_deadline = ps->pending_wait_ms > 0 ?
			now + ps->pending_wait_ms * INT64CONST(1000000) : 0;
	}
	else
		ps->pending_status = PQconnectPoll(ps->pending);

	if (PQstatus(ps->pending) == CONNECTION_BAD || ps->pending_status == PGRES_POLLING_FAILED)
		bk_target_conn_failed(ps->target, ps->pending, false, 0);
	if (ps->pending_status != PGRES_POLLING_OK)
	{
		if (ps->pending_deadline > 0 && now >= ps->pending_deadline)
			bk_target_conn_failed(ps->target, ps->pending, true, ps->pending_wait_ms);
		wait->kind = BK_WAIT_SOCKET;
		wait->fd = PQsocket(ps->pending);
		wait->write = ps->pending_status == PGRES_POLLING_WRITING;
		wait->until_ns = ps->pending_deadline;
		return 0;
	}

	/* connected: as pq_open makes a session of it */
	conn = ps->pending;
	bk_target_conn_ready(ps->target, conn);
	ps->pending = NULL;
	pq_use_conn(ps, conn);
	if (ps->protocol == RUN_PROTO_PREPARED)
		pq_prepare_statements(ps);
	return 1;
}

/*
 * pq_reconnect
 *		on_disconnect 'reconnect': a new connection, quietly, without
 *		blocking (executor.h).  The checks of a connection made read the
 *		catalogs (the password rules): each step is a transaction of its
 *		own, unless one is open.
 */
static int
pq_reconnect(BkExecSession *xs, BkError *err, BkWait *wait)
{
	PqSession  *ps = (PqSession *) xs;
	MemoryContext oldcxt = CurrentMemoryContext;
	bool		xact = !IsTransactionState();
	volatile int rc = -1;

	if (xact)
		StartTransactionCommand();
	PG_TRY();
	{
		rc = pq_reconnect_step(ps, wait);
		if (xact)
			CommitTransactionCommand();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(ps->req_cxt);
		edata = CopyErrorData();
		FlushErrorState();
		bk_error_copy(err, edata);
		if (xact)
			AbortCurrentTransaction();
		pq_close_conn(ps);
		rc = -1;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(oldcxt);
	return rc;
}

static const BkExecutor bk_exec_pq = {
	.prepare = pq_prepare,
	.send = pq_send,
	.send_abort = pq_send_abort,
	.fetch = pq_fetch,
	.connect = pq_connect,
	.end_tx = pq_end_tx,
	.cancel = pq_cancel,
	.close = pq_close,
	.reconnect = pq_reconnect,
};

/*
 * bk_exec_pq_create
 *		A libpq session in CXT to TARGET (bk_target_open), for a run of
 *		protocol PROTOCOL (RUN_PROTO_*), connecting for every transaction
 *		when PER_TRANSACTION.
 */
BkExecSession *
bk_exec_pq_create(int protocol, bool per_transaction, BkTarget *target,
				  MemoryContext cxt)
{
	PqSession  *ps = MemoryContextAllocZero(cxt, sizeof(PqSession));

	ps->base.exec = &bk_exec_pq;
	ps->protocol = protocol;
	ps->per_transaction = per_transaction;
	ps->target = target;
	ps->cxt = cxt;
	ps->req_cxt = AllocSetContextCreate(cxt, "pgbenchkit libpq request",
										ALLOCSET_SMALL_SIZES);
	ps->var_cxt = AllocSetContextCreate(cxt, "pgbenchkit libpq variants",
										ALLOCSET_SMALL_SIZES);
	return &ps->base;
}
