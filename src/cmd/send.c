/* send.c — `umpire send`: the outbox over SMTP, or handed to a local sendmail program. The
 * server and login come from campaign.yaml (mail.smtp, mail.user) or the environment; the
 * password only from the environment or a netrc file readable by its owner alone, never from
 * the campaign. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "mail/outbox.h"
#include "mail/sendmail.h"
#include "core/spawn.h"
#include "core/clock.h"
#include "core/banned.h"

static const char send_help[] =
	"usage: umpire send DIR\n\n"
	"Sends every message waiting in the outbox of the campaign in DIR (.umpire/outbox/new:\n"
	"replies to orders, receipts, reports) over SMTP, each moved to .umpire/outbox/sent once\n"
	"the server took it, so none is sent twice; one that fails stays and is tried again on\n"
	"the next run. One line per message; exit 75 when any failed.\n\n"
	"A message the server refuses for good (a 5xx answer), or that is no message, moves to\n"
	".umpire/outbox/failed with the server's answer and is told once: 'umpire outbox DIR'\n"
	"lists, retries or drops it. Each message is dated when it is sent.\n\n"
	"The server is mail.smtp of campaign.yaml (smtp://HOST:PORT with STARTTLS required unless\n"
	"mail.tls is none, or smtps://HOST:PORT), the login mail.user. A server on the loopback\n"
	"(127.0.0.1, ::1, localhost: a relay on this machine) gets plain SMTP. umpire greets the\n"
	"server (EHLO) with the domain of mail.from. The environment wins:\n"
	"  UMPIRE_SMTP_URL       the server\n"
	"  UMPIRE_SMTP_TLS       starttls or none, instead of mail.tls\n"
	"  UMPIRE_SMTP_USER      the login\n"
	"  UMPIRE_SMTP_PASSWORD  the password (never kept in the campaign)\n"
	"  UMPIRE_SMTP_NETRC     a netrc file with the login and password for the server's host;\n"
	"                        refused unless only its owner may read it (chmod 600)\n\n"
	"With mail.transport: sendmail, each message goes instead to the program mail.sendmail\n"
	"(default /usr/sbin/sendmail) as 'PROGRAM -oi -f FROM -- TO' on its standard input, and\n"
	"counts as sent once it exits 0; the SMTP settings are then unused.\n";

int cmd_smtp_settings(const struct campaign *c, struct smtp_settings *s)
{
	const char *v;
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (c->pbem.mail.transport == PBEM_TRANSPORT_SENDMAIL) {
		s->sendmail = c->pbem.mail.sendmail ? c->pbem.mail.sendmail : SENDMAIL_DEFAULT;
		return EXIT_OK;
	}
	s->url = (v = getenv("UMPIRE_SMTP_URL")) && *v ? v : c->pbem.mail.smtp;
	s->user = (v = getenv("UMPIRE_SMTP_USER")) && *v ? v : c->pbem.mail.user;
	s->password = (v = getenv("UMPIRE_SMTP_PASSWORD")) && *v ? v : NULL;
	s->netrc = (v = getenv("UMPIRE_SMTP_NETRC")) && *v ? v : NULL;
	int tls = c->pbem.mail.tls == PBEM_TLS_STARTTLS;
	if ((v = getenv("UMPIRE_SMTP_TLS")) && *v) {
		if (strcmp(v, "none") != 0 && strcmp(v, "starttls") != 0) {
			return cmd_usage("send", "UMPIRE_SMTP_TLS '%s' (starttls or none expected)",
				v);
		}
		tls = strcmp(v, "starttls") == 0;
	}
	/* A relay on this machine is reached without a network: plain SMTP, whatever
	 * mail.tls says (a local Postfix has often no certificate, or a self-signed one). */
	s->starttls = tls && s->url && strncmp(s->url, "smtp://", 7) == 0 &&
		      !smtp_url_loopback(s->url);
	s->timeout = spawn_timeout("UMPIRE_SMTP_TIMEOUT", 60);
	if (!s->url) {
		return cmd_usage("send",
			"no SMTP server: set mail.smtp in campaign.yaml or UMPIRE_SMTP_URL");
	}
	if (s->netrc && stat(s->netrc, &st) < 0) {
		fprintf(stderr, "umpire send: cannot read UMPIRE_SMTP_NETRC '%s'\n", s->netrc);
		return EXIT_NOINPUT;
	}
	if (s->netrc && (st.st_mode & 077)) {
		return cmd_usage("send",
			"'%s' may be read by others (mode %03o): chmod 600 it, it holds a password",
			s->netrc, (unsigned)(st.st_mode & 0777));
	}
	return EXIT_OK;
}

int cmd_send(int argc, char **argv)
{
	int rc = cmd_options_help_only(argc, argv, send_help);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("send", argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], CAMPAIGN_LOCK) < 0)
		return cmd_error("umpire");
	struct smtp_settings s;
	struct outbox_report rep = { 0 };
	int code = cmd_smtp_settings(c, &s);
	if (code == EXIT_OK) {
		rc = outbox_send(c, &s, clock_now(), &rep);
		for (size_t i = 0; i < rep.n_items; i++) {
			const struct outbox_item *it = &rep.items[i];
			if (it->sent)
				printf("%s: sent to %s\n", it->name, it->to);
			else
				printf("%s: %s (%s)\n", it->name,
					it->failed ? "refused for good, moved to failed/" :
						     "not sent",
					it->reason ? it->reason : "?");
		}
		if (rc < 0)
			code = cmd_error("umpire send");
		else if (rep.n_failed)
			code = EXIT_TEMPFAIL;
	}
	outbox_report_release(&rep);
	campaign_close(c);
	return code;
}
