/*-------------------------------------------------------------------------
 *
 * script.h
 *		Workload scripts in pgbench's script language: parsing them into
 *		commands, evaluating \set expressions, substituting variables.
 *
 * A script is parsed once per client (and once by the caller, to refuse a
 * broken script before anything starts).  Running it is the client's job
 * (client.c); this file knows nothing of transactions or SPI.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_H
#define PGBENCHKIT_SCRIPT_H

/* the value of a variable or of an expression, as in pgbench */
typedef enum BkValueKind
{
	BK_VAL_UNDEF,				/* a variable not set yet (zeroed memory) */
	BK_VAL_NULL,
	BK_VAL_BOOL,
	BK_VAL_INT,
	BK_VAL_DOUBLE
} BkValueKind;

typedef struct BkValue
{
	BkValueKind kind;
	bool		b;
	int64		i;
	double		d;
} BkValue;

/* the random generator of one client: xoshiro256**, state copyable */
typedef struct BkPrng
{
	uint64		s[4];
} BkPrng;

typedef struct BkExpr BkExpr;	/* a parsed expression (script.c) */
typedef struct BkSqlSubst BkSqlSubst;	/* a statement's :names (script.c) */

typedef enum BkCommandKind
{
	BK_CMD_SQL,					/* one SQL statement */
	BK_CMD_SET,					/* \set var expr */
	BK_CMD_BEGIN,				/* BEGIN / START TRANSACTION */
	BK_CMD_COMMIT,				/* END / COMMIT */
	BK_CMD_ROLLBACK				/* ROLLBACK / ABORT */
} BkCommandKind;

typedef struct BkCommand
{
	BkCommandKind kind;
	int			line;			/* first line of the command in the script */

	/* BK_CMD_SET */
	int			var;			/* index into BkScript.varnames */
	BkExpr	   *expr;

	/* BK_CMD_SQL */
	char	   *sql;			/* the statement as written, without ';' */
	char	   *sql_params;		/* the same with each :name turned into $n */
	int			nparams;
	int		   *param_vars;		/* variable of $1 .. $nparams */
	BkSqlSubst *subst;			/* for bk_sql_substitute */
} BkCommand;

typedef struct BkScript
{
	char	   *name;
	int			ncommands;
	BkCommand  *commands;
	int			nvars;
	char	  **varnames;		/* every variable the script names */
} BkScript;

/* variables every script has, set by the client before the first run */
#define BK_VAR_SCALE		0	/* :scale */
#define BK_VAR_CLIENT_ID	1	/* :client_id (0 .. clients - 1) */
#define BK_VAR_RANDOM_SEED	2	/* :random_seed */

extern BkScript *bk_script_parse(const char *text, const char *name);
extern int	bk_script_var(BkScript *script, const char *name, bool create);

extern void bk_prng_seed(BkPrng *prng, uint64 seed);
extern uint64 bk_prng_next(BkPrng *prng);

extern void bk_eval_set(const BkScript *script, const BkCommand *cmd,
						BkValue *vars, BkPrng *prng);
extern char *bk_value_text(const BkValue *value, char *buf, size_t len);
extern char *bk_sql_substitute(const BkScript *script, const BkCommand *cmd,
							   const BkValue *vars);

#endif							/* PGBENCHKIT_SCRIPT_H */
