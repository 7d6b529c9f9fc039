/*-------------------------------------------------------------------------
 *
 * pgstub.c
 *		The few backend services the script parser and the expression
 *		evaluator (the .c files of src/script/, src/core/random.c) call, for
 *		running them outside a server: under libFuzzer, and in the replay of
 *		the saved inputs (test/fuzz/replay.c).
 *
 * The parser and the evaluator are linked unmodified; only what they call
 * of the server is replaced, and each replacement keeps the server's
 * contract as those files rely on it:
 *	- palloc and friends are malloc'd blocks of exactly the size asked
 *	  (so that AddressSanitizer sees an overrun of a chunk by one byte,
 *	  which an aset.c chunk rounded up to a power of 2 would hide), with
 *	  the server's limit (MaxAllocSize: a larger request is an ERROR), and
 *	  all freed at once between inputs, as a memory context reset does;
 *	- ereport(ERROR) formats its message, runs the error context callbacks
 *	  (as the server does when it reports), and jumps back to the nearest
 *	  BK_STUB_TRY: an ERROR for bad input is a normal outcome.  Anything
 *	  above ERROR aborts (a finding); anything below is formatted and
 *	  dropped;
 *	- check_stack_depth() measures the stack against max_stack_depth's
 *	  default (2MB), as the server does;
 *	- StringInfo follows lib/stringinfo.c (its growth and its limit);
 *	- the database encoding is UTF8 (the tests' clusters), and text
 *	  reaches the parser only valid, as text values do in the server.
 * snprintf and the string helpers are PostgreSQL's own (libpgport), the
 * encoding functions too (libpgcommon).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <setjmp.h>

#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "pgstub.h"

/* ------------------------------------------------------------------------
 * Memory
 * ------------------------------------------------------------------------
 */

/*
 * Every block has this header in front; the last field is where a PG15
 * chunk keeps its context (GetMemoryChunkContext reads it there).
 */
typedef struct BkStubChunk
{
	struct BkStubChunk *prev;
	struct BkStubChunk *next;
	Size		size;
	MemoryContext context;
} BkStubChunk;

static MemoryContextData bk_stub_context = {.type = T_AllocSetContext,.name = "fuzz"};
MemoryContext CurrentMemoryContext = &bk_stub_context;
static BkStubChunk *bk_stub_chunks = NULL;
static Size bk_stub_allocated = 0;

/* what an input may allocate at most; more is a finding (unbounded memory) */
#define BK_STUB_MEMORY_LIMIT	((Size) 256 * 1024 * 1024)

static void *
bk_stub_alloc(Size size, bool zero)
{
	BkStubChunk *c;

	if (!AllocSizeIsValid(size))
		elog(ERROR, "invalid memory alloc request size %zu", size);
	bk_stub_allocated += size;
	if (bk_stub_allocated > BK_STUB_MEMORY_LIMIT)
	{
		fprintf(stderr, "pgstub: one input allocated more than %zu bytes\n",
				BK_STUB_MEMORY_LIMIT);
		abort();
	}
	c = malloc(sizeof(BkStubChunk) + size);
	if (c == NULL)
		abort();
	if (zero)
		memset(c + 1, 0, size);
	else
		memset(c + 1, 0x7f, size);	/* as CLOBBER_FREED_MEMORY's garbage */
	c->size = size;
	c->context = &bk_stub_context;
	c->prev = NULL;
	c->next = bk_stub_chunks;
	if (bk_stub_chunks)
		bk_stub_chunks->prev = c;
	bk_stub_chunks = c;
	return c + 1;
}

static BkStubChunk *
bk_stub_chunk(void *pointer)
{
	BkStubChunk *c = ((BkStubChunk *) pointer) - 1;

	if (c->context != &bk_stub_context)
	{
		fprintf(stderr, "pgstub: pfree or repalloc of a pointer palloc did not return\n");
		abort();
	}
	return c;
}

void *
palloc(Size size)
{
	return bk_stub_alloc(size, false);
}

void *
palloc0(Size size)
{
	return bk_stub_alloc(size, true);
}

void
pfree(void *pointer)
{
	BkStubChunk *c = bk_stub_chunk(pointer);

	if (c->prev)
		c->prev->next = c->next;
	else
		bk_stub_chunks = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->context = NULL;
	free(c);
}

void *
repalloc(void *pointer, Size size)
{
	BkStubChunk *old = bk_stub_chunk(pointer);
	void	   *p;

	if (!AllocSizeIsValid(size))
		elog(ERROR, "invalid memory alloc request size %zu", size);
	p = bk_stub_alloc(size, false);
	memcpy(p, pointer, Min(size, old->size));
	pfree(pointer);
	return p;
}

char *
MemoryContextStrdup(MemoryContext context, const char *string)
{
	return pstrdup(string);
}

void *
MemoryContextAlloc(MemoryContext context, Size size)
{
	return palloc(size);
}

void *
MemoryContextAllocZero(MemoryContext context, Size size)
{
	return palloc0(size);
}

char *
pstrdup(const char *in)
{
	Size		len = strlen(in) + 1;
	char	   *out = palloc(len);

	memcpy(out, in, len);
	return out;
}

char *
pnstrdup(const char *in, Size len)
{
	char	   *out;

	len = strnlen(in, len);
	out = palloc(len + 1);
	memcpy(out, in, len);
	out[len] = '\0';
	return out;
}

#if PG_VERSION_NUM >= 160000
MemoryContext
GetMemoryChunkContext(void *pointer)
{
	return bk_stub_chunk(pointer)->context;
}
#endif

char *
psprintf(const char *fmt,...)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (;;)
	{
		va_list		args;
		int			needed;

		va_start(args, fmt);
		needed = appendStringInfoVA(&buf, fmt, args);
		va_end(args);
		if (needed == 0)
			break;
		enlargeStringInfo(&buf, needed);
	}
	return buf.data;
}

/* free everything the last input allocated */
void
bk_stub_reset(void)
{
	while (bk_stub_chunks)
	{
		BkStubChunk *c = bk_stub_chunks;

		bk_stub_chunks = c->next;
		c->context = NULL;
		free(c);
	}
	bk_stub_allocated = 0;
}

/* ------------------------------------------------------------------------
 * StringInfo (lib/stringinfo.c)
 * ------------------------------------------------------------------------
 */

void
initStringInfo(StringInfo str)
{
	int			size = 1024;

	str->data = (char *) palloc(size);
	str->maxlen = size;
	resetStringInfo(str);
}

void
resetStringInfo(StringInfo str)
{
	str->data[0] = '\0';
	str->len = 0;
	str->cursor = 0;
}

void
appendStringInfo(StringInfo str, const char *fmt,...)
{
	for (;;)
	{
		va_list		args;
		int			needed;

		va_start(args, fmt);
		needed = appendStringInfoVA(str, fmt, args);
		va_end(args);
		if (needed == 0)
			break;
		enlargeStringInfo(str, needed);
	}
}

int
appendStringInfoVA(StringInfo str, const char *fmt, va_list args)
{
	int			avail;
	size_t		nprinted;

	avail = str->maxlen - str->len;
	if (avail < 16)
		return 32;
	nprinted = pvsnprintf(str->data + str->len, (size_t) avail, fmt, args);
	if (nprinted < (size_t) avail)
	{
		str->len += (int) nprinted;
		return 0;
	}
	str->data[str->len] = '\0';
	return (int) nprinted;
}

size_t
pvsnprintf(char *buf, size_t len, const char *fmt, va_list args)
{
	int			nprinted;

	nprinted = vsnprintf(buf, len, fmt, args);
	if (unlikely(nprinted < 0))
		elog(ERROR, "vsnprintf failed: %m with format string \"%s\"", fmt);
	if ((size_t) nprinted < len)
		return (size_t) nprinted;
	if (unlikely((size_t) nprinted > MaxAllocSize - 1))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("out of memory")));
	return nprinted + 1;
}

void
appendStringInfoString(StringInfo str, const char *s)
{
	appendBinaryStringInfo(str, s, strlen(s));
}

void
appendStringInfoChar(StringInfo str, char ch)
{
	if (str->len + 1 >= str->maxlen)
		enlargeStringInfo(str, 1);
	str->data[str->len] = ch;
	str->len++;
	str->data[str->len] = '\0';
}

#if PG_VERSION_NUM >= 160000
void
appendBinaryStringInfo(StringInfo str, const void *data, int datalen)
#else
void
appendBinaryStringInfo(StringInfo str, const char *data, int datalen)
#endif
{
	Assert(str != NULL);
	enlargeStringInfo(str, datalen);
	memcpy(str->data + str->len, data, datalen);
	str->len += datalen;
	str->data[str->len] = '\0';
}

void
enlargeStringInfo(StringInfo str, int needed)
{
	int			newlen;

	if (needed < 0)
		elog(ERROR, "invalid string enlargement request size: %d", needed);
	if (((Size) needed) >= (MaxAllocSize - (Size) str->len))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("out of memory"),
				 errdetail("Cannot enlarge string buffer containing %d bytes by %d more bytes.",
						   str->len, needed)));
	needed += str->len + 1;
	if (needed <= str->maxlen)
		return;
	newlen = 2 * str->maxlen;
	while (needed > newlen)
		newlen = 2 * newlen;
	if (newlen > (int) MaxAllocSize)
		newlen = (int) MaxAllocSize;
	str->data = (char *) repalloc(str->data, newlen);
	str->maxlen = newlen;
}

/* ------------------------------------------------------------------------
 * Errors (utils/error/elog.c)
 * ------------------------------------------------------------------------
 */

ErrorContextCallback *error_context_stack = NULL;
sigjmp_buf *bk_stub_jump = NULL;
BkStubError bk_stub_error;

/* the report being built */
static int	bk_stub_elevel;
static bool bk_stub_in_context;

#define BK_STUB_FORMAT(field) \
	do { \
		va_list		args; \
		va_start(args, fmt); \
		vsnprintf(bk_stub_error.field, sizeof(bk_stub_error.field), fmt, args); \
		va_end(args); \
	} while (0)

bool
errstart(int elevel, const char *domain)
{
	if (elevel > ERROR)
	{
		fprintf(stderr, "pgstub: an ereport above ERROR (level %d)\n", elevel);
		abort();
	}
	bk_stub_elevel = elevel;
	bk_stub_in_context = false;
	memset(&bk_stub_error, 0, sizeof(bk_stub_error));
	bk_stub_error.sqlerrcode = (elevel >= ERROR) ? ERRCODE_INTERNAL_ERROR : 0;
	return true;
}

bool
errstart_cold(int elevel, const char *domain)
{
	return errstart(elevel, domain);
}

void
errfinish(const char *filename, int lineno, const char *funcname)
{
	ErrorContextCallback *econtext;

	/* the server runs the callbacks to fill in CONTEXT */
	bk_stub_in_context = true;
	for (econtext = error_context_stack; econtext != NULL; econtext = econtext->previous)
		econtext->callback(econtext->arg);
	bk_stub_in_context = false;

	if (bk_stub_elevel < ERROR)
		return;
	if (bk_stub_jump == NULL)
	{
		fprintf(stderr, "pgstub: ERROR outside BK_STUB_TRY: %s\n", bk_stub_error.message);
		abort();
	}
	bk_stub_error.raised = true;
	siglongjmp(*bk_stub_jump, 1);
}

int
errcode(int sqlerrcode)
{
	bk_stub_error.sqlerrcode = sqlerrcode;
	return 0;
}

int
errmsg(const char *fmt,...)
{
	BK_STUB_FORMAT(message);
	return 0;
}

int
errmsg_internal(const char *fmt,...)
{
	BK_STUB_FORMAT(message);
	return 0;
}

int
errdetail(const char *fmt,...)
{
	BK_STUB_FORMAT(detail);
	return 0;
}

int
errhint(const char *fmt,...)
{
	BK_STUB_FORMAT(hint);
	return 0;
}

int
errcontext_msg(const char *fmt,...)
{
	if (!bk_stub_in_context)
	{
		fprintf(stderr, "pgstub: errcontext outside an error context callback\n");
		abort();
	}
	BK_STUB_FORMAT(context);
	return 0;
}

int
set_errcontext_domain(const char *domain)
{
	return 0;
}

int
errhidestmt(bool hide_stmt)
{
	return 0;
}

int
errhidecontext(bool hide_ctx)
{
	return 0;
}

/* the SQLSTATE of an error code, as unpack_sql_state */
const char *
bk_stub_sqlstate(int sqlerrcode)
{
	static char buf[6];

	for (int i = 0; i < 5; i++)
	{
		buf[i] = PGUNSIXBIT(sqlerrcode);
		sqlerrcode >>= 6;
	}
	buf[5] = '\0';
	return buf;
}

/* ------------------------------------------------------------------------
 * The rest
 * ------------------------------------------------------------------------
 */

volatile sig_atomic_t InterruptPending = false;
int			MyProcPid = 1;

void
ProcessInterrupts(void)
{
	/* InterruptPending is never set here */
	abort();
}

/* the stack at the start of an input; max_stack_depth's default */
static char *bk_stub_stack_base = NULL;
#define BK_STUB_MAX_STACK_DEPTH		(2048L * 1024L)

void
bk_stub_set_stack_base(void)
{
	bk_stub_stack_base = (char *) __builtin_frame_address(0);
}

void
check_stack_depth(void)
{
	char	   *here = (char *) __builtin_frame_address(0);
	long		depth = labs((long) (bk_stub_stack_base - here));

	if (bk_stub_stack_base != NULL && depth > BK_STUB_MAX_STACK_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
				 errmsg("stack depth limit exceeded"),
				 errhint("Increase the configuration parameter \"max_stack_depth\" (currently 2048kB).")));
}

/* random.c's fallback seed and its strong seed: fixed, for replays */
TimestampTz
GetCurrentTimestamp(void)
{
	return 0;
}

bool
pg_strong_random(void *buf, size_t len)
{
	memset(buf, 0x5a, len);
	return true;
}

/* the database encoding is UTF8 (mbutils.c's pg_mbcliplen) */
int
pg_mbcliplen(const char *mbstr, int len, int limit)
{
	int			clen = 0;
	int			l;

	while (len > 0 && *mbstr)
	{
		l = pg_encoding_mblen(PG_UTF8, mbstr);
		if ((clen + l) > limit)
			break;
		clen += l;
		if (clen == limit)
			break;
		len -= l;
		mbstr += l;
	}
	return clen;
}

/* whether the text is what a UTF8 database could hold (no NUL, valid UTF8) */
bool
bk_stub_valid_text(const char *data, size_t size)
{
	if (size > (size_t) INT_MAX)
		return false;
	return pg_encoding_verifymbstr(PG_UTF8, data, (int) size) == (int) size;
}
