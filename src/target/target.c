/*-------------------------------------------------------------------------
 *
 * target.c
 *		Targets: remote PostgreSQL servers, stored the PostgreSQL way.
 *
 * A target is a foreign server of the wrapper bench_target, which the
 * extension creates; each role's credentials for it are in its user mapping
 * (pg_user_mapping, which ordinary roles cannot read).  The wrapper has no
 * handler: it stores connection options and nothing reads foreign tables
 * through it.  Its validator, bench_target_validator, takes libpq's
 * connection options as postgres_fdw's does:
 *
 *	- the options of libpq (PQconndefaults) but its debug options, and but
 *	  fallback_application_name and client_encoding, which pgbenchkit sets;
 *	- user, the secret options (password, sslpassword: libpq marks them
 *	  with '*'), sslcert and sslkey go in the user mapping only; everything
 *	  else goes in the server only (every role can read a server's options);
 *	- sslcert and sslkey may be set in a user mapping by a superuser only
 *	  (they name files of the local server's OS user);
 *	- password_required (boolean, user mapping only): false may be set by a
 *	  superuser only;
 *	- price_per_hour (a decimal of zero or more) and currency (ISO 4217's
 *	  three upper-case letters), server only, both or neither: the target's
 *	  price, which its runs record; not libpq's, so never passed to it.
 *
 * A non-superuser's connection must authenticate with a password, so that
 * no role reaches this server or another one with the server's own OS
 * identity (trust, peer, its ~/.pgpass, its client certificate): before
 * connecting, the user mapping must hold a non-empty password (unless a
 * superuser set password_required 'false'), and after connecting, libpq
 * must say the server asked for it (PQconnectionUsedPassword).  The same
 * rules as postgres_fdw's check_conn_params and connect_pg_server.  Nor
 * does a non-superuser's connection present the client certificate of the
 * server's OS user, unless a superuser set sslcert in its user mapping.
 *
 * bench.check_target connects with these rules, runs SELECT version() and
 * disconnects; bench.init connects with them to load a target
 * (init_remote.c).  The runner will connect through bk_target_connect the
 * same way when runs can use targets.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/reloptions.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_foreign_data_wrapper.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_foreign_table.h"
#include "catalog/pg_type.h"
#include "catalog/pg_user_mapping.h"
#include "commands/defrem.h"
#include "fmgr.h"
#include "foreign/foreign.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "core/clock.h"
#include "core/compat.h"
#include "core/pgbenchkit.h"
#include "target/target.h"

PG_FUNCTION_INFO_V1(bench_target_validator);
PG_FUNCTION_INFO_V1(bench_target_conninfo);
PG_FUNCTION_INFO_V1(bench_check_target);

/* how long a connection attempt may take when the target does not say */
#define BK_TARGET_CONNECT_TIMEOUT "10"

/* a client certificate that is not there, for libpq before sslcertmode (16) */
#define BK_TARGET_NO_FILE "/nonexistent/pgbenchkit/no-client-certificate"

/* one option a target's server or user mapping may carry */
typedef struct BkTargetOption
{
	const char *keyword;
	Oid			context;		/* ForeignServerRelationId or UserMappingRelationId */
	bool		secret;			/* libpq shows it as '*' (a password) */
	bool		is_libpq;		/* passed to libpq when connecting */
} BkTargetOption;

/* the options, built once a backend from libpq's (malloc'd, kept) */
static BkTargetOption *target_options = NULL;

static void
init_target_options(void)
{
	PQconninfoOption *defaults;
	PQconninfoOption *lopt;
	BkTargetOption *opts;
	int			n = 0;

	if (target_options)
		return;

	/* libpq allocates it with malloc; its keywords live as long as we do */
	defaults = PQconndefaults();
	if (defaults == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("Could not get libpq's default connection options.")));
	for (lopt = defaults; lopt->keyword; lopt++)
		n++;

	/* libpq's, password_required, price_per_hour, currency, the terminator */
	opts = malloc(sizeof(BkTargetOption) * (n + 4));
	if (opts == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	n = 0;
	for (lopt = defaults; lopt->keyword; lopt++)
	{
		bool		secret = strchr(lopt->dispchar, '*') != NULL;

		/* debug options, and the ones pgbenchkit sets itself */
		if (strchr(lopt->dispchar, 'D') ||
			strcmp(lopt->keyword, "fallback_application_name") == 0 ||
			strcmp(lopt->keyword, "client_encoding") == 0)
			continue;
		opts[n].keyword = lopt->keyword;
		opts[n].secret = secret;
		opts[n].is_libpq = true;
		if (secret ||
			strcmp(lopt->keyword, "user") == 0 ||
			strcmp(lopt->keyword, "sslcert") == 0 ||
			strcmp(lopt->keyword, "sslkey") == 0)
			opts[n].context = UserMappingRelationId;
		else
			opts[n].context = ForeignServerRelationId;
		n++;
	}
	opts[n].keyword = "password_required";
	opts[n].context = UserMappingRelationId;
	opts[n].secret = false;
	opts[n].is_libpq = false;
	n++;
	/* the target's price, which its runs record: not libpq's */
	opts[n].keyword = "price_per_hour";
	opts[n].context = ForeignServerRelationId;
	opts[n].secret = false;
	opts[n].is_libpq = false;
	n++;
	opts[n].keyword = "currency";
	opts[n].context = ForeignServerRelationId;
	opts[n].secret = false;
	opts[n].is_libpq = false;
	n++;
	opts[n].keyword = NULL;
	target_options = opts;
}

/* the option named KEYWORD, in whatever context, or NULL */
static const BkTargetOption *
find_option(const char *keyword)
{
	const BkTargetOption *opt;

	init_target_options();
	for (opt = target_options; opt->keyword; opt++)
		if (strcmp(opt->keyword, keyword) == 0)
			return opt;
	return NULL;
}

/* the options of CONTEXT, comma-separated, for a hint */
static char *
options_of(Oid context)
{
	StringInfoData buf;
	const BkTargetOption *opt;

	init_target_options();
	initStringInfo(&buf);
	for (opt = target_options; opt->keyword; opt++)
		if (opt->context == context)
			appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "", opt->keyword);
	return buf.data;
}

static void
check_sslmode(const char *value)
{
	static const char *const modes[] = {"disable", "allow", "prefer", "require",
	"verify-ca", "verify-full", NULL};
	int			i;

	for (i = 0; modes[i]; i++)
		if (strcmp(value, modes[i]) == 0)
			return;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid sslmode \"%s\"", value),
			 errhint("sslmode is one of disable, allow, prefer, require, verify-ca and verify-full; a managed service wants verify-full with sslrootcert, its CA bundle.")));
}

/*
 * bench_target_validator
 *		SQL function bench._target_validator(options, catalog): the validator
 *		of the foreign-data wrapper bench_target.
 */
Datum
bench_target_validator(PG_FUNCTION_ARGS)
{
	List	   *options;
	Oid			catalog;
	ListCell   *lc;
	const char *price = NULL;
	const char *currency = NULL;

	bk_check_call(fcinfo, 2, "bench._target_validator");
	options = untransformRelOptions(PG_GETARG_DATUM(0));
	catalog = PG_GETARG_OID(1);

	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);
		const BkTargetOption *opt;

		if (catalog != ForeignServerRelationId && catalog != UserMappingRelationId)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("invalid option \"%s\"", def->defname),
					 errhint("The foreign-data wrapper %s takes options on its servers (the targets) and their user mappings only.",
							 BK_TARGET_FDW)));

		opt = find_option(def->defname);
		if (opt == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("invalid option \"%s\"", def->defname),
					 errhint("Valid options in this context are: %s.", options_of(catalog))));

		if (opt->context != catalog)
		{
			if (opt->secret)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
						 errmsg("option \"%s\" is a secret: it belongs in the user mapping, not the server",
								def->defname),
						 errhint("Every role can read a server's options, and ordinary roles cannot read user mappings: CREATE USER MAPPING FOR role SERVER name OPTIONS (%s '...').",
								 def->defname)));
			else if (catalog == ForeignServerRelationId)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
						 errmsg("option \"%s\" belongs in the user mapping, not the server", def->defname),
						 errhint("Each role's %s is set in its user mapping: CREATE USER MAPPING FOR role SERVER name OPTIONS (%s '...').",
								 def->defname, def->defname)));
			else
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
						 errmsg("option \"%s\" belongs in the server, not the user mapping", def->defname),
						 errhint("Set it on the server: ALTER SERVER name OPTIONS (ADD %s '...').",
								 def->defname)));
		}

		if (strcmp(def->defname, "password_required") == 0)
		{
			/*
			 * As postgres_fdw: only a superuser may set it to false.  A role
			 * may clear it (the validator does not see the old options).
			 */
			if (!defGetBoolean(def) && !superuser())
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("password_required=false is superuser-only"),
						 errhint("User mappings with the password_required option set to false may only be created or modified by a superuser.")));
		}
		else if (strcmp(def->defname, "sslcert") == 0 || strcmp(def->defname, "sslkey") == 0)
		{
			/* they name files of the local server's OS user */
			if (!superuser())
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("sslcert and sslkey are superuser-only"),
						 errhint("User mappings with the sslcert or sslkey options set may only be created or modified by a superuser.")));
		}
		else if (strcmp(def->defname, "sslmode") == 0)
			check_sslmode(defGetString(def));
		else if (strcmp(def->defname, "price_per_hour") == 0)
		{
			price = defGetString(def);
			if (!bk_price_valid(price))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("invalid price_per_hour \"%s\"", bk_shown(price)),
						 errhint("A price per hour is a decimal number of zero or more, of at most %d characters, without sign or exponent, like 0.52.",
								 BK_PRICE_MAX_LEN)));
		}
		else if (strcmp(def->defname, "currency") == 0)
		{
			currency = defGetString(def);
			if (!bk_currency_valid(currency))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("invalid currency \"%s\"", bk_shown(currency)),
						 errhint("A currency is its ISO 4217 code: three upper-case letters, like USD or EUR.")));
		}
	}

	/*
	 * A server's options arrive whole (ALTER SERVER ... OPTIONS (ADD ...)
	 * passes the list as it will be), so a price without its currency is
	 * seen here, whichever statement leaves it so.
	 */
	if (catalog == ForeignServerRelationId)
		bk_price_check_pair(price, currency, "price_per_hour", "currency");

	PG_RETURN_VOID();
}

/* does S name a password, in any case? (then libpq's message may quote it) */
static bool
mentions_password(const char *s)
{
	for (; *s; s++)
		if (pg_strncasecmp(s, "password", 8) == 0)
			return true;
	return false;
}

/*
 * bench_target_conninfo
 *		SQL function bench._target_conninfo(conninfo): the options of a
 *		connection string as an array of keyword, value, keyword, value...
 *		for bench.add_target, which puts user in the user mapping and the
 *		others in the server.  A password or another secret, sslcert and
 *		sslkey, and options a target cannot have are refused; no value is
 *		ever quoted in a message.
 */
Datum
bench_target_conninfo(PG_FUNCTION_ARGS)
{
	char	   *conninfo;
	char	   *err = NULL;
	PQconninfoOption *parsed;
	PQconninfoOption *o;
	Datum	   *elems;
	int			n = 0;
	int			count = 0;

	bk_check_call(fcinfo, 1, "bench._target_conninfo");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	conninfo = text_to_cstring(PG_GETARG_TEXT_PP(0));
	init_target_options();

	parsed = PQconninfoParse(conninfo, &err);
	if (parsed == NULL)
	{
		char	   *detail = NULL;

		/* libpq may quote a piece of the string: not if it has a password */
		if (err && !mentions_password(conninfo))
			detail = pchomp(err);
		if (err)
			PQfreemem(err);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid connection string for a target"),
				 detail ? errdetail_internal("%s", detail) :
				 errdetail("libpq's message is left out: the string mentions a password."),
				 errhint("Write keyword=value pairs separated by spaces, or a postgresql:// URI, without the password: it is an argument of its own.")));
	}

	for (o = parsed; o->keyword; o++)
		if (o->val != NULL)
			count++;
	elems = palloc(sizeof(Datum) * (2 * count + 1));

	for (o = parsed; o->keyword; o++)
	{
		const BkTargetOption *opt;
		char	   *keyword;

		if (o->val == NULL)
			continue;
		keyword = pstrdup(o->keyword);
		opt = find_option(keyword);
		if (opt && opt->secret)
		{
			PQconninfoFree(parsed);
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("the connection string of a target must not contain %s", keyword),
					 strcmp(keyword, "password") == 0 ?
					 errhint("Pass the password as the argument password of bench.add_target: it is kept in the user mapping, which other roles cannot read.") :
					 errhint("Secrets are kept in the user mapping, which other roles cannot read: ALTER USER MAPPING FOR CURRENT_USER SERVER name OPTIONS (ADD %s '...').",
							 keyword)));
		}
		if (opt == NULL)
		{
			PQconninfoFree(parsed);
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("option \"%s\" cannot be set for a target", keyword),
					 errhint("pgbenchkit sets fallback_application_name and client_encoding itself, and takes none of libpq's debug options.")));
		}
		if (strcmp(keyword, "sslcert") == 0 || strcmp(keyword, "sslkey") == 0)
		{
			PQconninfoFree(parsed);
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("the connection string of a target must not contain %s", keyword),
					 errhint("sslcert and sslkey belong in the user mapping, where a superuser sets them: ALTER USER MAPPING FOR role SERVER name OPTIONS (ADD sslcert '...', ADD sslkey '...').")));
		}
		elems[n++] = CStringGetTextDatum(keyword);
		elems[n++] = CStringGetTextDatum(o->val);
	}
	PQconninfoFree(parsed);

	PG_RETURN_ARRAYTYPE_P(construct_array(elems, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * bk_target_lookup
 *		The target named NAME, which the current role may use (USAGE on its
 *		server); errors name what is missing.
 */
ForeignServer *
bk_target_lookup(const char *name)
{
	ForeignServer *server = GetForeignServerByName(name, true);
	ForeignDataWrapper *fdw;

	if (server == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("target \"%s\" does not exist", bk_shown(name)),
				 errhint("bench.targets lists the targets; bench.add_target adds one.")));
	fdw = GetForeignDataWrapper(server->fdwid);
	if (strcmp(fdw->fdwname, BK_TARGET_FDW) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("server \"%s\" is not a target", name),
				 errdetail("Its foreign-data wrapper is %s, not %s.", fdw->fdwname, BK_TARGET_FDW),
				 errhint("bench.add_target adds a target, as does CREATE SERVER ... FOREIGN DATA WRAPPER %s.",
						 BK_TARGET_FDW)));
	if (bk_foreign_server_aclcheck(server->serverid, GetUserId(), ACL_USAGE) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for target \"%s\"", name),
				 errhint("Using a target needs USAGE on its server, which its owner grants: GRANT USAGE ON FOREIGN SERVER %s TO %s.",
						 quote_identifier(name),
						 quote_identifier(GetUserNameFromId(GetUserId(), false)))));
	return server;
}

/*
 * bk_target_user_mapping
 *		USERID's user mapping for SERVER (its own, or else PUBLIC's).
 */
UserMapping *
bk_target_user_mapping(ForeignServer *server, Oid userid)
{
	HeapTuple	tp;

	tp = SearchSysCache2(USERMAPPINGUSERSERVER, ObjectIdGetDatum(userid),
						 ObjectIdGetDatum(server->serverid));
	if (!HeapTupleIsValid(tp))
		tp = SearchSysCache2(USERMAPPINGUSERSERVER, ObjectIdGetDatum(InvalidOid),
							 ObjectIdGetDatum(server->serverid));
	if (!HeapTupleIsValid(tp))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("role \"%s\" has no user mapping for target \"%s\"",
						GetUserNameFromId(userid, false), server->servername),
				 errhint("CREATE USER MAPPING FOR CURRENT_USER SERVER %s OPTIONS (user '...', password '...') adds one.",
						 quote_identifier(server->servername))));
	ReleaseSysCache(tp);
	return GetUserMapping(userid, server->serverid);
}

/*
 * bk_target_price
 *		SERVER's price_per_hour and currency options, each NULL when it has
 *		none (its validator let through both or neither).
 */
void
bk_target_price(ForeignServer *server, const char **price, const char **currency)
{
	ListCell   *lc;

	*price = NULL;
	*currency = NULL;
	foreach(lc, server->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "price_per_hour") == 0)
			*price = defGetString(def);
		else if (strcmp(def->defname, "currency") == 0)
			*currency = defGetString(def);
	}
}

/* the libpq options of LIST into PARAMS */
static void
add_libpq_options(BkTargetParams *params, List *list)
{
	ListCell   *lc;

	foreach(lc, list)
	{
		DefElem    *def = (DefElem *) lfirst(lc);
		const BkTargetOption *opt = find_option(def->defname);

		if (opt && opt->is_libpq)
		{
			params->keywords[params->n] = def->defname;
			params->values[params->n] = defGetString(def);
			params->n++;
		}
	}
}

/*
 * bk_target_params
 *		The libpq keyword/value arrays of SERVER for the role of UM: the
 *		server's options, the user mapping's, fallback_application_name
 *		pgbenchkit, the database's client_encoding, and connect_timeout 10
 *		unless the server sets one.
 *
 *		A non-superuser does not present the client certificate of the local
 *		server's OS user either (libpq's default ~/.postgresql/postgresql.crt,
 *		or one a service file names), unless a superuser set sslcert in the
 *		user mapping: sslcertmode disable, or with a libpq before 16 an
 *		sslcert and sslkey that do not exist.
 */
BkTargetParams *
bk_target_params(ForeignServer *server, UserMapping *um)
{
	BkTargetParams *params = palloc0(sizeof(BkTargetParams));
	int			max = list_length(server->options) + list_length(um->options) + 7;
	bool		has_timeout = false;
	bool		has_sslcert = false;
	int			i;

	params->keywords = palloc0(sizeof(char *) * max);
	params->values = palloc0(sizeof(char *) * max);
	add_libpq_options(params, server->options);
	add_libpq_options(params, um->options);
	for (i = 0; i < params->n; i++)
	{
		if (strcmp(params->keywords[i], "connect_timeout") == 0)
			has_timeout = true;
		if (strcmp(params->keywords[i], "sslcert") == 0)
			has_sslcert = true;
	}
	if (!has_sslcert && !superuser_arg(um->userid))
	{
		/* later values win: these override a server's or service's */
		if (find_option("sslcertmode"))
		{
			params->keywords[params->n] = "sslcertmode";
			params->values[params->n++] = "disable";
		}
		else
		{
			params->keywords[params->n] = "sslcert";
			params->values[params->n++] = BK_TARGET_NO_FILE;
			params->keywords[params->n] = "sslkey";
			params->values[params->n++] = BK_TARGET_NO_FILE;
		}
	}
	if (!has_timeout)
	{
		params->keywords[params->n] = "connect_timeout";
		params->values[params->n++] = BK_TARGET_CONNECT_TIMEOUT;
	}
	params->keywords[params->n] = "fallback_application_name";
	params->values[params->n++] = "pgbenchkit";
	params->keywords[params->n] = "client_encoding";
	params->values[params->n++] = GetDatabaseEncodingName();
	params->keywords[params->n] = NULL;
	params->values[params->n] = NULL;
	return params;
}

/* does UM require a password?  (password_required, true unless set false) */
static bool
password_required(UserMapping *um)
{
	ListCell   *lc;

	foreach(lc, um->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "password_required") == 0)
			return defGetBoolean(def);
	}
	return true;
}

/*
 * bk_target_check_params
 *		Before connecting: a non-superuser must give a password, in the user
 *		mapping (as postgres_fdw's check_conn_params), unless a superuser set
 *		password_required 'false' there.
 */
void
bk_target_check_params(ForeignServer *server, UserMapping *um, BkTargetParams *params)
{
	int			i;

	if (superuser_arg(um->userid))
		return;
	for (i = 0; i < params->n; i++)
		if (strcmp(params->keywords[i], "password") == 0 && params->values[i][0] != '\0')
			return;
	if (!password_required(um))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
			 errmsg("password is required to use target \"%s\"", server->servername),
			 errdetail("Non-superusers must provide a password in the user mapping."),
			 errhint("ALTER USER MAPPING FOR CURRENT_USER SERVER %s OPTIONS (ADD password '...') sets it.",
					 quote_identifier(server->servername))));
}

/*
 * bk_target_check_used_password
 *		After connecting: a non-superuser's connection must have been
 *		authenticated with the password (PQconnectionUsedPassword), as
 *		postgres_fdw's connect_pg_server checks, unless a superuser set
 *		password_required 'false' in the user mapping.  Otherwise the role
 *		would have reached the server with the local server's identity
 *		(trust, peer, ident).  The caller finishes CONN on error.
 */
void
bk_target_check_used_password(ForeignServer *server, UserMapping *um, PGconn *conn)
{
	if (superuser_arg(um->userid) || !password_required(um))
		return;
	if (!PQconnectionUsedPassword(conn))
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("password is required to use target \"%s\"", server->servername),
				 errdetail("Non-superusers cannot connect if the server does not request a password."),
				 errhint("The target's authentication method must ask for the password (scram-sha-256), or a superuser sets password_required 'false' in the user mapping.")));
}

/*
 * bk_target_redact
 *		MESSAGE with every value of a secret option of PARAMS replaced by
 *		********, for the messages of libpq and of the target.
 */
char *
bk_target_redact(const char *message, BkTargetParams *params)
{
	char	   *result = pstrdup(message ? message : "");
	int			i;

	for (i = 0; i < params->n; i++)
	{
		const BkTargetOption *opt = find_option(params->keywords[i]);

		if (opt != NULL && opt->secret)
			result = bk_mask_secret(result, params->values[i]);
	}
	return result;
}

/*
 * bk_mask_secret
 *		TEXT with every occurrence of SECRET replaced by ********, palloc'd
 *		(TEXT itself when SECRET is empty).
 */
char *
bk_mask_secret(const char *text, const char *secret)
{
	size_t		len = strlen(secret);
	StringInfoData buf;
	const char *p;
	const char *hit;

	if (len == 0)
		return unconstify(char *, text);
	initStringInfo(&buf);
	for (p = text; (hit = strstr(p, secret)) != NULL; p = hit + len)
	{
		appendBinaryStringInfo(&buf, p, hit - p);
		appendStringInfoString(&buf, "********");
	}
	appendStringInfoString(&buf, p);
	return buf.data;
}

/* close CONN, opened by bk_target_connect */
void
bk_target_finish(PGconn *conn)
{
	PQfinish(conn);
	ReleaseExternalFD();
}

/*
 * bk_libpq_wait_socket
 *		Wait until the socket of CONN is ready for IO_FLAG, for at most
 *		TIMEOUT_MS (-1: no limit), serving interrupts (a cancel, a timeout,
 *		a termination) meanwhile.  Returns WaitLatchOrSocket's result.
 */
int
bk_libpq_wait_socket(PGconn *conn, int io_flag, long timeout_ms)
{
	int			rc;

	rc = WaitLatchOrSocket(MyLatch,
						   WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | io_flag |
						   (timeout_ms >= 0 ? WL_TIMEOUT : 0),
						   PQsocket(conn), timeout_ms, PG_WAIT_EXTENSION);
	if (rc & WL_LATCH_SET)
	{
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	return rc;
}

/* the connect_timeout of PARAMS, in seconds (bk_target_params sets one) */
static int
connect_timeout_of(BkTargetParams *params)
{
	int			i;

	for (i = 0; i < params->n; i++)
		if (strcmp(params->keywords[i], "connect_timeout") == 0)
			return atoi(params->values[i]);
	return 0;
}

/*
 * bk_libpq_connect_poll
 *		Complete the connection CONN started (PQconnectStart), as libpq's
 *		blocking connect does, but the wait can be canceled, and lasts at
 *		most TIMEOUT_MS in all (when above 0), whatever the number of hosts.
 *		False when that time ran out; the caller says so in its words.
 */
bool
bk_libpq_connect_poll(PGconn *conn, int64 timeout_ms)
{
	PostgresPollingStatusType status = PGRES_POLLING_WRITING;
	TimestampTz deadline = GetCurrentTimestamp() + (TimestampTz) timeout_ms * 1000;

	while (PQstatus(conn) != CONNECTION_BAD &&
		   status != PGRES_POLLING_OK && status != PGRES_POLLING_FAILED)
	{
		int			io_flag = status == PGRES_POLLING_READING ?
			WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE;
		long		left = -1;

		if (timeout_ms > 0)
		{
			left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
			if (left <= 0)
				return false;
		}
		if (bk_libpq_wait_socket(conn, io_flag, left) & io_flag)
			status = PQconnectPoll(conn);
	}
	return true;
}

/*
 * connect_poll
 *		bk_libpq_connect_poll for a target: at most the connect_timeout of
 *		PARAMS (when above 0), or the run's response_timeout when shorter.
 */
static void
connect_poll(ForeignServer *server, PGconn *conn, BkTargetParams *params)
{
	int			timeout_s = connect_timeout_of(params);
	int64		timeout_ms = (int64) timeout_s * 1000;

	if (params->connect_wait_ms > 0 && (timeout_ms <= 0 || params->connect_wait_ms < timeout_ms))
		timeout_ms = params->connect_wait_ms;
	if (bk_libpq_connect_poll(conn, timeout_ms))
		return;
	if (timeout_ms == params->connect_wait_ms)
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("could not connect to target \"%s\"", server->servername),
				 errdetail("No connection within the run's response_timeout, %lld ms.",
						   (long long) timeout_ms)));
	ereport(ERROR,
			(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
			 errmsg("could not connect to target \"%s\"", server->servername),
			 errdetail("No connection within connect_timeout, %d seconds.", timeout_s),
			 errhint("Set connect_timeout on the server for a longer wait: ALTER SERVER %s OPTIONS (ADD connect_timeout '30').",
					 quote_identifier(server->servername))));
}

static PGconn *target_connect(ForeignServer *server, UserMapping *um,
							  BkTargetParams *params, bool own_fd);

/*
 * bk_target_connect
 *		Connect to SERVER as the role of UM with PARAMS, under the password
 *		rules; the error of a failed connection is redacted of the secrets.
 *		The wait can be canceled, and lasts at most connect_timeout seconds
 *		in all (when it is above 0), whatever the number of hosts.  Close the
 *		connection with bk_target_finish.
 */
PGconn *
bk_target_connect(ForeignServer *server, UserMapping *um, BkTargetParams *params)
{
	return target_connect(server, um, params, false);
}

static PGconn *
target_connect(ForeignServer *server, UserMapping *um, BkTargetParams *params,
			   bool own_fd)
{
	PGconn	   *conn;

	bk_target_check_params(server, um, params);

	if (own_fd)
		;						/* beyond the server's count: see BkTarget */
	else if (!AcquireExternalFD())
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("could not connect to target \"%s\"", server->servername),
				 errdetail("There are too many open files on the local server."),
				 errhint("Raise max_files_per_process or the limit of open files of the server.")));

	conn = PQconnectStartParams(params->keywords, params->values, false);
	if (conn == NULL)
	{
		if (!own_fd)
			ReleaseExternalFD();
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("libpq could not allocate a connection to target \"%s\".",
						   server->servername)));
	}

	PG_TRY();
	{
		connect_poll(server, conn, params);
		if (PQstatus(conn) != CONNECTION_OK)
			ereport(ERROR,
					(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
					 errmsg("could not connect to target \"%s\"", server->servername),
					 errdetail_internal("%s", bk_target_redact(pchomp(PQerrorMessage(conn)), params))));

		bk_target_check_used_password(server, um, conn);
	}
	PG_CATCH();
	{
		if (own_fd)
			PQfinish(conn);
		else
			bk_target_finish(conn);
		PG_RE_THROW();
	}
	PG_END_TRY();
	return conn;
}

/*
 * bk_target_open
 *		Target NAME as role USERID uses it (the current user, who needs
 *		USAGE on it): its server, the role's user mapping and the libpq
 *		options of both, checked under the password rules, with
 *		APPLICATION_NAME (never a secret) as the connections' name.
 */
BkTarget *
bk_target_open(const char *name, Oid userid, const char *application_name)
{
	BkTarget   *t = palloc0(sizeof(BkTarget));
	BkTargetParams *p;

	t->server = bk_target_lookup(name);
	t->um = bk_target_user_mapping(t->server, userid);
	p = bk_target_params(t->server, t->um);
	bk_target_check_params(t->server, t->um, p);
	if (application_name != NULL)
	{
		/* the arrays have room for it: see bk_target_params */
		p->keywords[p->n] = "application_name";
		p->values[p->n++] = pstrdup(application_name);
		p->keywords[p->n] = NULL;
		p->values[p->n] = NULL;
	}
	t->params = p;
	return t;
}

/*
 * bk_target_add_setting
 *		A setting of the target's sessions, "name=value" (neither with a
 *		space), sent with the connections TARGET opens from now on: added
 *		to libpq's options keyword, after the target's own options there,
 *		so that it wins over them.
 */
void
bk_target_add_setting(BkTarget *target, const char *setting)
{
	BkTargetParams *p = target->params;
	char	   *opt = psprintf("-c %s", setting);
	const char **keywords;
	const char **values;

	for (int i = 0; i < p->n; i++)
	{
		if (strcmp(p->keywords[i], "options") == 0)
		{
			p->values[i] = psprintf("%s %s", p->values[i], opt);
			return;
		}
	}
	/* a new keyword: arrays one longer, NULL-terminated */
	keywords = palloc0(sizeof(char *) * (p->n + 2));
	values = palloc0(sizeof(char *) * (p->n + 2));
	memcpy(keywords, p->keywords, sizeof(char *) * p->n);
	memcpy(values, p->values, sizeof(char *) * p->n);
	keywords[p->n] = "options";
	values[p->n] = opt;
	p->keywords = keywords;
	p->values = values;
	p->n++;
}

/* a connection to TARGET: bk_target_connect with what bk_target_open read */
PGconn *
bk_target_open_conn(BkTarget *target)
{
	return target_connect(target->server, target->um, target->params, target->own_fds);
}

/*
 * bk_target_start_conn
 *		A connection to TARGET started and not waited for (libpq's
 *		PQconnectStart): the caller polls it (PQconnectPoll) as its socket
 *		becomes ready, within bk_target_connect_wait_ms, and then checks
 *		it with bk_target_conn_ready.  Close it with bk_target_close_conn.
 */
PGconn *
bk_target_start_conn(BkTarget *target)
{
	PGconn	   *conn;

	bk_target_check_params(target->server, target->um, target->params);
	if (!target->own_fds && !AcquireExternalFD())
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("could not connect to target \"%s\"", target->server->servername),
				 errdetail("There are too many open files on the local server."),
				 errhint("Raise max_files_per_process or the limit of open files of the server.")));
	conn = PQconnectStartParams(target->params->keywords, target->params->values, false);
	if (conn == NULL)
	{
		if (!target->own_fds)
			ReleaseExternalFD();
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("libpq could not allocate a connection to target \"%s\".",
						   target->server->servername)));
	}
	return conn;
}

/*
 * bk_target_connect_wait_ms
 *		How long a connection to TARGET may take in all: the run's
 *		connect_wait_ms, else connect_timeout; 0: no limit.
 */
int64
bk_target_connect_wait_ms(BkTarget *target)
{
	int64		ms = (int64) connect_timeout_of(target->params) * 1000;

	if (target->params->connect_wait_ms > 0 && (ms <= 0 || target->params->connect_wait_ms < ms))
		ms = target->params->connect_wait_ms;
	return ms;
}

/*
 * bk_target_conn_failed
 *		Raise the error of a connection to TARGET that failed (libpq's
 *		message, redacted) or, TIMED_OUT, that did not complete within
 *		WAIT_MS.
 */
void
bk_target_conn_failed(BkTarget *target, PGconn *conn, bool timed_out, int64 wait_ms)
{
	if (timed_out)
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("could not connect to target \"%s\"", target->server->servername),
				 errdetail("No connection within %lld ms.", (long long) wait_ms)));
	ereport(ERROR,
			(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
			 errmsg("could not connect to target \"%s\"", target->server->servername),
			 errdetail_internal("%s", bk_target_redact(pchomp(PQerrorMessage(conn)), target->params))));
}

/* a connection to TARGET that bk_target_start_conn started is made: checked */
void
bk_target_conn_ready(BkTarget *target, PGconn *conn)
{
	bk_target_check_used_password(target->server, target->um, conn);
}

/* close CONN, opened by bk_target_open_conn for TARGET */
void
bk_target_close_conn(BkTarget *target, PGconn *conn)
{
	if (target->own_fds)
		PQfinish(conn);
	else
		bk_target_finish(conn);
}

/* bk_target_set_exec_timeout: the longest wait for an answer; <= 0: none */
static int	exec_timeout_ms = 0;

/*
 * bk_target_set_exec_timeout
 *		From now on, bk_target_exec and bk_target_exec_params wait at most
 *		MS milliseconds for their answer and then return NULL, as for a
 *		broken connection (a run's response_timeout, while its clients
 *		run); 0: no limit.  The query may still be in progress then: the
 *		connection is good for nothing but closing.
 */
void
bk_target_set_exec_timeout(int ms)
{
	exec_timeout_ms = ms;
}

/* round trips that measure the network's round-trip time to a target */
#define TARGET_RTT_ROUNDS		300
#define TARGET_RTT_MAX_NS		(3 * INT64CONST(1000000000))

static int
target_cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/*
 * bk_target_rtt_ms
 *		The network's round-trip time to the target of CONN, in ms: the
 *		median of up to TARGET_RTT_ROUNDS empty queries (at most
 *		TARGET_RTT_MAX_NS of them); -1 when none was answered.
 */
double
bk_target_rtt_ms(PGconn *conn)
{
	double	   *rtt = palloc(sizeof(double) * TARGET_RTT_ROUNDS);
	int			n = 0;
	int64		until = bk_now_ns() + TARGET_RTT_MAX_NS;

	while (n < TARGET_RTT_ROUNDS && bk_now_ns() < until)
	{
		int64		t0 = bk_now_ns();
		PGresult   *r = bk_target_exec(conn, "");

		if (r == NULL || PQresultStatus(r) != PGRES_EMPTY_QUERY)
		{
			PQclear(r);
			break;
		}
		PQclear(r);
		rtt[n++] = (bk_now_ns() - t0) / 1e6;
	}
	if (n == 0)
		return -1;
	qsort(rtt, n, sizeof(double), target_cmp_double);
	return n % 2 ? rtt[n / 2] : (rtt[n / 2 - 1] + rtt[n / 2]) / 2;
}

/*
 * bk_target_exec
 *		Send SQL over CONN and return its last result (NULL when the
 *		connection broke), as PQexec does, but the wait can be canceled.
 */
PGresult *
bk_target_exec(PGconn *conn, const char *sql)
{
	return bk_target_exec_params(conn, sql, -1, NULL, NULL);
}

/*
 * bk_target_value
 *		The single text value of SQL on CONN, the connection to target NAME
 *		(NULL: no row, or a null), with NPARAMS parameters as for
 *		bk_target_exec_params.  An error of the target, or a broken
 *		connection, is raised as 08006: could not read WHAT.
 */
char *
bk_target_value(PGconn *conn, const char *name, const char *what, const char *sql,
				int nparams, const Oid *types, const char *const *values)
{
	PGresult   *r = bk_target_exec_params(conn, sql, nparams, types, values);
	char	   *v = NULL;

	if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK)
	{
		char	   *msg = pchomp(r ? PQresultErrorMessage(r) : PQerrorMessage(conn));

		PQclear(r);
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("could not read %s from target \"%s\"", what, name),
				 errdetail_internal("%s", msg)));
	}
	if (PQntuples(r) > 0 && !PQgetisnull(r, 0, 0))
		v = pstrdup(PQgetvalue(r, 0, 0));
	PQclear(r);
	return v;
}

/*
 * bk_target_exec_params
 *		bk_target_exec with NPARAMS parameters of TYPES, as text VALUES (NULL:
 *		a null); NPARAMS -1 sends SQL in the simple protocol, as PQexec.
 */
PGresult *
bk_target_exec_params(PGconn *conn, const char *sql, int nparams, const Oid *types,
					  const char *const *values)
{
	PGresult   *last = NULL;
	PGresult   *res;
	TimestampTz deadline = exec_timeout_ms > 0 ?
		GetCurrentTimestamp() + (TimestampTz) exec_timeout_ms * 1000 : 0;

	if (!(nparams < 0 ? PQsendQuery(conn, sql) :
		  PQsendQueryParams(conn, sql, nparams, types, values, NULL, NULL, 0)))
		return NULL;
	for (;;)
	{
		while (PQisBusy(conn))
		{
			long		left = -1;
			int			rc;

			if (deadline > 0)
			{
				left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
				if (left <= 0)
				{
					/* no answer within the timeout: as a broken connection */
					PQclear(last);
					return NULL;
				}
			}
			rc = bk_libpq_wait_socket(conn, WL_SOCKET_READABLE, left);
			if ((rc & WL_SOCKET_READABLE) && !PQconsumeInput(conn))
			{
				PQclear(last);
				return NULL;
			}
		}
		res = PQgetResult(conn);
		if (res == NULL)
			break;
		PQclear(last);
		last = res;
	}
	return last;
}

/*
 * bench_check_target
 *		SQL function bench.check_target(name): connect to the target as the
 *		calling role, under the password rules, and return its version().
 */
Datum
bench_check_target(PG_FUNCTION_ARGS)
{
	char	   *name;
	ForeignServer *server;
	UserMapping *um;
	BkTargetParams *params;
	PGconn	   *conn;
	char	   *version = NULL;

	bk_check_call(fcinfo, 1, "bench.check_target");
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"name\" of bench.check_target must not be null"),
				 errhint("Name a target of bench.targets.")));
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));

	server = bk_target_lookup(name);
	um = bk_target_user_mapping(server, GetUserId());
	params = bk_target_params(server, um);
	conn = bk_target_connect(server, um, params);

	PG_TRY();
	{
		PGresult   *res = bk_target_exec(conn, "SELECT pg_catalog.version()");

		if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 ||
			PQnfields(res) != 1 || PQgetisnull(res, 0, 0))
		{
			char	   *detail = bk_target_redact(pchomp(res ? PQresultErrorMessage(res) :
														 PQerrorMessage(conn)), params);

			PQclear(res);
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("target \"%s\" did not answer SELECT version()", name),
					 errdetail_internal("%s", detail)));
		}
		version = pstrdup(PQgetvalue(res, 0, 0));
		PQclear(res);
	}
	PG_CATCH();
	{
		bk_target_finish(conn);
		PG_RE_THROW();
	}
	PG_END_TRY();
	bk_target_finish(conn);

	PG_RETURN_TEXT_P(cstring_to_text(version));
}
