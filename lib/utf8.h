/* utf8.h: UTF-8 for every floor (libc only, so the engine may use it): one decoder, one boundary cut. */
#ifndef HF_UTF8_H
#define HF_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The decoder: the length (1 to 4) of the valid UTF-8 sequence at s, with n
 * bytes available, and its code point in *cp (cp may be NULL); 0 if the bytes
 * there are not one (a stray continuation byte, an overlong form, a UTF-16
 * surrogate, a value past U+10FFFF, or a sequence cut short by n). */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);

/* True if all n bytes of s are valid UTF-8. */
bool   utf8_valid(const char *s, size_t n);

/* The boundary cut: the length of the longest prefix of s (len bytes) that
 * is at most max bytes and does not end inside a character.  0 when even the
 * first character is longer than max. */
size_t utf8_cut(const char *s, size_t len, size_t max);

/* utf8_cut, moved back to the last space if there is one in the second half
 * of max, so that words stay whole: s[result] is then that space. */
size_t utf8_cut_word(const char *s, size_t len, size_t max);

/* Code points no line from a chat service may carry into the bot or back out:
 * C0 controls and DEL, C1 controls, the line and paragraph separators
 * U+2028/9, and the bidi embeddings, overrides and isolates (U+202A..E,
 * U+2066..9), which would reorder the text around them. */
bool   utf8_hostile(uint32_t cp);

/* The one cleaner for a string a chat service hands an adapter (a message, a
 * display name): copies to out (outlen bytes, its NUL included) the text of
 * in (len bytes, or up to a NUL) with every byte that is not part of a valid
 * sequence dropped, every hostile code point (utf8_hostile: CR, LF, tabs,
 * bidi overrides...) and every run of them and of spaces written as one
 * space, no space at either end, and at most max bytes (and outlen - 1),
 * cut before the first character that would pass them.  out may be in.
 * Returns the length written. */
size_t utf8_clean(const char *in, size_t len, char *out, size_t outlen, size_t max);

/* Drops, in place, every byte of the NUL-terminated s that is not part of a
 * valid sequence (so a string cut by snprintf becomes valid again).
 * Returns the new length. */
size_t utf8_repair(char *s);

#endif
