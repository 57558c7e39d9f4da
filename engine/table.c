/* table.c: the table a rule set allows: player counts, sides, and which side each seat plays for. */
#include "handfoot.h"

/* Whether the rules deal to nplayers as nsides sides (0: their default); no sentence. */
static bool
table_fits(const struct hf_rules *r, int nplayers, int nsides)
{
	char why[HF_ERRLEN];

	return nplayers >= 2 && nplayers <= HF_MAX_SEATS &&
	       hf_rules_check_table(r, nplayers, nsides, why, sizeof why) == HF_OK;
}

bool
hf_rules_count_ok(const struct hf_rules *r, int nplayers)
{
	return nplayers >= 2 && nplayers <= HF_MAX_SEATS && r->sides_default[nplayers] > 0 && table_fits(r, nplayers, 0);
}

int
hf_rules_min_players(const struct hf_rules *r)
{
	for (int n = 2; n <= HF_MAX_SEATS; n++)
		if (hf_rules_count_ok(r, n))
			return n;
	return 0;
}

int
hf_rules_max_players(const struct hf_rules *r)
{
	for (int n = HF_MAX_SEATS; n >= 2; n--)
		if (hf_rules_count_ok(r, n))
			return n;
	return 0;
}

int
hf_rules_default_sides(const struct hf_rules *r, int nplayers)
{
	return hf_rules_count_ok(r, nplayers) ? r->sides_default[nplayers] : 0;
}

bool
hf_rules_sides_ok(const struct hf_rules *r, int nplayers, int nsides)
{
	return nsides >= 1 && nsides <= HF_MAX_SIDES && hf_rules_count_ok(r, nplayers) && table_fits(r, nplayers, nsides);
}

int
hf_seat_side(int seat, int nsides)
{
	return nsides > 0 && seat >= 0 ? seat % nsides : -1;
}
