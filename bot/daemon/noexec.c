/* noexec.c: the daemon denies itself execve and execveat (a seccomp filter), since it never runs another program. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon.h"

/*
 * Whoever takes over the process (a bug in a parser, a library) gets no
 * shell and no other program: with MemoryDenyWriteExecute= (no new code in
 * memory) that leaves only the code already mapped.  systemd cannot do this
 * for the unit: SystemCallFilter=~execve applies before systemd itself runs
 * ExecStart=, which then fails (systemd issue 27552, "not supported").  So
 * the daemon does it, once started, in every mode; the filter is inherited by
 * every thread made later and kept by any child.  Other system calls are
 * allowed: the unit's own filter narrows those.
 */
#if defined(__x86_64__)
#define NOEXEC_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NOEXEC_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define NOEXEC_ARCH AUDIT_ARCH_I386
#elif defined(__arm__) && defined(__ARMEL__)
#define NOEXEC_ARCH AUDIT_ARCH_ARM
#elif defined(__riscv) && __riscv_xlen == 64
#define NOEXEC_ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NOEXEC_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define NOEXEC_ARCH AUDIT_ARCH_S390X
#endif

#define DENY BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

int
noexec_lock(char *err, size_t errlen)
{
#if defined(NOEXEC_ARCH) && defined(__NR_execve) && defined(__NR_execveat)
	struct sock_filter f[] = {
		/* a system call of another ABI (int 0x80 on x86-64): nothing of it */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NOEXEC_ARCH, 1, 0),
		DENY,
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __X32_SYSCALL_BIT
		/* x32's calls share the arch with x86-64, their numbers above this bit */
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1),
		DENY,
#endif
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		DENY,
	};
	struct sock_fprog prog = { .len = (unsigned short)(sizeof f / sizeof f[0]), .filter = f };

	/* no_new_privs: what an unprivileged process needs to install a filter */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		snprintf(err, errlen, "no_new_privs: %s", strerror(errno));
		return -1;
	}
	/* TSYNC: threads already running (a resolver's) get it too */
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0 &&
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
		snprintf(err, errlen, "seccomp: %s", strerror(errno));
		return -1;
	}
	return 0;
#else
	snprintf(err, errlen, "no seccomp filter for this architecture");
	return -1;
#endif
}
