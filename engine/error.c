/* error.c: error codes as sentences, and the refusal helper. */
#include <stdarg.h>
#include <stdio.h>

#include "game-internal.h"
#include "utf8.h"

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

/* A refusal quotes what the player typed, cut to fit ("%.20s", or the
 * buffer's end), and a cut can split a character: utf8_repair drops any byte
 * that is not part of a whole UTF-8 sequence, so the sentence is always valid. */
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
