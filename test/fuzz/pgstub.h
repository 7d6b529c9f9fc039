/*-------------------------------------------------------------------------
 *
 * pgstub.h
 *		The backend services of pgstub.c, and how a harness catches an
 *		ERROR: BK_STUB_TRY(statement) runs the statement and says whether
 *		it raised one (its message is then in bk_stub_error).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_PGSTUB_H
#define PGBENCHKIT_PGSTUB_H

#include <setjmp.h>

/* the last ERROR raised, as its report would show it */
typedef struct BkStubError
{
	bool		raised;
	int			sqlerrcode;
	char		message[1024];
	char		detail[1024];
	char		hint[1024];
	char		context[1024];
} BkStubError;

extern PGDLLIMPORT sigjmp_buf *bk_stub_jump;
extern PGDLLIMPORT BkStubError bk_stub_error;

extern void bk_stub_reset(void);
extern void bk_stub_set_stack_base(void);
extern const char *bk_stub_sqlstate(int sqlerrcode);
extern bool bk_stub_valid_text(const char *data, size_t size);

/*
 * Run STMT; true if it raised an ERROR.  Like PG_TRY, it restores the
 * error context stack; variables changed in STMT and read after an ERROR
 * must be volatile.
 */
#define BK_STUB_TRY(stmt) \
	({ \
		sigjmp_buf *bk_save_jump = bk_stub_jump; \
		ErrorContextCallback *bk_save_context = error_context_stack; \
		sigjmp_buf	bk_local_jump; \
		bool		bk_failed = false; \
		bk_stub_error.raised = false; \
		if (sigsetjmp(bk_local_jump, 0) == 0) \
		{ \
			bk_stub_jump = &bk_local_jump; \
			stmt; \
		} \
		else \
			bk_failed = true; \
		bk_stub_jump = bk_save_jump; \
		error_context_stack = bk_save_context; \
		bk_failed; \
	})

#endif							/* PGBENCHKIT_PGSTUB_H */
