/* gittls.h — libgit2's TLS certificates loaded only when a network remote is used.
 *
 * libgit2 1.5 built with mbedTLS (Debian 12's) parses the whole system CA bundle (about 140
 * certificates: 4-30 ms on a 2-core machine) inside git_libgit2_init, with no option to skip
 * it, and umpire needs it only to push to an https remote. libgit2 reaches the bundle through
 * mbedTLS's two loaders, mbedtls_x509_crt_parse_file and _path; gittls.c defines both in the
 * executable, and an executable's definition comes first in ELF symbol look-up. Until
 * gittls_wanted they record the location libgit2 asked for and load nothing; after it they pass
 * to mbedTLS's own (dlsym RTLD_NEXT). With a libgit2 built on another TLS library they are
 * never called and nothing changes. */
#ifndef UMPIRE_GITTLS_H
#define UMPIRE_GITTLS_H

/* Before the first connection to URL: when URL is a network remote (https://, or any
 * scheme://... but file://), the loaders pass to mbedTLS's own from now on, and if
 * git_libgit2_init asked for certificates, returns 1 with where (*file, *dir; either may be
 * NULL): the caller (repo.c) loads them through GIT_OPT_SET_SSL_CERT_LOCATIONS. Otherwise
 * returns 0. */
int gittls_wanted(const char *url, const char **file, const char **dir);

#endif
