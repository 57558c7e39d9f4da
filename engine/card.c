/* card.c: card kinds, their names, parsing and values. */
#include <ctype.h>
#include <string.h>

#include "game-internal.h"

static const char *const names[HF_NCARD] = {
	"?", "3h", "2", "3c", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK"
};

static const char *const plurals[HF_NCARD] = {
	"?", "red 3s", "2s", "black 3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s",
	"jacks", "queens", "kings", "aces", "jokers"
};

bool hf_card_is_wild(int card)
{
	return card == HF_TWO || card == HF_JOKER;
}

bool hf_card_is_natural(int card)
{
	return card >= HF_FOUR && card <= HF_ACE;
}

const char *hf_card_name(int card)
{
	return card > 0 && card < HF_NCARD ? names[card] : names[0];
}

const char *card_plural(int card)
{
	return card > 0 && card < HF_NCARD ? plurals[card] : plurals[0];
}

/* A suit may follow the rank: a letter (h d c s) or a UTF-8 suit symbol. */
static int suit_of(const char *s, size_t len)
{
	static const char *const red[] = { "h", "d", "\xe2\x99\xa5", "\xe2\x99\xa6", "\xe2\x99\xa1", "\xe2\x99\xa2" };
	static const char *const black[] = { "c", "s", "\xe2\x99\xa3", "\xe2\x99\xa0", "\xe2\x99\xa7", "\xe2\x99\xa4" };
	if (len == 0)
		return 0;
	for (size_t i = 0; i < sizeof red / sizeof red[0]; i++) {
		if (strlen(red[i]) == len && strncasecmp(s, red[i], len) == 0)
			return 1;
		if (strlen(black[i]) == len && strncasecmp(s, black[i], len) == 0)
			return 2;
	}
	return -1;
}

int hf_card_parse(const char *t, size_t len)
{
	int rank;
	size_t used;

	if (len == 0 || t == NULL)
		return HF_NOCARD;
	if ((len == 2 && strncasecmp(t, "jk", 2) == 0) || (len == 5 && strncasecmp(t, "joker", 5) == 0) ||
	    (len == 1 && t[0] == '*'))
		return HF_JOKER;
	if (len >= 2 && t[0] == '1' && t[1] == '0') {
		rank = HF_TEN;
		used = 2;
	} else {
		used = 1;
		switch (toupper((unsigned char)t[0])) {
		case 'A': rank = HF_ACE; break;
		case 'K': rank = HF_KING; break;
		case 'Q': rank = HF_QUEEN; break;
		case 'J': rank = HF_JACK; break;
		case 'T': rank = HF_TEN; break;
		case '2': rank = HF_TWO; break;
		case '3': rank = HF_BLACK3; break;
		case '4': case '5': case '6': case '7': case '8': case '9':
			rank = HF_FOUR + (t[0] - '4');
			break;
		default:
			return HF_NOCARD;
		}
	}
	int suit = suit_of(t + used, len - used);
	if (suit < 0)
		return HF_NOCARD;
	if (rank == HF_BLACK3 && suit == 1)
		return HF_RED3;
	return rank;
}

int card_value(const struct hf_rules *r, int card)
{
	return card > 0 && card < HF_NCARD ? r->value[card] : 0;
}

int cards_value(const struct hf_rules *r, const uint8_t count[HF_NCARD])
{
	int v = 0;
	for (int c = 1; c < HF_NCARD; c++)
		v += count[c] * r->value[c];
	return v;
}

int cards_total(const uint8_t count[HF_NCARD])
{
	int n = 0;
	for (int c = 1; c < HF_NCARD; c++)
		n += count[c];
	return n;
}
