/* check_pbem.c — play by email: UTC dates and durations of the schedule, deadlines, players
 * by address, and reading a delivered message (GMime): the order file from an attachment or
 * the body, charsets, HTML only, signatures attached. */
#include <string.h>

#include "mail/mail.h"
#include "core/net.h"
#include "core/node.h"
#include "core/pbem.h"
#include "testutil.h"

START_TEST(utc_dates)
{
	long long t;
	char s[32];

	ck_assert_int_eq(pbem_parse_utc("1970-01-01T00:00:00Z", &t), 0);
	ck_assert_int_eq(t, 0);
	ck_assert_int_eq(pbem_parse_utc("2026-01-01T00:00:00Z", &t), 0);
	ck_assert_int_eq(t, 1767225600); /* the tests' SOURCE_DATE_EPOCH */
	ck_assert_int_eq(pbem_parse_utc("2024-02-29T23:59Z", &t), 0);
	pbem_format_utc(s, sizeof(s), t);
	ck_assert_str_eq(s, "2024-02-29T23:59:00Z");
	pbem_format_utc(s, sizeof(s), t + 60);
	ck_assert_str_eq(s, "2024-03-01T00:00:00Z");
	ck_assert_int_eq(pbem_parse_utc("2025-02-29T00:00:00Z", &t), -1); /* not a leap year */
	ck_assert_int_eq(pbem_parse_utc("2000-02-29T00:00:00Z", &t), 0);
	ck_assert_int_eq(pbem_parse_utc("2100-02-29T00:00:00Z", &t), -1);
	ck_assert_int_eq(pbem_parse_utc("2026-13-01T00:00:00Z", &t), -1);
	ck_assert_int_eq(pbem_parse_utc("2026-01-01 00:00:00", &t), -1);
	ck_assert_int_eq(pbem_parse_utc("2026-01-01T24:00:00Z", &t), -1);
	ck_assert_int_eq(pbem_parse_utc("2026-01-01T00:00:00Zx", &t), -1);
	for (long long v = 0; v < 4102444800LL; v += 86400 * 37 + 3601) {
		pbem_format_utc(s, sizeof(s), v);
		ck_assert_int_eq(pbem_parse_utc(s, &t), 0);
		ck_assert_int_eq(t, v);
	}
}
END_TEST

START_TEST(durations)
{
	long long v;
	ck_assert_int_eq(pbem_parse_duration("90", &v), 0);
	ck_assert_int_eq(v, 90);
	ck_assert_int_eq(pbem_parse_duration("45m", &v), 0);
	ck_assert_int_eq(v, 2700);
	ck_assert_int_eq(pbem_parse_duration("12h", &v), 0);
	ck_assert_int_eq(v, 43200);
	ck_assert_int_eq(pbem_parse_duration("7d", &v), 0);
	ck_assert_int_eq(v, 604800);
	ck_assert_int_eq(pbem_parse_duration("", &v), -1);
	ck_assert_int_eq(pbem_parse_duration("-1h", &v), -1);
	ck_assert_int_eq(pbem_parse_duration("2w", &v), -1);
	ck_assert_int_eq(pbem_parse_duration("1hh", &v), -1);
}
END_TEST

static void parse_settings(struct pbem *p, const char *yaml, int want)
{
	struct node *root = NULL;
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(node_parse(&root, "campaign.yaml", yaml, strlen(yaml), NULL, &d), 0);
	ck_assert_int_eq(pbem_parse(p, root, node_get(root, "players"), &d), want);
	node_free(root);
	diag_release(&d);
}

START_TEST(deadlines_and_addresses)
{
	struct pbem p;
	parse_settings(&p,
		"players:\n"
		"  - id: a\n    email: [A@Example.org, b@example.net]\n"
		"  - id: b\n    email: c@example.org\n"
		"schedule:\n  first_deadline: 2026-01-03T18:00:00Z\n  every: 2d\n  grace: 1h\n"
		"  missing: hold\n",
		0);
	ck_assert_int_eq(pbem_deadline(&p, 1), 1767463200);
	ck_assert_int_eq(pbem_deadline(&p, 3), 1767463200 + 4 * 86400);
	ck_assert_int_eq(p.schedule.grace, 3600);
	ck_assert_int_eq(p.schedule.missing, PBEM_MISSING_HOLD);
	ck_assert_int_eq(p.schedule.remind, -1);
	ck_assert_int_eq(pbem_player_of(&p, "a@example.ORG"), 0);
	ck_assert_int_eq(pbem_player_of(&p, "b@example.net"), 0);
	ck_assert_int_eq(pbem_player_of(&p, "c@example.org"), 1);
	ck_assert_int_eq(pbem_player_of(&p, "a@example.org.evil"), -1);
	pbem_release(&p);

	parse_settings(&p, "players:\n  - id: a\n", 0);
	ck_assert_int_eq(pbem_deadline(&p, 1), -1); /* no schedule, no deadline */
	ck_assert_int_eq(pbem_player_of(&p, "a@example.org"), -1);
	pbem_release(&p);

	parse_settings(&p, "players:\n  - id: a\n    email: not-an-address\n", -1);
	pbem_release(&p);
	parse_settings(&p, "players:\n  - id: a\nmail:\n  smtp: http://x\n", -1);
	pbem_release(&p);
	parse_settings(&p, "players:\n  - id: a\nschedule:\n  every: 1d\n", -1);
	pbem_release(&p);
}
END_TEST

/* campaign.yaml is published: a remote or SMTP URL carrying a password or token is refused;
 * ssh's user (git@) and scp-like remotes are no secret. */
START_TEST(no_credentials_in_urls)
{
	static const struct {
		const char *yaml;
		int rc;
	} cases[] = {
		{ "publish:\n  remote: https://github.com/group/raid.git\n", 0 },
		{ "publish:\n  remote: https://ghp_TOKEN@github.com/group/raid.git\n", -1 },
		{ "publish:\n  remote: https://gm:secret@git.example.org/raid.git\n", -1 },
		{ "publish:\n  remote: ssh://git@git.example.org/raid.git\n", 0 },
		{ "publish:\n  remote: ssh://git:secret@git.example.org/raid.git\n", -1 },
		{ "publish:\n  remote: git@github.com:group/raid.git\n", 0 },
		{ "publish:\n  remote: /srv/git/raid.git\n", 0 },
		{ "publish:\n  remote: https://github.com/group/r@id.git\n", 0 },
		{ "mail:\n  from: gm@example.org\n  smtp: smtps://mail.example.org:465\n", 0 },
		{ "mail:\n  from: gm@example.org\n  smtp: smtps://gm:pw@mail.example.org\n", -1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pbem p;
		char yaml[512];
		snprintf(yaml, sizeof(yaml), "players:\n  - id: a\n%s", cases[i].yaml);
		parse_settings(&p, yaml, cases[i].rc);
		pbem_release(&p);
	}
}
END_TEST

static int parse_addresses(struct pbem *p, const char *yaml)
{
	static const char *const ids[] = { "a", "b", "c", NULL };
	struct buf b = BUF_INIT;
	struct diag d;
	diag_init(&d);
	buf_puts(&b, yaml);
	int rc = pbem_parse_addresses(p, ids, ".umpire/addresses.yaml", &b, &d);
	ck_assert_int_eq(rc<0, diag_count(&d)> 0);
	buf_release(&b);
	diag_release(&d);
	return rc;
}

/* .umpire/addresses.yaml over campaign.yaml: each player it names gets exactly its addresses,
 * the others keep campaign.yaml's (a campaign made before the file). */
START_TEST(private_addresses)
{
	struct pbem p;
	parse_settings(&p,
		"players:\n  - id: a\n    email: old@example.org\n  - id: b\n"
		"    email: b@example.org\n  - id: c\n",
		0);
	ck_assert_int_eq(
		parse_addresses(&p,
			"addresses:\n  a: [New@Example.org, n2@example.org]\n  c: c@example.org\n"),
		0);
	ck_assert_int_eq(pbem_player_of(&p, "old@example.org"), -1);
	ck_assert_int_eq(pbem_player_of(&p, "new@example.org"), 0);
	ck_assert_int_eq(pbem_player_of(&p, "n2@example.org"), 0);
	ck_assert_int_eq(pbem_player_of(&p, "b@example.org"), 1);
	ck_assert_int_eq(pbem_player_of(&p, "c@example.org"), 2);
	ck_assert_str_eq(p.contacts[0].emails[0], "new@example.org");
	ck_assert_int_eq(parse_addresses(&p, "addresses:\n  b: []\n"), 0); /* no mail */
	ck_assert_int_eq(p.contacts[1].n_emails, 0);
	ck_assert_int_eq(pbem_player_of(&p, "b@example.org"), -1);
	ck_assert_int_eq(parse_addresses(&p, "addresses:\n  z: z@example.org\n"), -1);
	ck_assert_int_eq(parse_addresses(&p, "addresses:\n  a: not-an-address\n"), -1);
	ck_assert_int_eq(parse_addresses(&p, "addresses: a@example.org\n"), -1);
	ck_assert_int_eq(parse_addresses(&p, "players:\n  a: a@example.org\n"), -1);
	pbem_release(&p);
}
END_TEST

static void parse_mail(struct mail_in *m, const char *text)
{
	ck_assert_int_eq(mail_parse(m, text, strlen(text)), 0);
}

START_TEST(mail_body_and_attachment)
{
	struct mail_in m;

	parse_mail(&m, "From: A <A@Example.org>\nMessage-ID: <x@y>\nSubject: hi\n"
		       "Content-Type: text/plain; charset=iso-8859-1\n"
		       "Content-Transfer-Encoding: quoted-printable\n\n"
		       "Hello,\n=\ncampaign: c\nturn: 1\n# caf=E9\n-- \nsig\n");
	ck_assert_str_eq(m.from, "a@example.org");
	ck_assert_str_eq(m.message_id, "x@y");
	ck_assert_ptr_null(m.problem);
	ck_assert_str_eq(m.orders, "campaign: c\nturn: 1\n# caf\xc3\xa9\n");
	ck_assert_str_eq(m.orders_name, "message body");
	mail_in_release(&m);

	parse_mail(&m, "From: a@example.org\nContent-Type: text/html\n\n<p>campaign: c</p>\n");
	ck_assert_ptr_null(m.orders);
	ck_assert_ptr_nonnull(strstr(m.problem, "HTML only"));
	mail_in_release(&m);

	parse_mail(&m, "From: a@example.org\nContent-Type: text/plain; charset=x-no-such\n\n"
		       "campaign: c\n");
	ck_assert_ptr_nonnull(strstr(m.problem, "charset 'x-no-such'"));
	mail_in_release(&m);

	parse_mail(&m, "From: a@example.org\nContent-Type: text/plain\n\nno orders here\n");
	ck_assert_ptr_nonnull(strstr(m.problem, "no orders found"));
	mail_in_release(&m);

	parse_mail(&m, "From: a@example.org\nMIME-Version: 1.0\n"
		       "Content-Type: multipart/mixed; boundary=B\n\n"
		       "--B\nContent-Type: text/plain\n\nsee attached\n"
		       "--B\nContent-Type: application/octet-stream\n"
		       "Content-Disposition: attachment; filename=a.yaml\n"
		       "Content-Transfer-Encoding: base64\n\nY2FtcGFpZ246IGMNCg==\n"
		       "--B\nContent-Type: application/octet-stream\n"
		       "Content-Disposition: attachment; filename=a.yaml.sig\n\n"
		       "-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\n"
		       "--B--\n");
	ck_assert_ptr_null(m.problem);
	ck_assert_str_eq(m.orders, "campaign: c\r\n"); /* the attachment byte for byte */
	ck_assert_str_eq(m.orders_name, "a.yaml");
	ck_assert_ptr_nonnull(strstr(m.signature, "BEGIN SSH SIGNATURE"));
	mail_in_release(&m);

	parse_mail(&m,
		"From: a@example.org\nMIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=B\n\n"
		"--B\nContent-Type: text/yaml\nContent-Disposition: attachment; filename=a.yaml\n\n"
		"campaign: c\n"
		"--B\nContent-Type: text/yaml\nContent-Disposition: attachment; filename=b.yml\n\n"
		"campaign: c\n"
		"--B--\n");
	ck_assert_ptr_nonnull(strstr(m.problem, "2 order files attached"));
	mail_in_release(&m);
}
END_TEST

START_TEST(mail_build_and_envelope)
{
	struct buf out = BUF_INIT;
	struct mail_in m;
	char *from, *to;
	struct mail_out o = { .from = "umpire@example.org",
		.to = "p@example.org",
		.subject = "[c] turn 1: orders accepted",
		.in_reply_to = "x@y",
		.message_id = "umpire.1@example.org",
		.date = 1767225600,
		.body = "caf\xc3\xa9\ncampaign: c\n",
		.attachments = { { "r.md", "# report\n", 9 } },
		.n_attachments = 1 };

	ck_assert_int_eq(mail_build(&out, &o), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "\r\nIn-Reply-To: <x@y>\r\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "Date: Thu, 01 Jan 2026 00:00:00 +0000"));
	for (size_t i = 0; i < out.len; i++)
		ck_assert_uint_lt((unsigned char)out.data[i], 128); /* 7-bit clean */
	ck_assert_int_eq(mail_envelope(out.data, out.len, &from, &to), 0);
	ck_assert_str_eq(from, "umpire@example.org");
	ck_assert_str_eq(to, "p@example.org");
	free(from);
	free(to);
	ck_assert_int_eq(mail_parse(&m, out.data, out.len), 0);
	ck_assert_str_eq(m.orders, "campaign: c\n"); /* the body read back as UTF-8 */
	mail_in_release(&m);
	buf_release(&out);
}
END_TEST

/* The same message is the same bytes: the multipart boundary comes from the message's
 * content (GMime's own is random), and another body gives another boundary. */
START_TEST(mail_build_reproducible)
{
	struct buf a = BUF_INIT, b = BUF_INIT, c = BUF_INIT;
	struct mail_out o = { .from = "umpire@example.org",
		.to = "p@example.org",
		.subject = "[c] turn 1: report",
		.message_id = "umpire.2@example.org",
		.date = 1767225600,
		.body = "your report is attached\n",
		.attachments = { { "r.md", "# report\n", 9 } },
		.n_attachments = 1 };

	ck_assert_int_eq(mail_build(&a, &o), 0);
	ck_assert_int_eq(mail_build(&b, &o), 0);
	ck_assert_uint_eq(a.len, b.len);
	ck_assert_mem_eq(a.data, b.data, a.len);
	const char *bd = strstr(buf_str(&a), "boundary=\"=_umpire_");
	char token[42];
	ck_assert_ptr_nonnull(bd);
	memcpy(token, bd + 10, 41); /* "=_umpire_" and 32 hex digits */
	token[41] = '\0';
	ck_assert_uint_eq(strspn(token + 9, "0123456789abcdef"), 32);
	ck_assert_ptr_nonnull(strstr(buf_str(&a), token + 0));
	o.body = "your report is attached.\n";
	ck_assert_int_eq(mail_build(&c, &o), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&c), "boundary=\"=_umpire_"));
	ck_assert_ptr_null(strstr(buf_str(&c), token));
	buf_release(&a);
	buf_release(&b);
	buf_release(&c);
}
END_TEST

/* RFC 3834: what no program answers, each on both sides of the line. */
START_TEST(mail_automatic)
{
	static const struct {
		const char *headers; /* before the body */
		const char *why;     /* a word of m.automatic, or NULL: a person's mail */
	} cases[] = {
		{ "Auto-Submitted: auto-replied (vacation)\n", "Auto-Submitted: auto-replied" },
		{ "Auto-Submitted: auto-generated\n", "auto-generated" },
		{ "Auto-Submitted: no\n", NULL },
		{ "Auto-Submitted:  No ; comment\n", NULL },
		{ "Precedence: bulk\n", "bulk" },
		{ "Precedence: list\n", "list" },
		{ "Precedence: junk\n", "junk" },
		{ "Precedence: first-class\n", NULL },
		{ "List-Id: <players.lists.example>\n", "List-Id" },
		{ "Return-Path: <>\n", "null return path" },
		{ "Return-Path: <a@example.org>\n", NULL },
		{ "Content-Type: multipart/report; report-type=delivery-status; boundary=B\n",
			"multipart/report" },
	};
	struct mail_in m;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *msg = xasprintf("From: a@example.org\n%s\ncampaign: c\n", cases[i].headers);
		parse_mail(&m, msg);
		if (cases[i].why)
			ck_assert_msg(m.automatic && strstr(m.automatic, cases[i].why), "%s: %s",
				cases[i].headers, m.automatic ? m.automatic : "(none)");
		else
			ck_assert_msg(!m.automatic, "%s: %s", cases[i].headers, m.automatic);
		mail_in_release(&m);
		free(msg);
	}
	parse_mail(&m, "From: MAILER-DAEMON@example.org\n\nreturned\n");
	ck_assert_ptr_nonnull(strstr(m.automatic, "MAILER-DAEMON"));
	mail_in_release(&m);
}
END_TEST

/* RFC 3676: space-stuffing undone, soft breaks joined (delsp=yes drops their space), the
 * signature line no soft break, blank lines before it no part of the orders; the body's line
 * the orders start at. */
START_TEST(mail_flowed)
{
	struct mail_in m;
	parse_mail(&m, "From: a@example.org\nContent-Type: text/plain; format=flowed\n\n"
		       "Hi,\n\ncampaign: c\norders:\n   - move: [[1, \n2]]\n\n-- \nme\n");
	ck_assert_str_eq(m.orders, "campaign: c\norders:\n  - move: [[1, 2]]\n");
	ck_assert_uint_eq(m.orders_line, 3);
	mail_in_release(&m);
	parse_mail(&m, "From: a@example.org\nContent-Type: text/plain; format=flowed; delsp=yes\n\n"
		       "campaign: c\nturn: 1\nnote: ab \ncd\n");
	ck_assert_str_eq(m.orders, "campaign: c\nturn: 1\nnote: abcd\n");
	ck_assert_uint_eq(m.orders_line, 1);
	mail_in_release(&m);
	/* Without format=flowed a leading space and a trailing one stay. */
	parse_mail(&m, "From: a@example.org\nContent-Type: text/plain\n\n"
		       "campaign: c\n   - x \ny\n");
	ck_assert_str_eq(m.orders, "campaign: c\n   - x \ny\n");
	mail_in_release(&m);
}
END_TEST

/* What umpire sends says it is automatic (RFC 3834), threads, and can be dated again. */
START_TEST(mail_headers_out)
{
	struct buf out = BUF_INIT;
	struct mail_out o = { .from = "umpire@example.org",
		.to = "p@example.org",
		.subject = "[c] turn 1: your report",
		.in_reply_to = "orders@players.example",
		.references = "umpire.turn-0001-p.c.0123456789ab@example.org",
		.message_id = "umpire.report-0001-p.c.0123456789ab@example.org",
		.date = 1767225600,
		.body = "report\n" };
	ck_assert_int_eq(mail_build(&out, &o), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "Auto-Submitted: auto-generated\r\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "Precedence: bulk\r\n"));
	const char *refs = strstr(buf_str(&out), "References: ");
	const char *root = "<umpire.turn-0001-p.c.0123456789ab@example.org>"; /* then folded */
	ck_assert_msg(refs && strncmp(refs + 12, root, strlen(root)) == 0 &&
			      strstr(refs, "<orders@players.example>"),
		"%s", buf_str(&out));
	ck_assert_int_eq(mail_set_date(&out, 1767229200), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "Date: Thu, 01 Jan 2026 01:00:00 +0000"));
	ck_assert_ptr_null(strstr(buf_str(&out), "00:00:00 +0000"));
	buf_release(&out);
	o.auto_reply = 1;
	ck_assert_int_eq(mail_build(&out, &o), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "Auto-Submitted: auto-replied\r\n"));
	buf_release(&out);
	ck_assert_int_eq(mail_set_date(&out, 1), -1); /* no message */
}
END_TEST

/* EHLO from mail.from's domain (libcurl takes it from the URL's path); a loopback relay. */
START_TEST(smtp_urls)
{
	char *u = smtp_url_with_ehlo("smtp://127.0.0.1:25", "umpire@example.org");
	ck_assert_str_eq(u, "smtp://127.0.0.1:25/example.org");
	free(u);
	u = smtp_url_with_ehlo("smtps://mail.example.net:465/", "umpire@example.org");
	ck_assert_str_eq(u, "smtps://mail.example.net:465/example.org");
	free(u);
	u = smtp_url_with_ehlo("smtp://mail.example.net/given.example", "umpire@example.org");
	ck_assert_str_eq(u, "smtp://mail.example.net/given.example");
	free(u);
	ck_assert_int_eq(smtp_url_loopback("smtp://127.0.0.1:2525"), 1);
	ck_assert_int_eq(smtp_url_loopback("smtp://127.1.2.3"), 1);
	ck_assert_int_eq(smtp_url_loopback("smtp://localhost:25"), 1);
	ck_assert_int_eq(smtp_url_loopback("smtp://[::1]:25"), 1);
	ck_assert_int_eq(smtp_url_loopback("smtp://user@127.0.0.1:25"), 1);
	ck_assert_int_eq(smtp_url_loopback("smtp://128.0.0.1:25"), 0);
	ck_assert_int_eq(smtp_url_loopback("smtp://localhost.example.org:25"), 0);
	ck_assert_int_eq(smtp_url_loopback("smtp://127.0.0.1.evil.example:25"), 1 - 1);
	ck_assert_int_eq(smtp_url_loopback("smtp://[::2]:25"), 0);
}
END_TEST

static Suite *pbem_suite(void)
{
	Suite *s = suite_create("pbem");
	TCase *tc = tcase_create("pbem");
	tcase_add_test(tc, utc_dates);
	tcase_add_test(tc, durations);
	tcase_add_test(tc, deadlines_and_addresses);
	tcase_add_test(tc, private_addresses);
	tcase_add_test(tc, no_credentials_in_urls);
	tcase_add_test(tc, mail_body_and_attachment);
	tcase_add_test(tc, mail_build_and_envelope);
	tcase_add_test(tc, mail_build_reproducible);
	tcase_add_test(tc, mail_automatic);
	tcase_add_test(tc, mail_flowed);
	tcase_add_test(tc, mail_headers_out);
	tcase_add_test(tc, smtp_urls);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(pbem_suite)
