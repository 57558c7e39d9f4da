/* ai.c: the computer players' entry points: level names and the choice of one action from a seat's view. */
#include <ctype.h>
#include <string.h>

#include "ai.h"

static const char *const level_names[] = { "easy", "normal", "hard" };

const char *
hf_ai_level_name(int level)
{
	if (level < HF_AI_EASY || level > HF_AI_HARD)
		return "?";
	return level_names[level];
}

static bool
same_word(const char *a, const char *b)
{
	while (*a && tolower((unsigned char)*a) == *b) {
		a++;
		b++;
	}
	return !*a && !*b;
}

int
hf_ai_level_parse(const char *name)
{
	int i;

	if (!name)
		return -1;
	for (i = HF_AI_EASY; i <= HF_AI_HARD; i++)
		if (same_word(name, level_names[i]))
			return i;
	return -1;
}

void
hf_ai_choose(const struct hf_view *v, int level, uint64_t *rng, struct hf_action *out)
{
	hf_ai_decide(v, level, HF_AI_BUDGET_DEFAULT, rng, out);
}

void
hf_ai_decide(const struct hf_view *v, int level, uint32_t budget, uint64_t *rng, struct hf_action *out)
{
	switch (level) {
	case HF_AI_EASY:
		ai_easy_choose(v, rng, out);
		break;
	case HF_AI_HARD:
		ai_hard_choose(v, budget, rng, out);
		break;
	default:
		ai_normal_choose(v, rng, out);
		break;
	}
}
