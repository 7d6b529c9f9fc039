/*-------------------------------------------------------------------------
 *
 * replay.c
 *		Run saved inputs through a fuzzing target without libFuzzer, and
 *		print what each did (harness.c):
 *
 *			replay script|expr FILE...
 *
 *		prints, for each file, "== NAME" (its base name) and its outcome
 *		lines ("skipped" for an input the target does not take).  Built
 *		with the sanitizers, a finding ends it with their report.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "harness.h"

int
main(int argc, char **argv)
{
	BkFuzzTarget target;

	if (argc < 2 || (strcmp(argv[1], "script") != 0 && strcmp(argv[1], "expr") != 0))
	{
		fprintf(stderr, "usage: %s script|expr FILE...\n", argv[0]);
		return 2;
	}
	target = strcmp(argv[1], "script") == 0 ? BK_FUZZ_SCRIPT : BK_FUZZ_EXPR;
	for (int i = 2; i < argc; i++)
	{
		FILE	   *f = fopen(argv[i], "rb");
		const char *name = strrchr(argv[i], '/');
		char	   *data;
		long		size;
		const char *outcome;

		if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
			fseek(f, 0, SEEK_SET) != 0)
		{
			fprintf(stderr, "replay: cannot read %s: %m\n", argv[i]);
			return 2;
		}
		data = malloc(size + 1);
		if (data == NULL || fread(data, 1, size, f) != (size_t) size)
		{
			fprintf(stderr, "replay: cannot read %s: %m\n", argv[i]);
			return 2;
		}
		fclose(f);
		outcome = bk_fuzz_one(target, (const uint8_t *) data, (size_t) size);
		printf("== %s\n%s", name ? name + 1 : argv[i], outcome ? outcome : "skipped\n");
		fflush(stdout);
		free(data);
	}
	return 0;
}
