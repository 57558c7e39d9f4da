/* handfoot.h: the one public header of the Hand and Foot rules engine (pure C, libc only). */
#ifndef HANDFOOT_H
#define HANDFOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Limits.  Everything in the engine is fixed-size: a game is a flat value
 * with no pointers inside, so it can be copied, compared and sampled cheaply.
 */
#define HF_MAX_SEATS   6
#define HF_MAX_SIDES   6
#define HF_MAX_DECKS   8
#define HF_NCARD       16   /* card kinds: index of every count array */
#define HF_MAX_MELDS   96   /* melds (open and closed) on one side's table */
#define HF_MAX_GROUPS  16   /* melds named in one action */
#define HF_MAX_ROUNDS  100  /* a target-score game ends after this many rounds at the latest */
#define HF_MAX_EVENTS  128  /* public events produced by one action */
#define HF_ERRLEN      160  /* room for any refusal sentence */
#define HF_MAX_CARDS   (HF_MAX_DECKS * 54) /* cards in the biggest shoe */

/*
 * Cards.  Suits only matter for threes, so a card is its kind: red and black
 * threes are distinct kinds, every other rank is suitless.  Values 4..14 are
 * the natural ranks 4..A; HF_TWO and HF_JOKER are wild.
 */
enum hf_card {
	HF_NOCARD = 0,
	HF_RED3   = 1,
	HF_TWO    = 2,
	HF_BLACK3 = 3,
	HF_FOUR   = 4,
	HF_FIVE, HF_SIX, HF_SEVEN, HF_EIGHT, HF_NINE, HF_TEN,
	HF_JACK, HF_QUEEN, HF_KING,
	HF_ACE    = 14,
	HF_JOKER  = 15
};

bool        hf_card_is_wild(int card);       /* 2 or joker */
bool        hf_card_is_natural(int card);    /* 4..A */
const char *hf_card_name(int card);          /* canonical: "A" "10" "3h" "3c" "2" "JK" */
/* Parses one typed card: A 2..10 T J Q K, JK joker *, optional suit letter h d c s;
 * a bare "3" is a black three.  Case-insensitive.  Returns the card or HF_NOCARD. */
int         hf_card_parse(const char *token, size_t len);

/* Errors: every refusal is one of these plus a sentence that names the rule. */
enum hf_err {
	HF_OK = 0,
	HF_E_SYNTAX,      /* the action text did not parse */
	HF_E_RULES,       /* bad rules / house rule / table setup */
	HF_E_NOT_TURN,    /* not this seat's move */
	HF_E_PHASE,       /* not at this point of the turn (draw first, already drew...) */
	HF_E_NO_CARDS,    /* cards named are not in the hand */
	HF_E_PILE,        /* the discard pile cannot be taken */
	HF_E_MELD,        /* the melds are not legal */
	HF_E_OPENING,     /* the opening meld is short of the minimum */
	HF_E_DISCARD,     /* that card cannot be discarded */
	HF_E_GO_OUT,      /* cannot go out (or empty the hand) yet */
	HF_E_ASK,         /* asking / answering is not possible now */
	HF_E_OVER         /* the game is over */
};
const char *hf_strerror(enum hf_err err);    /* a generic sentence for the code */

/* ------------------------------------------------------------------ rules */

enum hf_red3_mode  { HF_RED3_BONUS, HF_RED3_BOOK, HF_RED3_PLAIN };
enum hf_first_disc { HF_FIRST_TOP, HF_FIRST_UNTIL_NATURAL, HF_FIRST_RESHUFFLE_SPECIAL };
enum hf_first_play { HF_START_LEFT_OF_DEALER, HF_START_DEALER, HF_START_RED3_HOLDER, HF_START_BEHIND };
enum hf_deal_bonus { HF_BONUS_NONE, HF_BONUS_DEALER_SIDE, HF_BONUS_EACH_PLAYER };
enum hf_pickup_need { HF_NEED_NOTHING, HF_NEED_NATURAL_PAIR, HF_NEED_PLAY_TOP };
enum hf_wild_limit { HF_WILDS_FEWER /* naturals > wilds */, HF_WILDS_HALF /* naturals >= 2 x wilds */,
                     HF_WILDS_EQUAL /* naturals >= wilds */, HF_WILDS_ANY /* one natural or more */ };
enum hf_open_by    { HF_OPEN_BY_ROUND, HF_OPEN_BY_SCORE };
enum hf_foot_when  { HF_FOOT_HAND_EMPTY, HF_FOOT_FIRST_CANASTA };
enum hf_partner_foot { HF_PARTNERS_ANY, HF_PARTNERS_IN_FOOT, HF_PARTNERS_PLAYED_FOOT };
enum hf_stock_out  { HF_STOCK_OUT_SCORE, HF_STOCK_OUT_TURN_PILE };

/* Bits of hf_rules.pickup_blocked_by: what on top of the pile stops a pickup. */
#define HF_BLOCK_BLACK3 0x1
#define HF_BLOCK_RED3   0x2
#define HF_BLOCK_WILD   0x4
#define HF_BLOCK_UNDER_WILD 0x8   /* a blocking 3 stays blocking under wilds, until a natural covers it */

/*
 * The rules: one field per row of the parameter table in docs/RULES.md.  A
 * preset is only its field values; house rules change fields by key (see
 * hf_rules_set).
 * The engine never tests a preset's name.
 */
struct hf_rules {
	char     name[16];                       /* the preset it started from */
	/* table and deal */
	uint8_t  players_min, players_max;
	uint8_t  sides_allowed[HF_MAX_SEATS + 1]; /* per player count: bit k set = k sides allowed */
	uint8_t  sides_default[HF_MAX_SEATS + 1]; /* per player count: sides when not chosen */
	uint8_t  decks[HF_MAX_SEATS + 1];         /* per player count */
	uint8_t  hand_size, foot_size;
	uint8_t  deal_bonus;                      /* enum hf_deal_bonus */
	int16_t  deal_bonus_points;
	uint8_t  first_discard;                   /* enum hf_first_disc */
	uint8_t  first_player;                    /* enum hf_first_play */
	uint8_t  hand_cap;                        /* 0 = none */
	/* card values: points when melded, against you when caught */
	int16_t  value[HF_NCARD];
	/* threes */
	uint8_t  red3_mode;                       /* enum hf_red3_mode */
	int16_t  red3_bonus;                      /* each red 3 laid out / under a book */
	int16_t  red3_caught;                     /* each red 3 caught in hand or foot (book mode) */
	bool     red3_replace_deal, red3_replace_draw, red3_replace_foot;
	bool     red3_at_first_turn;              /* dealt red 3s laid out at the first turn, not at the deal */
	bool     black3_book;                     /* a book of 7+ black 3s as the last play before going out */
	/* the discard pile */
	uint8_t  pickup_count;                    /* cards taken; 0 = the whole pile */
	uint8_t  pickup_min_pile;                 /* the pile must hold at least this many */
	uint8_t  pickup_blocked_by;               /* HF_BLOCK_* bits */
	bool     pickup_needs_down;               /* the side must already have opened */
	uint8_t  pickup_need;                     /* enum hf_pickup_need */
	bool     freeze_on_two;                   /* a 2 in the pile freezes it: natural pair needed */
	bool     discard_joker_ok, discard_red3_ok;
	/* melding */
	uint8_t  open_by;                         /* enum hf_open_by */
	int16_t  open_min[4];                     /* by round (1..4, later rounds use [3]) or by score step */
	int32_t  open_at[4];                      /* by score: open_min[i] applies from this score up */
	uint8_t  wild_limit;                      /* enum hf_wild_limit */
	bool     wild_melds;                      /* all-wild melds allowed */
	bool     add_after_close;                 /* naturals may be added to a closed canasta */
	bool     opening_wild_pair_only;          /* at the opening, wilds only with a pair starting a meld */
	uint8_t  canasta_size;                    /* closes at (7) */
	/* the foot */
	uint8_t  foot_when;                       /* enum hf_foot_when */
	/* going out */
	uint8_t  need_clean, need_dirty, need_wild, need_sevens, need_total;
	bool     need_total_plus_players;         /* need_total is added to the number of players */
	uint8_t  partner_foot;                    /* enum hf_partner_foot */
	bool     ask_partner;
	bool     final_discard_required;
	bool     out_melds_rest;                  /* the going-out side melds what it can before scoring */
	bool     short_out_allowed;               /* going out short of canastas is allowed, with a penalty */
	int16_t  short_out_penalty;
	uint8_t  stock_out;                       /* enum hf_stock_out */
	/* scoring */
	int16_t  clean_bonus, dirty_bonus, wild_bonus, sevens_bonus, out_bonus;
	bool     partners_dismissed;              /* the goer's partners' cards do not count */
	bool     caught_counts_foot;              /* an untaken foot counts against, as the hand */
	/* the end */
	uint8_t  rounds;                          /* 0 = play to target */
	int32_t  target;                          /* 0 = play a fixed number of rounds */
	/* asking to go out */
	bool     ask_before_meld;                 /* the ask must come before the player melds this turn */
	bool     hints_off;                       /* !hint is refused at this table (house rule hints=no) */
};

/* The five presets, by name: "classic", "sevens", "family", "pcio", "duel". NULL if unknown. */
const struct hf_rules *hf_preset(const char *name);
/* The preset names, NULL-terminated. */
const char *const *hf_preset_names(void);

/* A house-rule key, for !help and the README. */
struct hf_rule_key {
	const char *key;
	const char *values;                       /* "yes|no", "0-40", "all|1-20", ... */
	const char *help;                         /* one line */
};
const struct hf_rule_key *hf_rule_keys(size_t *n);

/* Applies one "key=value" house rule.  An unknown key or a value out of range
 * is refused with a sentence listing what is allowed; *r is then unchanged. */
enum hf_err hf_rules_set(struct hf_rules *r, const char *key_eq_value, char *why, size_t whylen);
/* Parses "PRESET [key=value ...]" (the preset may be omitted: classic). */
enum hf_err hf_rules_parse(struct hf_rules *r, const char *text, char *why, size_t whylen);
/* Writes one house-rule key's value as hf_rules_set reads it ("all", "6", "black3,red3"); 0 if no such key. */
size_t hf_rules_get(const struct hf_rules *r, const char *key, char *buf, size_t len);
/* Writes "PRESET key=value ..." with the keys that differ from the preset; parses back. */
size_t hf_rules_format(const struct hf_rules *r, char *buf, size_t len);
/* Writes the rules in force as short human lines separated by '\n' (for !rules). */
size_t hf_rules_describe(const struct hf_rules *r, int nplayers, char *buf, size_t len);
/* The player counts r deals to, as a newcomer reads them: "2", "4 or 6",
 * "2, 3, 4 or 6", "2 to 6" (a range only where every count in it is). */
void hf_rules_counts(const struct hf_rules *r, char *buf, size_t len);
/* Checks a table: player count and sides allowed by these rules. */
enum hf_err hf_rules_check_table(const struct hf_rules *r, int nplayers, int nsides, char *why, size_t whylen);
/* The table sizes and sides the rules allow, so that no caller reads the raw
 * fields (players_min, sides_allowed, ...).  A count is dealt to when
 * hf_rules_check_table accepts it with its default sides. */
bool        hf_rules_count_ok(const struct hf_rules *r, int nplayers);
int         hf_rules_min_players(const struct hf_rules *r);    /* the fewest dealt to; 0 if none */
int         hf_rules_max_players(const struct hf_rules *r);    /* the most dealt to; 0 if none */
/* The sides at nplayers when none are chosen; 0 if the rules do not deal to nplayers. */
int         hf_rules_default_sides(const struct hf_rules *r, int nplayers);
/* Whether nplayers may play as nsides equal sides under these rules. */
bool        hf_rules_sides_ok(const struct hf_rules *r, int nplayers, int nsides);
/* The side seat plays for at a table of nsides sides: seats alternate sides
 * (seat i plays for side i % nsides, as hf_game_new deals); -1 if either is out of range. */
int         hf_seat_side(int seat, int nsides);

/* ------------------------------------------------------------------ actions */

enum hf_action_type {
	HF_ACT_NONE = 0,
	HF_ACT_DRAW,      /* draw          */
	HF_ACT_PICKUP,    /* pickup [cards][, more melds] */
	HF_ACT_MELD,      /* meld 9 9 2, K K K, 9: 2 */
	HF_ACT_DISCARD,   /* discard 7     */
	HF_ACT_OUT,       /* out: ask the partners for permission to go out */
	HF_ACT_YES,       /* yes: answer the ask */
	HF_ACT_NO         /* no            */
};

/*
 * One meld named in an action: cards by kind, and an optional target.
 * target is HF_NOCARD when the group's own naturals name the meld (or an
 * all-wild group makes a wild meld); "9: 2 2" puts wilds on the open 9s;
 * in red-3-book rules "K: 3h" puts a red three under a closed K book.
 * The first group of a pickup is the cards shown with the top card.
 */
struct hf_group {
	uint8_t target;
	uint8_t count[HF_NCARD];
};

struct hf_action {
	uint8_t type;                              /* enum hf_action_type */
	uint8_t card;                              /* discard */
	uint8_t ngroups;
	struct hf_group groups[HF_MAX_GROUPS];
};

/* Text form: "draw", "pickup 9 9", "meld 9 9 2, K K K", "discard 7", "out", "yes", "no".
 * Card counts may be written "K x3" or "Kx3" as well as "K K K". */
enum hf_err hf_action_parse(struct hf_action *a, const char *text, char *why, size_t whylen);
/* The canonical text; hf_action_parse of it gives the same action. */
size_t hf_action_format(const struct hf_action *a, char *buf, size_t len);

/* ------------------------------------------------------------------ the game */

enum hf_phase {
	HF_PHASE_DRAW,    /* the turn's seat must draw or pick up */
	HF_PHASE_PLAY,    /* the turn's seat may meld, ask, discard */
	HF_PHASE_ASK,     /* partners must answer "may I go out?" */
	HF_PHASE_OVER     /* the game has ended */
};

enum hf_meld_kind { HF_KIND_OPEN, HF_KIND_CLEAN, HF_KIND_DIRTY, HF_KIND_WILD, HF_KIND_SEVENS };

/* A meld on a side's table: public. rank is 4..A, HF_BLACK3 for a book of
 * threes, or HF_JOKER for an all-wild meld. */
struct hf_meld {
	uint8_t rank;
	uint8_t naturals, twos, jokers;
	uint8_t red3s;                             /* red threes under it (book mode) */
	uint8_t kind;                              /* enum hf_meld_kind: OPEN until closed */
};

/* One side's score for one round, item by item as on the score sheet. */
struct hf_sheet {
	int32_t deal_bonus;
	int32_t going_out;
	int32_t red3_count, red3s;                /* bonus (or the red-3 penalty in book mode) */
	int32_t clean_count, clean;
	int32_t dirty_count, dirty;
	int32_t wild_count, wild;
	int32_t sevens_count, sevens;
	int32_t laid_out;                         /* value of all cards on the table */
	int32_t caught;                           /* value of cards left in hands (and feet): <= 0 */
	int32_t penalty;                          /* severe penalty, <= 0 */
	int32_t total;
	int32_t red3_caught_count;                /* book mode: red 3s caught in hand or foot (in red3s) */
};

/* Public events of the last applied action, for the renderers. Never a hidden card. */
enum hf_event_type {
	HF_EV_DEAL = 1,   /* a round was dealt: round, dealer in seat */
	HF_EV_DEAL_BONUS, /* seat earned the deal bonus */
	HF_EV_FIRST_DISCARD, /* card turned up to start the pile (count turned) */
	HF_EV_TURN,       /* it is seat's turn */
	HF_EV_RED3,       /* seat laid out count red 3s (replaced or not: flag) */
	HF_EV_DRAW,       /* seat drew count cards */
	HF_EV_PICKUP,     /* seat took count cards from the pile, top card */
	HF_EV_MELD,       /* seat melded: group (its cards) onto meld index of side; flag 1: it started the meld */
	HF_EV_CLOSED,     /* meld index of side closed as kind */
	HF_EV_UNDER,      /* seat put a red 3 under meld index */
	HF_EV_FOOT,       /* seat took up the foot (flag: play it now) */
	HF_EV_DISCARD,    /* seat discarded card */
	HF_EV_ASK,        /* seat asked the partners to go out */
	HF_EV_ANSWER,     /* seat answered (flag: yes) */
	HF_EV_OUT,        /* seat went out (flag: short, severe penalty) */
	HF_EV_STOCK_TURNED, /* the pile was turned over as the stock (count cards) */
	HF_EV_STOCK_OUT,  /* the stock ran out: the round ends */
	HF_EV_ROUND_END,  /* round scored: see the view's sheets */
	HF_EV_GAME_END    /* the game is over: winner side in side (-1 for a tie) */
};

struct hf_event {
	uint8_t type;
	int8_t  seat;
	int8_t  side;
	uint8_t card;
	uint16_t count;
	uint8_t meld;
	uint8_t flag;
	struct hf_group group;                    /* HF_EV_MELD */
};

struct hf_game;   /* opaque; a flat value (see hf_game_copy) */

/* A new game, dealt and ready for the first move.  nsides 0 = the rules' default
 * for nplayers.  Seats alternate sides: seat i plays for side i % nsides. */
enum hf_err hf_game_new(struct hf_game **out, const struct hf_rules *r, int nplayers, int nsides,
                        uint64_t seed, char *why, size_t whylen);
void        hf_game_free(struct hf_game *g);
struct hf_game *hf_game_clone(const struct hf_game *g);
void        hf_game_copy(struct hf_game *dst, const struct hf_game *src);
bool        hf_game_equal(const struct hf_game *a, const struct hf_game *b);
size_t      hf_game_size(void);

/*
 * Applies one action of seat.  On success the game moved on (possibly through
 * the end of a round and the next deal) and hf_game_events() tells what
 * happened.  On failure the game is untouched and why holds one sentence a
 * player understands, naming the rule: "the pile is frozen: you need a
 * natural pair of 9s".
 */
enum hf_err hf_apply(struct hf_game *g, int seat, const struct hf_action *a, char *why, size_t whylen);
const struct hf_event *hf_game_events(const struct hf_game *g, size_t *n);

const struct hf_rules *hf_game_rules(const struct hf_game *g);
int         hf_game_nseats(const struct hf_game *g);
int         hf_game_nsides(const struct hf_game *g);
int         hf_game_side_of(const struct hf_game *g, int seat);
enum hf_phase hf_game_phase(const struct hf_game *g);
int         hf_game_turn(const struct hf_game *g);      /* the seat whose turn it is */
/* The seats that may act now (the turn's seat, or the partners still to answer). */
int         hf_game_waiting(const struct hf_game *g, int seats[HF_MAX_SEATS]);
int         hf_game_round(const struct hf_game *g);     /* 1-based */
uint64_t    hf_game_seed(const struct hf_game *g);
int32_t     hf_game_score(const struct hf_game *g, int side); /* game total */
int         hf_game_winner(const struct hf_game *g);    /* side, -1 tie, -2 not over */
/* Every card, by kind, wherever it is; equals the shoe. For invariant checks. */
void        hf_game_census(const struct hf_game *g, uint32_t counts[HF_NCARD]);
void        hf_game_shoe(const struct hf_game *g, uint32_t counts[HF_NCARD]);
/* Checks the internal invariants; returns false with a sentence if one is broken. */
bool        hf_game_check(const struct hf_game *g, char *why, size_t whylen);
/* Whether seat's side has what going out needs besides the cards in hand:
 * its closed canastas (or the rules let it go out short of them) and its
 * partners' feet.  If not, false and why says what is missing ("your side
 * still needs 1 clean and 2 more canastas to go out").  The phase, the
 * hand and the partners' permission are not counted: hf_apply says those,
 * and this is what makes asking for permission worth it. */
bool        hf_game_out_ready(const struct hf_game *g, int seat, char *why, size_t whylen);

/* ------------------------------------------------------------------ views */

struct hf_seat_view {
	uint8_t  side;
	uint16_t hand_count;
	uint16_t foot_count;                      /* 0 once taken */
	bool     in_foot;                         /* has taken up the foot */
	uint16_t foot_turns;                      /* turns played since taking the foot */
	int8_t   answer;                          /* to the current ask: -1 none, 0 no, 1 yes */
	uint8_t  known[HF_NCARD];                 /* in its hand, seen by all: taken from the pile and not played
	                                             since (a card of the kind played may have been the one) */
	uint8_t  guessed[HF_NCARD];               /* 0, or 1 + the most of the kind the table guesses it holds
	                                             beyond the known: it threw one (none left), or drew when a
	                                             natural pair would have taken the pile (one at most) */
};

struct hf_side_view {
	uint8_t  nmelds;
	struct hf_meld melds[HF_MAX_MELDS];
	uint8_t  red3s;                           /* red threes laid out (bonus mode) */
	bool     down;                            /* has opened this round */
	int32_t  score;                           /* game total so far */
	int32_t  open_min;                        /* the opening minimum that applies now */
};

/* Exactly what one seat may know.  Renderers and computer players see games
 * only through this.  Entries past nmelds, nrounds_scored and pile_size are
 * unspecified (hf_game_view leaves them, for speed). */
struct hf_view {
	const struct hf_rules *rules;
	int8_t   seat;                            /* whose view; -1 = a spectator */
	uint8_t  nseats, nsides, round, dealer, turn;
	uint8_t  phase;                           /* enum hf_phase */
	uint8_t  hand[HF_NCARD];                  /* this seat's hand, by kind */
	uint16_t hand_count;
	uint16_t stock;
	uint16_t pile_size;
	uint8_t  pile_top;                        /* HF_NOCARD if empty */
	bool     pile_frozen;
	bool     stock_turned;                    /* the pile has been turned over as the stock this round */
	bool     may_pickup;                      /* this seat may take the pile now if it can justify it */
	bool     melded_this_turn;
	bool     permission;                      /* this seat may go out this turn (asked and granted) */
	bool     asked_this_turn;
	int8_t   asker;                           /* seat waiting for answers, or -1 */
	struct hf_seat_view seats[HF_MAX_SEATS];
	struct hf_side_view sides[HF_MAX_SIDES];
	uint8_t  unseen[HF_NCARD];                /* cards this seat cannot see: others' hands, feet, stock, pile below top */
	int      nrounds_scored;
	int32_t  round_totals[HF_MAX_ROUNDS][HF_MAX_SIDES];
	struct hf_sheet last_sheet[HF_MAX_SIDES]; /* the last round scored */
	int8_t   winner;                          /* side, -1 tie, -2 not over */
	uint8_t  last_discard_seat;
	/* public facts a sampled game needs (hf_game_sample) */
	uint8_t  first_player;                    /* the seat that started this round */
	int32_t  deal_bonus[HF_MAX_SIDES];        /* deal bonus earned this round, per side */
	uint8_t  pile_plain;                      /* the pile's top card not counting wilds on it (HF_NOCARD: none) */
	/* every card went onto the pile face up: the pile, bottom first (its top is pile_top); unseen
	 * still counts the cards below the top, which the players' counting reasons from */
	uint8_t  pile[HF_MAX_CARDS];
};

void hf_game_view(const struct hf_game *g, int seat, struct hf_view *v);

/* A game consistent with a view: the unseen cards dealt at random (seeded)
 * into the other hands, the feet, the stock and the pile.  For look-ahead. */
struct hf_game *hf_game_sample(const struct hf_view *v, uint64_t seed);

/* ------------------------------------------------------------------ computer players */

enum hf_ai_level { HF_AI_EASY, HF_AI_NORMAL, HF_AI_HARD };

const char *hf_ai_level_name(int level);
int         hf_ai_level_parse(const char *name);      /* -1 if unknown */
/*
 * The hard player thinks within a budget the caller sets, counted in actions
 * it simulates (the engine has no clock): the same view, budget and rng state
 * give the same action on any machine.  The default keeps a decision well
 * under what a person notices (see the README's figures); 0 means no search.
 */
#define HF_AI_BUDGET_DEFAULT 25000u
/* The next action for the view's seat, which must be able to act. rng is the
 * caller's state (any value; it is advanced).  Sees only the view. */
void        hf_ai_decide(const struct hf_view *v, int level, uint32_t budget, uint64_t *rng,
                         struct hf_action *out);
/* hf_ai_decide with the default budget. */
void        hf_ai_choose(const struct hf_view *v, int level, uint64_t *rng, struct hf_action *out);
/*
 * A hint: what the hard player would do with the view's turn, as one line
 * for the player ("hint: meld 9 9 9 2, K K K, discard 5"; at the draw it
 * stops at the pile or the stock, whose cards it cannot know).  Thinks
 * within budget per step; the same view and seed give the same line.
 * Where the rules turn hints off it says so.  Returns the length as
 * snprintf does.
 */
size_t      hf_ai_hint(const struct hf_view *v, uint32_t budget, uint64_t seed, char *buf, size_t len);
/* The same hint as steps, for a caller that writes them as commands: each
 * step one the engine accepts in its turn (played in a world dealt from the
 * view: melds, a discard, an ask only when the side could go out now). */
#define HF_HINT_STEPS 8
enum hf_hint_kind { HF_HINT_PLAN, HF_HINT_OFF, HF_HINT_WAIT, HF_HINT_NONE };
struct hf_hint {
	enum hf_hint_kind kind;   /* OFF: hints=no; WAIT: not the seat's turn; NONE: no sure step */
	int nsteps;
	struct hf_action steps[HF_HINT_STEPS];
	bool again;               /* the turn goes on past the last step, which the hint cannot see */
	bool out;                 /* the last step goes out */
	bool foot;                /* the last step brings up the foot */
};
void        hf_ai_hint_plan(const struct hf_view *v, uint32_t budget, uint64_t seed, struct hf_hint *h);

/* ------------------------------------------------------------------ randomness */

/* splitmix64 step: the engine's only generator; state is the caller's. */
uint64_t hf_rng_next(uint64_t *state);
/* Uniform in [0, n) without bias (n > 0). */
uint32_t hf_rng_below(uint64_t *state, uint32_t n);

#endif
