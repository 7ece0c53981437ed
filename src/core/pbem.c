/* pbem.c — the play-by-email settings of campaign.yaml (pbem.h): the players' addresses and
 * keys, the schedule, publishing and mail. Parsed with the same node helpers as the rest of
 * the file, so a bad setting points at its line. Dates are UTC and integer only. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/pbem.h"
#include "core/schedule.h"
#include "core/buf.h"
#include "core/error.h"
#include "core/banned.h"

const char *const pbem_missing_names[] = { "no-orders", "hold", NULL };
const char *const pbem_close_names[] = { "all-sent", "deadline", NULL };
const char *const pbem_tls_names[] = { "starttls", "none", NULL };

static const char *const schedule_keys[] = { "first_deadline", "every", "grace", "missing",
	"remind", "reveal", "close", "extensions", "missed", "civil_disorder", NULL };
const char *const pbem_missed_names[] = { "standing", "hold", NULL };
static const char *const publish_keys[] = { "remote", "auto", "pages", NULL };
const char *const pbem_transport_names[] = { "smtp", "sendmail", NULL };
static const char *const mail_keys[] = { "from", "transport", "sendmail", "smtp", "user", "tls",
	"require_signature", "reply_to", NULL };
const char *const pbem_reply_to_names[] = { "registered", "sender", NULL };

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (Howard Hinnant's
 * days_from_civil): integer only, no time zone, no locale. */
static long long days_from_civil(long long y, long long m, long long d)
{
	y -= m <= 2;
	long long era = (y >= 0 ? y : y - 399) / 400;
	long long yoe = y - era * 400;
	long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int pbem_parse_utc(const char *s, long long *out)
{
	int y, mo, d, h, mi, sec = 0, n = 0;
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6 ||
		(size_t)n != strlen(s)) {
		sec = 0;
		n = 0;
		if (sscanf(s, "%4d-%2d-%2dT%2d:%2dZ%n", &y, &mo, &d, &h, &mi, &n) != 5 ||
			(size_t)n != strlen(s))
			return -1;
	}
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
		(mo == 2 && d == 29 && !leap) || h > 23 || h < 0 || mi < 0 || mi > 59 || sec < 0 ||
		sec > 59)
		return -1;
	*out = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	return 0;
}

void pbem_format_utc(char *out, size_t size, long long t)
{
	/* civil_from_days, the inverse of days_from_civil. */
	long long z = (t >= 0 ? t : t - 86399) / 86400, secs = t - z * 86400;
	z += 719468;
	long long era = (z >= 0 ? z : z - 146096) / 146097;
	long long doe = z - era * 146097;
	long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	long long mp = (5 * doy + 2) / 153;
	long long d = doy - (153 * mp + 2) / 5 + 1;
	long long m = mp < 10 ? mp + 3 : mp - 9;
	long long y = yoe + era * 400 + (m <= 2);
	snprintf(out, size, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", y, m, d, secs / 3600,
		secs / 60 % 60, secs % 60);
}

int pbem_parse_duration(const char *s, long long *out)
{
	char *end;
	long long v = strtoll(s, &end, 10), unit = 1;

	if (end == s || !isdigit((unsigned char)s[0]) || v < 0 || v > 100000000LL)
		return -1;
	if (*end && end[1])
		return -1;
	switch (*end) {
	case '\0':
	case 's':
		break;
	case 'm':
		unit = 60;
		break;
	case 'h':
		unit = 3600;
		break;
	case 'd':
		unit = 86400;
		break;
	default:
		return -1;
	}
	*out = v * unit;
	return 0;
}

/* A plausible address: local@domain, printable ASCII without spaces, brackets or quotes
 * (the address as mail software writes it in From, not a display name). */
static int address_ok(const char *s)
{
	const char *at = strchr(s, '@');
	if (!at || at == s || !at[1] || strchr(at + 1, '@') || strlen(s) > PBEM_ADDRESS_MAX)
		return 0;
	for (const char *p = s; *p; p++)
		if (*p <= ' ' || *p >= 127 || strchr("<>()[]\\,;:\"", *p))
			return 0;
	return 1;
}

static char *lower_dup(const char *s)
{
	char *r = xstrdup(s);
	for (char *p = r; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return r;
}

static void parse_email(struct pbem_contact *ct, const struct node *n, struct diag *d)
{
	const char *s;
	if (node_want_str(n, "email", PBEM_ADDRESS_MAX, &s, d) < 0)
		return;
	if (!address_ok(s)) {
		node_error(d, n, "'%s' is not an email address (local@domain expected)", s);
		return;
	}
	if (ct->n_emails == PBEM_MAX_EMAILS) {
		node_error(d, n, "more than %d addresses for one player", PBEM_MAX_EMAILS);
		return;
	}
	ct->emails[ct->n_emails++] = lower_dup(s);
}

/* `email: ADDRESS` or `email: [ADDRESS, ...]`, and `ssh_key: "ssh-ed25519 AAAA..."`. */
static void parse_contact(struct pbem_contact *ct, const struct node *p, struct diag *d)
{
	const struct node *e = node_get(p, "email");
	const char *s;

	if (e && e->kind == NODE_SEQ) {
		for (size_t i = 0; i < e->n; i++)
			parse_email(ct, e->items[i], d);
	} else if (e) {
		parse_email(ct, e, d);
	}
	const struct node *k = node_get(p, "ssh_key");
	if (k && node_want_str(k, "ssh_key", PBEM_SSH_KEY_MAX, &s, d) == 0) {
		if (strncmp(s, "ssh-", 4) != 0 && strncmp(s, "ecdsa-", 6) != 0 &&
			strncmp(s, "sk-", 3) != 0)
			node_error(d, k,
				"ssh_key is not an OpenSSH public key line ('ssh-ed25519 AAAA...' expected)");
		else
			ct->ssh_key = xstrdup(s);
	}
}

/* A duration or a UTC time under key of map into *out; absent keeps *out. */
static void want_time(const struct node *map, const char *key, int utc, long long *out,
	struct diag *d)
{
	const struct node *n = node_get(map, key);
	const char *s;
	if (!n || node_want_str(n, key, 40, &s, d) < 0)
		return;
	if (utc ? pbem_parse_utc(s, out) : pbem_parse_duration(s, out))
		node_error(d, n,
			utc ? "%s '%s' (a UTC time like 2026-12-06T18:00:00Z expected)" :
			      "%s '%s' (a duration like 90s, 45m, 12h or 7d expected)",
			key, s);
}

/* The enum under key of map (one of names) into *v: 1 when it is there and valid; 0 when absent
 * or not one of them (then said in d). */
static int want_enum(const struct node *map, const char *key, const char *const *names, int *v,
	struct diag *d)
{
	const struct node *n = node_get(map, key);
	return n && node_want_enum(n, key, names, v, d) == 0;
}

static void parse_schedule(struct pbem_schedule *s, const struct node *n, struct diag *d)
{
	if (!n || node_check_map(n, "schedule", schedule_keys, d) < 0)
		return;
	s->set = 1;
	s->every = 7 * 86400;
	s->remind = -1;
	s->reveal = 86400;
	if (!node_need(n, "first_deadline", d))
		return;
	want_time(n, "first_deadline", 1, &s->first_deadline, d);
	want_time(n, "every", 0, &s->every, d);
	want_time(n, "grace", 0, &s->grace, d);
	want_time(n, "remind", 0, &s->remind, d);
	want_time(n, "reveal", 0, &s->reveal, d);
	want_time(n, "extensions", 0, &s->extensions, d);
	if (s->every < 60)
		node_error(d, node_get(n, "every"), "every is under a minute");
	int v;
	if (want_enum(n, "missing", pbem_missing_names, &v, d))
		s->missing = (enum pbem_missing)v;
	if (want_enum(n, "close", pbem_close_names, &v, d))
		s->close = (enum pbem_close)v;
	if (want_enum(n, "missed", pbem_missed_names, &v, d))
		s->missed = (enum pbem_missed)v;
	long long cd;
	const struct node *cdn = node_get(n, "civil_disorder");
	if (cdn && node_want_int(cdn, "civil_disorder", 0, 1000, &cd, d) == 0)
		s->civil_disorder = (int)cd;
}

static char *want_dup(const struct node *map, const char *key, size_t max, struct diag *d)
{
	const struct node *n = node_get(map, key);
	const char *s;
	return n && node_want_str(n, key, max, &s, d) == 0 ? xstrdup(s) : NULL;
}

/* 1 if url carries a secret in its authority: a password (`user:pass@`), or any user part of
 * a non-ssh URL (`https://TOKEN@host/...`). campaign.yaml is published: a credential helper,
 * netrc or UMPIRE_SMTP_PASSWORD keeps secrets instead. ssh's `ssh://git@host/` is a user only. */
static int url_has_credentials(const char *url)
{
	const char *scheme_end = strstr(url, "://");
	if (!scheme_end)
		return 0; /* a path or scp-like git@host:path: no password there */
	const char *auth = scheme_end + 3;
	size_t len = strcspn(auth, "/?#");
	const char *at = memchr(auth, '@', len);
	if (!at)
		return 0;
	int ssh = (size_t)(scheme_end - url) == 3 && strncmp(url, "ssh", 3) == 0;
	return !ssh || memchr(auth, ':', (size_t)(at - auth)) != NULL;
}

/* url from key of map, refused when it carries credentials (campaign.yaml is public). */
static char *want_url(const struct node *map, const char *key, struct diag *d)
{
	char *url = want_dup(map, key, 1000, d);
	if (url && url_has_credentials(url)) {
		node_error(d, node_get(map, key),
			"'%s' holds credentials, and campaign.yaml is published to every player (a URL "
			"without them expected: a credential helper, netrc or UMPIRE_SMTP_PASSWORD "
			"keeps them)",
			url);
		free(url);
		url = NULL;
	}
	return url;
}

static void parse_mail(struct pbem_mail *m, const struct node *n, struct diag *d)
{
	int v;
	if (!n || node_check_map(n, "mail", mail_keys, d) < 0)
		return;
	m->from = want_dup(n, "from", PBEM_ADDRESS_MAX, d);
	if (m->from && !address_ok(m->from))
		node_error(d, node_get(n, "from"), "'%s' is not an email address", m->from);
	m->smtp = want_url(n, "smtp", d);
	if (m->smtp && strncmp(m->smtp, "smtp://", 7) != 0 && strncmp(m->smtp, "smtps://", 8) != 0)
		node_error(d, node_get(n, "smtp"),
			"smtp '%s' (smtp://HOST:PORT or smtps://HOST:PORT expected)", m->smtp);
	m->user = want_dup(n, "user", 200, d);
	if (want_enum(n, "transport", pbem_transport_names, &v, d))
		m->transport = (enum pbem_transport)v;
	m->sendmail = want_dup(n, "sendmail", 1000, d);
	/* An absolute path: run without a shell or a PATH search, so the campaign names
	 * exactly one program. */
	if (m->sendmail && m->sendmail[0] != '/')
		node_error(d, node_get(n, "sendmail"),
			"sendmail '%s' (an absolute path like /usr/sbin/sendmail expected)",
			m->sendmail);
	if (want_enum(n, "tls", pbem_tls_names, &v, d))
		m->tls = (enum pbem_tls)v;
	if (want_enum(n, "reply_to", pbem_reply_to_names, &v, d))
		m->reply_to = (enum pbem_reply_to)v;
	const struct node *r = node_get(n, "require_signature");
	if (r)
		node_want_bool(r, "require_signature", &m->require_signature, d);
}

void pbem_parse_contacts(struct pbem *p, const struct node *players, struct diag *d)
{
	if (players && players->kind == NODE_SEQ) {
		p->contacts = xcalloc(players->n + 1, sizeof(*p->contacts));
		p->n_contacts = players->n;
		for (size_t i = 0; i < players->n; i++)
			if (players->items[i]->kind == NODE_MAP)
				parse_contact(&p->contacts[i], players->items[i], d);
	}
}

int pbem_parse(struct pbem *p, const struct node *root, const struct node *players, struct diag *d)
{
	size_t before = diag_count(d);

	memset(p, 0, sizeof(*p));
	pbem_parse_contacts(p, players, d);
	parse_schedule(&p->schedule, node_get(root, "schedule"), d);
	const struct node *pub = node_get(root, "publish");
	if (pub && node_check_map(pub, "publish", publish_keys, d) == 0) {
		p->publish.remote = want_url(pub, "remote", d);
		const struct node *a = node_get(pub, "auto");
		if (a)
			node_want_bool(a, "auto", &p->publish.autopush, d);
		p->publish.pages = want_url(pub, "pages", d);
		const char *pg = p->publish.pages;
		if (pg && (strncmp(pg, "https://", 8) != 0 || !pg[8] ||
				  strcspn(pg, " \t\"'<>\\`") != strlen(pg))) {
			node_error(d, node_get(pub, "pages"),
				"'%s' is not an https URL (the address the campaign's pages are served at, e.g. https://example.org/harbour-raid, expected)",
				pg);
			free(p->publish.pages);
			p->publish.pages = NULL;
		}
	}
	parse_mail(&p->mail, node_get(root, "mail"), d);
	return diag_count(d) == before ? 0 : -1;
}

/* Replaces the addresses of player i with those of n (`ADDRESS`, `[ADDRESS, ...]` or `[]`). */
static void replace_emails(struct pbem_contact *ct, const struct node *n, struct diag *d)
{
	for (size_t k = 0; k < ct->n_emails; k++)
		free(ct->emails[k]);
	ct->n_emails = 0;
	if (n->kind == NODE_SEQ) {
		for (size_t i = 0; i < n->n; i++)
			parse_email(ct, n->items[i], d);
	} else {
		parse_email(ct, n, d);
	}
}

int pbem_parse_addresses(struct pbem *p, const char *const *players, const char *file,
	const struct buf *bytes, struct diag *d)
{
	static const char *const keys[] = { "addresses", NULL };
	struct node_limits lim = { .max_bytes = 256 * 1024 };
	struct node *root = NULL;
	size_t before = diag_count(d);

	if (node_parse(&root, file, bytes->data ? bytes->data : "", bytes->len, &lim, d) < 0)
		return -1;
	const struct node *a = NULL;
	if (node_check_map(root, "addresses file", keys, d) == 0)
		a = node_need(root, "addresses", d);
	if (a && a->kind != NODE_MAP)
		node_error(d, a, "addresses is not a map (PLAYER: ADDRESS lines expected)");
	for (size_t i = 0; a && a->kind == NODE_MAP && i < a->n; i++) {
		size_t k = 0;
		while (k < p->n_contacts && strcmp(players[k], a->keys[i]->scalar) != 0)
			k++;
		if (k == p->n_contacts)
			node_error(d, a->keys[i],
				"no player '%s' in the campaign (a player id expected)",
				a->keys[i]->scalar);
		else
			replace_emails(&p->contacts[k], a->items[i], d);
	}
	node_free(root);
	return diag_count(d) == before ? 0 : -1;
}

int pbem_set_addresses(struct pbem *p, size_t player, const char *const *addresses, size_t n)
{
	if (n > PBEM_MAX_EMAILS)
		return error_set(ERROR_INPUT, "%zu addresses (at most %d for one player)", n,
			PBEM_MAX_EMAILS);
	for (size_t i = 0; i < n; i++)
		if (!address_ok(addresses[i]))
			return error_set(ERROR_INPUT,
				"'%.100s' is not an email address (local@domain expected)",
				addresses[i]);
	struct pbem_contact *ct = &p->contacts[player];
	for (size_t k = 0; k < ct->n_emails; k++)
		free(ct->emails[k]);
	ct->n_emails = 0;
	for (size_t i = 0; i < n; i++)
		ct->emails[ct->n_emails++] = lower_dup(addresses[i]);
	return 0;
}

int pbem_emit_addresses(const struct pbem *p, const char *const *players, struct buf *out)
{
	struct node *top = node_new_map();
	struct node *a = node_map_add(top, "addresses", node_new_map());
	int rc = 0;

	for (size_t i = 0; i < p->n_contacts; i++) {
		const struct pbem_contact *ct = &p->contacts[i];
		struct node *seq = ct->n_emails == 1 ? NULL :
						       node_map_add(a, players[i], node_new_seq());
		for (size_t k = 0; k < ct->n_emails; k++) {
			struct node *e = node_new_str(ct->emails[k]);
			e->quoted = 0; /* plain when YAML allows it, as init writes them */
			if (seq)
				node_seq_add(seq, e);
			else
				node_map_add(a, players[i], e);
		}
	}
	buf_puts(out, PBEM_ADDRESSES_HEADER);
	if (node_emit(top, out) < 0)
		rc = error_set(ERROR_INTERNAL, "internal error: cannot emit the addresses");
	node_free(top);
	return rc;
}

void pbem_release(struct pbem *p)
{
	for (size_t i = 0; i < p->n_contacts; i++) {
		for (size_t k = 0; k < p->contacts[i].n_emails; k++)
			free(p->contacts[i].emails[k]);
		free(p->contacts[i].ssh_key);
	}
	free(p->contacts);
	free(p->publish.remote);
	free(p->publish.pages);
	free(p->mail.from);
	free(p->mail.smtp);
	free(p->mail.user);
	free(p->mail.sendmail);
	override_list_free(p->overrides, p->n_overrides);
	memset(p, 0, sizeof(*p));
}

long long pbem_deadline(const struct pbem *p, int turn)
{
	if (!p->schedule.set || turn < 1)
		return -1;
	long long d = p->schedule.first_deadline + (long long)(turn - 1) * p->schedule.every;
	for (size_t i = 0; i < p->n_overrides; i++)
		if (p->overrides[i].turn <= turn)
			d += p->overrides[i].shift;
	return d;
}

int pbem_player_of(const struct pbem *p, const char *address)
{
	for (size_t i = 0; i < p->n_contacts; i++)
		for (size_t k = 0; k < p->contacts[i].n_emails; k++)
			if (strcasecmp(p->contacts[i].emails[k], address) == 0)
				return (int)i;
	return -1;
}
