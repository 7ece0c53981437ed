/* driver.c — runs a fuzz target over files and directories of inputs without libFuzzer:
 * `make test` feeds each target its committed corpus (tests/fuzz/corpus/TARGET/) under the
 * ASan+UBSan build, so every input that once mattered is re-run on every change. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "core/file.h"
#include "fuzz.h"

static size_t ran;

static void run_file(const char *path)
{
	struct buf b = BUF_INIT;

	if (file_read(path, 1 << 20, &b) < 0) {
		fprintf(stderr, "fuzz driver: cannot read %s\n", path);
		exit(1);
	}
	LLVMFuzzerTestOneInput((const uint8_t *)b.data, b.len);
	buf_release(&b);
	ran++;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;

	if (!d) {
		fprintf(stderr, "fuzz driver: cannot list %s\n", dir);
		exit(1);
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xasprintf("%s/%s", dir, e->d_name);
		}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_name);
	for (size_t i = 0; i < n; i++) {
		run_file(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	struct stat st;

	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			run_dir(argv[i]);
		else
			run_file(argv[i]);
	}
	printf("%s: %zu inputs, no finding\n", argv[0], ran);
	return 0;
}
