/*-------------------------------------------------------------------------
 *
 * script.h
 *		Workload scripts in pgbench's script language: the types the files
 *		of src/script/ share with each other and with their users (values,
 *		variables, commands, scripts).  What each file does is declared in
 *		its own header (README.md lists them): a script is split into
 *		commands by parse.c, its expressions parsed by expr_parse.c and
 *		evaluated by expr_eval.c, its variables substituted by subst.c.
 *		The random generator behind expressions is random.h's.
 *
 * A workload is one or more scripts with weights, as pgbench -f a@5 -f b@1.
 * Its scripts share one table of variable names (BkVarTable), since a
 * client's variables are the same whichever script it runs.  Scripts are
 * parsed once per client (and once by the caller, to refuse a broken
 * script before anything starts).  Running them is the runner's job
 * (runner.c); these files know nothing of transactions or SPI.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_H
#define PGBENCHKIT_SCRIPT_H

#include "core/random.h"

/* a function that does not return, in the spelling of 14 to 18 */
#if defined(pg_noreturn)
#define BK_NORETURN pg_noreturn
#elif defined(__GNUC__)
#define BK_NORETURN __attribute__((noreturn))
#else
#define BK_NORETURN
#endif

/* room for the text of any number: "-1.23456789012345e-308" and less */
#define BK_VALUE_TEXT_LEN		32

/* the longest value of an identifier variable, :{name}: a name's (NAMEDATALEN - 1) */
#define BK_IDENT_MAX_LEN		63

/*
 * The most texts one statement with identifier variables takes in one
 * session, each prepared once with protocol 'prepared': what bounds the
 * plans (and the server's prepared statements) a client keeps.
 */
#define BK_IDENT_MAX_VARIANTS	10000

/* the value of a variable or of an expression, as in pgbench */
typedef enum BkValueKind
{
	BK_VAL_UNDEF,				/* a variable not set yet (zeroed memory) */
	BK_VAL_NULL,
	BK_VAL_BOOL,
	BK_VAL_INT,
	BK_VAL_DOUBLE,
	BK_VAL_STRING,				/* text not yet read as a value: a run's
								 * variables (pgbench -D) and \gset/\aset
								 * results; an expression reads it as pgbench's
								 * makeVariableValue does, SQL gets it as is */
	BK_VAL_ARRAY				/* an array variable (\set name[i], \garray):
								 * only a variable holds one */
} BkValueKind;

typedef struct BkArray BkArray;

typedef struct BkValue
{
	BkValueKind kind;
	bool		b;
	int64		i;
	double		d;
	char	   *s;				/* BK_VAL_STRING: palloc'd, owned by the
								 * variable; see bk_var_assign */
	BkArray    *a;				/* BK_VAL_ARRAY: palloc'd, owned by the
								 * variable, as are its elements' strings */
} BkValue;

/*
 * An array variable's elements, 1 to n in the language (0 to n - 1 here):
 * values of any kind but BK_VAL_UNDEF and BK_VAL_ARRAY.
 */
struct BkArray
{
	int			n;
	int			max;
	BkValue    *elems;
};

/* the most elements an array variable holds */
#define BK_ARRAY_MAX_LEN		65535

/* the most parameters a statement has (the protocol's limit) */
#define BK_MAX_PARAMS			65535

/* variable names, shared by the scripts of a workload */
typedef struct BkVarTable
{
	int			nvars;
	int			maxvars;
	char	  **names;
} BkVarTable;

/* variables every client has, in this order (pgbench's) */
#define BK_VAR_SCALE		0	/* :scale */
#define BK_VAR_CLIENT_ID	1	/* :client_id (0 .. clients - 1) */
#define BK_VAR_RANDOM_SEED	2	/* :random_seed */
#define BK_VAR_DEFAULT_SEED	3	/* :default_seed */

typedef struct BkExpr BkExpr;	/* a parsed expression (expr.h) */
typedef struct BkSqlSubst BkSqlSubst;	/* a statement's :names (subst.c) */

typedef enum BkCommandKind
{
	BK_CMD_SQL,					/* SQL: one statement, or several joined by \; */
	BK_CMD_BEGIN,				/* BEGIN / START TRANSACTION */
	BK_CMD_COMMIT,				/* END / COMMIT */
	BK_CMD_ROLLBACK,			/* ROLLBACK / ABORT */
	BK_CMD_SET,					/* \set var expr */
	BK_CMD_SLEEP,				/* \sleep n [us|ms|s] */
	BK_CMD_IF,					/* \if expr */
	BK_CMD_ELIF,				/* \elif expr */
	BK_CMD_ELSE,				/* \else */
	BK_CMD_ENDIF,				/* \endif */
	BK_CMD_START_PIPELINE,		/* \startpipeline */
	BK_CMD_SYNC_PIPELINE,		/* \syncpipeline */
	BK_CMD_END_PIPELINE,		/* \endpipeline */
	BK_CMD_WHILE,				/* \while expr */
	BK_CMD_ENDWHILE,			/* \endwhile */
	BK_CMD_UNSET				/* \unset var */
} BkCommandKind;

/* what a SQL command does with its result rows */
typedef enum BkGset
{
	BK_GSET_NONE,
	BK_GSET_ONE,				/* \gset: exactly one row, of the last statement */
	BK_GSET_ALL,				/* \aset: every statement, the last row of each */
	BK_GSET_ARRAY				/* \garray: every row of the last statement,
								 * a column an array variable */
} BkGset;

/* one statement of a SQL command */
typedef struct BkStatement
{
	char	   *sql;			/* as written, without ';' ("" for an empty
								 * query: a lone ';' or only comments) */
	char	   *sql_params;		/* the same with each :name turned into $n */
	int			nparams;
	int		   *param_vars;		/* variable of $1 .. $nparams */
	int			nrefs;			/* :names in the text, each time one appears
								 * (pgbench's parameters: one per appearance) */
	BkSqlSubst *subst;			/* for bk_sql_substitute, bk_sql_with_idents */

	/*
	 * Identifier variables, :{name} (an extension of pgbench's language):
	 * their values are put into the text before it is parsed, so sql_params
	 * keeps them as written and a statement that has any can be parsed only
	 * once they have values (bk_sql_with_idents).  Since it cannot be parsed
	 * before the run, IDENT_UTILITY tells from its first word whether it may
	 * be anything but SELECT, INSERT, UPDATE, DELETE or MERGE: what may
	 * create what later statements use.
	 */
	int			nidents;		/* :{name}s in the text */
	bool		ident_utility;

	/*
	 * Lists, :name[*] and :(a, b)[*] (an extension too): expanded into as
	 * many parameters as the arrays have elements when the statement runs,
	 * so its text, like one with identifier variables, is known only then.
	 * DYNAMIC: it has identifier variables or lists (bk_sql_dynamic).
	 */
	int			nlists;
	bool		dynamic;
} BkStatement;

typedef struct BkCommand
{
	BkCommandKind kind;
	int			line;			/* first line of the command in the script */
	char	   *text;			/* as pgbench -r prints it: a SQL command's
								 * first line (127 bytes at most), a
								 * meta-command whole; no trailing blanks */

	/*
	 * BK_CMD_SET (var, expr, and index for \set name[index]); BK_CMD_IF,
	 * BK_CMD_ELIF and BK_CMD_WHILE (expr); BK_CMD_UNSET (var)
	 */
	int			var;			/* index into the BkVarTable; -1 if none */
	BkExpr	   *expr;
	BkExpr	   *index;			/* NULL: the variable itself */

	/*
	 * BK_CMD_IF, BK_CMD_ELIF, BK_CMD_ELSE: the next \elif, \else or \endif
	 * of the same \if (where a false condition goes); BK_CMD_ELIF,
	 * BK_CMD_ELSE: also the \endif (where a branch that ran goes).
	 */
	int			next_branch;	/* command index */
	int			endif;			/* command index */

	/*
	 * BK_CMD_WHILE: its \endwhile (a false condition goes past it);
	 * BK_CMD_ENDWHILE: its \while (where it goes back to).  In next_branch.
	 */

	/* BK_CMD_SLEEP: a constant or a variable, times a unit */
	int64		sleep_value;	/* when sleep_var < 0 */
	int			sleep_var;		/* -1: a constant */
	int64		sleep_unit_us;	/* 1, 1000 or 1000000 */

	/* BK_CMD_SQL, BK_CMD_BEGIN, BK_CMD_COMMIT, BK_CMD_ROLLBACK */
	int			nstmts;
	BkStatement *stmts;
	BkGset		gset;
	char	   *gset_prefix;	/* "" when none */
	bool		in_pipeline;	/* between \startpipeline and \endpipeline */

	/*
	 * BK_CMD_BEGIN: the transaction modes of BEGIN or START TRANSACTION, as
	 * values of transaction_isolation ("serializable" ...),
	 * transaction_read_only and transaction_deferrable ("on", "off"); NULL
	 * when not given
	 */
	const char *xact_isolation;
	const char *xact_read_only;
	const char *xact_deferrable;
} BkCommand;

/*
 * The texts a statement with identifier variables took in one session,
 * each with what an executor keeps for it (a plan, a prepared statement's
 * state): BkVariants holds them sorted by text, each allocated on its own
 * so that a BkVariant stays where it is.
 */
typedef struct BkVariant
{
	char	   *sql;			/* the statement with its :{name}s put in */
	int			ordinal;		/* 0, 1, ...: in the order they were added */
	int			state;			/* the executor's */
	void	   *data;			/* the executor's */
} BkVariant;

typedef struct BkVariants
{
	int			n;
	int			max;
	BkVariant **v;
} BkVariants;

/* how many SQLSTATEs a script's \ignore_errors (\rollback_errors) may name */
#define BK_MAX_IGNORED_ERRORS	16

typedef struct BkScript
{
	char	   *name;			/* as messages name it */
	int			number;			/* position in its workload, from 0 */
	int			ncommands;
	BkCommand  *commands;
	BkVarTable *vt;				/* shared with the other scripts */

	/*
	 * \ignore_errors: a statement failing with one of these restarts the
	 * transaction with new random values, as sysbench restarts an event
	 */
	int			nignored;
	int			ignored[BK_MAX_IGNORED_ERRORS];	/* sqlerrcodes */

	/*
	 * \rollback_errors: a statement failing with one of these ends the
	 * transaction as a rollback the script means (counted, not a failure)
	 */
	int			nrollback;
	int			rollback[BK_MAX_IGNORED_ERRORS];

	/*
	 * \dataset: the kind of dataset the script's statements need (tpcb,
	 * sysbench, ibench), as a named workload's dataset says it; "" none
	 */
	char		dataset[16];
} BkScript;

/* the characters of a variable name, as pgbench's */
static inline bool
bk_is_name_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
		IS_HIGHBIT_SET(c);
}

static inline bool
bk_is_name_char(unsigned char c)
{
	return bk_is_name_start(c) || (c >= '0' && c <= '9');
}

/* pgbench's spaces between tokens: [ \t\r\f\v] */
static inline bool
bk_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* a decimal digit, in any locale */
static inline bool
bk_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

#endif							/* PGBENCHKIT_SCRIPT_H */
