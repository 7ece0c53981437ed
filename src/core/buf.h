/* buf.h — a growable byte buffer, the one way core and rule systems build text.
 * Allocation failure aborts (a referee that cannot allocate cannot referee). */
#ifndef UMPIRE_BUF_H
#define UMPIRE_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct buf {
	char *data; /* NUL-terminated; NULL until first append */
	size_t len; /* bytes used, excluding the NUL */
	size_t cap; /* bytes allocated */
};

#define BUF_INIT \
	{ \
		NULL, 0, 0 \
	}

/* Appends n bytes (may contain NUL bytes). */
void buf_append(struct buf *b, const void *data, size_t n);
/* Makes room for extra more bytes (and the NUL) without changing the contents: a caller
 * writing into data + len itself then adds to len and puts the NUL back. */
void buf_reserve(struct buf *b, size_t extra);
/* Appends a C string. */
void buf_puts(struct buf *b, const char *s);
/* Appends v in decimal, as "%lld" would (no printf: for tables of thousands of rows). */
void buf_put_int(struct buf *b, long long v);
/* Appends v in decimal, as "%llu" would. */
void buf_put_u64(struct buf *b, uint64_t v);

/* Room for any 64-bit integer in decimal, sign and NUL included. */
#define DECIMAL_MAX 24
/* Writes v in decimal ("%llu", "%lld") at the end of d, NUL-terminated at d[DECIMAL_MAX - 1];
 * returns where the digits start (inside d). No printf: for the hot paths that write one
 * per die or per row. */
char *decimal_u64(char d[DECIMAL_MAX], uint64_t v);
char *decimal_int(char d[DECIMAL_MAX], long long v);
/* Appends printf-formatted text. */
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* Returns the contents as a NUL-terminated string ("" when empty); still owned by b. */
const char *buf_str(const struct buf *b);
/* Transfers ownership of the contents to the caller (free() it); b becomes empty. */
char *buf_detach(struct buf *b);
/* Empties b, keeping its allocation. */
void buf_clear(struct buf *b);
/* Frees b's storage; b may be reused after. */
void buf_release(struct buf *b);

/* xmalloc family: abort on allocation failure. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* Returns a newly allocated printf-formatted string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Lower-case hex of n bytes into out (2n+1 bytes, NUL-terminated). */
void hex_encode(char *out, const unsigned char *in, size_t n);
/* Decodes exactly 2n hex digits; returns 0, or -1 when s is not that. */
int hex_decode(unsigned char *out, size_t n, const char *s);

/* Sorts the indices v[0..n) by cmp(a, b, ctx) (negative: a first), stably: indices that
 * compare equal keep their order. A merge sort through tmp (n entries, the caller's), so
 * O(n log n) whatever the input: the order never depends on the C library's qsort. */
void index_sort(size_t *v, size_t *tmp, size_t n, int (*cmp)(size_t a, size_t b, const void *ctx),
	const void *ctx);

#endif
