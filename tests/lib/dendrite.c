/* dendrite.c: starts a real Dendrite for end-to-end tests on synapse.c's helpers (see dendrite.h). */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "dendrite.h"
#include "e2e.h"

#define TPL_DIR "/HF_DENDRITE_DIR"     /* where the template's paths point */
#define TPL_SECRET "@SECRET@"

/* The binary and the template folder, absolute; -1 with s->error if not built. */
static int
installed(struct synapse *s, char *bin, size_t blen, char *tpl, size_t tlen)
{
	char advice[256];

	snprintf(advice, sizeof advice, "tools/setup-dendrite %s builds it when a Go 1.21 or newer is on the PATH "
	         "(Debian 12's golang is 1.19; Go from https://go.dev/dl/)", e2e_build());
	return synapse_find(s, "Dendrite", "bin/dendrite", "dendrite.yaml", advice, bin, blen, tpl, tlen);
}

/* text with every from replaced by to, into f. */
static void
put_replaced(FILE *f, const char *text, const char *from, const char *to)
{
	const char *p;

	while ((p = strstr(text, from)) != NULL) {
		fwrite(text, 1, (size_t)(p - text), f);
		fputs(to, f);
		text = p + strlen(from);
	}
	fputs(text, f);
}

/* The template's config with the temp dir and the secret in, and its key, in s->dir. */
static int
write_config(struct synapse *s, const char *tpl)
{
	char path[1100], out[256], *text, *secreted = NULL;
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/dendrite.yaml", tpl);
	if ((text = e2e_read_file(path)) == NULL ||
	    e2e_sh(out, sizeof out, "cp '%s/matrix_key.pem' '%s/'", tpl, s->dir) != 0) {
		snprintf(s->error, sizeof s->error, "dendrite: cannot read the template in %.900s", tpl);
		free(text);
		return -1;
	}
	/* the secret first, into memory, then the paths, to the file */
	if ((f = open_memstream(&secreted, &n)) == NULL) {
		snprintf(s->error, sizeof s->error, "dendrite: out of memory");
		free(text);
		return -1;
	}
	put_replaced(f, text, TPL_SECRET, s->secret);
	fclose(f);
	free(text);
	snprintf(path, sizeof path, "%s/dendrite.yaml", s->dir);
	if ((f = fopen(path, "w")) == NULL) {
		snprintf(s->error, sizeof s->error, "dendrite: cannot write %.900s", path);
		free(secreted);
		return -1;
	}
	put_replaced(f, secreted, TPL_DIR, s->dir);
	free(secreted);
	return fclose(f) == 0 ? 0 : -1;
}

int
dendrite_start(struct synapse *s, const char *tag, bool *missing)
{
	char bin[1024], tpl[1024], conf[300], http[64];
	const char *argv[] = { bin, "-config", conf, "-http-bind-address", http, "-https-bind-address", "", NULL };

	memset(s, 0, sizeof *s);
	snprintf(s->kind, sizeof s->kind, "dendrite");
	if (missing != NULL)
		*missing = false;
	if (installed(s, bin, sizeof bin, tpl, sizeof tpl) < 0) {
		if (missing != NULL)
			*missing = true;
		return -1;
	}
	if (synapse_prepare(s, "dendrite", tag) < 0 || write_config(s, tpl) < 0)
		return -1;
	snprintf(conf, sizeof conf, "%s/dendrite.yaml", s->dir);
	snprintf(http, sizeof http, "127.0.0.1:%d", s->port);
	return synapse_launch(s, argv);
}

int
dendrite_group_setup(void **state)
{
	struct synapse *s = calloc(1, sizeof *s);
	bool missing = false;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (s == NULL)
		return -1;
	*state = s;
	if (dendrite_start(s, program_invocation_short_name, &missing) < 0) {
		if (missing)
			return 0;      /* each test says why, and skips */
		fprintf(stderr, "%s\n", s->error);
		return -1;
	}
	return 0;
}

void
dendrite_require(const struct synapse *s)
{
	if (s->pid > 0)
		return;
	print_message("skipped: %s\n", s->error);
	skip();
}
