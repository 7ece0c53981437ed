/* dice.c — the dice service: draws every die in order from the fair derivation (fair.h) or
 * from a test script, and records each with its purpose for the journal; plus the standard
 * dice notation (NdS, khN/klN, +/-k) used by the umpire's generic rulings. */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/dice.h"
#include "core/fair.h"
#include "core/banned.h"

#define EXPR_MAX_SIDES 1000000u
#define EXPR_MAX_MODIFIER 1000000u
/* digits beyond this are not read: every bound is far below it */
#define PARSE_SATURATE 1000000000ull

/* Stands for an empty script, so that script != NULL always means "scripted source". */
static const int empty_script[1];

static void dice_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* A broken test or a runaway rule, never bad input: stop loudly. */
static void dice_fatal(const char *fmt, ...)
{
	va_list ap;

	fputs("umpire: dice: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void dice_init_fair(struct dice *d, const uint8_t seed[32])
{
	memset(d, 0, sizeof *d);
	fair_die_key_init(&d->key, seed);
}

void dice_reuse_checked(struct dice *d, const struct die_record *rec, size_t n)
{
	d->known = rec;
	d->n_known = n;
}

void dice_init_script(struct dice *d, const int *values, size_t n)
{
	memset(d, 0, sizeof *d);
	d->script = values ? values : empty_script;
	d->script_len = values ? n : 0;
}

/* Purposes are written once and freed with the service: a dense turn draws thousands of
 * dice, so they share blocks rather than take an allocation each. */
#define DICE_BLOCK_BYTES 65536

struct dice_block {
	struct dice_block *next; /* the block filled before */
	char text[DICE_BLOCK_BYTES];
};

/* n bytes (at most DICE_MAX_PURPOSE + 1) for a purpose, owned by d. */
static char *purpose_space(struct dice *d, size_t n)
{
	assert(n <= DICE_MAX_PURPOSE + 1);
	if (!d->blocks || DICE_BLOCK_BYTES - d->block_used < n) {
		struct dice_block *b = xmalloc(sizeof(*b));
		b->next = d->blocks;
		d->blocks = b;
		d->block_used = 0;
	}
	char *p = d->blocks->text + d->block_used;
	d->block_used += n;
	return p;
}

void dice_release(struct dice *d)
{
	while (d->blocks) {
		struct dice_block *next = d->blocks->next;
		free(d->blocks);
		d->blocks = next;
	}
	d->block_used = 0;
	free(d->v);
	d->v = NULL;
	d->n = 0;
	d->cap = 0;
	fair_die_key_release(&d->key);
}

size_t dice_count(const struct dice *d)
{
	return d->n;
}

/* Whether c is a control character (a purpose's are turned into spaces). */
static int is_control(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

/* Whether the n bytes at s hold a control character. */
static int has_control(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (is_control(s[i]))
			return 1;
	return 0;
}

/* The recorded purpose: base truncated so that base + suffix fit DICE_MAX_PURPOSE bytes
 * (the suffix, which tells dice of one call apart, is kept), cut on a UTF-8 character
 * boundary (purposes carry "§"), control characters (newlines) turned into spaces so that
 * each die stays one line in the journal and in reports. clean: base and suffix hold no
 * control character (has_control), which the callers drawing many dice with one base find
 * out once. */
static char *make_purpose(struct dice *d, const char *base, size_t blen, int clean,
	const char *suffix, size_t slen)
{
	size_t room = slen < DICE_MAX_PURPOSE ? DICE_MAX_PURPOSE - slen : 0;
	char *p;

	if (blen > room) {
		blen = room;
		while (blen > 0 && ((unsigned char)base[blen] & 0xc0) == 0x80)
			blen--;
	}
	if (slen > DICE_MAX_PURPOSE)
		slen = DICE_MAX_PURPOSE;
	p = purpose_space(d, blen + slen + 1);
	memcpy(p, base, blen);
	memcpy(p + blen, suffix, slen);
	p[blen + slen] = '\0';
	for (char *q = p; !clean && *q; q++)
		if (is_control(*q))
			*q = ' ';
	return p;
}

/* Draws die number d->n with `sides` faces from d's source and records it; blen and slen are
 * strlen(base) and strlen(suffix), clean as make_purpose takes it. */
static uint64_t roll_one(struct dice *d, uint64_t sides, const char *base, size_t blen, int clean,
	const char *suffix, size_t slen)
{
	struct die_record *r;
	uint64_t value;

	if (sides < 2)
		dice_fatal("die %zu ('%s%s') has %llu sides (at least 2 expected)", d->n, base,
			suffix, (unsigned long long)sides);
	if (d->n >= DICE_MAX_PER_TURN)
		dice_fatal("more than %d dice drawn in one turn ('%s%s')", DICE_MAX_PER_TURN, base,
			suffix);
	if (d->script) {
		int v;

		if (d->script_pos >= d->script_len)
			dice_fatal(
				"script exhausted: die %zu ('%s%s', d%llu) asked for, but the script "
				"holds only %zu values",
				d->n, base, suffix, (unsigned long long)sides, d->script_len);
		v = d->script[d->script_pos];
		if (v < 1 || (uint64_t)v > sides)
			dice_fatal(
				"script value %d at position %zu is not a roll of die %zu ('%s%s', "
				"1 to %llu expected)",
				v, d->script_pos, d->n, base, suffix, (unsigned long long)sides);
		d->script_pos++;
		value = (uint64_t)v;
	} else {
		const struct die_record *k = d->n < d->n_known ? &d->known[d->n] : NULL;
		value = k && k->index == d->n && k->sides == sides ?
				k->value :
				fair_die_keyed(&d->key, d->n, sides, NULL);
	}
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 64;
		d->v = xrealloc(d->v, d->cap * sizeof *d->v);
	}
	r = &d->v[d->n];
	r->index = d->n;
	r->sides = sides;
	r->value = value;
	r->purpose = make_purpose(d, base, blen, clean, suffix, slen);
	d->n++;
	return value;
}

uint64_t dice_roll(struct dice *d, uint64_t sides, const char *fmt, ...)
{
	/* Formatted once into the stack when it fits (rule systems draw most dice one at a
	 * time, each with a short purpose), into a buffer otherwise. */
	char stack[512];
	struct buf base = BUF_INIT;
	const char *text = stack;
	va_list ap, again;
	uint64_t v;
	int n;

	va_start(ap, fmt);
	va_copy(again, ap);
	n = vsnprintf(stack, sizeof stack, fmt, ap);
	if (n < 0 || (size_t)n >= sizeof stack) {
		buf_vprintf(&base, fmt, again); /* aborts on a bad format, as everywhere */
		text = buf_str(&base);
	}
	va_end(again);
	va_end(ap);
	size_t len = strlen(text);
	v = roll_one(d, sides, text, len, !has_control(text, len), "", 0);
	buf_release(&base);
	return v;
}

/* Decimal digits of v at p; returns how many (at most 20). */
static size_t put_decimal(char *p, uint64_t v)
{
	char d[DECIMAL_MAX];
	const char *s = decimal_u64(d, v);
	size_t n = (size_t)(d + DECIMAL_MAX - 1 - s);

	memcpy(p, s, n);
	return n;
}

/* The dice of one call told apart in the journal: " [i/count]", i from 1, into out (at
 * least 46 bytes); returns its length. Written by hand: a dense turn formats one per die. */
static size_t count_suffix(char *out, size_t i, size_t count)
{
	size_t n = 0;

	out[n++] = ' ';
	out[n++] = '[';
	n += put_decimal(out + n, i + 1);
	out[n++] = '/';
	n += put_decimal(out + n, count);
	out[n++] = ']';
	out[n] = '\0';
	return n;
}

static int roll_many(struct dice *d, int count, int sides, int *out, const char *base)
{
	char suffix[64];
	size_t blen = strlen(base);
	int sum = 0, clean = !has_control(base, blen);

	assert(count >= 0);
	for (int i = 0; i < count; i++) {
		int v;
		size_t slen = count_suffix(suffix, (size_t)i, (size_t)count);

		v = (int)roll_one(d, sides < 2 ? 0 : (uint64_t)sides, base, blen, clean, suffix,
			slen);
		if (out)
			out[i] = v;
		sum += v;
	}
	return sum;
}

int dice_roll_many(struct dice *d, int count, int sides, int *out, const char *fmt, ...)
{
	struct buf base = BUF_INIT;
	va_list ap;
	int sum;

	va_start(ap, fmt);
	buf_vprintf(&base, fmt, ap);
	va_end(ap);
	sum = roll_many(d, count, sides, out, buf_str(&base));
	buf_release(&base);
	return sum;
}

void dice_shuffle(struct dice *d, size_t *perm, size_t m, const char *fmt, ...)
{
	struct buf base = BUF_INIT;
	char suffix[64];
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&base, fmt, ap);
	va_end(ap);
	size_t blen = strlen(buf_str(&base));
	int clean = !has_control(buf_str(&base), blen);
	for (size_t i = 0; i < m; i++)
		perm[i] = i;
	/* Fisher–Yates from the top down, as docs/fairness.md fixes it: the order of the dice
	 * is part of the result, so a verifier must draw them in this same order */
	for (size_t i = m > 0 ? m - 1 : 0; i >= 1; i--) {
		size_t slen = count_suffix(suffix, m - 1 - i, m - 1);
		size_t r = (size_t)roll_one(d, (uint64_t)i + 1, buf_str(&base), blen, clean, suffix,
			slen);
		size_t t;

		t = perm[i];
		perm[i] = perm[r - 1];
		perm[r - 1] = t;
	}
	buf_release(&base);
}

/* --- dice notation ---------------------------------------------------------------------- */

/* Reads decimal digits at *p, advancing it; returns how many were read (0: none). The value
 * saturates at PARSE_SATURATE, which every bound check rejects. */
static size_t read_number(const char **p, unsigned long long *out)
{
	const char *start = *p;
	const char *s = start;
	unsigned long long v = 0;

	while (*s >= '0' && *s <= '9') {
		if (v < PARSE_SATURATE)
			v = v * 10 + (unsigned long long)(*s - '0');
		s++;
	}
	*out = v < PARSE_SATURATE ? v : PARSE_SATURATE;
	*p = s;
	return (size_t)(s - start);
}

/* The notation as quoted in messages: order files come from email, so at most 40 bytes
 * and no control characters are echoed. */
static void quote_text(char *out, size_t outlen, const char *text)
{
	size_t n = 0;

	for (const char *s = text; *s && n + 4 < outlen; s++) {
		if (s - text == 40) {
			memcpy(out + n, "...", 3);
			n += 3;
			break;
		}
		out[n++] = ((unsigned char)*s < 0x20 || *s == 0x7f) ? '?' : *s;
	}
	out[n] = '\0';
}

static int is_char(char c, char lower)
{
	return c == lower || c == lower - 'a' + 'A';
}

int dice_expr_parse(struct dice_expr *out, const char *text, char *err, size_t errlen)
{
	const char *p = text ? text : "";
	const char *count_at, *sides_at, *keep_at = NULL, *mod_at = NULL;
	size_t count_len, sides_len, keep_len = 0, mod_len = 0;
	unsigned long long count, sides, keep = 0, mod = 0;
	int keep_lowest = 0, negative = 0;
	char q[48];

	quote_text(q, sizeof q, text ? text : "");
	memset(out, 0, sizeof *out);
	count_at = p;
	count_len = read_number(&p, &count);
	if (count_len == 0)
		count = 1;
	if (!is_char(*p, 'd'))
		goto syntax;
	p++;
	sides_at = p;
	sides_len = read_number(&p, &sides);
	if (sides_len == 0)
		goto syntax;
	if (is_char(*p, 'k')) {
		p++;
		if (is_char(*p, 'l'))
			keep_lowest = 1;
		else if (!is_char(*p, 'h'))
			goto syntax;
		p++;
		keep_at = p;
		keep_len = read_number(&p, &keep);
		if (keep_len == 0)
			goto syntax;
	}
	if (*p == '+' || *p == '-') {
		negative = *p == '-';
		p++;
		mod_at = p;
		mod_len = read_number(&p, &mod);
		if (mod_len == 0)
			goto syntax;
	}
	if (*p != '\0')
		goto syntax;

	if (count > DICE_MAX_PER_EXPR) {
		snprintf(err, errlen, "'%s' rolls %.*s dice (at most %d expected)", q,
			(int)(count_len > 20 ? 20 : count_len), count_at, DICE_MAX_PER_EXPR);
		return -1;
	}
	if (count < 1) {
		snprintf(err, errlen, "'%s' rolls 0 dice (at least 1 expected)", q);
		return -1;
	}
	if (sides < 2 || sides > EXPR_MAX_SIDES) {
		snprintf(err, errlen, "'%s' rolls %.*s-sided dice (2 to %u sides expected)", q,
			(int)(sides_len > 20 ? 20 : sides_len), sides_at, EXPR_MAX_SIDES);
		return -1;
	}
	if (keep_at && (keep < 1 || keep > count)) {
		snprintf(err, errlen, "'%s' keeps %.*s of %llu dice (1 to %llu expected)", q,
			(int)(keep_len > 20 ? 20 : keep_len), keep_at, count, count);
		return -1;
	}
	if (mod_at && mod > EXPR_MAX_MODIFIER) {
		snprintf(err, errlen, "'%s' has modifier %c%.*s (at most %u either way expected)",
			q, negative ? '-' : '+', (int)(mod_len > 20 ? 20 : mod_len), mod_at,
			EXPR_MAX_MODIFIER);
		return -1;
	}
	out->count = (int)count;
	out->sides = sides;
	out->keep = (int)keep;
	out->keep_lowest = keep_lowest;
	out->modifier = negative ? -(long long)mod : (long long)mod;
	return 0;

syntax:
	snprintf(err, errlen,
		"'%s' is not dice notation (NdS[khN|klN][+k|-k] expected, e.g. 2d6+1)", q);
	return -1;
}

void dice_expr_format(const struct dice_expr *e, char *out, size_t outlen)
{
	struct buf b = BUF_INIT;

	/* one die is written "d10", as players write it */
	if (e->count != 1)
		buf_printf(&b, "%d", e->count);
	buf_printf(&b, "d%llu", (unsigned long long)e->sides);
	if (e->keep)
		buf_printf(&b, "k%c%d", e->keep_lowest ? 'l' : 'h', e->keep);
	if (e->modifier)
		buf_printf(&b, "%+lld", e->modifier);
	snprintf(out, outlen, "%s", buf_str(&b));
	buf_release(&b);
}

long long dice_expr_roll(struct dice *d, const struct dice_expr *e, const char *purpose)
{
	int v[DICE_MAX_PER_EXPR];
	char notation[64];
	struct buf base = BUF_INIT;
	long long total = 0;
	int keep;

	assert(e->count >= 1 && e->count <= DICE_MAX_PER_EXPR);
	assert(e->sides >= 2 && e->sides <= EXPR_MAX_SIDES);
	dice_expr_format(e, notation, sizeof notation);
	if (purpose && *purpose)
		buf_printf(&base, "%s (%s)", purpose, notation);
	else
		buf_puts(&base, notation);
	roll_many(d, e->count, (int)e->sides, v, buf_str(&base));
	buf_release(&base);

	keep = e->keep ? e->keep : e->count;
	/* kept dice: sort ascending, then take the lowest or the highest `keep` */
	for (int i = 1; i < e->count; i++) {
		int x = v[i], k = i;

		for (; k > 0 && v[k - 1] > x; k--)
			v[k] = v[k - 1];
		v[k] = x;
	}
	for (int i = 0; i < keep; i++)
		total += e->keep_lowest ? v[i] : v[e->count - 1 - i];
	return total + e->modifier;
}
