/* style.c: styled text: walking its marks for an encoder, the plain encoding, checking it, cutting it to a budget. */
#include <string.h>

#include "style.h"
#include "utf8.h"

static bool
style_is_role(unsigned char c)
{
	return c > 0 && c < STYLE_NROLES;
}

/* A line break, or a part break (which is one for all but style_pack). */
static bool
style_is_break(unsigned char c)
{
	return c == '\n' || c == STYLE_SEP;
}

/* A byte of text: not a mark, not a line break, not another control. */
static bool
style_is_text(unsigned char c)
{
	return c >= 0x20 && c != 0x7f;
}

/* The roles open after one mark or line break; *over counts the roles
 * opened past the depth limit, whose STYLE_END must be skipped too. */
struct style_stack {
	enum style_role role[STYLE_MAX_DEPTH];
	int depth, over;
};

/* Applies the control byte c to st; the role opened or closed in *r (0 if none). */
static void
style_step(struct style_stack *st, unsigned char c, enum style_role *opened, enum style_role *closed)
{
	*opened = *closed = 0;
	if (style_is_role(c)) {
		if (st->depth == STYLE_MAX_DEPTH)
			st->over++;
		else
			*opened = st->role[st->depth++] = (enum style_role)c;
	} else if (c == STYLE_END) {
		if (st->over > 0)
			st->over--;
		else if (st->depth > 0)
			*closed = st->role[--st->depth];
	}
}

static void
style_close_all(struct style_stack *st, const struct style_sink *k)
{
	while (st->depth > 0) {
		st->depth--;
		if (k->close != NULL)
			k->close(k->ctx, st->role[st->depth]);
	}
	st->over = 0;
}

void
style_walk(const char *m, size_t len, const struct style_sink *k)
{
	struct style_stack st = { .depth = 0 };
	enum style_role opened, closed;
	size_t i = 0, start;

	while (i < len) {
		unsigned char c = (unsigned char)m[i];

		if (style_is_text(c)) {
			for (start = i; i < len && style_is_text((unsigned char)m[i]); i++)
				;
			k->text(k->ctx, m + start, i - start, st.role, st.depth);
			continue;
		}
		i++;
		if (style_is_break(c)) {
			style_close_all(&st, k);
			if (k->line != NULL)
				k->line(k->ctx);
			continue;
		}
		style_step(&st, c, &opened, &closed);
		if (opened && k->open != NULL)
			k->open(k->ctx, opened);
		if (closed && k->close != NULL)
			k->close(k->ctx, closed);
	}
	style_close_all(&st, k);
}

struct style_look
style_look(const enum style_role *roles, int depth)
{
	struct style_look k = { false, 0 };
	int i;

	for (i = 0; i < depth; i++) {
		if (roles[i] == STYLE_BOLD)
			k.bold = true;
		else if (roles[i] == STYLE_CLEAN || roles[i] == STYLE_RED)
			k.colour = STYLE_RED;
		else if (roles[i] == STYLE_DIRTY)
			k.colour = STYLE_DIRTY;
	}
	return k;
}

bool
style_look_same(struct style_look a, struct style_look b)
{
	return a.bold == b.bold && a.colour == b.colour;
}

/* ------------------------------------------------------------------ plain */

struct style_plain_ctx {
	struct rbuf *out;
	const char *prefix;
};

static void
plain_text(void *ctx, const char *s, size_t n, const enum style_role *roles, int depth)
{
	(void)roles;
	(void)depth;
	rbuf_addn(((struct style_plain_ctx *)ctx)->out, s, n);
}

static void
plain_open(void *ctx, enum style_role role)
{
	struct style_plain_ctx *p = ctx;

	if (role == STYLE_COMMAND && p->prefix != NULL)
		rbuf_add(p->out, p->prefix);
}

static void
plain_line(void *ctx)
{
	rbuf_add(((struct style_plain_ctx *)ctx)->out, "\n");
}

void
style_plain(struct rbuf *out, const char *m, size_t len, const char *prefix)
{
	struct style_plain_ctx p = { out, prefix };
	struct style_sink k = { .ctx = &p, .text = plain_text, .open = plain_open, .line = plain_line };

	/* an empty message is "" too, never NULL */
	rbuf_addn(out, "", 0);
	style_walk(m, len, &k);
}

/* ------------------------------------------------------------------ checking */

bool
style_valid(const char *m, size_t len, const char **why)
{
	struct style_stack st = { .depth = 0 };
	enum style_role opened, closed;
	size_t i = 0, k;
	uint32_t cp;
	const char *dummy;

	if (why == NULL)
		why = &dummy;
	while (i < len) {
		if ((k = utf8_decode(m + i, len - i, &cp)) == 0) {
			*why = "invalid UTF-8";
			return false;
		}
		i += k;
		if (cp < 0x80 && style_is_break((unsigned char)cp)) {
			st.depth = 0;
			continue;
		}
		if (style_is_role((unsigned char)cp) || cp == STYLE_END) {
			if (style_is_role((unsigned char)cp) && st.depth == STYLE_MAX_DEPTH) {
				*why = "roles nested too deep";
				return false;
			}
			if (cp == STYLE_END && st.depth == 0) {
				*why = "a STYLE_END with no role open";
				return false;
			}
			style_step(&st, (unsigned char)cp, &opened, &closed);
			continue;
		}
		if (utf8_hostile(cp)) {
			*why = "a control character that is not a mark";
			return false;
		}
	}
	return true;
}

/* ------------------------------------------------------------------ splitting */

struct style_cutter {
	const char *m; /* what is left to cut */
	size_t len;
	struct style_stack open; /* the roles open at m[0] */
	size_t max;
	style_encode_fn *enc;
	void *ectx;
	struct rbuf piece, coded;
};

/* The roles open after m[0..n) (from those open at m[0]); *cmd gets where
 * the innermost open command starts (its mark), or n if none is open. */
static struct style_stack
cutter_stack(const struct style_cutter *c, size_t n, size_t *cmd)
{
	struct style_stack st = c->open;
	size_t at[STYLE_MAX_DEPTH], i;
	enum style_role opened, closed;

	for (i = 0; i < STYLE_MAX_DEPTH; i++)
		at[i] = 0; /* roles open from an earlier piece started before m */
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)c->m[i];

		if (style_is_text(ch))
			continue;
		if (style_is_break(ch)) {
			st.depth = st.over = 0;
			continue;
		}
		style_step(&st, ch, &opened, &closed);
		if (opened)
			at[st.depth - 1] = i;
	}
	*cmd = n;
	for (i = (size_t)st.depth; i-- > 0;)
		if (st.role[i] == STYLE_COMMAND) {
			*cmd = at[i];
			break;
		}
	return st;
}

/* The piece m[0..n) into c->piece: the roles open at m opened again, its own
 * text, every role open at its end closed. */
static void
cutter_build(struct style_cutter *c, size_t n)
{
	struct style_stack st;
	size_t cmd;
	int i;

	rbuf_reset(&c->piece);
	rbuf_addn(&c->piece, "", 0);
	for (i = 0; i < c->open.depth; i++) {
		char r = (char)c->open.role[i];

		rbuf_addn(&c->piece, &r, 1);
	}
	rbuf_addn(&c->piece, c->m, n);
	st = cutter_stack(c, n, &cmd);
	for (i = 0; i < st.depth; i++)
		rbuf_add(&c->piece, ST_END);
}

static bool
cutter_fits(struct style_cutter *c, size_t n)
{
	cutter_build(c, n);
	rbuf_reset(&c->coded);
	c->enc(c->ectx, &c->coded, c->piece.s, c->piece.len);
	return c->coded.len <= c->max;
}

/* n moved back to the start of the character m[n] is in. */
static size_t
cutter_boundary(const struct style_cutter *c, size_t n)
{
	return utf8_cut(c->m, c->len, n);
}

/* The length of the character (or mark) at m[at]; 1 for a byte that is not one. */
static size_t
cutter_char(const struct style_cutter *c, size_t at)
{
	size_t k = utf8_decode(c->m + at, c->len - at, NULL);

	return k > 0 ? k : 1;
}

/* The last space in the second half of m[0..cut], after a clause mark
 * (STYLE_CLAUSE) if clause; 0 if none. */
static size_t
cutter_space(const struct style_cutter *c, size_t cut, bool clause)
{
	for (size_t q = cut; q > cut / 2; q--)
		if (c->m[q] == ' ' && (!clause || (q >= 3 && memcmp(c->m + q - 3, STYLE_CLAUSE, 3) == 0)))
			return q;
	return 0;
}

/* Where the next piece ends: the longest that fits, then moved back to a
 * line break or a space, and out of a command. */
static size_t
cutter_next(struct style_cutter *c, bool lines)
{
	size_t lo = 0, hi = c->len, mid, cut, q, cmd;
	struct style_stack st;

	/* the longest prefix that fits, on a character boundary: fits(lo) holds
	 * (nothing at all), fits(hi) does not (everything) */
	while (hi - lo > 1) {
		mid = cutter_boundary(c, lo + (hi - lo) / 2);
		if (mid <= lo)
			mid = lo + cutter_char(c, lo);
		if (mid >= hi)
			break;
		if (cutter_fits(c, mid))
			lo = mid;
		else
			hi = mid;
	}
	cut = lo;
	if (cut == 0)
		return cutter_char(c, 0); /* not even one character fits: one goes all the same */
	q = cut;
	if (!lines) {
		while (q > 0 && !style_is_break((unsigned char)c->m[q]))
			q--;
		while (q > 0 && style_is_break((unsigned char)c->m[q - 1]))
			q--; /* an empty line at a cut goes too */
	}
	if (q == 0 || lines) {
		/* after a clause mark (" · ") where there is one in the second
		 * half: a clause, the prompt at a turn line's end above all
		 * ("alice: your turn (!draw or !pickup)"), goes whole to the
		 * next piece; else at a space */
		if ((q = cutter_space(c, cut, true)) == 0 && (q = cutter_space(c, cut, false)) == 0)
			q = cut;
	}
	/* a command is never cut in two: "!dr" "!aw" would mean nothing */
	st = cutter_stack(c, q, &cmd);
	(void)st;
	if (cmd < q && cmd > 0)
		q = cmd;
	/* opening marks go with the text they open */
	while (q > 0 && style_is_role((unsigned char)c->m[q - 1]))
		q--;
	if (q == 0)
		q = cut;
	/* closing marks go with the text they close */
	while (q < c->len && (unsigned char)c->m[q] == STYLE_END)
		q++;
	return q;
}

/* One line (lines) or the whole text, cut into pieces for fn. */
static void
cutter_run(struct style_cutter *c, bool lines, style_piece_fn *fn, void *ctx)
{
	size_t cut, cmd;

	c->open.depth = c->open.over = 0;
	while (c->len > 0) {
		if (cutter_fits(c, c->len)) {
			fn(ctx, c->piece.s, c->piece.len, c->coded.s, c->coded.len);
			return;
		}
		cut = cutter_next(c, lines);
		cutter_fits(c, cut); /* builds and encodes the piece */
		fn(ctx, c->piece.s, c->piece.len, c->coded.s, c->coded.len);
		c->open = cutter_stack(c, cut, &cmd);
		c->m += cut;
		c->len -= cut;
		/* what a cut leaves at the start of the next piece: line breaks
		 * (which close every role) and spaces */
		while (c->len > 0 && (style_is_break((unsigned char)c->m[0]) || c->m[0] == ' ')) {
			if (c->m[0] != ' ')
				c->open.depth = c->open.over = 0;
			c->m++;
			c->len--;
		}
	}
}

/* True if m[0..n) has something to show: a byte of text other than a space. */
static bool
style_has_text(const char *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (m[i] != ' ' && style_is_text((unsigned char)m[i]))
			return true;
	return false;
}

void
style_split(const char *m, size_t len, size_t max, bool lines, style_encode_fn *enc, void *ectx, style_piece_fn *fn,
            void *ctx)
{
	struct style_cutter c;
	const char *nl;
	size_t n;

	memset(&c, 0, sizeof c);
	c.max = max < 16 ? 16 : max;
	c.enc = enc;
	c.ectx = ectx;
	if (!lines) {
		/* no leading or trailing empty lines */
		while (len > 0 && (style_is_break((unsigned char)m[0]) || m[0] == ' ')) {
			m++;
			len--;
		}
		while (len > 0 && style_is_break((unsigned char)m[len - 1]))
			len--;
		if (style_has_text(m, len)) {
			c.m = m;
			c.len = len;
			cutter_run(&c, false, fn, ctx);
		}
	} else {
		while (len > 0) {
			for (n = 0; n < len && !style_is_break((unsigned char)m[n]); n++)
				;
			nl = n < len ? m + n : NULL;
			if (style_has_text(m, n)) {
				c.m = m;
				c.len = n;
				while (c.len > 0 && c.m[0] == ' ') {
					c.m++;
					c.len--;
				}
				cutter_run(&c, true, fn, ctx);
			}
			m += n + (nl != NULL);
			len -= n + (nl != NULL);
		}
	}
	rbuf_free(&c.piece);
	rbuf_free(&c.coded);
}

/* ------------------------------------------------------------------ packing */

/* The roles still open at the end of m[0..len). */
static int
style_open_depth(const char *m, size_t len)
{
	struct style_stack st = { .depth = 0 };
	enum style_role opened, closed;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)m[i];

		if (style_is_break(c))
			st.depth = st.over = 0;
		else if (!style_is_text(c))
			style_step(&st, c, &opened, &closed);
	}
	return st.depth;
}

void
style_pack(struct rbuf *out, const char *m, size_t len, size_t max, const char *joiner, style_encode_fn *enc,
           void *ectx)
{
	struct rbuf line = { 0 }, cand = { 0 }, coded = { 0 };
	size_t i = 0, j;

	rbuf_addn(out, "", 0);
	while (i < len) {
		for (j = i; j < len && !style_is_break((unsigned char)m[j]); j++)
			;
		if (style_has_text(m + i, j - i)) {
			if (line.len == 0) {
				rbuf_addn(&line, m + i, j - i);
			} else {
				/* a part break closed every role: so does the joiner's place */
				rbuf_reset(&cand);
				rbuf_addn(&cand, line.s, line.len);
				for (int d = style_open_depth(line.s, line.len); d > 0; d--)
					rbuf_add(&cand, ST_END);
				rbuf_add(&cand, joiner);
				rbuf_addn(&cand, m + i, j - i);
				rbuf_reset(&coded);
				enc(ectx, &coded, cand.s, cand.len);
				if (coded.len <= max) {
					rbuf_reset(&line);
					rbuf_addn(&line, cand.s, cand.len);
				} else {
					rbuf_addn(out, line.s, line.len);
					rbuf_add(out, "\n");
					rbuf_reset(&line);
					rbuf_addn(&line, m + i, j - i);
				}
			}
		}
		/* a line break ends the line whatever fits after it */
		if (j < len && m[j] == '\n' && line.len > 0) {
			rbuf_addn(out, line.s, line.len);
			rbuf_add(out, "\n");
			rbuf_reset(&line);
		}
		i = j + 1;
	}
	if (line.len > 0)
		rbuf_addn(out, line.s, line.len);
	rbuf_free(&line);
	rbuf_free(&cand);
	rbuf_free(&coded);
}
