/* log.h: log lines to stderr with sd-daemon priority prefixes, filtered by one level. */
#ifndef HF_LOG_H
#define HF_LOG_H

#include <stdarg.h>

/* Log priorities, as sd-daemon's (stderr lines get a "<N>" prefix, which journald reads). */
enum { LOG_LVL_ERR = 3, LOG_LVL_WARNING = 4, LOG_LVL_NOTICE = 5, LOG_LVL_INFO = 6, LOG_LVL_DEBUG = 7 };

/* The one mutable global besides signal flags: set once from the configuration. */
extern int log_level;

void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void log_vmsg(int level, const char *fmt, va_list ap);
/* "err".."debug" (or "error", "warn") or 3..7; -1 if unknown. */
int  log_level_parse(const char *s);

#endif
