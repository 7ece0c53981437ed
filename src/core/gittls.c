/* gittls.c — libgit2's CA bundle parsed only for a network remote (gittls.h says how). */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "core/gittls.h"
#include "core/banned.h"

/* mbedTLS's loaders as libgit2 calls them (x509_crt.h; the chain is opaque here). */
int mbedtls_x509_crt_parse_file(void *chain, const char *path);
int mbedtls_x509_crt_parse_path(void *chain, const char *path);

static int loading;                          /* 1 after gittls_wanted: pass to mbedTLS */
static char cert_file[4096], cert_dir[4096]; /* what git_libgit2_init asked for */

typedef int (*crt_loader)(void *chain, const char *path);

static int pass(const char *name, void *chain, const char *path, char *keep, size_t cap)
{
	if (!loading) {
		if (path && !keep[0] && strlen(path) < cap)
			memcpy(keep, path, strlen(path) + 1);
		return 0; /* nothing loaded, nothing wrong: libgit2 keeps an empty chain */
	}
	crt_loader real;
	void *sym = dlsym(RTLD_NEXT, name);
	memcpy(&real, &sym, sizeof(real));
	return real ? real(chain, path) : -1;
}

int mbedtls_x509_crt_parse_file(void *chain, const char *path)
{
	return pass("mbedtls_x509_crt_parse_file", chain, path, cert_file, sizeof(cert_file));
}

int mbedtls_x509_crt_parse_path(void *chain, const char *path)
{
	return pass("mbedtls_x509_crt_parse_path", chain, path, cert_dir, sizeof(cert_dir));
}

int gittls_wanted(const char *url, const char **file, const char **dir)
{
	const char *scheme = strstr(url, "://");
	if (loading || !scheme || strncmp(url, "file://", 7) == 0)
		return 0;
	loading = 1;
	*file = cert_file[0] ? cert_file : NULL;
	*dir = cert_dir[0] ? cert_dir : NULL;
	return *file || *dir; /* none: libgit2 asked for none (or is not built with mbedTLS) */
}
