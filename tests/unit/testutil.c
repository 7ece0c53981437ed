/* testutil.c — helpers linked into every Check suite: a temporary root directory per suite,
 * paths under it, and running a shell command with its output captured. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/buf.h"
#include "testutil.h"

static char test_root_dir[64];

const char *test_root_make(const char *suite)
{
	snprintf(test_root_dir, sizeof(test_root_dir), "/tmp/umpire-check-%s-XXXXXX", suite);
	if (!mkdtemp(test_root_dir))
		abort();
	return test_root_dir;
}

void test_root_remove(void)
{
	char *cmd = xasprintf("rm -rf '%s'", test_root_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", test_root_dir);
	free(cmd);
}

char *test_path(const char *name)
{
	return xasprintf("%s/%s", test_root_dir, name);
}

int test_run(struct buf *out, const char *fmt, ...)
{
	struct buf cmd = BUF_INIT;
	char chunk[4096];
	size_t n;
	va_list ap;
	FILE *p;
	int status;

	va_start(ap, fmt);
	buf_vprintf(&cmd, fmt, ap);
	va_end(ap);
	buf_puts(&cmd, " 2>&1");
	buf_clear(out);
	p = popen(buf_str(&cmd), "r");
	ck_assert_ptr_nonnull(p);
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		buf_append(out, chunk, n);
	status = pclose(p);
	buf_release(&cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
