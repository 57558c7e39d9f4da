/* version.h: the one version string, for --version, the log and what an adapter tells a service (CTCP VERSION). */
#ifndef HF_VERSION_H
#define HF_VERSION_H

#define HF_VERSION "0.1.0"

#endif
