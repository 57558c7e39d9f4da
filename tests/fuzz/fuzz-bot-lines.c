/* fuzz-bot-lines.c: libFuzzer target driving the whole bot core with hostile chat lines.
 *
 * The promise: no input from chat can crash the daemon or lose a game.  Each
 * input is a script of lines split on '\n'.  A line's first byte picks the
 * user, the room and the kind of event; the rest is the text, any bytes.
 *
 *   first byte  bits 0-1  user: alice, bob, carol, dave
 *               bits 2-3  room: #a, #b, direct, !m:x
 *               bits 4-6  0-5 message (5: addressed "HandFoot: TEXT"),
 *                         6 join (or leave if the text is empty), 7 rename to TEXT
 *               bit 7     the clock jumps 61 s after the line (reminders, timeouts)
 *
 * So printable seeds read well: "0!new duel" is alice in #a, "1!join" bob in
 * #a, "8!hand" alice directly.  After each line the clock moves 1 ms and the
 * loop runs once, so computer seats and timers fire.
 *
 * Fuzz targets are built without tests/lib, so the fake adapter is here:
 * every message it is asked to send must be well-formed styled text
 * (style_valid), and its plain encoding, cut as IRC cuts it, valid UTF-8
 * with no control character at all and lines of at most 400 bytes.  After each
 * line every game passes hf_game_check and its census equals its shoe.  Any
 * violation aborts.
 *
 * A fresh bot per input keeps every crash reproducible from its input alone;
 * an input is a whole session of play, so state still accumulates within it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "loop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_MAX_LINE 400

struct fz {
	struct loop *loop;
	struct bot *bot;
	struct adapter *ad;
	int64_t now;
	uint64_t seed;
	unsigned long sent;
	bool echo;               /* FUZZ_ECHO set: print what is sent, to triage */
};

static int64_t
fz_clock(void *ctx)
{
	return ((struct fz *)ctx)->now;
}

static uint64_t
fz_seed(void *ctx)
{
	return ((struct fz *)ctx)->seed++;
}

/* Strict UTF-8 (no overlongs, no surrogates, at most U+10FFFF) and no C0, DEL or C1 control. */
static const char *
fz_bad_text(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], cp, len, k;

		if (c < 0x20 || c == 0x7f)
			return "a control byte";
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			len = 2;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			len = 3;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4;
			cp = c & 0x07;
		} else
			return "an invalid UTF-8 lead byte";
		if (i + len > n)
			return "a truncated UTF-8 sequence";
		for (k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return "a bad UTF-8 continuation byte";
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff)
			return "an overlong or out-of-range UTF-8 sequence";
		if (cp >= 0xd800 && cp <= 0xdfff)
			return "a UTF-16 surrogate in UTF-8";
		if (cp >= 0x80 && cp <= 0x9f)
			return "a C1 control character";
		i += len;
	}
	return NULL;
}

/* The message being sent, for the encoder and the check of each line. */
struct fz_out {
	const struct adapter_msg *m;
};

static void
fz_encode(void *ctx, struct rbuf *out, const char *m, size_t len)
{
	struct fz_out *o = ctx;

	style_plain(out, m, len, o->m->prefix);
}

static void
fz_piece(void *ctx, const char *m, size_t len, const char *enc, size_t enclen)
{
	struct rbuf text = { 0 };
	const char *why;
	size_t n;

	/* encoded again here, not taken from the splitter: the check stays independent of it */
	(void)enc;
	(void)enclen;
	fz_encode(ctx, &text, m, len);
	n = text.len;
	if (n > FZ_MAX_LINE) {
		fprintf(stderr, "fuzz-bot-lines: a line of %zu bytes (max %d): %.80s...\n", n, FZ_MAX_LINE, text.s);
		abort();
	}
	if ((why = fz_bad_text((const unsigned char *)text.s, n)) != NULL) {
		fprintf(stderr, "fuzz-bot-lines: a line with %s: \"", why);
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)text.s[i];
			if (c >= 0x20 && c < 0x7f)
				fputc(c, stderr);
			else
				fprintf(stderr, "\\x%02x", c);
		}
		fprintf(stderr, "\"\n");
		abort();
	}
	rbuf_free(&text);
}

static int
fz_send(struct adapter *a, const struct adapter_msg *m)
{
	struct fz *f = a->priv;
	struct fz_out o = { m };
	const char *why;

	if (m->styled == NULL) {
		fprintf(stderr, "fuzz-bot-lines: send() with no text\n");
		abort();
	}
	if (!style_valid(m->styled, strlen(m->styled), &why)) {
		fprintf(stderr, "fuzz-bot-lines: bad styled text (%s)\n", why);
		abort();
	}
	style_split(m->styled, strlen(m->styled), FZ_MAX_LINE, true, fz_encode, &o, fz_piece, &o);
	if (m->kind != MSG_ROOM && m->kind != MSG_PRIVATE) {
		fprintf(stderr, "fuzz-bot-lines: message kind %d\n", (int)m->kind);
		abort();
	}
	if (m->kind == MSG_PRIVATE && (m->user_id == NULL || *m->user_id == '\0')) {
		fprintf(stderr, "fuzz-bot-lines: a private line to nobody\n");
		abort();
	}
	if (m->kind == MSG_ROOM && (m->room == NULL || *m->room == '\0')) {
		fprintf(stderr, "fuzz-bot-lines: a room line to no room\n");
		abort();
	}
	f->sent++;
	if (f->echo)
		fprintf(stderr, "> %s %s: %s\n", m->kind == MSG_ROOM ? "room" : "private",
		        m->kind == MSG_ROOM ? m->room : m->user_id, m->styled);
	return 0;
}

/* Plain text only: any control byte in a line is a bug. */
static const struct adapter_ops fz_ops = {
	.type = "fuzz",
	.send = fz_send,
};

static void
fz_new(struct fz *f)
{
	static const char text[] =
		"[bot]\ndatabase = :memory:\nai_delay = 0\nturn_reminder = 60\nturn_timeout = 120\n"
		"table_expiry = 600\nlog_level = err\nflood_burst = 1000\n"
		/* hard still searches, on a small budget: at the default a corpus
		 * game of hard seats takes ~30 s under the sanitizers, and the
		 * fuzzer would run ten inputs in its time */
		"ai_budget = 500\n";
	char err[512];
	struct bot_config *cfg;

	memset(f, 0, sizeof *f);
	cfg = config_load_string(text, "fuzz", err, sizeof err);
	if (cfg == NULL) {
		fprintf(stderr, "config: %s\n", err);
		abort();
	}
	log_level = cfg->log_level;
	f->loop = loop_new();
	f->now = 1000000;
	f->seed = 42;
	loop_set_clock(f->loop, fz_clock, f);
	f->bot = bot_new(f->loop, cfg, NULL, 0);
	if (f->bot == NULL) {
		fprintf(stderr, "bot: %s\n", err);
		abort();
	}
	f->bot->seed_fn = fz_seed;
	f->bot->seed_ctx = f;
	f->ad = bot_adapter_add(f->bot, &fz_ops, "fuzz", NULL, err, sizeof err);
	if (f->ad == NULL) {
		fprintf(stderr, "adapter: %s\n", err);
		abort();
	}
	f->ad->priv = f;
	if (bot_open_store(f->bot, err, sizeof err) < 0) {
		fprintf(stderr, "store: %s\n", err);
		abort();
	}
	adapter_set_self(f->ad, "HandFoot");
	f->echo = getenv("FUZZ_ECHO") != NULL;
}

static void
fz_free(struct fz *f)
{
	bot_free(f->bot);
	loop_free(f->loop);
}

static void
fz_check_games(struct fz *f)
{
	struct session *s;
	uint32_t census[HF_NCARD], shoe[HF_NCARD];
	char why[HF_ERRLEN];

	for (s = f->bot->sessions.all; s != NULL; s = s->all_next) {
		if (s->g == NULL)
			continue;
		if (!hf_game_check(s->g, why, sizeof why)) {
			fprintf(stderr, "fuzz-bot-lines: game in %s broken: %s\n", s->room, why);
			abort();
		}
		hf_game_census(s->g, census);
		hf_game_shoe(s->g, shoe);
		if (memcmp(census, shoe, sizeof census) != 0) {
			fprintf(stderr, "fuzz-bot-lines: game in %s: the cards in play differ from the shoe\n",
			        s->room);
			abort();
		}
	}
}

static void
fz_line(struct fz *f, const uint8_t *p, size_t n)
{
	static const char *const users[] = { "alice", "bob", "carol", "dave" };
	static const char *const rooms[] = { "#a", "#b", NULL, "!m:x" };
	struct bot_event ev;
	unsigned b = p[0], kind = (b >> 4) & 7;
	char *text, *addressed = NULL;

	if ((text = malloc(n)) == NULL)
		return;
	memcpy(text, p + 1, n - 1);
	text[n - 1] = '\0';     /* an embedded '\0' just ends the text early, as a C adapter would */

	memset(&ev, 0, sizeof ev);
	ev.user_id = users[b & 3];
	ev.user_name = users[b & 3];
	ev.room = rooms[(b >> 2) & 3];
	ev.direct = ev.room == NULL;
	ev.text = text;
	if (kind <= 5) {
		ev.type = BOT_EV_MESSAGE;
		if (kind == 5 && (addressed = malloc(n + 16)) != NULL) {
			snprintf(addressed, n + 16, "HandFoot: %s", text);
			ev.text = addressed;
		}
	} else if (kind == 6) {
		ev.type = *text ? BOT_EV_JOIN : BOT_EV_LEAVE;
		ev.direct = false;
		ev.text = NULL;
	} else {
		ev.type = BOT_EV_RENAME;
		ev.room = NULL;
		ev.direct = false;
		ev.user_name = text;
	}
	adapter_emit(f->ad, &ev);
	reply_flush(f->bot);
	free(addressed);
	free(text);

	f->now += (b & 0x80) ? 61000 : 1;
	loop_run_once(f->loop, 0);
	reply_flush(f->bot);
	fz_check_games(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	size_t i = 0;

	if (size > 64 * 1024)
		return 0;
	fz_new(&f);
	while (i < size) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t end = nl ? (size_t)(nl - data) : size;

		if (end > i)
			fz_line(&f, data + i, end - i);
		i = end + 1;
	}
	/* Let the computer seats and timers run on a while after the last line. */
	for (int k = 0; k < 50; k++) {
		f.now += (k % 10 == 9) ? 61000 : 1;
		loop_run_once(f.loop, 0);
		reply_flush(f.bot);
		fz_check_games(&f);
	}
	fz_free(&f);
	return 0;
}
