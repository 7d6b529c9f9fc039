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
#include "catalog/pg_namespace.h"
#include "utils/acl.h"

#if PG_VERSION_NUM < 140000
#error "pgbenchkit needs PostgreSQL 14 or later"
#endif

/* Ownership and ACL checks became generic object_* functions in 16. */
#if PG_VERSION_NUM >= 160000
#define bk_rel_ownercheck(relid, roleid) \
	object_ownercheck(RelationRelationId, (relid), (roleid))
#define bk_namespace_aclcheck(nspid, roleid, mode) \
	object_aclcheck(NamespaceRelationId, (nspid), (roleid), (mode))
#else
#define bk_rel_ownercheck(relid, roleid) \
	pg_class_ownercheck((relid), (roleid))
#define bk_namespace_aclcheck(nspid, roleid, mode) \
	pg_namespace_aclcheck((nspid), (roleid), (mode))
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

#endif							/* PGBENCHKIT_COMPAT_H */
