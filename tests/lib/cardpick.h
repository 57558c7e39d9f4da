/* cardpick.h: what a quick human player discards, read from their hand as the bot shows it (the benchmarks' and end-to-end tests' people who play by hand). */
#ifndef HF_TEST_CARDPICK_H
#define HF_TEST_CARDPICK_H

#include <stddef.h>

/* A card to discard from a hand as the bot shows it ("Your hand (13): A×2 K
 * 9×3 3♣ 2 JK | ..." or "Your foot (...): ..."), as the !discard argument:
 * a black 3 ("3c"), else the rarest natural, else a 2; never a joker or a
 * red 3.  "" in out if line shows no hand or it has no such card. */
void cardpick_discard(const char *line, char *out, size_t len);

#endif
