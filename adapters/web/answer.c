/* answer.c: web_answer: an HTTP answer's status and headers (the policy every answer carries), a whole answer at once, and the refusal of a WebSocket version. */
#include <stdlib.h>
#include <string.h>

#include <libwebsockets.h>

#include "web.h"
#include "xmalloc.h"

int
web_answer_head(const struct web *w, struct lws *wsi, const struct web_reply *rep)
{
	unsigned char buf[LWS_PRE + 2048], *start = buf + LWS_PRE, *q = start, *end = buf + sizeof buf - 1;
	char csp[768];
	size_t n;

	n = web_csp(w, csp, sizeof csp, rep->framable);
	if (lws_add_http_common_headers(wsi, (unsigned)rep->status, rep->type, rep->len, &q, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"content-security-policy:",
	                                (const unsigned char *)csp, (int)n, &q, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"x-content-type-options:",
	                                (const unsigned char *)"nosniff", 7, &q, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"referrer-policy:",
	                                (const unsigned char *)"no-referrer", 11, &q, end) ||
	    (!rep->framable && lws_add_http_header_by_name(wsi, (const unsigned char *)"x-frame-options:",
	                                                   (const unsigned char *)"DENY", 4, &q, end)) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
	                                (const unsigned char *)(rep->no_store ? "no-store" : "max-age=300"),
	                                rep->no_store ? 8 : 11, &q, end) ||
	    lws_finalize_write_http_header(wsi, start, &q, end))
		return -1;
	return 0;
}

int
web_answer_whole(const struct web *w, struct lws *wsi, const struct web_reply *rep)
{
	unsigned char *buf;
	int r = 0;

	if (web_answer_head(w, wsi, rep) < 0)
		r = -1;
	else if (rep->len > 0) {
		/* libwebsockets keeps what the socket does not take yet */
		buf = xmalloc(LWS_PRE + rep->len);
		memcpy(buf + LWS_PRE, rep->body, rep->len);
		if (lws_write(wsi, buf + LWS_PRE, rep->len, LWS_WRITE_HTTP_FINAL) != (int)rep->len)
			r = -1;
		free(buf);
	}
	if (rep->free_body)
		free((void *)rep->body);
	return r;
}

int
web_answer_version(struct lws *wsi)
{
	unsigned char buf[LWS_PRE + 256], *start = buf + LWS_PRE, *q = start, *end = buf + sizeof buf - 1;

	if (lws_add_http_header_status(wsi, 426, &q, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"sec-websocket-version:",
	                                (const unsigned char *)"13", 2, &q, end) ||
	    lws_add_http_header_content_length(wsi, 0, &q, end) ||
	    lws_finalize_write_http_header(wsi, start, &q, end))
		return -1;
	return 0;
}
