/*-------------------------------------------------------------------------
 *
 * compat.h
 *		Differences between the PostgreSQL versions pgbenchkit supports
 *		(14 to 18), collected in one place so the other files read as if
 *		there were only one.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_COMPAT_H
#define PGBENCHKIT_COMPAT_H

#include "catalog/pg_class.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "catalog/pg_namespace.h"
#include "storage/bufmgr.h"
#include "storage/proc.h"
#include "storage/smgr.h"
#include "utils/acl.h"
#include "utils/rel.h"

#if PG_VERSION_NUM < 140000
#error "pgbenchkit needs PostgreSQL 14 or later"
#endif

/* Ownership and ACL checks became generic object_* functions in 16. */
#if PG_VERSION_NUM >= 160000
#define bk_rel_ownercheck(relid, roleid) \
	object_ownercheck(RelationRelationId, (relid), (roleid))
#define bk_namespace_aclcheck(nspid, roleid, mode) \
	object_aclcheck(NamespaceRelationId, (nspid), (roleid), (mode))
#define bk_database_aclcheck(dboid, roleid, mode) \
	object_aclcheck(DatabaseRelationId, (dboid), (roleid), (mode))
#define bk_foreign_server_aclcheck(srvid, roleid, mode) \
	object_aclcheck(ForeignServerRelationId, (srvid), (roleid), (mode))
#else
#define bk_rel_ownercheck(relid, roleid) \
	pg_class_ownercheck((relid), (roleid))
#define bk_namespace_aclcheck(nspid, roleid, mode) \
	pg_namespace_aclcheck((nspid), (roleid), (mode))
#define bk_database_aclcheck(dboid, roleid, mode) \
	pg_database_aclcheck((dboid), (roleid), (mode))
#define bk_foreign_server_aclcheck(srvid, roleid, mode) \
	pg_foreign_server_aclcheck((srvid), (roleid), (mode))
#endif

/*
 * Workers connect as the calling role.  From 17 on they may do so even when
 * that role cannot log in (a group role reached with SET ROLE); before 17
 * the caller checks rolcanlogin itself and refuses with a hint.
 */
#if PG_VERSION_NUM >= 170000
#define BK_BGW_CONNECT_FLAGS BGWORKER_BYPASS_ROLELOGINCHECK
#define BK_NEEDS_LOGIN_ROLE 0
#else
#define BK_BGW_CONNECT_FLAGS 0
#define BK_NEEDS_LOGIN_ROLE 1
#endif

/*
 * Physical relation identifiers were renamed from RelFileNode to
 * RelFileLocator in 16.
 */
#if PG_VERSION_NUM >= 160000
#define BK_REL_LOCATOR(rel)		(&(rel)->rd_locator)
#define BK_SMGR_LOCATOR(smgr)	((smgr)->smgr_rlocator)
#else
#define BK_REL_LOCATOR(rel)		(&(rel)->rd_node)
#define BK_SMGR_LOCATOR(smgr)	((smgr)->smgr_rnode)
#endif

/* The path of a fork's first segment, palloc'd: a struct from 18 on. */
#if PG_VERSION_NUM >= 180000
#define bk_relpath(rel, fork)	pstrdup(relpathperm(*BK_REL_LOCATOR(rel), (fork)).str)
#else
#define bk_relpath(rel, fork)	relpathperm(*BK_REL_LOCATOR(rel), (fork))
#endif

/* Reserving a prefix for an extension's settings: renamed in 15. */
#if PG_VERSION_NUM < 150000
#define MarkGUCPrefixReserved(prefix) EmitWarningsOnPlaceholders(prefix)
#endif

/* maintenance_io_concurrency's default: named in 18. */
#ifndef DEFAULT_MAINTENANCE_IO_CONCURRENCY
#ifdef USE_PREFETCH
#define DEFAULT_MAINTENANCE_IO_CONCURRENCY 10
#else
#define DEFAULT_MAINTENANCE_IO_CONCURRENCY 0
#endif
#endif

/* The alignment direct I/O needs: named in 16. */
#ifndef PG_IO_ALIGN_SIZE
#define PG_IO_ALIGN_SIZE 4096
#endif

/* RelationGetSmgr appeared in 15; 14 opens the smgr by hand. */
#if PG_VERSION_NUM >= 150000
#define bk_relation_smgr(rel)	RelationGetSmgr(rel)
#else
static inline SMgrRelation
bk_relation_smgr(Relation rel)
{
	RelationOpenSmgr(rel);
	return rel->rd_smgr;
}
#endif

/*
 * Keeping a checkpoint from starting (its redo pointer from moving) for a
 * few instructions: a flag from 15, a boolean before.
 */
#if PG_VERSION_NUM >= 150000
#define BK_DELAY_CHECKPOINT_START() (MyProc->delayChkptFlags |= DELAY_CHKPT_START)
#define BK_DELAY_CHECKPOINT_END()	(MyProc->delayChkptFlags &= ~DELAY_CHKPT_START)
#else
#define BK_DELAY_CHECKPOINT_START() (MyProc->delayChkpt = true)
#define BK_DELAY_CHECKPOINT_END()	(MyProc->delayChkpt = false)
#endif

/*
 * Setting a relation's pg_class statistics in place, as VACUUM and CREATE
 * INDEX do: 15 added two out-arguments, 18 the all-frozen page count.
 */
#if PG_VERSION_NUM >= 180000
#define bk_update_relstats(rel, pages, tuples, allvisible, hasindex) \
	vac_update_relstats((rel), (pages), (tuples), (allvisible), (allvisible), (hasindex), \
						InvalidTransactionId, InvalidMultiXactId, NULL, NULL, false)
#elif PG_VERSION_NUM >= 150000
#define bk_update_relstats(rel, pages, tuples, allvisible, hasindex) \
	vac_update_relstats((rel), (pages), (tuples), (allvisible), (hasindex), \
						InvalidTransactionId, InvalidMultiXactId, NULL, NULL, false)
#else
#define bk_update_relstats(rel, pages, tuples, allvisible, hasindex) \
	vac_update_relstats((rel), (pages), (tuples), (allvisible), (hasindex), \
						InvalidTransactionId, InvalidMultiXactId, false)
#endif

/* All GUC variables: an array from 16 on, before a global one. */
#if PG_VERSION_NUM >= 160000
#define get_guc_variables_compat(n) get_guc_variables(n)
#else
#define get_guc_variables_compat(n) (*(n) = GetNumConfigOptions(), get_guc_variables())
#endif

/*
 * A set-returning function that fills a tuplestore in one call:
 * InitMaterializedSRF from 15 on.
 */
#if PG_VERSION_NUM >= 150000
#define bk_init_materialized_srf(fcinfo) InitMaterializedSRF((fcinfo), 0)
#else
static inline void
bk_init_materialized_srf(FunctionCallInfo fcinfo)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext old;
	TupleDesc	tupdesc;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		(rsinfo->allowedModes & SFRM_Materialize) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("set-valued function called in context that cannot accept a set")));
	old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = tuplestore_begin_heap(true, false, work_mem);
	rsinfo->setDesc = CreateTupleDescCopy(tupdesc);
	MemoryContextSwitchTo(old);
}
#endif

/*
 * A wait event set for the life of the process: owned by a resource owner
 * from 17 on (none here), by a memory context before.
 */
#if PG_VERSION_NUM >= 170000
#define bk_create_wait_event_set(nevents) CreateWaitEventSet(NULL, (nevents))
#else
#define bk_create_wait_event_set(nevents) CreateWaitEventSet(TopMemoryContext, (nevents))
#endif

#endif							/* PGBENCHKIT_COMPAT_H */
