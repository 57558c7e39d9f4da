/* log.h: log lines to stderr, filtered by one level: "<N>" prefixes for the journal, timestamps elsewhere. */
#ifndef HF_LOG_H
#define HF_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct timespec;

/* Log priorities, as sd-daemon's (journal lines get a "<N>" prefix, which journald reads). */
enum { LOG_LVL_ERR = 3, LOG_LVL_WARNING = 4, LOG_LVL_NOTICE = 5, LOG_LVL_INFO = 6, LOG_LVL_DEBUG = 7 };

/* The one mutable global besides signal flags: set once from the configuration. */
extern int log_level;

/* Looks once whether stderr is the journal (JOURNAL_STREAM names its device
 * and inode): then lines carry "<N>" prefixes, otherwise a local timestamp
 * and the level's name.  Before it is called, lines get timestamps. */
void log_init(void);
/* Whether fd is the stream journal_stream ("<dev>:<inode>", JOURNAL_STREAM's value) names. */
bool log_stream_is_journal(const char *journal_stream, int fd);
/* One log line as it is written: "<3>msg" for the journal, else "2025-01-31 12:00:00.000 err: msg". */
void log_format(char *out, size_t len, int level, const char *msg, bool journal, const struct timespec *now);

void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void log_vmsg(int level, const char *fmt, va_list ap);
/* "err".."debug" (or "error", "warn") or 3..7; -1 if unknown. */
int  log_level_parse(const char *s);

#endif
