/* gittls.h — libgit2's TLS certificates loaded only when a network remote is used.
 *
 * libgit2 1.5 built with mbedTLS (Debian 12's) parses the whole system CA bundle (about 140
 * certificates: 4-30 ms on a 2-core machine) inside git_libgit2_init, with no option to skip
 * it, and umpire needs it only to push to an https remote. libgit2 reaches the bundle through
 * mbedTLS's two loaders, mbedtls_x509_crt_parse_file and _path; gittls.c defines both in the
 * executable, and an executable's definition comes first in ELF symbol look-up. Until
 * gittls_load they record the location libgit2 asked for and load nothing; after it they pass
 * to mbedTLS's own (dlsym RTLD_NEXT). With a libgit2 built on another TLS library they are
 * never called and nothing changes. */
#ifndef UMPIRE_GITTLS_H
#define UMPIRE_GITTLS_H

/* Loads the certificates libgit2 was built to trust (the location git_libgit2_init asked
 * for, through GIT_OPT_SET_SSL_CERT_LOCATIONS) before the first connection to URL, when URL
 * is a network remote (https://, or any scheme://... but file://); otherwise does nothing.
 * 0 ok, -1 libgit2 refused the location (message set). */
int gittls_load(const char *url);

#endif
