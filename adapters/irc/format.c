/* format.c: styled text (lib/style.h) as an IRC line: mIRC bold and colour codes, or plain text. */
#include <string.h>

#include "irc.h"

#define IRC_BOLD   "\x02"
#define IRC_COLOUR "\x03"
#define IRC_RESET  "\x0f"

struct irc_format {
	struct rbuf *out;
	const char *prefix;
	struct style_look look; /* what the codes written so far show */
	bool coloured;          /* the last thing written is a colour code */
	bool command;           /* a command opened: its prefix goes before its text */
};

static const char *
irc_format_colour(enum style_role r)
{
	/* mIRC colour numbers: 04 red, 14 grey */
	return r == STYLE_RED ? "04" : "14";
}

static void
irc_format_text(void *ctx, const char *s, size_t n, const enum style_role *roles, int depth)
{
	struct irc_format *f = ctx;
	struct style_look want = style_look(roles, depth);

	if (!style_look_same(want, f->look)) {
		/* one reset, then what is wanted: simpler than toggling, and as short */
		if (f->look.bold || f->look.colour)
			rbuf_add(f->out, IRC_RESET);
		if (want.bold)
			rbuf_add(f->out, IRC_BOLD);
		f->coloured = false;
		if (want.colour) {
			rbuf_add(f->out, IRC_COLOUR);
			rbuf_add(f->out, irc_format_colour(want.colour));
			f->coloured = true;
		}
		f->look = want;
	}
	if (f->command) {
		f->command = false;
		rbuf_add(f->out, f->prefix);
		f->coloured = false;
	}
	/* "\x0304,5" would read as red on colour 5: a comma right after a colour
	 * code is kept apart by an empty bold pair */
	if (f->coloured && n > 0 && s[0] == ',')
		rbuf_add(f->out, IRC_BOLD IRC_BOLD);
	f->coloured = false;
	rbuf_addn(f->out, s, n);
}

static void
irc_format_open(void *ctx, enum style_role role)
{
	struct irc_format *f = ctx;

	if (role == STYLE_COMMAND && f->prefix[0] != '\0')
		f->command = true;
}

static void
irc_format_line(void *ctx)
{
	/* an IRC line holds no line break: a piece never has one, but be sure */
	rbuf_add(((struct irc_format *)ctx)->out, " ");
}

void
irc_format(struct rbuf *out, const char *m, size_t len, const char *prefix, bool colors)
{
	struct irc_format f;
	struct style_sink k = { .ctx = &f, .text = irc_format_text, .open = irc_format_open, .line = irc_format_line };

	if (!colors) {
		style_plain(out, m, len, prefix);
		return;
	}
	memset(&f, 0, sizeof f);
	f.out = out;
	f.prefix = prefix != NULL ? prefix : "";
	rbuf_addn(out, "", 0);
	style_walk(m, len, &k);
	if (f.look.bold || f.look.colour)
		rbuf_add(out, IRC_RESET);
}
