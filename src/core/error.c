/* error.c — the one error buffer of core's error convention (error.h): the message and class
 * of the last failure, set where it happened and read by src/cmd/, which alone prints. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/banned.h"

/* One per thread: verify checks turns on several threads (src/cmd/verify_parallel.c), each
 * failure its own thread's. */
static _Thread_local struct buf error_text = BUF_INIT;
static _Thread_local struct error error_current = { ERROR_NONE, "" };

int error_set(enum error_class klass, const char *fmt, ...)
{
	struct buf text = BUF_INIT;
	va_list ap;

	/* Formatted aside first: the arguments may be the recorded message itself
	 * (error_set(ERROR_MISSING, "%s", error_last()->message) re-classes a failure). */
	va_start(ap, fmt);
	buf_vprintf(&text, fmt, ap);
	va_end(ap);
	buf_release(&error_text);
	error_text = text;
	error_current.klass = klass;
	error_current.message = buf_str(&error_text);
	return -1;
}

int error_prefix(const char *fmt, ...)
{
	struct buf text = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&text, fmt, ap);
	va_end(ap);
	if (error_current.klass == ERROR_NONE) {
		error_set(ERROR_INTERNAL, "%s", buf_str(&text));
	} else {
		buf_printf(&text, ": %s", buf_str(&error_text));
		error_set(error_current.klass, "%s", buf_str(&text));
	}
	buf_release(&text);
	return -1;
}

int error_reclass(enum error_class klass)
{
	error_current.klass = klass;
	return -1;
}

const struct error *error_last(void)
{
	return &error_current;
}

void error_clear(void)
{
	buf_clear(&error_text);
	error_current.klass = ERROR_NONE;
	error_current.message = "";
}
