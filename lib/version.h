/* version.h: the one version string, for --version, the log and what an adapter tells a service (CTCP VERSION). */
#ifndef HF_VERSION_H
#define HF_VERSION_H

#define HF_VERSION "0.1.0"
/* The project's home, where a service may point people (Discord's User-Agent
 * must carry one). A packager sets the real one: make CFLAGS+=-DHF_URL='"…"'. */
#ifndef HF_URL
#define HF_URL "https://handfoot.invalid/"
#endif

#endif
