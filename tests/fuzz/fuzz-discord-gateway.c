/* fuzz-discord-gateway.c: libFuzzer target for Gateway payloads: the state machine, the interaction and message readers, the text helpers. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "discord/gateway.h"
#include "discord/interaction.h"
#include "discord/text.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t
fixed_random(void *ctx)
{
	(void)ctx;
	return 0x80000000u;
}

/* Takes every action; checks what the rest of the adapter relies on. */
static void
drain(struct discord_gateway *g)
{
	struct discord_gw_act a;

	while (discord_gateway_next(g, &a)) {
		switch (a.kind) {
		case DISCORD_GW_SEND:
			/* gateway.mdx: a payload over 4096 bytes closes the connection */
			if (a.text == NULL || strlen(a.text) > 4096)
				__builtin_trap();
			break;
		case DISCORD_GW_CONNECT:
		case DISCORD_GW_DISPATCH:
		case DISCORD_GW_LOG:
		case DISCORD_GW_FATAL:
			if (a.text == NULL)
				__builtin_trap();
			break;
		case DISCORD_GW_DOWN:
		case DISCORD_GW_READY:
		case DISCORD_GW_RESUMED:
		case DISCORD_GW_CLOSE:
		case DISCORD_GW_FETCH_URL:
			break;
		}
		if (a.kind == DISCORD_GW_DISPATCH && a.d != NULL) {
			struct discord_interaction ia;
			struct discord_message m;
			const char *why;

			/* whatever comes in, what is handed on is clean and bounded */
			if (discord_interaction_parse(a.d, NULL, &ia, &why) == 0 &&
			    (strlen(ia.line) > DISCORD_MAX_IN || strpbrk(ia.line, "\r\n") != NULL ||
			     !discord_text_snowflake(ia.user_id) || strlen(ia.user_name) > DISCORD_MAX_NAME))
				__builtin_trap();
			if (discord_message_parse(a.d, "42", &m, &why) == 0 &&
			    (strlen(m.text) > DISCORD_MAX_IN || strpbrk(m.text, "\r\n") != NULL))
				__builtin_trap();
		}
		discord_gateway_act_free(&a);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct discord_gw_config cfg = {
		.token = "fuzz-token", .intents = 1, .url = "wss://gateway.discord.gg", .random = fixed_random,
	};
	static const char hello[] = "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}";
	static const char ready[] = "{\"op\":0,\"t\":\"READY\",\"s\":1,\"d\":{\"session_id\":\"s\","
	                            "\"resume_gateway_url\":\"wss://r.discord.gg\",\"user\":{\"id\":\"42\"},"
	                            "\"application\":{\"id\":\"77\"}}}";
	struct discord_gateway *g;
	const char *p = (const char *)data, *end = p + size;
	int64_t now = 1000;
	char *buf;

	/* in every phase: before Hello, while identifying, and connected */
	for (int phase = 0; phase < 3; phase++) {
		if ((g = discord_gateway_new(&cfg)) == NULL)
			return 0;
		discord_gateway_start(g, now);
		if (phase >= 1)
			discord_gateway_received(g, hello, strlen(hello), now);
		if (phase >= 2)
			discord_gateway_received(g, ready, strlen(ready), now);
		drain(g);
		/* the input is several payloads, one a line */
		for (p = (const char *)data; p < end;) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

			discord_gateway_received(g, p, n, now);
			now += 7000;
			discord_gateway_tick(g, now);
			drain(g);
			p += n + (nl != NULL);
		}
		discord_gateway_closed(g, size > 0 ? 4000 + data[0] % 20 : 1006, now);
		discord_gateway_tick(g, now + 120000);
		drain(g);
		discord_gateway_free(g);
	}
	/* the text helpers on the raw bytes */
	if ((buf = malloc(size * 5 + 8)) != NULL) {
		size_t n = utf8_clean((const char *)data, size, buf, size + 1, size), at = 0, next;

		if (n > size || strlen(buf) != n)
			__builtin_trap();
		while (at < n) {
			size_t c = discord_text_chunk(buf + at, n - at, 50, &next);

			if (discord_text_units(buf + at, c) > 50 || next == 0 || next > n - at)
				__builtin_trap();
			at += next;
		}
		if (discord_text_escape(buf, buf + n + 1, size * 4 + 6) < 0)
			__builtin_trap();
		free(buf);
	}
	return 0;
}
