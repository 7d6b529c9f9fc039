/*
 * fuzz_expr.c
 *		libFuzzer's entry point for expressions (harness.c).
 */
#include "postgres.h"

#include "harness.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return bk_fuzz_one(BK_FUZZ_EXPR, data, size) ? 0 : -1;
}
