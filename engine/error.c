/* error.c: error codes as sentences, and the refusal helper. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "game-internal.h"

const char *hf_strerror(enum hf_err err)
{
	switch (err) {
	case HF_OK: return "ok";
	case HF_E_SYNTAX: return "that move could not be read";
	case HF_E_RULES: return "those rules or that table are not allowed";
	case HF_E_NOT_TURN: return "it is not your turn";
	case HF_E_PHASE: return "you cannot do that at this point of the turn";
	case HF_E_NO_CARDS: return "you do not hold those cards";
	case HF_E_PILE: return "you cannot take the discard pile";
	case HF_E_MELD: return "that meld is not allowed";
	case HF_E_OPENING: return "your opening meld is short of the minimum";
	case HF_E_DISCARD: return "that card cannot be discarded";
	case HF_E_GO_OUT: return "you cannot go out yet";
	case HF_E_ASK: return "there is nothing to ask or answer now";
	case HF_E_OVER: return "the game is over";
	}
	return "unknown error";
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if it is not one. */
static size_t utf8_seq(const unsigned char *s)
{
	size_t n;
	unsigned min;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, min = 0x80, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, min = 0x800, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, min = 0x10000, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	bool ok = cp >= min && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
	return ok ? n : 0;
}

/* A refusal quotes what the player typed, cut to fit ("%.20s", or the
 * buffer's end), and a cut can split a character: drop any byte that is
 * not part of a whole UTF-8 sequence, so the sentence is always valid. */
static void utf8_repair(char *s)
{
	unsigned char *r = (unsigned char *)s, *w = r;

	while (*r != '\0') {
		size_t n = utf8_seq(r);
		if (n == 0) {
			r++;
			continue;
		}
		while (n-- > 0)
			*w++ = *r++;
	}
	*w = '\0';
}

enum hf_err hf_fail(enum hf_err err, char *why, size_t len, const char *fmt, ...)
{
	if (why != NULL && len > 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
		utf8_repair(why);
	}
	return err;
}
