/* common.c — what the fuzz targets share (fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "fuzz.h"

static char tmp[64];

char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);

	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static void remove_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: cannot remove %s\n", tmp);
}

const char *fuzz_tmpdir(void)
{
	if (!tmp[0]) {
		snprintf(tmp, sizeof(tmp), "/tmp/umpire-fuzz-XXXXXX");
		if (!mkdtemp(tmp))
			abort();
		atexit(remove_tmp);
	}
	return tmp;
}

const char *fuzz_root(void)
{
	const char *r = getenv("UMPIRE_ROOT");

	return r && *r ? r : ".";
}
