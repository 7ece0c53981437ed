/* dynlib.h — a shared library opened on first use (dlopen) instead of linked: libcurl for
 * mail and the beacon (net.c), GMime with GLib for mail (mail.c), GSL for `umpire stats`.
 * Linked, each would be mapped and relocated by every umpire process at start-up. */
#ifndef UMPIRE_DYNLIB_H
#define UMPIRE_DYNLIB_H

#include <stddef.h>

/* Opens the first of names[0..n) that loads (RTLD_NOW | RTLD_LOCAL), for the caller to keep
 * for the process (never closed). Returns its handle, or NULL with the message set:
 * "WHO: cannot load WHAT (names[0]): dlerror's reason". */
void *dynlib_open(const char *who, const char *what, const char *const *names, size_t n);

/* *fn (a function pointer of size bytes) = the function name of library h. 0, or -1 when h
 * has no such symbol (no message: the caller names what is missing). */
int dynlib_sym(void *h, const char *name, void *fn, size_t size);

#endif
