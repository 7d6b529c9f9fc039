/*-------------------------------------------------------------------------
 *
 * harness.h
 *		One fuzzing input through the script parser or the expression
 *		evaluator (harness.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_HARNESS_H
#define PGBENCHKIT_HARNESS_H

typedef enum BkFuzzTarget
{
	BK_FUZZ_SCRIPT,
	BK_FUZZ_EXPR
} BkFuzzTarget;

extern const char *bk_fuzz_one(BkFuzzTarget target, const uint8_t *data, size_t size);

#endif							/* PGBENCHKIT_HARNESS_H */
