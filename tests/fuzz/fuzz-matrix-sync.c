/* fuzz-matrix-sync.c: libFuzzer target for the Matrix /sync response parser and the text cleaner it relies on. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "matrix/matrix.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct matrix_sync s;
	const char *why = NULL;
	char out[MATRIX_MAX_IN + 1];

	for (int initial = 0; initial < 2; initial++) {
		if (matrix_sync_parse((const char *)data, size, "@bot:hs", initial != 0, &s, &why) == 0) {
			/* every string handed on must be clean: check the invariant */
			for (size_t i = 0; i < s.nitems; i++) {
				const char *t = s.items[i].text;

				if (t != NULL && (strlen(t) > MATRIX_MAX_IN || strpbrk(t, "\r\n\t") != NULL))
					__builtin_trap();
				if (s.items[i].room != NULL && !matrix_text_id_ok(s.items[i].room, '!'))
					__builtin_trap();
			}
		}
		matrix_sync_free(&s);
	}
	utf8_clean((const char *)data, size, out, sizeof out, MATRIX_MAX_IN);
	return 0;
}
