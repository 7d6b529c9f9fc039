/*-------------------------------------------------------------------------
 *
 * runvars.c
 *		The variables a run sets before it starts, beside the ones its
 *		caller gives: those of the dataset it found (sysbench's, the Insert
 *		Benchmark's, TPC-C's NURand constants), those of TPC-C's run
 *		arguments (warehouse_choice, keying_and_thinking, mode), and the
 *		checks of those arguments and of the dataset's functions that a
 *		TPC-C run in mode 'procedures' calls.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "nodes/makefuncs.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "core/random.h"
#include "dataset/lookup.h"
#include "meta/workload.h"
#include "api/runargs.h"
#include "api/runvars.h"

/*
 * run_default_variable
 *		Variable NAME of the run set to VALUE, unless the run's variables
 *		give it already; recorded with them (bench.runs.variables), as if
 *		given.
 */
static void
run_default_variable(RunArgs *a, const char *name, int value)
{
	for (int i = 0; i < a->nvariables; i++)
		if (strcmp(a->var_names[i], name) == 0)
			return;
	a->var_names = a->nvariables == 0 ? palloc(sizeof(char *)) :
		repalloc(a->var_names, sizeof(char *) * (a->nvariables + 1));
	a->var_values = a->nvariables == 0 ? palloc(sizeof(char *)) :
		repalloc(a->var_values, sizeof(char *) * (a->nvariables + 1));
	a->var_names[a->nvariables] = pstrdup(name);
	a->var_values[a->nvariables] = psprintf("%d", value);
	a->nvariables++;
	/* the variables' jsonb object as text, NAME added before its brace */
	if (a->variables_json == NULL || strcmp(a->variables_json, "{}") == 0)
		a->variables_json = psprintf("{\"%s\": %d}", name, value);
	else
	{
		size_t		len = strlen(a->variables_json);

		Assert(a->variables_json[len - 1] == '}');
		a->variables_json = psprintf("%.*s, \"%s\": %d}", (int) (len - 1),
									 a->variables_json, name, value);
	}
}

/*
 * run_tpcc_c_last
 *		TPC-C's C for C_LAST in a run (clause 2.1.6.1): the load's C_LOAD
 *		plus or minus a delta drawn from the run's SEED, in 65 .. 119 but
 *		neither 96 nor 112, so that the run's last names are not the
 *		load's; within 0 .. 255 either way.
 */
static int
run_tpcc_c_last(int c_load, uint64 seed)
{
	BkPrng		prng;
	int			delta;

	bk_prng_seed(&prng, seed ^ UINT64CONST(0x7470636343));
	do
		delta = (int) bk_random_uniform(&prng, 65, 119);
	while (delta == 96 || delta == 112);
	return c_load + delta <= 255 ? c_load + delta : c_load - delta;
}

/*
 * bk_run_dataset_variables
 *		The variables a run on DATASET (FOUND, in this server or on its
 *		target) sets, unless given: sysbench's :tables and :table_size
 *		(--tables, --table-size); the Insert Benchmark's :tables,
 *		:min_trxid, -1 until a client reads its table's oldest row, and
 *		:query_no, the point queries' count (they read the ids there are
 *		again every 100); TPC-C's :warehouses, NURand's constants of the
 *		load :c_id, :ol_i_id and :c_last_load, and the run's :c_last (from
 *		the run's SEED).  A TPC-C dataset bench.init did not make (go-tpc
 *		prepare's) has no recorded constants: go-tpc draws its own at
 *		random and keeps them nowhere, so the run draws :c_id, :ol_i_id and
 *		:c_last from its seed, and :c_last_load is -1 (unknown).
 */
void
bk_run_dataset_variables(RunArgs *a, const char *dataset, const BkFoundDataset *found, uint64 seed)
{
	if (strcmp(dataset, "sysbench") == 0)
	{
		run_default_variable(a, "tables", found->tables);
		run_default_variable(a, "table_size", found->table_size);
	}
	else if (strcmp(dataset, "ibench") == 0)
	{
		run_default_variable(a, "tables", found->tables);
		run_default_variable(a, "min_trxid", -1);
		run_default_variable(a, "query_no", 0);
	}
	else if (strcmp(dataset, "tpcc") == 0)
	{
		run_default_variable(a, "warehouses", found->warehouses);
		if (found->constants)
		{
			run_default_variable(a, "c_id", found->c_id);
			run_default_variable(a, "ol_i_id", found->ol_i_id);
			run_default_variable(a, "c_last", run_tpcc_c_last(found->c_last, seed));
			run_default_variable(a, "c_last_load", found->c_last);
		}
		else
		{
			BkPrng		prng;

			bk_prng_seed(&prng, seed ^ UINT64CONST(0x7470636344));
			run_default_variable(a, "c_id", (int) bk_random_uniform(&prng, 0, 1023));
			run_default_variable(a, "ol_i_id", (int) bk_random_uniform(&prng, 0, 8191));
			run_default_variable(a, "c_last", (int) bk_random_uniform(&prng, 0, 255));
			run_default_variable(a, "c_last_load", -1);
		}
	}
}

/*
 * bk_run_tpcc_args
 *		warehouse_choice, keying_and_thinking and mode are for TPC-C's
 *		workloads: refused with any other (22023) unless left at their
 *		defaults.
 */
void
bk_run_tpcc_args(const RunArgs *a, const BkWorkload *w)
{
	if ((a->random_warehouse || a->keying_and_thinking || a->statements) &&
		(w->dataset == NULL || strcmp(w->dataset, "tpcc") != 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is for TPC-C's workloads, and workload \"%s\" runs on %s",
						a->random_warehouse ? "warehouse_choice => 'random'" :
						a->keying_and_thinking ? "keying_and_thinking => true" : "mode => 'statements'",
						w->name, w->dataset == NULL ? "no dataset" :
						psprintf("a%s %s dataset", strcmp(w->dataset, "ibench") == 0 ? "n" : "",
								 w->dataset)),
				 errhint("Leave it out, or run a workload of dataset tpcc, as tpcc.")));
}

/*
 * bk_run_tpcc_variables
 *		The variables of A's run of a TPC-C workload that come from its
 *		arguments, unless given: :random_warehouse (1 with warehouse_choice
 *		=> 'random'), :keying_and_thinking (1 with keying_and_thinking =>
 *		true) and :statements (1 with mode => 'statements': the scripts
 *		send their statements, not the dataset's functions; the run's
 *		recorded variables keep it, which bench.tpcc_transactions reads),
 *		and :warehouses, those of the dataset found
 *		(WAREHOUSES_FOUND, 0: not known here).  With keying and think times, clients are terminals: at
 *		most 10 per warehouse (:warehouses), as the specification has them
 *		(clause 4.2.2), refused before the run starts.
 */
void
bk_run_tpcc_variables(RunArgs *a, int warehouses_found)
{
	if (warehouses_found > 0)
		run_default_variable(a, "warehouses", warehouses_found);
	run_default_variable(a, "random_warehouse", a->random_warehouse ? 1 : 0);
	run_default_variable(a, "keying_and_thinking", a->keying_and_thinking ? 1 : 0);
	run_default_variable(a, "statements", a->statements ? 1 : 0);
	if (!a->keying_and_thinking)
		return;
	for (int i = 0; i < a->nvariables; i++)
	{
		int64		warehouses;

		if (strcmp(a->var_names[i], "warehouses") != 0 || a->var_values[i] == NULL)
			continue;
		warehouses = strtoi64(a->var_values[i], NULL, 10);
		if (warehouses > 0 && a->clients > 10 * warehouses)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("keying_and_thinking => true allows at most 10 clients per warehouse: %lld for %lld warehouse%s, not %d",
							(long long) (10 * warehouses), (long long) warehouses,
							warehouses == 1 ? "" : "s", a->clients),
					 errdetail("With keying and think times a client is one of the TPC-C specification's terminals, 10 per warehouse."),
					 errhint("Use fewer clients, load more warehouses, or leave keying_and_thinking out (no keying and think times, as HammerDB's timed driver runs).")));
	}
}

/*
 * bk_run_tpcc_functions
 *		A TPC-C workload sent as procedures (A's mode) calls the dataset's
 *		functions, one per transaction: each that W's scripts call must be
 *		the one search_path finds first, in the dataset's schema (where
 *		search_path finds its warehouse table), or the run is refused before
 *		it starts, saying how to make them (42883).  A function of the same
 *		name found first in another schema would run that schema's dataset
 *		instead (its statements name their tables with its own schema).
 *		Sent as statements, it needs none (a dataset go-tpc prepared runs
 *		so).
 */
void
bk_run_tpcc_functions(const RunArgs *a, const BkWorkload *w)
{
	static const char *const names[] = {"tpcc_new_order", "tpcc_payment", "tpcc_order_status",
	"tpcc_delivery", "tpcc_stock_level"};
	Oid			relid = RangeVarGetRelid(makeRangeVar(NULL, "warehouse", -1), NoLock, true);
	Oid			nsp = OidIsValid(relid) ? get_rel_namespace(relid) : InvalidOid;

	if (a->statements)
		return;
	for (int i = 0; i < lengthof(names); i++)
	{
		char	   *call = psprintf("%s(", names[i]);
		bool		called = false;
		FuncCandidateList c;
		FuncCandidateList first = NULL;

		for (int s = 0; s < w->nscripts && !called; s++)
			called = strstr(w->scripts[s], call) != NULL;
		if (!called)
			continue;
		c = FuncnameGetCandidates(list_make1(makeString(pstrdup(names[i]))), -1, NIL,
								  false, false, false, true);
		for (; c != NULL; c = c->next)
			if (first == NULL || c->pathpos < first->pathpos)
				first = c;
		if (first == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_FUNCTION),
					 errmsg("workload \"%s\" calls function %s(), and there is none in search_path",
							w->name, names[i]),
					 errdetail("Its transactions are sent as procedures: one call of the dataset's function per transaction."),
					 errhint("Load the dataset with bench.init('tpcc', warehouses => N), which makes the functions; for TPC-C tables another tool loaded, make them beside the tables with bench.tpcc_functions(schema) (in psql: SELECT unnest(bench.tpcc_functions('public')) \\gexec), or run with mode => 'statements', which needs none.")));
		if (OidIsValid(nsp) && get_func_namespace(first->oid) != nsp)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_FUNCTION),
					 errmsg("workload \"%s\" calls function %s(), and search_path finds it first in schema \"%s\", not in the dataset's schema \"%s\"",
							w->name, names[i], get_namespace_name(get_func_namespace(first->oid)),
							get_namespace_name(nsp)),
					 errdetail("That function works on its own schema's tables, not on the dataset the run's statements find."),
					 errhint("Make the dataset's functions in its schema with bench.tpcc_functions('%s') (in psql: SELECT unnest(bench.tpcc_functions('%s')) \\gexec), or load it again with bench.init('tpcc').",
							 get_namespace_name(nsp), get_namespace_name(nsp))));
	}
}

