/* mail.c — players' mail in, umpire's mail out, through GMime 3 (mail.h): the MIME tree,
 * transfer encodings (quoted-printable, base64), charsets and headers are GMime's work; this
 * file only chooses which part holds the orders and what a reply holds.
 * GMime is opened when the first message is parsed or built (dlopen), not linked: with GLib,
 * GObject, GIO, GPGME and their own dependencies it is 14 of the 40 shared libraries every
 * umpire process would otherwise map and relocate at start-up. Its headers are still compiled
 * against, so every function called through the table below has GMime's own prototype. */
#include <ctype.h>
#include <gmime/gmime.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/mail.h"
#include "core/buf.h"
#include "core/dynlib.h"
#include "core/error.h"
#include "core/fair.h"
#include "core/banned.h"

/* Every GMime, GObject and GLib function this file calls, each resolved by name from the
 * library gmime_open loads (GLib's come from GMime's dependencies through the same handle).
 * GObject's type-check macros (GMIME_IS_PART...) would call g_type_check_instance_is_a and a
 * get_type function behind the table's back: is_part and is_mailbox call them through it, and
 * the cast macros are plain C casts (each object's type is known where it is cast). */
#define GMIME_FUNCTIONS(X) \
	X(g_mime_init) \
	X(g_mime_content_type_get_media_subtype) \
	X(g_mime_content_type_get_parameter) \
	X(g_mime_content_type_is_type) \
	X(g_mime_data_wrapper_new_with_stream) \
	X(g_mime_data_wrapper_write_to_stream) \
	X(g_mime_filter_charset_new) \
	X(g_mime_format_options_free) \
	X(g_mime_format_options_new) \
	X(g_mime_format_options_set_newline_format) \
	X(g_mime_message_add_mailbox) \
	X(g_mime_message_foreach) \
	X(g_mime_message_get_addresses) \
	X(g_mime_message_get_from) \
	X(g_mime_message_get_message_id) \
	X(g_mime_message_get_subject) \
	X(g_mime_message_new) \
	X(g_mime_message_set_date) \
	X(g_mime_object_remove_header) \
	X(g_mime_message_set_message_id) \
	X(g_mime_message_set_mime_part) \
	X(g_mime_message_set_subject) \
	X(g_mime_multipart_add) \
	X(g_mime_multipart_new_with_subtype) \
	X(g_mime_multipart_set_boundary) \
	X(g_mime_object_encode) \
	X(g_mime_object_get_content_type) \
	X(g_mime_object_get_header) \
	X(g_mime_message_get_mime_part) \
	X(g_mime_object_set_content_type_parameter) \
	X(g_mime_object_set_disposition) \
	X(g_mime_object_set_header) \
	X(g_mime_object_to_string) \
	X(g_mime_parser_construct_message) \
	X(g_mime_parser_new_with_stream) \
	X(g_mime_part_get_content) \
	X(g_mime_part_get_filename) \
	X(g_mime_part_get_type) \
	X(g_mime_part_is_attachment) \
	X(g_mime_part_new_with_type) \
	X(g_mime_part_set_content) \
	X(g_mime_part_set_filename) \
	X(g_mime_stream_filter_add) \
	X(g_mime_stream_filter_new) \
	X(g_mime_stream_flush) \
	X(g_mime_stream_mem_get_byte_array) \
	X(g_mime_stream_mem_new) \
	X(g_mime_stream_mem_new_with_buffer) \
	X(g_mime_text_part_new_with_subtype) \
	X(g_mime_text_part_set_text) \
	X(g_mime_utils_header_decode_date) \
	X(internet_address_list_get_address) \
	X(internet_address_list_length) \
	X(internet_address_mailbox_get_addr) \
	X(internet_address_mailbox_get_type) \
	X(g_type_check_instance_is_a) \
	X(g_object_unref) \
	X(g_date_time_new_from_unix_utc) \
	X(g_date_time_to_unix) \
	X(g_date_time_unref) \
	X(g_utf8_validate) \
	X(g_free)

/* The functions of GMIME_FUNCTIONS, from the shared library opened by gmime_open. */
static struct {
#define GMIME_FIELD(f) __typeof__(f) *f;
	GMIME_FUNCTIONS(GMIME_FIELD)
#undef GMIME_FIELD
} gm;

/* Opens GMime 3 (its ABI 0, with GLib 2 behind it), resolves GMIME_FUNCTIONS and initialises
 * it, once a process. 0 / -1 (message set: the library or the function missing). */
static int gmime_open(void)
{
	static int done;
	static const char *const name[] = { "libgmime-3.0.so.0" };
	const char *missing = NULL;
	if (done)
		return 0;
	void *h = dynlib_open("mail", "GMime", name, 1);
	if (!h)
		return -1;
#define GMIME_RESOLVE(f) \
	if (!missing && dynlib_sym(h, #f, &gm.f, sizeof(gm.f)) < 0) \
		missing = #f;
	GMIME_FUNCTIONS(GMIME_RESOLVE)
#undef GMIME_RESOLVE
	if (missing)
		return error_set(ERROR_OS, "mail: %s lacks %s, which umpire uses", name[0],
			missing);
	gm.g_mime_init();
	done = 1;
	return 0;
}

/* The message in bytes, parsed by GMime (a new reference), or NULL when it is none. */
static GMimeMessage *parse_message(const void *bytes, size_t len)
{
	if (len == 0) /* GMime prints a CRITICAL line for an empty stream */
		return NULL;
	GMimeStream *stream = gm.g_mime_stream_mem_new_with_buffer(bytes, len);
	GMimeParser *parser = gm.g_mime_parser_new_with_stream(stream);
	GMimeMessage *msg = gm.g_mime_parser_construct_message(parser, NULL);

	gm.g_object_unref(parser);
	gm.g_object_unref(stream);
	return msg;
}

/* 1 if o is a GMimePart (GMIME_IS_PART). */
static int is_part(GMimeObject *o)
{
	return o && gm.g_type_check_instance_is_a((GTypeInstance *)o, gm.g_mime_part_get_type());
}

/* 1 if ia is a mailbox, no group (INTERNET_ADDRESS_IS_MAILBOX). */
static int is_mailbox(InternetAddress *ia)
{
	return ia && gm.g_type_check_instance_is_a((GTypeInstance *)ia,
			     gm.internet_address_mailbox_get_type());
}

/* What the walk over a message's parts found. */
struct scan {
	GMimePart *yaml[2]; /* the first two order-file attachments */
	size_t n_yaml;
	GMimePart *text; /* the first text/plain part that is no attachment */
	GMimePart *sig;  /* the first *.sig attachment */
	size_t n_sig;
	size_t n_html;  /* text/html parts */
	size_t n_parts; /* leaf parts seen */
};

/* 1 if name ends in .yaml or .yml, or .age (a time-locked order file as `umpire seal` writes
 * it, docs/formats.md "Time-locked order files"), any case. */
static int yaml_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;
	return (n > 5 && strcasecmp(name + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcasecmp(name + n - 4, ".yml") == 0) ||
	       (n > 4 && strcasecmp(name + n - 4, ".age") == 0);
}

static void scan_part(GMimeObject *parent, GMimeObject *part, gpointer data)
{
	struct scan *s = data;
	(void)parent;

	if (!is_part(part) || ++s->n_parts > MAIL_MAX_PARTS)
		return;
	GMimeContentType *ct = gm.g_mime_object_get_content_type(part);
	GMimePart *p = (GMimePart *)part;
	const char *sub = ct ? gm.g_mime_content_type_get_media_subtype(ct) : NULL;
	int yaml_type = sub && (strcasecmp(sub, "yaml") == 0 || strcasecmp(sub, "x-yaml") == 0);
	const char *fname = gm.g_mime_part_get_filename(p);
	size_t flen = fname ? strlen(fname) : 0;
	if (flen > 4 && strcasecmp(fname + flen - 4, ".sig") == 0) {
		if (!s->n_sig++)
			s->sig = p;
	} else if (yaml_name(fname) || yaml_type) {
		if (s->n_yaml < 2)
			s->yaml[s->n_yaml] = p;
		s->n_yaml++;
	} else if (ct && gm.g_mime_content_type_is_type(ct, "text", "plain") &&
		   !gm.g_mime_part_is_attachment(p)) {
		if (!s->text)
			s->text = p;
	} else if (ct && gm.g_mime_content_type_is_type(ct, "text", "html")) {
		s->n_html++;
	}
}

/* 1 if the charset is one whose bytes are UTF-8 already. */
static int utf8_charset(const char *cs)
{
	return !cs || strcasecmp(cs, "utf-8") == 0 || strcasecmp(cs, "utf8") == 0 ||
	       strcasecmp(cs, "us-ascii") == 0 || strcasecmp(cs, "ascii") == 0;
}

/* The part's content, transfer encoding undone and converted to UTF-8, into out->orders;
 * or out->problem. */
static void part_text(struct mail_in *out, GMimePart *p)
{
	GMimeContentType *ct = gm.g_mime_object_get_content_type((GMimeObject *)p);
	const char *cs = ct ? gm.g_mime_content_type_get_parameter(ct, "charset") : NULL;
	GMimeDataWrapper *w = gm.g_mime_part_get_content(p);
	GMimeStream *mem = gm.g_mime_stream_mem_new();
	GMimeStream *f = gm.g_mime_stream_filter_new(mem);

	if (!utf8_charset(cs)) {
		GMimeFilter *conv = gm.g_mime_filter_charset_new(cs, "UTF-8");
		if (!conv) {
			out->problem = xasprintf(
				"the orders are in charset '%.60s', which umpire cannot convert (send them as UTF-8)",
				cs);
			goto done;
		}
		gm.g_mime_stream_filter_add((GMimeStreamFilter *)f, conv);
		gm.g_object_unref(conv);
	}
	if (!w || gm.g_mime_data_wrapper_write_to_stream(w, f) < 0 ||
		gm.g_mime_stream_flush(f) < 0) {
		out->problem = xstrdup("the orders' part cannot be decoded");
		goto done;
	}
	GByteArray *a = gm.g_mime_stream_mem_get_byte_array((GMimeStreamMem *)mem);
	if (a->len && (!gm.g_utf8_validate((const char *)a->data, (gssize)a->len, NULL) ||
			      memchr(a->data, '\0', a->len))) {
		out->problem = xasprintf(
			"the orders are not valid %s text (send them as UTF-8, charset declared)",
			cs ? cs : "UTF-8");
		goto done;
	}
	out->orders = xmalloc(a->len + 1);
	if (a->len) /* an empty part has no data at all */
		memcpy(out->orders, a->data, a->len);
	out->orders[a->len] = '\0';
	out->orders_len = a->len;
done:
	gm.g_object_unref(f);
	gm.g_object_unref(mem);
}

/* RFC 3676 (format=flowed): the text of in, soft line breaks (a line ending in a space)
 * joined, the space then deleted with delsp=yes, and space-stuffing undone; the signature
 * line "-- " is no soft break. GMime has no filter for it. A new string of *len bytes. */
static char *unflow(const char *in, size_t n, int delsp, size_t *len)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < n;) {
		const char *p = in + i, *nl = memchr(p, '\n', n - i);
		size_t l = nl ? (size_t)(nl - p) : n - i;
		i += nl ? l + 1 : l;
		if (l && p[l - 1] == '\r')
			l--;
		int sig = l == 3 && strncmp(p, "-- ", 3) == 0;
		if (!sig && l && p[0] == ' ') { /* space-stuffed */
			p++;
			l--;
		}
		int soft = !sig && l && p[l - 1] == ' ' && (nl != NULL);
		buf_append(&b, p, soft && delsp ? l - 1 : l);
		if (!soft && nl)
			buf_puts(&b, "\n");
	}
	*len = b.len;
	return buf_detach(&b);
}

/* 1 if the text at p (a line's start) begins with word. */
static int line_starts(const char *p, const char *word)
{
	return strncmp(p, word, strlen(word)) == 0;
}

/* 1 if the line at p (n bytes, no line break) is where a reply's quoted text begins: a
 * line quoted with '>', or Outlook's "-----Original Message-----". */
static int quote_starts(const char *p, size_t n)
{
	return (n > 0 && p[0] == '>') ||
	       (n >= 27 && strncmp(p, "-----Original Message-----", 26) == 0);
}

/* Drops from b its last line when it is a reply's attribution ("On Mon, 30 Nov 2026, Jane
 * <j@example.org> wrote:"): a line ending in ':' with a space in it, which no order file's
 * key has (keys are one word: campaign, turn, player, orders, standing, entropy). */
static void drop_attribution(struct buf *b)
{
	while (b->len >= 2 && b->data[b->len - 1] == '\n' && b->data[b->len - 2] == '\n')
		b->data[--b->len] = '\0';
	if (b->len < 2 || b->data[b->len - 1] != '\n')
		return;
	size_t end = b->len - 1, start = end;
	while (start > 0 && b->data[start - 1] != '\n')
		start--;
	if (end > start && b->data[end - 1] == ':' && memchr(b->data + start, ' ', end - start) &&
		b->data[start] != ' ' && b->data[start] != '-') {
		b->len = start;
		b->data[b->len] = '\0';
	}
}

/* An inline body: from the first line `---` or `campaign:` (what a mail program puts
 * before, a greeting, is dropped) up to a signature separator line "-- ", or the quoted
 * text of a reply typed above it (a line starting with '>' or Outlook's "-----Original
 * Message-----", and the attribution line before it), CRLF made LF. 0, or -1 when the body
 * has no such line. */
static int body_orders(struct mail_in *out)
{
	const char *s = out->orders, *start = NULL;
	size_t line = 1;

	for (const char *p = s; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL, line++) {
		if (line_starts(p, "campaign:") ||
			(line_starts(p, "---") &&
				(p[3] == '\n' || p[3] == '\r' || p[3] == ' ' || !p[3]))) {
			start = p;
			break;
		}
	}
	if (!start)
		return -1;
	struct buf b = BUF_INIT;
	for (const char *p = start; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		size_t content = n > 0 && p[n - 1] == '\r' ? n - 1 : n;
		if (content == 3 && strncmp(p, "-- ", 3) == 0)
			break;
		if (quote_starts(p, content)) {
			drop_attribution(&b);
			break;
		}
		buf_append(&b, p, content);
		if (nl)
			buf_puts(&b, "\n");
		p += nl ? n + 1 : n;
	}
	/* The blank line(s) a mail program puts before "-- " are no part of the orders. */
	while (b.len >= 2 && b.data[b.len - 1] == '\n' && b.data[b.len - 2] == '\n')
		b.data[--b.len] = '\0';
	free(out->orders);
	out->orders_len = b.len;
	out->orders = buf_detach(&b);
	out->orders_line = line;
	return 0;
}

/* The signature attachment's bytes, transfer encoding undone, into out->signature. */
static void part_signature(struct mail_in *out, GMimePart *p)
{
	GMimeDataWrapper *w = gm.g_mime_part_get_content(p);
	GMimeStream *mem = gm.g_mime_stream_mem_new();
	GByteArray *a = NULL;

	if (w && gm.g_mime_data_wrapper_write_to_stream(w, mem) >= 0)
		a = gm.g_mime_stream_mem_get_byte_array((GMimeStreamMem *)mem);
	if (!a || a->len == 0 || a->len > 16384 || memchr(a->data, '\0', a->len))
		out->problem = xstrdup("the attached signature (.sig) cannot be read");
	else {
		out->signature = xmalloc(a->len + 1);
		memcpy(out->signature, a->data, a->len);
		out->signature[a->len] = '\0';
		out->signature_len = a->len;
	}
	gm.g_object_unref(mem);
}

/* The first line of text that is not blank, trimmed, when it is at most 200 bytes; NULL. */
static char *first_line(const char *text)
{
	const char *p = text;
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	size_t n = strcspn(p, "\r\n");
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	return n && n <= 200 ? xasprintf("%.*s", (int)n, p) : NULL;
}

static void choose_orders(struct mail_in *out, struct scan *s)
{
	if (s->n_yaml > 1) {
		out->problem = xasprintf("%zu order files attached (one per mail expected)",
			s->n_yaml);
	} else if (s->n_yaml == 1) {
		const char *name = gm.g_mime_part_get_filename(s->yaml[0]);
		out->orders_name = xstrdup(name && *name ? name : "attachment");
		part_text(out, s->yaml[0]);
		if (s->n_sig > 1 && !out->problem)
			out->problem = xasprintf("%zu signatures attached (one .sig expected)",
				s->n_sig);
		else if (s->sig && !out->problem)
			part_signature(out, s->sig);
	} else if (s->sig) {
		out->problem = xstrdup(
			"a signature (.sig) came without its order file: attach the signed .yaml file and its .sig");
	} else if (s->text) {
		out->orders_name = xstrdup("message body");
		part_text(out, s->text);
		GMimeContentType *ct = gm.g_mime_object_get_content_type((GMimeObject *)s->text);
		const char *fmt = ct ? gm.g_mime_content_type_get_parameter(ct, "format") : NULL;
		const char *dsp = ct ? gm.g_mime_content_type_get_parameter(ct, "delsp") : NULL;
		if (out->orders && fmt && strcasecmp(fmt, "flowed") == 0) {
			size_t n;
			char *t = unflow(out->orders, out->orders_len,
				dsp && strcasecmp(dsp, "yes") == 0, &n);
			free(out->orders);
			out->orders = t;
			out->orders_len = n;
		}
		if (out->orders && body_orders(out) < 0) {
			out->command = first_line(out->orders);
			free(out->orders);
			out->orders = NULL;
			out->problem = xstrdup(
				"no orders found (a .yaml attachment, or orders in the body from a line 'campaign:' or '---', expected)");
		}
	} else if (s->n_html) {
		out->problem = xstrdup(
			"the mail is HTML only: umpire reads orders as plain text (set your mail program to send plain text, or attach the .yaml file)");
	} else {
		out->problem = xstrdup(
			"no orders found (a .yaml attachment, or orders in the body from a line 'campaign:' or '---', expected)");
	}
}

static char *lower_dup(const char *s)
{
	char *r = xstrdup(s);
	for (char *p = r; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return r;
}

/* 1 if header h of o has a value that starts (after blanks) with word, any case. */
static int header_is(GMimeObject *o, const char *h, const char *word)
{
	const char *v = gm.g_mime_object_get_header(o, h);
	if (!v)
		return 0;
	v += strspn(v, " \t");
	size_t n = strlen(word);
	return strncasecmp(v, word, n) == 0 && !isalnum((unsigned char)v[n]) && v[n] != '-';
}

/* Why msg is mail no program should answer (RFC 3834 section 2, RFC 3464), a new string, or
 * NULL: automatic (Auto-Submitted other than no), bulk or list mail, or a bounce. */
static char *automatic(GMimeMessage *msg, const char *from)
{
	GMimeObject *o = (GMimeObject *)msg;
	const char *v = gm.g_mime_object_get_header(o, "Auto-Submitted");
	if (v && !header_is(o, "Auto-Submitted", "no"))
		return xasprintf("automatic mail (Auto-Submitted: %.40s)", v + strspn(v, " \t"));
	static const char *const prec[] = { "bulk", "list", "junk" };
	for (size_t i = 0; i < 3; i++)
		if (header_is(o, "Precedence", prec[i]))
			return xasprintf("%s mail (Precedence: %s)", prec[i], prec[i]);
	if (gm.g_mime_object_get_header(o, "List-Id"))
		return xstrdup("list mail (List-Id)");
	v = gm.g_mime_object_get_header(o, "Return-Path");
	if (v && strspn(v, " \t<>") == strlen(v))
		return xstrdup("a bounce (null return path)");
	if (from && strncmp(from, "mailer-daemon@", 14) == 0)
		return xstrdup("a bounce (from MAILER-DAEMON)");
	GMimeObject *top = gm.g_mime_message_get_mime_part(msg);
	GMimeContentType *ct = top ? gm.g_mime_object_get_content_type(top) : NULL;
	if (ct && gm.g_mime_content_type_is_type(ct, "multipart", "report"))
		return xstrdup("a bounce or report (multipart/report)");
	return NULL;
}

/* The message in bytes (a new reference), or NULL with the error set (error.h) when it is too
 * large, GMime cannot be loaded or it is no mail. */
static GMimeMessage *open_message(const void *bytes, size_t len)
{
	if (len > MAIL_MAX_BYTES) {
		error_set(ERROR_INPUT, "mail of %zu bytes (at most %d)", len, MAIL_MAX_BYTES);
		return NULL;
	}
	if (gmime_open() < 0)
		return NULL;
	GMimeMessage *msg = parse_message(bytes, len);
	if (!msg)
		error_set(ERROR_INPUT, "not a mail message");
	return msg;
}

int mail_parse(struct mail_in *out, const void *bytes, size_t len)
{
	memset(out, 0, sizeof(*out));
	GMimeMessage *msg = open_message(bytes, len);
	if (!msg)
		return -1;

	InternetAddressList *from = gm.g_mime_message_get_from(msg);
	InternetAddress *ia = from && gm.internet_address_list_length(from) > 0 ?
				      gm.internet_address_list_get_address(from, 0) :
				      NULL;
	if (ia && is_mailbox(ia)) {
		const char *a = gm.internet_address_mailbox_get_addr((InternetAddressMailbox *)ia);
		if (a && *a && strlen(a) < 255)
			out->from = lower_dup(a);
	}
	const char *id = gm.g_mime_message_get_message_id(msg);
	if (id && *id && strlen(id) < 500)
		out->message_id = xstrdup(id);
	const char *subj = gm.g_mime_message_get_subject(msg);
	out->subject = xstrdup(subj && gm.g_utf8_validate(subj, -1, NULL) ? subj : "");

	out->automatic = automatic(msg, out->from);
	struct scan s = { 0 };
	gm.g_mime_message_foreach(msg, scan_part, &s);
	choose_orders(out, &s);
	gm.g_object_unref(msg);
	return 0;
}

void mail_in_release(struct mail_in *m)
{
	free(m->from);
	free(m->message_id);
	free(m->subject);
	free(m->orders);
	free(m->orders_name);
	free(m->problem);
	free(m->command);
	free(m->signature);
	free(m->automatic);
	memset(m, 0, sizeof(*m));
}

static GMimeObject *text_part(const char *text)
{
	GMimeTextPart *tp = gm.g_mime_text_part_new_with_subtype("plain");
	gm.g_mime_text_part_set_text(tp, text);
	return (GMimeObject *)tp;
}

static GMimeObject *attachment_part(const char *name, const void *data, size_t len)
{
	GMimePart *p = gm.g_mime_part_new_with_type("text", "plain");
	GMimeStream *s = gm.g_mime_stream_mem_new_with_buffer(data, len);
	GMimeDataWrapper *w = gm.g_mime_data_wrapper_new_with_stream(s,
		GMIME_CONTENT_ENCODING_DEFAULT);

	gm.g_mime_object_set_content_type_parameter((GMimeObject *)p, "charset", "utf-8");
	gm.g_mime_part_set_content(p, w);
	gm.g_mime_object_set_disposition((GMimeObject *)p, "attachment");
	gm.g_mime_part_set_filename(p, name);
	gm.g_object_unref(w);
	gm.g_object_unref(s);
	return (GMimeObject *)p;
}

/* Appends s (none: empty) and its NUL to b. */
static void append_field(struct buf *b, const char *s)
{
	s = s ? s : "";
	buf_append(b, s, strlen(s) + 1);
}

/* The multipart boundary of m: "=_umpire_" and 32 hex digits of SHA-256 over the message id,
 * body and attachments (each NUL-terminated, attachments by name and bytes). GMime would
 * draw one at random; this one makes the same message the same bytes (a resend after a
 * crash, a test's golden copy), and no part can hold it without holding its own hash. */
static void mail_boundary(char out[10 + 32], const struct mail_out *m)
{
	struct buf all = BUF_INIT;
	uint8_t sum[32];

	append_field(&all, m->message_id);
	append_field(&all, m->body);
	for (size_t i = 0; i < m->n_attachments && i < MAIL_MAX_ATTACHMENTS; i++) {
		append_field(&all, m->attachments[i].name);
		buf_append(&all, m->attachments[i].data, m->attachments[i].len);
	}
	fair_sha256(sum, all.data, all.len);
	buf_release(&all);
	memcpy(out, "=_umpire_", 9);
	hex_encode(out + 9, sum, 16); /* 32 digits and the NUL */
}

/* msg written out with CRLF line ends onto out (emptied first when replace), then msg's
 * reference dropped. 0, or -1 (ERROR_INTERNAL) when GMime cannot render it. */
static int render_message(GMimeMessage *msg, struct buf *out, int replace)
{
	GMimeFormatOptions *fo = gm.g_mime_format_options_new();
	gm.g_mime_format_options_set_newline_format(fo, GMIME_NEWLINE_FORMAT_DOS);
	char *text = gm.g_mime_object_to_string((GMimeObject *)msg, fo);
	gm.g_mime_format_options_free(fo);
	gm.g_object_unref(msg);
	if (!text)
		return error_set(ERROR_INTERNAL, "cannot render a mail message");
	if (replace)
		out->len = 0;
	buf_puts(out, text);
	gm.g_free(text);
	return 0;
}

int mail_build(struct buf *out, const struct mail_out *m)
{
	if (gmime_open() < 0)
		return -1;
	GMimeMessage *msg = gm.g_mime_message_new(TRUE);
	GDateTime *dt = gm.g_date_time_new_from_unix_utc(m->date);

	gm.g_mime_message_add_mailbox(msg, GMIME_ADDRESS_TYPE_FROM, "umpire", m->from);
	gm.g_mime_message_add_mailbox(msg, GMIME_ADDRESS_TYPE_TO, NULL, m->to);
	gm.g_mime_message_set_subject(msg, m->subject, "utf-8");
	gm.g_mime_message_set_date(msg, dt);
	gm.g_date_time_unref(dt);
	gm.g_mime_message_set_message_id(msg, m->message_id);
	if (m->in_reply_to) {
		char *ref = xasprintf("<%s>", m->in_reply_to);
		gm.g_mime_object_set_header((GMimeObject *)msg, "In-Reply-To", ref, NULL);
		free(ref);
	}
	if (m->in_reply_to || m->references) {
		struct buf refs = BUF_INIT;
		if (m->references)
			buf_printf(&refs, "<%s>", m->references);
		if (m->in_reply_to)
			buf_printf(&refs, "%s<%s>", refs.len ? " " : "", m->in_reply_to);
		gm.g_mime_object_set_header((GMimeObject *)msg, "References", buf_str(&refs), NULL);
		buf_release(&refs);
	}
	/* RFC 3834: mail of a program, which no responder should answer (a reply, or
	 * auto-generated), and no vacation notice either (Precedence: bulk, by custom). */
	gm.g_mime_object_set_header((GMimeObject *)msg, "Auto-Submitted",
		m->auto_reply ? "auto-replied" : "auto-generated", NULL);
	gm.g_mime_object_set_header((GMimeObject *)msg, "Precedence", "bulk", NULL);
	GMimeObject *body = text_part(m->body);
	if (m->n_attachments) {
		GMimeMultipart *mp = gm.g_mime_multipart_new_with_subtype("mixed");
		char boundary[10 + 32];
		mail_boundary(boundary, m);
		gm.g_mime_multipart_set_boundary(mp, boundary);
		gm.g_mime_multipart_add(mp, body);
		gm.g_object_unref(body);
		for (size_t i = 0; i < m->n_attachments && i < MAIL_MAX_ATTACHMENTS; i++) {
			const struct mail_attachment *a = &m->attachments[i];
			GMimeObject *att = attachment_part(a->name, a->data, a->len);
			gm.g_mime_multipart_add(mp, att);
			gm.g_object_unref(att);
		}
		body = (GMimeObject *)mp;
	}
	gm.g_mime_message_set_mime_part(msg, body);
	gm.g_object_unref(body);
	gm.g_mime_object_encode((GMimeObject *)msg, GMIME_ENCODING_CONSTRAINT_7BIT);

	return render_message(msg, out, 0);
}

/* The first mailbox address of list, a new string, or NULL. */
static char *first_address(InternetAddressList *list)
{
	for (int i = 0; list && i < gm.internet_address_list_length(list); i++) {
		InternetAddress *ia = gm.internet_address_list_get_address(list, i);
		if (is_mailbox(ia))
			return xstrdup(
				gm.internet_address_mailbox_get_addr((InternetAddressMailbox *)ia));
	}
	return NULL;
}

int mail_envelope(const void *bytes, size_t len, char **from, char **to)
{
	*from = *to = NULL;
	if (gmime_open() < 0)
		return -1;
	GMimeMessage *msg = parse_message(bytes, len);
	if (msg) {
		*from = first_address(gm.g_mime_message_get_from(msg));
		*to = first_address(gm.g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO));
		gm.g_object_unref(msg);
	}
	if (!*from || !*to) {
		free(*from);
		free(*to);
		*from = *to = NULL;
		return error_set(ERROR_INPUT, "the message has no From or no To address");
	}
	return 0;
}

int mail_set_date(struct buf *message, long long date)
{
	if (gmime_open() < 0)
		return -1;
	GMimeMessage *msg = parse_message(message->data, message->len);
	if (!msg)
		return error_set(ERROR_INPUT, "not a mail message");
	GDateTime *dt = gm.g_date_time_new_from_unix_utc(date);
	gm.g_mime_message_set_date(msg, dt);
	gm.g_date_time_unref(dt);
	return render_message(msg, message, 1);
}

/* The date of a Received: header's value: RFC 5322 date-time after its last ';'. UTC
 * seconds, or -1 when there is none that GMime reads. */
static long long received_date(const char *value)
{
	const char *semi = value ? strrchr(value, ';') : NULL;
	if (!semi)
		return -1;
	GDateTime *dt = gm.g_mime_utils_header_decode_date(semi + 1);
	if (!dt)
		return -1;
	long long t = (long long)gm.g_date_time_to_unix(dt);
	gm.g_date_time_unref(dt);
	return t;
}

int mail_saved_parse(struct mail_saved *out, const void *bytes, size_t len)
{
	memset(out, 0, sizeof(*out));
	out->received_at = -1;
	GMimeMessage *msg = open_message(bytes, len);
	if (!msg)
		return -1;
	const char *rcv = gm.g_mime_object_get_header((GMimeObject *)msg, "Received");
	out->has_received = rcv != NULL;
	out->received_at = received_date(rcv);
	out->to = first_address(gm.g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO));
	struct scan s = { 0 };
	struct mail_in in;
	memset(&in, 0, sizeof in);
	gm.g_mime_message_foreach(msg, scan_part, &s);
	if (s.n_yaml >= 1)
		part_text(&in, s.yaml[0]);
	else if (s.text)
		part_text(&in, s.text);
	out->text = in.orders;
	out->text_len = in.orders_len;
	in.orders = NULL;
	mail_in_release(&in);
	gm.g_object_unref(msg);
	if (!out->text) {
		mail_saved_release(out); /* nothing for the caller to release on failure */
		return error_set(ERROR_INPUT, "the mail has no text part and no .yaml attachment");
	}
	return 0;
}

void mail_saved_release(struct mail_saved *m)
{
	free(m->to);
	free(m->text);
	memset(m, 0, sizeof(*m));
}
