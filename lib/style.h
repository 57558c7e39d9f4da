/* style.h: styled text, the one markup the core hands every adapter: its roles, a walker, a plain encoder, a splitter. */
#ifndef HF_STYLE_H
#define HF_STYLE_H

#include <stdbool.h>
#include <stddef.h>

#include "rbuf.h"

/*
 * Styled text is UTF-8 text with in-band marks.  A mark is one control byte:
 * the byte of a role opens it, STYLE_END closes the innermost open role, and
 * a line break ends the line and closes every role still open.  Roles nest
 * (at most STYLE_MAX_DEPTH deep).  The marks never reach a wire: each
 * adapter encodes them for its service (mIRC codes, HTML, ANSI, Markdown...)
 * or drops them, and they never come in either: the core strips every
 * control byte from what a chat service gives it, so no player can forge one.
 *
 * The roles, and how an adapter shows them:
 *   STYLE_BOLD     emphasis (headings "Round 2", totals, "Game over"): bold
 *   STYLE_CARD     one card's name ("K", "3♥", "JK"): as the text, or a
 *                  card-like look where the service has one
 *   STYLE_PLAYER   a player's name: as the text (IRC clients highlight a
 *                  nick only when nothing is wrapped around it), or bold
 *   STYLE_CLEAN    a clean canasta: red
 *   STYLE_DIRTY    a dirty canasta: dark grey
 *   STYLE_RED      red things (red threes, a sevens canasta): red
 *   STYLE_COMMAND  a bare command name ("draw"): shown with the command
 *                  prefix in force ("!draw" on IRC and Matrix, "/draw" on
 *                  Discord, "draw" on the console)
 *   line break     "\n": a new line (IRC: a new message line; Matrix:
 *                  "<br>" in the HTML, "\n" in the plain body)
 *   part break     STYLE_SEP: between two parts of one message that each
 *                  read alone (the turns of several players): a line break
 *                  for everything here but style_pack, which an adapter
 *                  whose lines are its budget (IRC) uses to join parts into
 *                  as few lines as fit
 * A colour role inside another colour role wins for its text.
 */
enum style_role {
	STYLE_BOLD = 1,
	STYLE_CARD,
	STYLE_PLAYER,
	STYLE_CLEAN,
	STYLE_DIRTY,
	STYLE_RED,
	STYLE_COMMAND,
	STYLE_NROLES
};
#define STYLE_END       0x0f
#define STYLE_SEP       0x0b
#define STYLE_MAX_DEPTH 8

/* The marks as string literals, to write styled text:
 *   "The 9s close: " ST_CLEAN "a clean canasta" ST_END "!" */
#define ST_BOLD    "\x01"
#define ST_CARD    "\x02"
#define ST_PLAYER  "\x03"
#define ST_CLEAN   "\x04"
#define ST_DIRTY   "\x05"
#define ST_RED     "\x06"
#define ST_COMMAND "\x07"
#define ST_END     "\x0f"
#define ST_BR      "\n"
#define ST_SEP     "\x0b"

/* What an encoder is told, in order, as style_walk reads styled text. */
struct style_sink {
	void *ctx;
	/* A run of text (no mark, no line break in it) under the roles open,
	 * outermost first. */
	void (*text)(void *ctx, const char *s, size_t n, const enum style_role *roles, int depth);
	/* Optional: a role opens, or closes (every open role is closed once,
	 * innermost first, at a line break and at the end). */
	void (*open)(void *ctx, enum style_role role);
	void (*close)(void *ctx, enum style_role role);
	/* Optional: a line break. */
	void (*line)(void *ctx);
};

/* How text under a stack of roles looks, for encoders with one state at a
 * time (mIRC codes, ANSI): bold or not, and the colour of the innermost
 * colour role, as STYLE_RED (STYLE_CLEAN, STYLE_RED: red) or STYLE_DIRTY
 * (dark grey); 0 if none. */
struct style_look {
	bool bold;
	enum style_role colour;
};
struct style_look style_look(const enum style_role *roles, int depth);
bool   style_look_same(struct style_look a, struct style_look b);

/* Reads len bytes of styled text, telling sink what it holds.  A part break
 * (STYLE_SEP) is a line break.  A stray STYLE_END, a role past
 * STYLE_MAX_DEPTH (and its STYLE_END) and any other control byte are
 * skipped. */
void   style_walk(const char *m, size_t len, const struct style_sink *sink);

/* The plain encoding, appended to out: the text, each command with prefix
 * before it (prefix may be NULL), line breaks as "\n", no marks. */
void   style_plain(struct rbuf *out, const char *m, size_t len, const char *prefix);

/* True if m is well-formed styled text: valid UTF-8, no control byte but the
 * marks and line breaks, every STYLE_END closing a role, nothing nested past
 * STYLE_MAX_DEPTH.  (Roles left open at a line break or the end are
 * allowed: they close there.)  On false, *why (if not NULL) says what. */
bool   style_valid(const char *m, size_t len, const char **why);

/* An adapter's encoder: appends the encoding of len bytes of styled text. */
typedef void style_encode_fn(void *ctx, struct rbuf *out, const char *m, size_t len);
/* Called with each piece: styled text again (m, len bytes), its own roles
 * opened and closed, and its encoding by the splitter's encoder (NUL-terminated,
 * enclen bytes): most adapters send that as it is. */
typedef void style_piece_fn(void *ctx, const char *m, size_t len, const char *enc, size_t enclen);

/* The mark between the clauses of one line (" · " in "discarded 7 · pile
 * 7, 1 card · alice: your turn"): style_split cuts after one by
 * preference. */
#define STYLE_CLAUSE " \xc2\xb7"

/* Cuts styled text into pieces whose encoding by enc is at most max bytes
 * (max below 16 counts as 16), and calls fn with each, in order.  A cut never
 * falls inside a character or a command; it falls after a clause mark
 * (STYLE_CLAUSE and a space) in the second half of the piece where there is
 * one, else at a space in the second half where there is one (the spaces at
 * the cut are dropped),
 * and roles open at a cut are closed at the end of one piece and opened again
 * at the start of the next.  With lines, every line break ends a piece and is
 * in none (empty lines are skipped): one piece per line at least, as IRC
 * wants.  Without, line breaks stay inside pieces, and a piece too long is
 * cut at its last line break first: as few pieces as fit, as Matrix wants. */
void   style_split(const char *m, size_t len, size_t max, bool lines, style_encode_fn *enc, void *ectx,
                   style_piece_fn *fn, void *ctx);

/* Joins the parts of styled text (what part breaks separate) into as few
 * lines as fit: appends to out the text with each part break between two
 * parts that fit one line together (their encoding by enc at most max bytes,
 * joiner between them) written as joiner (styled text, " | "), and every
 * other part break as a line break.  Line breaks stay; a part too long for a
 * line alone stays alone (style_split cuts it).  Then style_split(lines). */
void   style_pack(struct rbuf *out, const char *m, size_t len, size_t max, const char *joiner,
                  style_encode_fn *enc, void *ectx);

#endif
