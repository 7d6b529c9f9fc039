/*-------------------------------------------------------------------------
 *
 * runner.c
 *		The script runner: one client session of a benchmark run, as a
 *		state machine that pgbench's client is the model of
 *		(advanceConnectionState and its CSTATE_* states).
 *
 * The script is run as pgbench runs it: \set evaluates an expression, a
 * SQL statement outside BEGIN ... END is a transaction of its own, and one
 * execution of the script is one "transaction" of the results.  SQL goes
 * to the session's executor (executor.h): the runner sends a request,
 * then fetches its results, and returns to its worker whenever the
 * executor is not ready, so that one worker may drive several sessions.
 * Each transaction is timed on the monotonic clock and counted in the
 * client's own counters and in a shared histogram of the run's segment
 * (run.h); each command's time goes to its statistics when the run is
 * measuring.
 *
 * Under a rate limit (pgbench -R) each worker keeps a schedule of its
 * share of the rate, with exponentially distributed gaps (a Poisson
 * process), which its sessions take their turns from, as pgbench's
 * clients take theirs from their thread's (with one session per worker, a
 * client's own schedule): a transaction starts at its scheduled time or,
 * when the client is behind, at once; its latency counts from the
 * scheduled time and the difference is the schedule lag.
 * With latency_limit too, a transaction already later than the limit when
 * its turn comes is skipped (pgbench -L).
 *
 * Serialization failures and deadlocks are retried up to max_tries with
 * the same random values (the generator's state is restored), as pgbench
 * --max-tries; when the tries run out the transaction counts as failed and
 * the client goes on.  Any other error ends the client, and the
 * coordinator ends the run as 'failed' with that error.  An error raised
 * here (by an expression, say) leaves through ereport: the worker catches
 * it and hands it back with bk_session_error, which treats it as an error
 * of the command at hand.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "utils/memutils.h"

#include "core/clock.h"
#include "runner/runner.h"
#include "meta/workload.h"
#include "script/expr.h"
#include "script/expr_eval.h"
#include "script/meta.h"
#include "script/sleep.h"
#include "script/value.h"
#include "script/vars.h"

/* counter updates: only this client writes its counters */
static inline void
counter_add(pg_atomic_uint64 *counter, uint64 n)
{
	pg_atomic_write_u64(counter, pg_atomic_read_u64(counter) + n);
}

/*
 * bk_session_init
 *		A session for client INDEX of the run SH, in CXT, run by the worker
 *		whose shared state is THREAD: the workload's scripts parsed, the
 *		variables set as pgbench sets them (the run's variables first: like
 *		-D, they win over :scale, :client_id, :random_seed and
 *		:default_seed), the generators seeded as pgbench -c N -j J seeds
 *		client INDEX's and its thread's.  Its executor session (xs) is the
 *		caller's to set.
 */
void
bk_session_init(BkSession *s, RunShared *sh, int index, BkThread *thread,
				const volatile sig_atomic_t *terminated, MemoryContext cxt)
{
	BkWorkload *w = bk_run_shared_workload(sh);
	const char *p = RUN_TEXT(sh, sh->variables_off);
	bool		given[4] = {false, false, false, false};
	MemoryContext old = MemoryContextSwitchTo(cxt);

	memset(s, 0, sizeof(*s));
	s->sh = sh;
	s->index = index;
	s->me = &RUN_CLIENTS(sh)[index];
	s->terminated = terminated;
	s->end_ns = PG_INT64_MAX;	/* until bk_session_start: no end yet */
	s->group = &sh->groups[bk_run_client_group(sh, index)];
	{
		int			shard = s->group->first_shard +
			(index - s->group->first_client) % s->group->nshards;

		s->hist[PHASE_WARMUP] = RUN_HIST(sh, PHASE_WARMUP, shard);
		s->hist[PHASE_MEASURED] = RUN_HIST(sh, PHASE_MEASURED, shard);
	}
	s->script_stats = RUN_SCRIPT_STATS(sh, index);
	s->command_stats = RUN_COMMAND_STATS(sh, index);
	s->vars_cxt = AllocSetContextCreate(cxt, "pgbenchkit client variables",
										ALLOCSET_SMALL_SIZES);
	s->try_cxt = AllocSetContextCreate(cxt, "pgbenchkit client transaction",
									   ALLOCSET_DEFAULT_SIZES);

	s->vt = bk_vartable_create();
	s->nscripts = w->nscripts;
	s->scripts = bk_workload_parse(w, s->vt);
	s->total_weight = s->group->total_weight;
	s->command_base = palloc(sizeof(int) * s->nscripts);
	for (int i = 0, base = 0; i < s->nscripts; i++)
	{
		s->command_base[i] = base;
		base += s->scripts[i]->ncommands;
	}
	s->vars = palloc0(sizeof(BkValue) * s->vt->nvars);

	for (int i = 0; i < sh->nvariables; i++)
	{
		const char *name = p;
		const char *value;
		int			var;

		p += strlen(p) + 1;
		value = p + 1;
		var = bk_var_lookup(s->vt, name, false);
		if (var >= 0)
		{
			if (*p == 'n')
				s->vars[var].kind = BK_VAL_NULL;
			else
				bk_var_set_string(&s->vars[var], value, s->vars_cxt);
			if (var < 4)
				given[var] = true;
		}
		p = value + strlen(value) + 1;
	}

	bk_client_random(sh->seed, sh->clients, sh->nworkers, index, thread->index,
					 !given[BK_VAR_DEFAULT_SEED], &s->rnd);
	bk_prng_seed(&s->backoff_prng, sh->seed ^ (UINT64CONST(0x9E3779B97F4A7C15) * (uint64) (index + 1)));
	s->thread = thread;
	if (!thread->seeded)
	{
		thread->choose = s->rnd.choose;
		thread->throttle = s->rnd.throttle;
		thread->seeded = true;
	}
	if (!given[BK_VAR_SCALE])
	{
		s->vars[BK_VAR_SCALE].kind = BK_VAL_INT;
		s->vars[BK_VAR_SCALE].i = sh->scale > 0 ? sh->scale : 1;
	}
	if (!given[BK_VAR_CLIENT_ID])
	{
		s->vars[BK_VAR_CLIENT_ID].kind = BK_VAL_INT;
		s->vars[BK_VAR_CLIENT_ID].i = index;
	}
	if (!given[BK_VAR_RANDOM_SEED])
	{
		s->vars[BK_VAR_RANDOM_SEED].kind = BK_VAL_INT;
		s->vars[BK_VAR_RANDOM_SEED].i = (int64) sh->seed;
	}
	if (!given[BK_VAR_DEFAULT_SEED])
	{
		s->vars[BK_VAR_DEFAULT_SEED].kind = BK_VAL_INT;
		s->vars[BK_VAR_DEFAULT_SEED].i = s->rnd.default_seed;
	}

	s->failed_command = -1;
	MemoryContextSwitchTo(old);
}

/*
 * bk_session_start
 *		The run has started (the coordinator's go): the session's clock and
 *		schedule start with it.
 */
void
bk_session_start(BkSession *s)
{
	RunShared  *sh = s->sh;

	s->me->min_ns = PG_INT64_MAX;
	s->me->max_ns = 0;
	for (int i = 0; i < s->nscripts; i++)
		s->script_stats[i].min_ns = PG_INT64_MAX;
	s->end_ns = sh->duration_ns > 0 ? sh->start_ns + sh->duration_ns : PG_INT64_MAX;
	s->throttled = s->group->rate > 0;
	if (!sh->grouped)
		s->thread->center_us = sh->rate > 0 ? 1e6 * sh->nworkers / sh->rate : 0;
	else if (s->throttled)
	{
		/* the worker's share of its group's rate: its clients of the group */
		int			first;
		int			n;
		int			mine;

		bk_run_worker_clients(sh, s->thread->index, &first, &n);
		mine = Min(first + n, s->group->first_client + s->group->nclients) -
			Max(first, s->group->first_client);
		s->thread->center_us = 1e6 * s->group->nclients / (s->group->rate * mine);
	}
	s->thread->trigger = sh->start_ns;
	s->scheduled = sh->start_ns;
	s->state = BK_ST_CHOOSE_SCRIPT;
}

/*
 * bk_session_stopping
 *		Whether the run is stopping (its duration is over, or the
 *		coordinator said stop) or the client was terminated: what is in
 *		progress is cut short and not counted.
 */
bool
bk_session_stopping(const BkSession *s)
{
	return s->cut_short || *s->terminated || pg_atomic_read_u32(&s->sh->stop) != 0 ||
		(s->end_ns != PG_INT64_MAX && bk_now_ns() >= s->end_ns);
}

/*
 * bk_claim_client_error
 *		Put an error that ends client INDEX into the run's error slot,
 *		unless another client's error is there already (the first wins).
 */
void
bk_claim_client_error(RunShared *sh, int index, const BkError *err)
{
	if (pg_atomic_exchange_u32(&sh->client_error_claimed, 1) != 0)
		return;
	sh->client_error_index = index;
	sh->client_error.sqlerrcode = err->sqlerrcode;
	bk_text_copy(sh->client_error.message, err->message, sizeof(sh->client_error.message));
	bk_text_copy(sh->client_error.detail, err->detail, sizeof(sh->client_error.detail));
	bk_text_copy(sh->client_error.hint, err->hint, sizeof(sh->client_error.hint));
	strlcpy(sh->client_error.context, err->context, sizeof(sh->client_error.context));
	pg_write_barrier();
	sh->client_error.set = true;
}

/*
 * runner_lost
 *		With on_disconnect 'continue', an error of a connection that broke
 *		or could not be made (class 08) ends this client alone: it is counted among the clients
 *		lost, the first of their errors kept, and the run goes on.  Returns
 *		whether ERR was such an error.
 */
static bool
runner_lost(BkSession *s, const BkError *err)
{
	RunShared  *sh = s->sh;

	if (!sh->on_disconnect_continue ||
		ERRCODE_TO_CATEGORY(err->sqlerrcode) != ERRCODE_CONNECTION_EXCEPTION)
		return false;
	if (pg_atomic_exchange_u32(&sh->lost_error_claimed, 1) == 0)
	{
		sh->lost_error = *err;
		snprintf(sh->lost_error.message, sizeof(sh->lost_error.message),
				 "client %d: %s", s->index, err->message);
	}
	pg_atomic_fetch_add_u32(&sh->clients_lost, 1);
	return true;
}

/*
 * runner_conn_lost
 *		Whether an error says that the connection, or the server behind it,
 *		is gone for now: a connection exception (class 08), the server
 *		shutting down or starting (57P01, 57P02, 57P03), or a server that
 *		has become read-only under us (25006: the primary of a failover,
 *		now a standby).  With on_disconnect 'reconnect' the client then
 *		makes a new connection.
 */
static bool
runner_conn_lost(const BkError *err)
{
	return ERRCODE_TO_CATEGORY(err->sqlerrcode) == ERRCODE_CONNECTION_EXCEPTION ||
		err->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN ||
		err->sqlerrcode == ERRCODE_CRASH_SHUTDOWN ||
		err->sqlerrcode == ERRCODE_CANNOT_CONNECT_NOW ||
		err->sqlerrcode == ERRCODE_READ_ONLY_SQL_TRANSACTION;
}

/*
 * runner_outcome_unknown
 *		The connection was lost (runner_conn_lost) while the command at hand
 *		of SCRIPT waited for its answer: whether the transaction may have
 *		committed all the same.  It may when what was sent could commit: an
 *		END or COMMIT, a statement outside a transaction block (a
 *		transaction of its own), or a pipeline's sync; and when the server
 *		did not answer it with an error (a read-only server's 25006 is an
 *		answer: nothing committed).  A lost connection inside a block, before
 *		its COMMIT went out, leaves nothing committed.
 */
static bool
runner_outcome_unknown(const BkSession *s, const BkScript *script)
{
	const BkCommand *cmd;

	if (s->err.sqlerrcode == ERRCODE_READ_ONLY_SQL_TRANSACTION ||
		s->err.sqlerrcode == ERRCODE_CANNOT_CONNECT_NOW ||
		s->cur_command >= script->ncommands)
		return false;
	cmd = &script->commands[s->cur_command];
	switch (cmd->kind)
	{
		case BK_CMD_COMMIT:
		case BK_CMD_SYNC_PIPELINE:
		case BK_CMD_END_PIPELINE:
			return true;
		case BK_CMD_SQL:
			return !s->in_block;
		default:
			return false;
	}
}

/* the next wait before a reconnect: drawn between half the wait and all of it */
static void
runner_schedule_reconnect(BkSession *s, int64 now)
{
	int64		wait = s->reconnect_wait_ns;

	wait = wait / 2 + (int64) bk_random_uniform(&s->backoff_prng, 0, wait - wait / 2);
	s->reconnect_at = now + wait;
	s->reconnect_wait_ns = Min(s->reconnect_wait_ns * 2, s->sh->reconnect_max_ns);
}

/*
 * runner_outage_begin
 *		The connection was lost at NOW (on_disconnect 'reconnect'): the
 *		client's outage begins at its last success (or the run's start), if
 *		one is not open already, and its next reconnect is scheduled: the
 *		first after reconnect_delay, or, in an outage already open (a new
 *		connection that failed before any success: a server that lets the
 *		client in but fails its transactions, as a read-only standby), after
 *		the wait that goes on doubling, so that no client comes back faster
 *		than the waits allow.
 */
static void
runner_outage_begin(BkSession *s, int64 now)
{
	RunClient  *me = s->me;

	if (me->outage_from_ns == 0)
	{
		int64		from = me->last_ok_ns > 0 ? me->last_ok_ns : s->sh->start_ns;

		me->outage_from_ns = Max(from, 1);
		if (now - from > me->detect_max_ns)
			me->detect_max_ns = now - from;
		if (me->first_lost_ns == 0)
		{
			me->first_lost_ns = now;
			me->first_from_ns = me->outage_from_ns;
		}
		s->reconnect_wait_ns = s->sh->reconnect_min_ns;
	}
	s->lost = false;
	runner_schedule_reconnect(s, now);
}

/* a transaction committed at T1: the outage open, if any, is over */
static inline void
runner_outage_end(BkSession *s, int64 t1)
{
	RunClient  *me = s->me;

	if (me->outage_from_ns != 0)
	{
		me->downtime_ns += t1 - me->outage_from_ns;
		me->outages++;
		me->outage_from_ns = 0;
		if (me->first_back_ns == 0)
			me->first_back_ns = t1;
		me->last_back_ns = t1;
	}
	me->last_ok_ns = t1;
}

/*
 * bk_session_error
 *		An error raised while the session was advanced, outside its
 *		executor (an expression's, a \gset's, a cancel's): the command at
 *		hand failed with ERR.  The executor's transaction, if any, is still
 *		to be rolled back; the next advance does it.
 */
void
bk_session_error(BkSession *s, const BkError *err)
{
	s->err = *err;
	s->error = BK_ERR_OTHER;
	s->state = BK_ST_ERROR;
}

/*
 * runner_count_command
 *		Command I of the current script ran from T0 until now: count it,
 *		when the run is measuring.
 */
static inline void
runner_count_command(BkSession *s, int i, int64 t0)
{
	if (t0 >= s->sh->measure_ns)
	{
		RunCommandStat *st = &s->command_stats[s->command_base[s->cur_script] + i];

		StaticAssertStmt(lengthof(st->phase_ns) == BK_NPHASES, "the phases of a command");
		st->count++;
		st->sum_ns += bk_now_ns() - t0;
		/* a meta-command's are 0: only a SQL command's statements add any */
		for (int k = 0; k < BK_NPHASES; k++)
			st->phase_ns[k] += s->cmd_phase_ns[k];
	}
}

/*
 * runner_choose
 *		The script of the next transaction, drawn by weight from the
 *		choosing generator (pgbench's chooseScript), among its group's.
 */
static int
runner_choose(BkSession *s)
{
	int64		w;
	int			i = s->group->first_script;

	if (s->group->nscripts == 1)
		return i;
	w = bk_random_uniform(&s->thread->choose, 0, s->total_weight - 1);
	do
	{
		w -= s->sh->weights[i++];
	} while (w >= 0);
	return i - 1;
}

/*
 * bk_thread_gap_ns
 *		The wait until the next scheduled transaction under a rate limit:
 *		pgbench's getPoissonRand, in whole microseconds, around CENTER_US.
 */
int64
bk_thread_gap_ns(BkThread *t)
{
	double		uniform = 1.0 - bk_prng_double(&t->throttle);

	return (int64) (-log(uniform) * t->center_us + 0.5) * 1000;
}

/*
 * runner_next_scheduled
 *		The next start of the thread's schedule, which becomes this
 *		session's transaction's (pgbench: throttle_trigger += wait;
 *		txn_scheduled = throttle_trigger).
 */
static inline void
runner_next_scheduled(BkSession *s)
{
	s->thread->trigger += bk_thread_gap_ns(s->thread);
	s->scheduled = s->thread->trigger;
}

/* the client has run all its transactions (transactions =>) */
static inline bool
runner_all_done(const BkSession *s)
{
	return s->sh->transactions > 0 && s->done >= s->sh->transactions;
}

/*
 * runner_prepare_throttle
 *		The scheduled time of the next transaction under a rate limit, and
 *		with latency_limit the transactions skipped because they are
 *		already too late (pgbench's CSTATE_PREPARE_THROTTLE).  Returns false
 *		when the client is done instead.
 */
static bool
runner_prepare_throttle(BkSession *s)
{
	RunShared  *sh = s->sh;
	RunClient  *me = s->me;

	runner_next_scheduled(s);
	if (sh->latency_limit_ns > 0)
	{
		int64		now = bk_now_ns();

		while (s->scheduled < now - sh->latency_limit_ns &&
			   !runner_all_done(s) &&
			   s->scheduled <= s->end_ns && !bk_session_stopping(s))
		{
			int			phase = now < sh->measure_ns ? PHASE_WARMUP : PHASE_MEASURED;

			counter_add(&me->phase[phase].skipped, 1);
			if (phase == PHASE_MEASURED)
				s->script_stats[s->cur_script].skipped++;
			s->done++;
			runner_next_scheduled(s);
		}
		if (runner_all_done(s))
			return false;
	}
	return s->scheduled <= s->end_ns;
}

/*
 * runner_false_branch
 *		Where a false \if or \elif at PC goes: the first \elif whose
 *		condition holds, else past the \else, else past the \endif.
 */
static int
runner_false_branch(BkSession *s, BkScript *script, int pc)
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
		s->cur_command = next;
		memset(&v, 0, sizeof(v));
		bk_expr_eval(script, next, cmd->expr, s->vars, &s->rnd.func, &v);
		truth = bk_value_truth(script, next, &v);
		runner_count_command(s, next, t0);
		if (truth)
			return next + 1;
		pc = next;
	}
}

static void runner_cut_short(BkSession *s);

/*
 * runner_set_element
 *		\set name[index] expression, or \set name :array[index] (command CMD
 *		at PC of SCRIPT): an element of an array variable set, or one copied
 *		as it is (text stays text, where an expression would read it as a
 *		number).
 */
static void
runner_set_element(BkSession *s, BkScript *script, int pc, const BkCommand *cmd)
{
	BkValue		v;
	const BkValue *src = &v;
	BkValue		copy;

	memset(&v, 0, sizeof(v));
	if (cmd->expr->kind == BK_EXPR_ELEM)
		src = bk_expr_element(script, pc, cmd->expr, s->vars, &s->rnd.func);
	else
		bk_expr_eval(script, pc, cmd->expr, s->vars, &s->rnd.func, &v);
	copy = *src;

	/* an element's string is copied before its array can move or go */
	if (copy.kind == BK_VAL_STRING && src != &v)
		copy.s = pstrdup(src->s);
	if (cmd->index == NULL)
		bk_var_assign(&s->vars[cmd->var], &copy, s->vars_cxt);
	else
	{
		BkValue		ix;

		memset(&ix, 0, sizeof(ix));
		bk_expr_eval(script, pc, cmd->index, s->vars, &s->rnd.func, &ix);
		if (ix.kind == BK_VAL_NULL)
			ereport(ERROR,
					(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
					 errmsg("null index for array variable \"%s\"", s->vt->names[cmd->var]),
					 errhint("An index is a whole number from 1 to the length of the array + 1.")));
		bk_var_set_element(&s->vars[cmd->var], s->vt->names[cmd->var], bk_to_int(&ix),
						   &copy, s->vars_cxt);
	}
	if (copy.kind == BK_VAL_STRING && src != &v)
		pfree(copy.s);
	if (v.kind == BK_VAL_STRING)
		pfree(v.s);				/* random_string()'s, copied */
}

/*
 * runner_start_command
 *		Run the command at pc of the current script, or send it to the
 *		executor; the state that follows.  Past the last command, the try
 *		is over.
 */
static BkSessionState
runner_start_command(BkSession *s)
{
	BkScript   *script = s->scripts[s->cur_script];
	int			pc = s->pc;
	BkCommand  *cmd;

	if (pc >= script->ncommands)
	{
		if (s->in_block)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TRANSACTION_TERMINATION),
					 errmsg("script \"%s\" ended inside a transaction block", script->name),
					 errhint("End every BEGIN with END or COMMIT in the same script.")));
		return BK_ST_END_TX;
	}

	cmd = &script->commands[pc];

	/*
	 * The run is over (its duration, a stop, a termination): no statement
	 * starts any more.  The transaction in progress is abandoned, rolled
	 * back and not counted, as one whose statement the end cancels: a
	 * statement sent now would run past the end, and against a target it
	 * could start waiting on a lock after the cancel requests went out,
	 * with nobody left to cancel it.  A loop's \while and \endwhile stop
	 * too, so that a loop of meta-commands alone ends with the run.
	 */
	if (bk_session_stopping(s) && cmd->kind != BK_CMD_SET && cmd->kind != BK_CMD_SLEEP &&
		cmd->kind != BK_CMD_IF && cmd->kind != BK_CMD_ELIF && cmd->kind != BK_CMD_ELSE &&
		cmd->kind != BK_CMD_ENDIF && cmd->kind != BK_CMD_UNSET)
	{
		runner_cut_short(s);
		return BK_ST_ERROR;
	}
	s->cur_command = pc;
	s->next_command = pc + 1;
	s->cmd_t0 = bk_now_ns();
	memset(s->cmd_phase_ns, 0, sizeof(s->cmd_phase_ns));
	switch (cmd->kind)
	{
		case BK_CMD_SET:
			if (cmd->index != NULL || cmd->expr->kind == BK_EXPR_ELEM)
				runner_set_element(s, script, pc, cmd);
			else
			{
				BkValue		v;

				memset(&v, 0, sizeof(v));
				bk_expr_eval(script, pc, cmd->expr, s->vars, &s->rnd.func, &v);
				bk_var_assign(&s->vars[cmd->var], &v, s->vars_cxt);
				if (v.kind == BK_VAL_STRING)
					pfree(v.s);	/* random_string()'s, copied */
			}
			return BK_ST_END_COMMAND;
		case BK_CMD_UNSET:
			bk_var_unset(&s->vars[cmd->var]);
			return BK_ST_END_COMMAND;
		case BK_CMD_WHILE:
			{
				BkValue		v;

				memset(&v, 0, sizeof(v));
				bk_expr_eval(script, pc, cmd->expr, s->vars, &s->rnd.func, &v);
				if (!bk_value_truth(script, pc, &v))
					s->next_command = cmd->next_branch + 1;
			}
			return BK_ST_END_COMMAND;
		case BK_CMD_ENDWHILE:
			s->next_command = cmd->next_branch;
			return BK_ST_END_COMMAND;
		case BK_CMD_SLEEP:
			s->sleep_until = s->cmd_t0 + bk_sleep_usec(script, cmd, s->vars) * 1000;
			return BK_ST_SLEEP;
		case BK_CMD_IF:
			{
				BkValue		v;

				memset(&v, 0, sizeof(v));
				bk_expr_eval(script, pc, cmd->expr, s->vars, &s->rnd.func, &v);
				if (!bk_value_truth(script, pc, &v))
				{
					s->next_command = runner_false_branch(s, script, pc);
					/* counted as the \if, though an \elif was evaluated last */
					s->cur_command = pc;
				}
			}
			return BK_ST_END_COMMAND;
		case BK_CMD_ELIF:
		case BK_CMD_ELSE:
			/* reached from the branch before, which ran */
			s->next_command = cmd->endif + 1;
			return BK_ST_END_COMMAND;
		case BK_CMD_ENDIF:
			return BK_ST_END_COMMAND;
		case BK_CMD_BEGIN:
			if (s->in_block)
				ereport(ERROR,
						(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
						 errmsg("BEGIN at line %d of script \"%s\" inside a transaction block",
								cmd->line, script->name),
						 errhint("End the transaction with END or COMMIT before the next BEGIN.")));
			s->in_block = true;
			break;
		case BK_CMD_COMMIT:
		case BK_CMD_ROLLBACK:
			s->in_block = false;
			/* the transaction's last end decides: rolled back or not */
			s->rolled_back = cmd->kind == BK_CMD_ROLLBACK;
			break;
		case BK_CMD_SQL:
			if (!s->in_block)
				s->rolled_back = false; /* a transaction of its own */
			break;
		case BK_CMD_START_PIPELINE:
		case BK_CMD_SYNC_PIPELINE:
		case BK_CMD_END_PIPELINE:
			break;
	}
	s->nresults = 0;
	s->xs->exec->send(s->xs, s->cur_script, pc, cmd, s->vars);
	return BK_ST_WAIT_RESULT;
}

/*
 * runner_gset
 *		Store the last row of a statement's result into variables, one per
 *		column, named prefix + column name (pgbench's \gset and \aset): as
 *		text, as pgbench stores them.  A column no command of the workload
 *		names is read by nobody and skipped.
 */
static void
runner_gset(BkSession *s, const BkCommand *cmd, const BkResult *res)
{
	for (int f = 0; f < res->ncols; f++)
	{
		char	   *name = psprintf("%s%s", cmd->gset_prefix, res->names[f]);
		int			var;

		if (!bk_valid_var_name(name))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_NAME),
					 errmsg("invalid variable name: \"%s\"", name),
					 errhint("Name the column with AS, as in SELECT count(*) AS n ... \\gset.")));
		var = bk_var_lookup(s->vt, name, false);
		if (var < 0)
			continue;
		bk_var_set_string(&s->vars[var], res->values[f] ? res->values[f] : "", s->vars_cxt);
	}
}

/*
 * runner_garray
 *		Store every row of a statement's result into array variables, one
 *		per column, named prefix + column name (\garray): element i of each
 *		from row i, as text (SQL's null as null); no row makes them empty
 *		arrays.  A column no command of the workload names is skipped.
 */
static void
runner_garray(BkSession *s, const BkCommand *cmd, const BkResult *res)
{
	if (res->nrows > BK_ARRAY_MAX_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("query before \\garray returned %llu rows, more than an array variable holds (%d)",
						(unsigned long long) res->nrows, BK_ARRAY_MAX_LEN),
				 errhint("Fetch fewer rows with LIMIT.")));
	for (int f = 0; f < res->ncols; f++)
	{
		char	   *name = psprintf("%s%s", cmd->gset_prefix, res->names[f]);
		int			var;
		BkValue    *arr;

		if (!bk_valid_var_name(name))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_NAME),
					 errmsg("invalid variable name: \"%s\"", name),
					 errhint("Name the column with AS, as in SELECT count(*) AS n ... \\garray.")));
		var = bk_var_lookup(s->vt, name, false);
		if (var < 0)
			continue;
		arr = &s->vars[var];
		bk_var_make_array(arr, (int) res->nrows, s->vars_cxt);
		for (uint64 r = 0; r < res->nrows; r++)
		{
			const char *text = res->values[r * res->ncols + f];
			BkValue		v;

			memset(&v, 0, sizeof(v));
			if (text == NULL)
				v.kind = BK_VAL_NULL;
			else
			{
				v.kind = BK_VAL_STRING;
				v.s = unconstify(char *, text);
			}
			bk_var_set_element(arr, name, (int64) r + 1, &v, s->vars_cxt);
		}
	}
}

/*
 * runner_wait_result
 *		Fetch what came of the command's request until it is done: \gset and
 *		\aset take their rows, an error fails the try.  The state that
 *		follows; BK_ST_WAIT_RESULT when the executor is not ready (WAIT says
 *		for what).
 */
static BkSessionState
runner_wait_result(BkSession *s, BkWait *wait)
{
	const BkCommand *cmd = &s->scripts[s->cur_script]->commands[s->cur_command];
	BkResult   *res = &s->res;

	for (;;)
	{
		switch (s->xs->exec->fetch(s->xs, res))
		{
			case BK_FETCH_WAIT:
				if (s->sh->response_timeout_ns > 0)
				{
					int64		deadline = s->cmd_t0 + s->sh->response_timeout_ns;

					if (bk_now_ns() >= deadline && !bk_session_stopping(s))
					{
						/*
						 * response_timeout: no answer, the target is taken
						 * for gone (a host that vanished without a word, a
						 * server that stopped)
						 */
						memset(&s->err, 0, sizeof(s->err));
						s->err.sqlerrcode = ERRCODE_CONNECTION_FAILURE;
						snprintf(s->err.message, sizeof(s->err.message),
								 "no answer from the target within response_timeout (%.0f ms)",
								 s->sh->response_timeout_ns / 1e6);
						s->err.set = true;
						s->error = BK_ERR_OTHER;
						return BK_ST_ERROR;
					}
					wait->until_ns = deadline;
				}
				else
					wait->until_ns = 0;
				wait->kind = BK_WAIT_SOCKET;
				wait->write = false;
				wait->fd = res->fd;
				return BK_ST_WAIT_RESULT;
			case BK_FETCH_DONE:
				return BK_ST_END_COMMAND;
			case BK_FETCH_RESULT:
				break;
		}
		if (res->error != BK_ERR_NONE)
		{
			/*
			 * the script's \ignore_errors first: a restart, not a retry;
			 * then its \rollback_errors: the end it means its transaction
			 * to have
			 */
			s->error = bk_script_ignores(s->scripts[s->cur_script], res->err.sqlerrcode) ?
				BK_ERR_IGNORED :
				bk_script_rolls_back(s->scripts[s->cur_script], res->err.sqlerrcode) ?
				BK_ERR_ROLLBACK : res->error;
			s->err = res->err;
			if (res->cmdno >= 0)
				s->cur_command = res->cmdno;	/* a pipelined command failed */
			return BK_ST_ERROR;
		}
		if (res->cmdno >= 0 && res->cmdno != s->cur_command)
			continue;			/* a pipelined command's: no \gset there */
		for (int k = 0; k < BK_NPHASES; k++)
			s->cmd_phase_ns[k] += res->phase_ns[k];
		s->nresults++;
		if (cmd->gset == BK_GSET_ONE && s->nresults == cmd->nstmts)
		{
			if (res->nrows != 1)
				ereport(ERROR,
						(errcode(ERRCODE_CARDINALITY_VIOLATION),
						 errmsg("expected one row, got %llu", (unsigned long long) res->nrows),
						 errhint("The query before \\gset must return exactly one row; \\aset accepts any number (it keeps the last).")));
			runner_gset(s, cmd, res);
		}
		else if (cmd->gset == BK_GSET_ALL && res->nrows > 0)
			runner_gset(s, cmd, res);
		else if (cmd->gset == BK_GSET_ARRAY && s->nresults == cmd->nstmts)
			runner_garray(s, cmd, res);
	}
}

/*
 * runner_start_try
 *		A try of the current transaction, from its script's first command.
 */
static void
runner_start_try(BkSession *s)
{
	MemoryContextReset(s->try_cxt);
	s->tries++;
	s->in_try = true;
	s->in_block = false;
	s->failed_command = -1;
	s->pc = 0;
	s->error = BK_ERR_NONE;
	s->rolled_back = false;
}

/*
 * runner_may_retry
 *		Whether a try that failed with a serialization failure or a deadlock
 *		is tried again (pgbench's canRetryError and doRetry).
 */
static bool
runner_may_retry(BkSession *s)
{
	RunShared  *sh = s->sh;

	if (s->error != BK_ERR_SERIALIZATION && s->error != BK_ERR_DEADLOCK)
		return false;
	if (sh->max_tries != 0 && s->tries >= sh->max_tries)
		return false;
	if (bk_now_ns() >= s->end_ns)
		return false;
	/* no retry once the transaction is later than latency_limit (pgbench) */
	if (sh->latency_limit_ns > 0 && bk_now_ns() - s->xact_t0 > sh->latency_limit_ns)
		return false;
	return true;
}

/*
 * runner_end_tx
 *		The transaction is over: count it, then let the executor close a
 *		per-transaction connection.  The state that follows.
 */
static BkSessionState runner_count_tx(BkSession *s);

static BkSessionState
runner_end_tx(BkSession *s)
{
	BkSessionState next = runner_count_tx(s);

	/* pgbench -C: the connection closes, its time counted too */
	if (s->xs->exec->end_tx != NULL)
	{
		int64		t0 = bk_now_ns();

		s->xs->exec->end_tx(s->xs);
		if (s->sh->connect_per_transaction)
			s->me->conn_ns += bk_now_ns() - t0;
	}
	return next;
}

/*
 * runner_connect
 *		Before a transaction: the executor's connection, when it connects
 *		per transaction (pgbench -C), its time counted as pgbench counts
 *		it.  Returns false when it failed: that ends the client, as
 *		pgbench's client aborts.
 */
static bool
runner_connect(BkSession *s)
{
	int64		t0 = bk_now_ns();
	BkError		err;
	int			rc;

	memset(&err, 0, sizeof(err));
	rc = s->xs->exec->connect(s->xs, &err);
	if (rc > 0)
	{
		int64		t1 = bk_now_ns();

		s->me->conn_ns += t1 - t0;
		s->me->connections++;
		/* without a schedule, the transaction starts once connected */
		if (!s->throttled)
			s->xact_t0 = t1;
	}
	else if (rc < 0)
	{
		if (s->sh->on_disconnect_reconnect && runner_conn_lost(&err))
			s->lost = true;
		else if (!bk_session_stopping(s) && !runner_lost(s, &err))
			bk_claim_client_error(s->sh, s->index, &err);
		return false;
	}
	return true;
}

/*
 * runner_count_tx
 *		The transaction is over, committed (s->error BK_ERR_NONE) or failed
 *		for good: count it.  The state that follows.
 */
static BkSessionState
runner_count_tx(BkSession *s)
{
	RunShared  *sh = s->sh;
	RunClient  *me = s->me;
	int64		t1 = bk_now_ns();
	int			phase = t1 < sh->measure_ns ? PHASE_WARMUP : PHASE_MEASURED;
	RunCounters *ctr = &me->phase[phase];
	int			s_no = s->cur_script;

	s->in_try = false;
	if (s->error == BK_ERR_ROLLBACK)
	{
		/* a \rollback_errors error: the transaction ended as it means to */
		s->error = BK_ERR_NONE;
		s->rolled_back = true;
	}
	if (s->error != BK_ERR_NONE && bk_session_stopping(s))
		return BK_ST_FINISHED;	/* cut short by the end of the run: not counted */
	if (s->error == BK_ERR_IGNORED)
		return BK_ST_CHOOSE_SCRIPT; /* its restart came after the end: neither */
	me->end_ns = t1;
	s->done++;

	if (s->error == BK_ERR_NONE)
	{
		int64		lat = t1 - s->xact_t0;
		double		ms = lat / 1e6;

		runner_outage_end(s, t1);
		bk_hist_record(s->hist[phase], lat);
		counter_add(&ctr->lat_sum_ns, lat);
		ctr->lat_sumsq += ms * ms;
		if (s->throttled)
		{
			/* when it started, against when it was due */
			int64		lag = s->xact_started - s->xact_t0;

			counter_add(&ctr->lag_sum_ns, lag);
			if (lag > ctr->lag_max_ns)
				ctr->lag_max_ns = lag;
		}
		if (phase == PHASE_MEASURED)
		{
			RunScriptStat *st = &s->script_stats[s_no];

			if (lat < me->min_ns)
				me->min_ns = lat;
			if (lat > me->max_ns)
				me->max_ns = lat;
			st->xacts++;
			st->lat_sum_ns += lat;
			if (s->rolled_back)
				st->rollbacks++;
			if (lat < st->min_ns)
				st->min_ns = lat;
			if (lat > st->max_ns)
				st->max_ns = lat;
			bk_hist_record(RUN_SCRIPT_HIST(sh, s_no, s->index % sh->script_shards), lat);
		}
		if (sh->latency_limit_ns > 0 && lat > sh->latency_limit_ns)
			counter_add(&ctr->late, 1);
		if (s->tries > 1)
		{
			counter_add(&ctr->retried, 1);
			counter_add(&ctr->retries, s->tries - 1);
		}
		pg_write_barrier();
		counter_add(&ctr->xacts, 1);
		return BK_ST_CHOOSE_SCRIPT;
	}
	/*
	 * A failure for good: of the script and, as pgbench -r counts them, of
	 * the command its last try failed in.
	 */
	if (s->error == BK_ERR_OTHER)
		counter_add(&ctr->failures[FAIL_OTHER], 1);
	else
		counter_add(&ctr->failures[s->error == BK_ERR_SERIALIZATION ?
								   FAIL_SERIALIZATION : FAIL_DEADLOCK], 1);
	if (phase == PHASE_MEASURED)
	{
		s->script_stats[s_no].failures++;
		if (s->failed_command >= 0)
			s->command_stats[s->failed_command].failures++;
	}
	if (s->error == BK_ERR_OTHER && s->lost)
	{
		counter_add(&ctr->lost, 1);
		runner_outage_begin(s, t1);
		return BK_ST_RECONNECT;
	}
	if (s->error == BK_ERR_OTHER)
		return BK_ST_ABORTED;
	if (s->tries > 1)
	{
		counter_add(&ctr->retried, 1);
		counter_add(&ctr->retries, s->tries - 1);
	}
	return BK_ST_CHOOSE_SCRIPT;
}

/*
 * runner_error
 *		A try failed (pgbench's CSTATE_ERROR): note the command it failed in
 *		and, for an error that ends the client and is not the run's end,
 *		put it in the run's error slot with the script and line where it
 *		happened.  Then the executor aborts what the try left open.
 */
static bool
runner_error(BkSession *s)
{
	BkScript   *script = s->scripts[s->cur_script];

	s->failed_command = s->in_try ?
		s->command_base[s->cur_script] + s->cur_command : -1;
	if (s->error == BK_ERR_OTHER && s->sh->on_disconnect_reconnect && !s->cut_short &&
		runner_conn_lost(&s->err))
	{
		/* nothing to roll back: the connection is closed, a new one made */
		if (s->in_try && runner_outcome_unknown(s, script))
			s->me->unknown++;
		s->me->last_error = s->err.sqlerrcode;
		s->lost = true;
		s->in_block = false;
		s->xs->exec->close(s->xs);
		s->conn_epoch++;
		return true;
	}
	if (s->error == BK_ERR_OTHER && !bk_session_stopping(s) && !runner_lost(s, &s->err))
	{
		BkError		e = s->err;
		int			line = s->cur_command < script->ncommands ?
			script->commands[s->cur_command].line : 0;

		snprintf(e.message, sizeof(e.message), "%s (script \"%s\", line %d)",
				 s->err.message, script->name, line);
		bk_claim_client_error(s->sh, s->index, &e);
	}
	s->in_block = false;
	s->xs->exec->send_abort(s->xs);
	return false;
}

/*
 * runner_after_rollback
 *		The failed try is rolled back (pgbench's CSTATE_RETRY and
 *		CSTATE_FAILURE): another try with the same random values, or the
 *		end of the transaction.  An error between transactions (a cancel
 *		while waiting for the schedule) fails the one chosen, unless the
 *		client is stopping.
 */
static BkSessionState
runner_after_rollback(BkSession *s)
{
	if (!s->in_try && bk_session_stopping(s))
		return BK_ST_FINISHED;
	if (s->error == BK_ERR_IGNORED && !bk_session_stopping(s))
	{
		int64		now = bk_now_ns();
		RunCounters *ctr = &s->me->phase[now < s->sh->measure_ns ? PHASE_WARMUP : PHASE_MEASURED];

		/*
		 * sysbench's ignored error: counted, and the same transaction starts
		 * again with new random values, its latency running on from its
		 * first try (sysbench restarts the event inside its timing).  Its
		 * pgbench tries start again too.
		 */
		counter_add(&ctr->ignored, 1);
		if (now < s->end_ns)
		{
			s->saved_func = s->rnd.func;
			s->tries = 0;
			runner_start_try(s);
			return BK_ST_START_COMMAND;
		}
	}
	if (!bk_session_stopping(s) && runner_may_retry(s))
	{
		/* a retry, counted in the command that failed (pgbench -r) */
		if (s->failed_command >= 0 && bk_now_ns() >= s->sh->measure_ns)
			s->command_stats[s->failed_command].retries++;
		s->rnd.func = s->saved_func;	/* the same random values again */
		runner_start_try(s);
		return BK_ST_START_COMMAND;
	}
	return runner_end_tx(s);
}

/*
 * runner_cut_short
 *		The run ends (its duration, a cancel) while the transaction waits
 *		in a \sleep or before its next statement: the transaction is
 *		abandoned as pgbench abandons one the end of its run interrupts.  What it left open is rolled back,
 *		and it is neither counted nor a failure (runner_count_tx).
 */
static void
runner_cut_short(BkSession *s)
{
	s->cut_short = true;
	memset(&s->err, 0, sizeof(s->err));
	s->error = BK_ERR_OTHER;
	s->state = BK_ST_ERROR;
}

/*
 * bk_session_advance
 *		Run session S until it must wait, a transaction has ended, or it is
 *		finished; WAIT says which.
 */
void
bk_session_advance(BkSession *s, BkWait *wait)
{
	MemoryContext old = MemoryContextSwitchTo(s->try_cxt);

	wait->kind = BK_WAIT_NONE;
	for (;;)
	{
		switch (s->state)
		{
			case BK_ST_CHOOSE_SCRIPT:
				if (bk_now_ns() >= s->end_ns || bk_session_stopping(s) || runner_all_done(s))
				{
					s->state = BK_ST_FINISHED;
					break;
				}
				s->cur_script = runner_choose(s);
				if (s->throttled)
					s->state = BK_ST_PREPARE_THROTTLE;
				else
				{
					s->xact_t0 = bk_now_ns();
					s->state = BK_ST_START_TX;
				}
				break;

			case BK_ST_PREPARE_THROTTLE:
				s->state = runner_prepare_throttle(s) ? BK_ST_THROTTLE : BK_ST_FINISHED;
				break;

			case BK_ST_THROTTLE:
				if (bk_session_stopping(s))
				{
					s->state = BK_ST_FINISHED;
					break;
				}
				if (bk_now_ns() < s->scheduled)
				{
					wait->kind = BK_WAIT_TIME;
					wait->until_ns = s->scheduled;
					goto out;
				}
				s->xact_t0 = s->scheduled;
				s->state = BK_ST_START_TX;
				break;

			case BK_ST_START_TX:
				if (s->xs->exec->connect != NULL && !runner_connect(s))
				{
					if (s->lost && !bk_session_stopping(s))
					{
						/* a connect before the transaction failed: no transaction */
						runner_outage_begin(s, bk_now_ns());
						s->state = BK_ST_RECONNECT;
						break;
					}
					s->state = BK_ST_ABORTED;
					break;
				}
				s->xact_started = bk_now_ns();
				s->saved_func = s->rnd.func;
				s->tries = 0;
				runner_start_try(s);
				s->state = BK_ST_START_COMMAND;
				break;

			case BK_ST_START_COMMAND:
				s->state = runner_start_command(s);
				break;

			case BK_ST_WAIT_RESULT:
				s->state = runner_wait_result(s, wait);
				if (s->state == BK_ST_WAIT_RESULT)
					goto out;
				break;

			case BK_ST_SLEEP:
				{
					int64		now = bk_now_ns();

					if (now >= s->sleep_until)
					{
						s->state = BK_ST_END_COMMAND;
						break;
					}
					if (!bk_session_stopping(s) && now < s->end_ns)
					{
						/* the end of the run, if it comes first, cuts it short */
						wait->kind = BK_WAIT_TIME;
						wait->until_ns = Min(s->sleep_until, s->end_ns);
						goto out;
					}
					runner_cut_short(s);
				}
				break;

			case BK_ST_END_COMMAND:
				runner_count_command(s, s->cur_command, s->cmd_t0);
				s->pc = s->next_command;
				s->state = BK_ST_START_COMMAND;
				break;

			case BK_ST_END_TX:
				s->state = runner_end_tx(s);
				goto out;

			case BK_ST_ERROR:
				if (runner_error(s))
				{
					s->state = runner_end_tx(s);
					goto out;
				}
				s->state = BK_ST_WAIT_ROLLBACK;
				break;

			case BK_ST_RECONNECT:
				{
					int64		now = bk_now_ns();
					BkError		err;
					int			rc;

					if (bk_session_stopping(s) || now >= s->end_ns)
					{
						if (s->connecting)
						{
							/* the new connection in progress is abandoned */
							s->xs->exec->close(s->xs);
							s->conn_epoch++;
							s->connecting = false;
						}
						s->state = BK_ST_FINISHED;
						break;
					}
					if (!s->connecting && now < s->reconnect_at)
					{
						wait->kind = BK_WAIT_TIME;
						wait->until_ns = Min(s->reconnect_at, s->end_ns);
						goto out;
					}
					if (!s->connecting)
					{
						s->connecting = true;
						s->connect_t0 = now;
						s->me->reconnect_attempts++;
					}

					/*
					 * A step of the new connection, which waits on its socket
					 * as a statement does (the socket may be another one at
					 * each step: libpq tries the hosts in turn)
					 */
					memset(&err, 0, sizeof(err));
					s->conn_epoch++;
					rc = s->xs->exec->reconnect(s->xs, &err, wait);
					if (rc == 0)
					{
						wait->until_ns = wait->until_ns > 0 ?
							Min(wait->until_ns, s->end_ns) : s->end_ns;
						goto out;
					}
					s->connecting = false;
					if (rc > 0)
					{
						int64		t1 = bk_now_ns();

						s->me->conn_ns += t1 - s->connect_t0;
						s->me->connections++;
						s->me->reconnects++;
						counter_add(&s->me->phase[t1 < s->sh->measure_ns ? PHASE_WARMUP : PHASE_MEASURED].reconnects, 1);
						s->state = BK_ST_CHOOSE_SCRIPT;
					}
					else
					{
						s->me->last_error = err.sqlerrcode;
						runner_schedule_reconnect(s, bk_now_ns());
					}
				}
				break;

			case BK_ST_WAIT_ROLLBACK:
				switch (s->xs->exec->fetch(s->xs, &s->res))
				{
					case BK_FETCH_WAIT:
						wait->kind = BK_WAIT_SOCKET;
						wait->write = false;
						wait->fd = s->res.fd;
						wait->until_ns = 0;
						goto out;
					case BK_FETCH_RESULT:
						/* what the aborted request still had to say */
						break;
					case BK_FETCH_DONE:
						s->state = runner_after_rollback(s);
						if (s->state != BK_ST_START_COMMAND)
							goto out;
						break;
				}
				break;

			case BK_ST_FINISHED:
			case BK_ST_ABORTED:
				wait->kind = BK_WAIT_DONE;
				goto out;
		}
	}
out:
	MemoryContextSwitchTo(old);
}
