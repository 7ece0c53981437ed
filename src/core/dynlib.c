/* dynlib.c — libraries opened on first use (dynlib.h). */
#include <dlfcn.h>
#include <string.h>

#include "core/dynlib.h"
#include "core/error.h"
#include "core/banned.h"

void *dynlib_open(const char *who, const char *what, const char *const *names, size_t n)
{
	void *h = NULL;

	for (size_t i = 0; !h && i < n; i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!h)
		error_set(ERROR_OS, "%s: cannot load %s (%s): %s", who, what, names[0], dlerror());
	return h;
}

int dynlib_sym(void *h, const char *name, void *fn, size_t size)
{
	void *p = dlsym(h, name);

	if (!p)
		return -1;
	memcpy(fn, &p, size); /* a data pointer to a function pointer, as POSIX allows */
	return 0;
}
