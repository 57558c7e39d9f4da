/* fuzz-action-parse.c: libFuzzer target: chat text into the engine's action and house-rule parsers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "handfoot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[600], why[HF_ERRLEN], canon[1024], again[1024];
	struct hf_action a, b;
	struct hf_rules r;

	if (size >= sizeof text)
		size = sizeof text - 1;
	memcpy(text, data, size);
	text[size] = '\0';

	/* An action that parses formats to a canonical text that parses to the same action. */
	memset(&a, 0, sizeof a);
	if (hf_action_parse(&a, text, why, sizeof why) == HF_OK) {
		memset(&b, 0, sizeof b);
		hf_action_format(&a, canon, sizeof canon);
		if (hf_action_parse(&b, canon, why, sizeof why) != HF_OK)
			abort();
		hf_action_format(&b, again, sizeof again);
		if (strcmp(canon, again) != 0)
			abort();
	}
	/* House rules: refused or applied, and what applies formats back to itself. */
	memset(&r, 0, sizeof r);
	if (hf_rules_parse(&r, text, why, sizeof why) == HF_OK) {
		struct hf_rules r2;

		hf_rules_format(&r, canon, sizeof canon);
		memset(&r2, 0, sizeof r2);
		if (hf_rules_parse(&r2, canon, why, sizeof why) != HF_OK)
			abort();
		hf_rules_format(&r2, again, sizeof again);
		if (strcmp(canon, again) != 0)
			abort();
	}
	return 0;
}
