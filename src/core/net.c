/* net.c — libcurl's uses (net.h): one message over SMTP (the envelope, the upload, TLS and
 * the login are libcurl's), one bounded HTTP(S) GET (the beacon's round) and one bounded
 * POST (a time-stamp request); this file only maps libcurl's results to core's error
 * convention.
 * libcurl is opened when the first message goes (dlopen), not linked: with its TLS, HTTP/2,
 * LDAP and Kerberos libraries it is 17 of the 57 shared libraries every umpire process
 * would otherwise map and relocate at start-up (about 5 ms a process). */
#define CURL_DISABLE_TYPECHECK /* curl_easy_setopt is called through a pointer */
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/net.h"
#include "core/buf.h"
#include "core/dynlib.h"
#include "core/error.h"
#include "core/banned.h"

/* The message being uploaded. */
struct upload {
	const char *data; /* the message */
	size_t len, off;  /* bytes, bytes given to libcurl so far */
};

static size_t read_message(char *out, size_t size, size_t nmemb, void *arg)
{
	struct upload *u = arg;
	size_t n = size * nmemb;

	if (n > u->len - u->off)
		n = u->len - u->off;
	memcpy(out, u->data + u->off, n);
	u->off += n;
	return n;
}

/* The server's last refusal (an SMTP reply line: "550 5.1.1 <x>: User unknown"), kept from
 * libcurl's debug stream so a refusal carries the server's own words. */
struct answer {
	char line[300];
};

static int keep_answer(CURL *curl, curl_infotype type, char *data, size_t size, void *arg)
{
	struct answer *a = arg;
	(void)curl;
	if (type != CURLINFO_HEADER_IN || size < 4 || (data[0] != '4' && data[0] != '5'))
		return 0; /* only a refusal's words (QUIT's "221 Bye" comes after them) */
	size_t n = size < sizeof(a->line) - 1 ? size : sizeof(a->line) - 1;
	while (n && (data[n - 1] == '\n' || data[n - 1] == '\r'))
		n--;
	for (size_t i = 0; i < n; i++) /* a stranger's server: printable ASCII only */
		a->line[i] = data[i] >= ' ' && data[i] < 127 ? data[i] : '?';
	a->line[n] = '\0';
	return 0;
}

/* The libcurl functions used here, from the shared library opened by curl_open. */
static struct {
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
	CURLcode (*easy_perform)(CURL *curl);
	CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
	void (*easy_cleanup)(CURL *curl);
	const char *(*easy_strerror)(CURLcode code);
	struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
	void (*slist_free_all)(struct curl_slist *list);
} lc;

/* Opens libcurl (its ABI 4, the only one since 2006) and initialises it, once a process.
 * 0 / -1 (message set). */
static int curl_open(void)
{
	static int done;
	static const char *const names[] = { "libcurl.so.4", "libcurl-gnutls.so.4" };
	if (done)
		return 0;
	void *h = dynlib_open("smtp", "libcurl", names, sizeof(names) / sizeof(names[0]));
	if (!h)
		return -1;
	if (dynlib_sym(h, "curl_global_init", &lc.global_init, sizeof(lc.global_init)) < 0 ||
		dynlib_sym(h, "curl_easy_init", &lc.easy_init, sizeof(lc.easy_init)) < 0 ||
		dynlib_sym(h, "curl_easy_setopt", &lc.easy_setopt, sizeof(lc.easy_setopt)) < 0 ||
		dynlib_sym(h, "curl_easy_perform", &lc.easy_perform, sizeof(lc.easy_perform)) < 0 ||
		dynlib_sym(h, "curl_easy_getinfo", &lc.easy_getinfo, sizeof(lc.easy_getinfo)) < 0 ||
		dynlib_sym(h, "curl_easy_cleanup", &lc.easy_cleanup, sizeof(lc.easy_cleanup)) < 0 ||
		dynlib_sym(h, "curl_easy_strerror", &lc.easy_strerror, sizeof(lc.easy_strerror)) <
			0 ||
		dynlib_sym(h, "curl_slist_append", &lc.slist_append, sizeof(lc.slist_append)) < 0 ||
		dynlib_sym(h, "curl_slist_free_all", &lc.slist_free_all,
			sizeof(lc.slist_free_all)) < 0)
		return error_set(ERROR_OS, "smtp: libcurl lacks a function umpire uses");
	lc.global_init(CURL_GLOBAL_DEFAULT);
	done = 1;
	return 0;
}

/* 1 if address can go into an SMTP command as <address>: no controls, spaces or brackets
 * (a reply's recipient came from a stranger's From header). */
static int envelope_ok(const char *address)
{
	if (!*address || strlen(address) > 254)
		return 0;
	for (const char *p = address; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == '<' || *p == '>' || *p == 127)
			return 0;
	return 1;
}

char *smtp_url_with_ehlo(const char *url, const char *from)
{
	const char *auth = strstr(url, "://");
	const char *at = strrchr(from, '@');
	auth = auth ? auth + 3 : url;
	const char *path = strchr(auth, '/');
	if ((path && path[1]) || !at || !at[1])
		return xstrdup(url);
	return xasprintf("%.*s/%s", (int)(path ? (size_t)(path - url) : strlen(url)), url, at + 1);
}

int smtp_url_loopback(const char *url)
{
	const char *h = strstr(url, "://");
	h = h ? h + 3 : url;
	const char *at = strchr(h, '@');
	if (at && at < h + strcspn(h, "/"))
		h = at + 1;
	size_t n = strcspn(h, ":/");
	if (h[0] == '[')
		return strncmp(h, "[::1]", 5) == 0;
	if (n == 9 && strncmp(h, "localhost", 9) == 0)
		return 1;
	/* 127.x.y.z, digits and dots only (127.0.0.1.example.org is a name) */
	return n >= 4 && strncmp(h, "127.", 4) == 0 && strspn(h, "0123456789.") == n;
}

int smtp_send(const struct smtp_settings *s, const char *from, const char *to, const void *message,
	size_t len)
{
	struct upload u = { message, len, 0 };
	struct curl_slist *rcpt = NULL;
	char errbuf[CURL_ERROR_SIZE] = "";
	int ret = -1;

	if (!envelope_ok(from) || !envelope_ok(to))
		return error_set(ERROR_INPUT,
			"smtp: refused envelope address (from '%.60s', to '%.60s')", from, to);
	if (curl_open() < 0)
		return -1;
	CURL *curl = lc.easy_init();
	if (!curl)
		return error_set(ERROR_OS, "cannot start libcurl");
	char *from_path = xasprintf("<%s>", from), *to_path = xasprintf("<%s>", to);
	char *url = smtp_url_with_ehlo(s->url, from);
	rcpt = lc.slist_append(rcpt, to_path);
	lc.easy_setopt(curl, CURLOPT_URL, url);
	lc.easy_setopt(curl, CURLOPT_MAIL_FROM, from_path);
	lc.easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
	lc.easy_setopt(curl, CURLOPT_READFUNCTION, read_message);
	lc.easy_setopt(curl, CURLOPT_READDATA, &u);
	lc.easy_setopt(curl, CURLOPT_UPLOAD, 1L);
	lc.easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
	lc.easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	lc.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	lc.easy_setopt(curl, CURLOPT_TIMEOUT, s->timeout > 0 ? s->timeout : 60L);
	lc.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	if (s->starttls)
		lc.easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	if (s->user)
		lc.easy_setopt(curl, CURLOPT_USERNAME, s->user);
	if (s->password)
		lc.easy_setopt(curl, CURLOPT_PASSWORD, s->password);
	if (s->netrc) {
		lc.easy_setopt(curl, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
		lc.easy_setopt(curl, CURLOPT_NETRC_FILE, s->netrc);
	}
	struct answer said = { "" };
	lc.easy_setopt(curl, CURLOPT_DEBUGFUNCTION, keep_answer);
	lc.easy_setopt(curl, CURLOPT_DEBUGDATA, &said);
	lc.easy_setopt(curl, CURLOPT_VERBOSE, 1L);
	CURLcode rc = lc.easy_perform(curl);
	long code = 0;
	lc.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
	if (rc == CURLE_OK)
		ret = 0;
	else if (rc == CURLE_OPERATION_TIMEDOUT) /* a server that stalls: the pass ends */
		error_set(ERROR_BUSY, "smtp: cannot send to %s through %s: %s", to, s->url,
			errbuf[0] ? errbuf : lc.easy_strerror(rc));
	else /* a 5xx answer is the server's final word (RFC 5321 4.2.1): ERROR_INPUT */
		error_set(code >= 500 && code <= 599 ? ERROR_INPUT : ERROR_OS,
			"smtp: cannot send to %s through %s: %s%s%s%s", to, s->url,
			errbuf[0] ? errbuf : lc.easy_strerror(rc),
			said.line[0] && code ? " (the server: " : "", code ? said.line : "",
			said.line[0] && code ? ")" : "");
	free(url);
	lc.slist_free_all(rcpt);
	lc.easy_cleanup(curl);
	free(from_path);
	free(to_path);
	return ret;
}

/* Where a GET's body goes: appended to out up to max bytes. */
struct download {
	struct buf *out;
	size_t max, got;
	int too_big;
};

static size_t write_body(char *data, size_t size, size_t nmemb, void *arg)
{
	struct download *d = arg;
	size_t n = size * nmemb;

	if (n > d->max - d->got) {
		d->too_big = 1;
		return 0; /* libcurl stops with CURLE_WRITE_ERROR */
	}
	buf_append(d->out, data, n);
	d->got += n;
	return n;
}

/* What http_get and http_post set alike: the answer into d (at most its max), errors into
 * errbuf, no signals, the timeout (seconds, <= 0: 60), http(s) only, umpire's user agent. */
static void http_options(CURL *curl, struct download *d, char *errbuf, long timeout)
{
	lc.easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_body);
	lc.easy_setopt(curl, CURLOPT_WRITEDATA, d);
	lc.easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	lc.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	lc.easy_setopt(curl, CURLOPT_TIMEOUT, timeout > 0 ? timeout : 60L);
	lc.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	lc.easy_setopt(curl, CURLOPT_USERAGENT, "umpire");
}

int http_get(const char *url, size_t max, long timeout, struct buf *out, long *status)
{
	struct download d = { out, max, 0, 0 };
	char errbuf[CURL_ERROR_SIZE] = "";
	int ret = -1;

	*status = 0;
	if (curl_open() < 0)
		return -1;
	CURL *curl = lc.easy_init();
	if (!curl)
		return error_set(ERROR_OS, "cannot start libcurl");
	lc.easy_setopt(curl, CURLOPT_URL, url);
	http_options(curl, &d, errbuf, timeout);
	CURLcode rc = lc.easy_perform(curl);
	lc.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, status);
	if (rc != CURLE_OK)
		error_set(ERROR_OS, "cannot fetch %s: %s", url,
			d.too_big ? "the answer is too long" :
			errbuf[0] ? errbuf :
				    lc.easy_strerror(rc));
	else if (*status == 404)
		error_set(ERROR_MISSING, "cannot fetch %s: HTTP 404 (not there yet?)", url);
	else if (*status < 200 || *status > 299)
		error_set(ERROR_OS, "cannot fetch %s: HTTP %ld", url, *status);
	else
		ret = 0;
	lc.easy_cleanup(curl);
	return ret;
}

int http_post(const char *url, const char *content_type, const void *body, size_t len,
	const char *want_type, size_t max, long timeout, struct buf *out, long *status)
{
	struct download d = { out, max, 0, 0 };
	struct curl_slist *headers = NULL;
	char errbuf[CURL_ERROR_SIZE] = "";
	char *type = xasprintf("Content-Type: %s", content_type);
	char *got_type = NULL;
	int ret = -1;

	*status = 0;
	if (curl_open() < 0) {
		free(type);
		return -1;
	}
	CURL *curl = lc.easy_init();
	if (!curl) {
		free(type);
		return error_set(ERROR_OS, "cannot start libcurl");
	}
	headers = lc.slist_append(headers, type);
	lc.easy_setopt(curl, CURLOPT_URL, url);
	lc.easy_setopt(curl, CURLOPT_POST, 1L);
	lc.easy_setopt(curl, CURLOPT_POSTFIELDS, body);
	lc.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	lc.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	http_options(curl, &d, errbuf, timeout);
	CURLcode rc = lc.easy_perform(curl);
	lc.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, status);
	lc.easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &got_type);
	if (rc != CURLE_OK)
		error_set(ERROR_OS, "cannot post to %s: %s", url,
			d.too_big ? "the answer is too long" :
			errbuf[0] ? errbuf :
				    lc.easy_strerror(rc));
	else if (*status < 200 || *status > 299)
		error_set(ERROR_OS, "cannot post to %s: HTTP %ld", url, *status);
	else if (want_type &&
		 (!got_type || strncasecmp(got_type, want_type, strlen(want_type)) ||
			 (got_type[strlen(want_type)] && got_type[strlen(want_type)] != ';')))
		error_set(ERROR_OS, "cannot post to %s: the answer is not of type %s", url,
			want_type);
	else
		ret = 0;
	lc.easy_cleanup(curl);
	lc.slist_free_all(headers);
	free(type);
	return ret;
}
