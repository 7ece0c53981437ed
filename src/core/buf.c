/* buf.c — the growable byte buffer and the abort-on-OOM allocators every module uses,
 * plus hex encoding for digests and seeds. A referee that cannot allocate cannot referee,
 * so allocation failure aborts here rather than threading errors through every caller. */
#include "core/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/banned.h"

static void oom(size_t n)
{
	fprintf(stderr, "umpire: out of memory (allocating %zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	/* malloc(0) may return NULL; ask for one byte so NULL always means failure. */
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);
	memcpy(p, s, n);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return buf_detach(&b);
}

/* Makes room for extra more bytes plus the terminating NUL. */
static void buf_grow(struct buf *b, size_t extra)
{
	if (extra > SIZE_MAX - b->len - 1)
		oom(SIZE_MAX);
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void buf_reserve(struct buf *b, size_t extra)
{
	buf_grow(b, extra);
}

void buf_append(struct buf *b, const void *data, size_t n)
{
	if (n >= b->cap - b->len) /* no room for n bytes and the NUL (none at all yet: cap 0) */
		buf_grow(b, n);
	if (n)
		memcpy(b->data + b->len, data, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

char *decimal_u64(char d[DECIMAL_MAX], uint64_t v)
{
	char *p = d + DECIMAL_MAX - 1;

	*p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return p;
}

char *decimal_int(char d[DECIMAL_MAX], long long v)
{
	char *p = decimal_u64(d, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);

	if (v < 0)
		*--p = '-';
	return p;
}

void buf_put_int(struct buf *b, long long v)
{
	char d[DECIMAL_MAX];
	const char *p = decimal_int(d, v);

	buf_append(b, p, (size_t)(d + DECIMAL_MAX - 1 - p));
}

void buf_put_u64(struct buf *b, uint64_t v)
{
	char d[DECIMAL_MAX];
	const char *p = decimal_u64(d, v);

	buf_append(b, p, (size_t)(d + DECIMAL_MAX - 1 - p));
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	/* Formatted once into the room there is (at least 128 bytes made): again only when
	 * the text turns out longer. */
	buf_grow(b, 128);
	va_copy(ap2, ap);
	int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		/* Only an invalid format or wide-character conversion fails; that is a bug. */
		fprintf(stderr, "umpire: bad format string '%s'\n", fmt);
		abort();
	}
	if ((size_t)n >= b->cap - b->len) {
		buf_grow(b, (size_t)n);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

const char *buf_str(const struct buf *b)
{
	return b->data ? b->data : "";
}

char *buf_detach(struct buf *b)
{
	char *p = b->data ? b->data : xstrdup("");
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	return p;
}

void buf_clear(struct buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void buf_release(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void hex_encode(char *out, const unsigned char *in, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 0x0f];
	}
	out[2 * n] = '\0';
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int hex_decode(unsigned char *out, size_t n, const char *s)
{
	/* Check the whole string before writing so a failure leaves out untouched. */
	for (size_t i = 0; i < 2 * n; i++)
		if (hex_digit(s[i]) < 0)
			return -1;
	if (s[2 * n] != '\0')
		return -1;
	for (size_t i = 0; i < n; i++)
		out[i] = (unsigned char)(hex_digit(s[2 * i]) << 4 | hex_digit(s[2 * i + 1]));
	return 0;
}

void index_sort(size_t *v, size_t *tmp, size_t n, int (*cmp)(size_t a, size_t b, const void *ctx),
	const void *ctx)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	index_sort(v, tmp, h, cmp, ctx);
	index_sort(v + h, tmp, n - h, cmp, ctx);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = cmp(v[j], v[i], ctx) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}
