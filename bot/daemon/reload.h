/* reload.h: SIGHUP: re-reading the configuration into a running bot without losing a game. */
#ifndef HF_RELOAD_H
#define HF_RELOAD_H

#include <stddef.h>

struct bot;

/* Loads path and checks all of it (the [bot] keys, every adapter section
 * through its init, unknown keys) before touching the bot; if anything is
 * wrong, returns -1 with err and the configuration in force stays.
 * Otherwise applies it and returns 0: [bot] keys take effect at once (the
 * database excepted: it needs a restart), adapters added are started,
 * removed ones are stopped (their games stay in the database and come back
 * with the adapter), changed ones are reconnected, the rest are untouched.
 * Games live on in their sessions throughout. */
int reload_config(struct bot *b, const char *path, char *err, size_t errlen);

#endif
