/*-------------------------------------------------------------------------
 *
 * privilege.h
 *		Who sees and steers whose work, and how many workers a role may
 *		hold at once (privilege.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_PRIVILEGE_H
#define PGBENCHKIT_PRIVILEGE_H

#define BK_ADMIN_ROLE "pgbenchkit_admin"
extern bool bk_may_steer(const char *owner);
extern void bk_check_role_workers(const char *fn, int64 needed, bool at_once);

#endif							/* PGBENCHKIT_PRIVILEGE_H */
