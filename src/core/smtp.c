/* smtp.c — libcurl's uses (smtp.h): one message over SMTP (the envelope, the upload, TLS and
 * the login are libcurl's) and one bounded HTTP(S) GET; this file only maps libcurl's results
 * to core's error convention. */
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

#include "core/smtp.h"
#include "core/buf.h"
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

static void smtp_init(void)
{
	static int done;
	if (!done) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		done = 1;
	}
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
	smtp_init();
	CURL *curl = curl_easy_init();
	if (!curl)
		return error_set(ERROR_OS, "cannot start libcurl");
	char *from_path = xasprintf("<%s>", from), *to_path = xasprintf("<%s>", to);
	rcpt = curl_slist_append(rcpt, to_path);
	curl_easy_setopt(curl, CURLOPT_URL, s->url);
	curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from_path);
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
	curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_message);
	curl_easy_setopt(curl, CURLOPT_READDATA, &u);
	curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, s->timeout > 0 ? s->timeout : 60L);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	if (s->starttls)
		curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	if (s->user)
		curl_easy_setopt(curl, CURLOPT_USERNAME, s->user);
	if (s->password)
		curl_easy_setopt(curl, CURLOPT_PASSWORD, s->password);
	if (s->netrc) {
		curl_easy_setopt(curl, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
		curl_easy_setopt(curl, CURLOPT_NETRC_FILE, s->netrc);
	}
	CURLcode rc = curl_easy_perform(curl);
	if (rc == CURLE_OK)
		ret = 0;
	else
		error_set(ERROR_OS, "smtp: cannot send to %s through %s: %s", to, s->url,
			errbuf[0] ? errbuf : curl_easy_strerror(rc));
	curl_slist_free_all(rcpt);
	curl_easy_cleanup(curl);
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

int http_get(const char *url, size_t max, long timeout, struct buf *out, long *status)
{
	struct download d = { out, max, 0, 0 };
	char errbuf[CURL_ERROR_SIZE] = "";
	int ret = -1;

	*status = 0;
	smtp_init();
	CURL *curl = curl_easy_init();
	if (!curl)
		return error_set(ERROR_OS, "cannot start libcurl");
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &d);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, timeout > 0 ? timeout : 60L);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_USERAGENT, "umpire");
	CURLcode rc = curl_easy_perform(curl);
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, status);
	if (rc != CURLE_OK)
		error_set(ERROR_OS, "cannot fetch %s: %s", url,
			d.too_big ? "the answer is too long" :
			errbuf[0] ? errbuf :
				    curl_easy_strerror(rc));
	else if (*status == 404)
		error_set(ERROR_MISSING, "cannot fetch %s: HTTP 404 (not there yet?)", url);
	else if (*status < 200 || *status > 299)
		error_set(ERROR_OS, "cannot fetch %s: HTTP %ld", url, *status);
	else
		ret = 0;
	curl_easy_cleanup(curl);
	return ret;
}
