/* html.c: styled text (lib/style.h) as the HTML of a Matrix message (org.matrix.custom.html). */
#include <string.h>

#include "matrix.h"

struct matrix_html_ctx {
	struct rbuf *out;
	const char *prefix;
	const char *pill_user, *pill_name;   /* the player to ping, and the name they go by */
	bool pilled;
};

static void
matrix_html_escape(struct rbuf *out, const char *s, size_t n)
{
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		const char *e = s[i] == '<'   ? "&lt;"
		                : s[i] == '>' ? "&gt;"
		                : s[i] == '&' ? "&amp;"
		                : s[i] == '"' ? "&quot;"
		                              : NULL;

		if (e == NULL)
			continue;
		rbuf_addn(out, s + run, i - run);
		rbuf_add(out, e);
		run = i + 1;
	}
	rbuf_addn(out, s + run, n - run);
}

static void
matrix_html_text(void *ctx, const char *s, size_t n, const enum style_role *roles, int depth)
{
	struct matrix_html_ctx *h = ctx;

	/* the first time the pinged player is named: a pill, the link clients
	 * show as a mention (the spec's "User and room mentions") */
	if (!h->pilled && h->pill_user != NULL && depth > 0 && roles[depth - 1] == STYLE_PLAYER &&
	    n == strlen(h->pill_name) && memcmp(s, h->pill_name, n) == 0) {
		h->pilled = true;
		rbuf_add(h->out, "<a href=\"https://matrix.to/#/");
		matrix_html_escape(h->out, h->pill_user, strlen(h->pill_user));
		rbuf_add(h->out, "\">");
		matrix_html_escape(h->out, s, n);
		rbuf_add(h->out, "</a>");
		return;
	}
	matrix_html_escape(h->out, s, n);
}

/* The tag a role opens, or NULL: cards, players and commands read as text. */
static const char *
matrix_html_tag(enum style_role r)
{
	switch (r) {
	case STYLE_BOLD: return "<b>";
	case STYLE_CLEAN:
	/* the spec's colour attribute (<font> is deprecated: some clients strip it) */
	case STYLE_RED: return "<span data-mx-color=\"#cc0000\">";
	case STYLE_DIRTY: return "<span data-mx-color=\"#555555\">";
	default: return NULL;
	}
}

static void
matrix_html_open(void *ctx, enum style_role r)
{
	struct matrix_html_ctx *h = ctx;
	const char *tag = matrix_html_tag(r);

	if (tag != NULL)
		rbuf_add(h->out, tag);
	if (r == STYLE_COMMAND && h->prefix != NULL)
		matrix_html_escape(h->out, h->prefix, strlen(h->prefix));
}

static void
matrix_html_close(void *ctx, enum style_role r)
{
	struct matrix_html_ctx *h = ctx;

	if (r == STYLE_BOLD)
		rbuf_add(h->out, "</b>");
	else if (matrix_html_tag(r) != NULL)
		rbuf_add(h->out, "</span>");
}

static void
matrix_html_line(void *ctx)
{
	rbuf_add(((struct matrix_html_ctx *)ctx)->out, "<br>");
}

void
matrix_html(struct rbuf *out, const char *m, size_t len, const char *prefix)
{
	matrix_html_pill(out, m, len, prefix, NULL, NULL);
}

void
matrix_html_pill(struct rbuf *out, const char *m, size_t len, const char *prefix, const char *user, const char *name)
{
	struct matrix_html_ctx h = { out, prefix, user, name, false };
	struct style_sink k = { .ctx = &h,
		                .text = matrix_html_text,
		                .open = matrix_html_open,
		                .close = matrix_html_close,
		                .line = matrix_html_line };

	rbuf_addn(out, "", 0);
	style_walk(m, len, &k);
}
