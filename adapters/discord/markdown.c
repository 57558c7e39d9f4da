/* markdown.c: encodes styled text as Discord Markdown (bold, escaped text, /commands, a ping) and cuts it to Discord's 2000 characters. */
#include <stdio.h>
#include <string.h>

#include "markdown.h"
#include "rbuf.h"
#include "slash.h"
#include "style.h"
#include "text.h"

struct enc {
	struct rbuf *out;
	const struct discord_md_ping *ping;
	bool bold;           /* "**" is open */
	bool line_start;     /* nothing written on this line yet */
	bool pinged;         /* the ping's span has been written as <@id> */
};

static void
set_bold(struct enc *e, bool on)
{
	if (e->bold != on)
		rbuf_add(e->out, "**");
	e->bold = on;
}

static bool
has_role(const enum style_role *roles, int depth, enum style_role r)
{
	for (int i = 0; i < depth; i++)
		if (roles[i] == r)
			return true;
	return false;
}

static void
enc_text(void *ctx, const char *s, size_t n, const enum style_role *roles, int depth)
{
	struct enc *e = ctx;
	const struct discord_md_ping *p = e->ping;
	char name[40];

	if (has_role(roles, depth, STYLE_PLAYER) && p != NULL && p->user != NULL && p->name != NULL && !e->pinged &&
	    strlen(p->name) == n && memcmp(p->name, s, n) == 0) {
		/* a mention shows the name itself, in Discord's own look */
		set_bold(e, false);
		rbuf_printf(e->out, "<@%s>", p->user);
		e->pinged = true;
		e->line_start = false;
		return;
	}
	set_bold(e, has_role(roles, depth, STYLE_BOLD) || has_role(roles, depth, STYLE_PLAYER) ||
	            has_role(roles, depth, STYLE_CLEAN));
	if (has_role(roles, depth, STYLE_COMMAND) && n < sizeof name) {
		memcpy(name, s, n);
		name[n] = '\0';
		if (discord_slash_name_ok(name)) {
			/* a code span: nothing inside it is Markdown, and it reads as a command */
			rbuf_printf(e->out, "`/%s`", name);
			e->line_start = false;
			return;
		}
	}
	if (has_role(roles, depth, STYLE_COMMAND))
		rbuf_add(e->out, "/");
	discord_text_escape_add(e->out, s, n, e->line_start && !e->bold);
	e->line_start = false;
}

static void
enc_line(void *ctx)
{
	struct enc *e = ctx;

	set_bold(e, false);
	rbuf_add(e->out, "\n");
	e->line_start = true;
}

static void
encode(struct enc *e, const char *m, size_t len)
{
	const struct style_sink sink = { .ctx = e, .text = enc_text, .line = enc_line };

	style_walk(m, len, &sink);
	set_bold(e, false);
}

void
discord_markdown_encode(struct rbuf *out, const char *m, size_t len, const struct discord_md_ping *ping)
{
	struct enc e = { .out = out, .ping = ping, .line_start = true };

	encode(&e, m, len);
}

static void
split_enc(void *ctx, struct rbuf *out, const char *m, size_t len)
{
	discord_markdown_encode(out, m, len, ctx);
}

struct pieces {
	struct rbuf all;         /* every piece, NUL-separated */
	size_t n;
};

static void
split_piece(void *ctx, const char *m, size_t len, const char *enc, size_t enclen)
{
	struct pieces *p = ctx;

	(void)m;
	(void)len;
	if (enclen == 0)
		return;
	rbuf_addn(&p->all, enc, enclen);
	rbuf_addn(&p->all, "", 1);
	p->n++;
}

size_t
discord_markdown_split(const char *m, size_t len, const struct discord_md_ping *ping,
                       void (*fn)(void *ctx, const char *content, size_t n), void *ctx)
{
	struct pieces p = { .n = 0 };
	struct rbuf last = { 0 };
	const char *s;
	char tag[40] = "";
	bool pinged = false;

	/* bytes are never fewer than UTF-16 units: a byte budget keeps Discord's
	 * count, whichever way it counts, under 2000 */
	style_split(m, len, DISCORD_MAX_CONTENT - DISCORD_MD_RESERVE, false, split_enc, (void *)ping, split_piece, &p);
	if (ping != NULL && ping->user != NULL && discord_text_snowflake(ping->user))
		snprintf(tag, sizeof tag, "<@%s>", ping->user);
	s = p.all.s;
	for (size_t i = 0; i < p.n; i++, s += strlen(s) + 1)
		if (tag[0] != '\0' && strstr(s, tag) != NULL)
			pinged = true;
	s = p.all.s;
	for (size_t i = 0; i < p.n; i++, s += strlen(s) + 1) {
		if (i + 1 == p.n && tag[0] != '\0' && !pinged) {
			rbuf_printf(&last, "%s %s", s, tag);
			fn(ctx, last.s, last.len);
		} else
			fn(ctx, s, strlen(s));
	}
	if (p.n == 0 && tag[0] != '\0') {
		/* nothing to say but the ping */
		fn(ctx, tag, strlen(tag));
		p.n = 1;
	}
	rbuf_free(&last);
	rbuf_free(&p.all);
	return p.n;
}
