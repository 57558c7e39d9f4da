/* httpcall.h: one blocking HTTP call whose answer is JSON, for tests that drive a fake service. */
#ifndef HF_TEST_HTTPCALL_H
#define HF_TEST_HTTPCALL_H

#include <jansson.h>

/* method url with body (JSON, or NULL for none); auth is a whole header
 * ("Authorization: Bearer T") or NULL; user_agent and ca_file NULL for
 * libcurl's own.  The parsed answer (NULL if none or not JSON), its HTTP
 * status in *status (0 if the call failed) when status is not NULL. */
json_t *httpcall_json(const char *method, const char *url, const char *auth, const char *body,
                      const char *user_agent, const char *ca_file, long *status);

#endif
