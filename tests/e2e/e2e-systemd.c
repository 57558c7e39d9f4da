/* e2e-systemd.c: the installed service: make install/uninstall, systemd-analyze verify and security rating, sd_notify from the daemon. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e.h"

/* The unit must rate at this or better (lower) in systemd-analyze security. */
#define MAX_EXPOSURE 2.0

static char out[65536];

/* make, from the source tree (the tests run from it), without the parent make's flags. */
#define MAKE "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s"

static bool
exists(const char *dir, const char *rel)
{
	char path[1024];
	struct stat st;

	snprintf(path, sizeof path, "%s%s", dir, rel);
	return stat(path, &st) == 0;
}

static void
need_tool(const char *tool)
{
	if (e2e_sh(out, sizeof out, "command -v %s", tool) != 0) {
		print_error("%s is missing: install the Debian packages of TEST_DEBS (make deps-test)\n", tool);
		fail();
	}
}

static void
test_install_and_uninstall_honour_destdir(void **state)
{
	static const char *const files[] = {
		"/usr/local/sbin/handfoot",
		"/usr/local/etc/handfoot/handfoot.conf.example",
		"/usr/local/share/man/man8/handfoot.8",
		"/usr/local/share/man/man5/handfoot.conf.5",
		"/usr/local/lib/systemd/system/handfoot.service",
	};
	char dest[64], path[256], *unit;
	int rc;

	(void)state;
	assert_int_equal(e2e_tmpdir(dest, sizeof dest, "destdir"), 0);
	rc = e2e_sh(out, sizeof out, MAKE " install DESTDIR=%s B=%s", dest, e2e_build());
	if (rc != 0)
		print_error("make install failed:\n%s\n", out);
	assert_int_equal(rc, 0);
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		if (!exists(dest, files[i]))
			print_error("make install did not install %s\n", files[i]);
		assert_true(exists(dest, files[i]));
	}
	snprintf(path, sizeof path, "%s/usr/local/lib/systemd/system/handfoot.service", dest);
	unit = e2e_read_file(path);
	assert_non_null(unit);
	/* Paths as installed, without DESTDIR, every placeholder filled in. */
	assert_non_null(strstr(unit, "ExecStart=/usr/local/sbin/handfoot -c /usr/local/etc/handfoot/handfoot.conf"));
	assert_null(strstr(unit, "@SBINDIR@"));
	assert_null(strstr(unit, "@SYSCONFDIR@"));
	free(unit);

	rc = e2e_sh(out, sizeof out, MAKE " uninstall DESTDIR=%s B=%s", dest, e2e_build());
	assert_int_equal(rc, 0);
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		if (exists(dest, files[i]))
			print_error("make uninstall left %s\n", files[i]);
		assert_false(exists(dest, files[i]));
	}
	/* Nothing but empty folders is left behind. */
	assert_int_equal(e2e_sh(out, sizeof out, "find %s -type f", dest), 0);
	assert_string_equal(out, "");
	e2e_sh(out, sizeof out, "rm -rf %s", dest);
}

static void
test_install_with_prefix_usr_configures_etc(void **state)
{
	char dest[64], path[256], *unit;
	int rc;

	(void)state;
	assert_int_equal(e2e_tmpdir(dest, sizeof dest, "prefix"), 0);
	rc = e2e_sh(out, sizeof out, MAKE " install PREFIX=/usr DESTDIR=%s B=%s", dest, e2e_build());
	if (rc != 0)
		print_error("make install failed:\n%s\n", out);
	assert_int_equal(rc, 0);
	assert_true(exists(dest, "/usr/sbin/handfoot"));
	assert_true(exists(dest, "/etc/handfoot/handfoot.conf.example"));
	assert_true(exists(dest, "/usr/share/man/man8/handfoot.8"));
	snprintf(path, sizeof path, "%s/usr/lib/systemd/system/handfoot.service", dest);
	unit = e2e_read_file(path);
	assert_non_null(unit);
	assert_non_null(strstr(unit, "ExecStart=/usr/sbin/handfoot -c /etc/handfoot/handfoot.conf"));
	free(unit);
	assert_int_equal(e2e_sh(out, sizeof out, MAKE " uninstall PREFIX=/usr DESTDIR=%s B=%s", dest, e2e_build()), 0);
	assert_int_equal(e2e_sh(out, sizeof out, "find %s -type f", dest), 0);
	assert_string_equal(out, "");
	e2e_sh(out, sizeof out, "rm -rf %s", dest);
}

/* Installs for real under a temp PREFIX (no DESTDIR), so that the unit's
 * ExecStart= names an existing binary and its Documentation= man pages are
 * found through MANPATH: what verify checks. */
static int
install_prefix(char *root, size_t len)
{
	if (e2e_tmpdir(root, len, "root") < 0)
		return -1;
	if (e2e_sh(out, sizeof out, MAKE " install PREFIX=%s/usr SYSCONFDIR=%s/etc B=%s", root, root,
	           e2e_build()) != 0) {
		print_error("make install failed:\n%s\n", out);
		return -1;
	}
	return 0;
}

static void
test_unit_verifies(void **state)
{
	char root[64];
	int rc;

	(void)state;
	need_tool("systemd-analyze");
	need_tool("man");
	assert_int_equal(install_prefix(root, sizeof root), 0);
	rc = e2e_sh(out, sizeof out, "MANPATH=%s/usr/share/man systemd-analyze verify %s/usr/lib/systemd/system/handfoot.service",
	            root, root);
	if (rc != 0 || out[0] != '\0')
		print_error("systemd-analyze verify (exit %d):\n%s\n", rc, out);
	assert_int_equal(rc, 0);
	/* verify prints nothing for a clean unit; any line is a warning to fix. */
	assert_string_equal(out, "");
	e2e_sh(out, sizeof out, "rm -rf %s", root);
}

/* Memory, tasks and files bounded; and no SystemCallFilter= denying execve,
 * which systemd applies before it runs ExecStart= (the daemon denies itself
 * exec instead: tests/e2e/e2e-noexec.c). */
static void
test_unit_bounds_resources(void **state)
{
	char root[64];
	int rc;

	(void)state;
	assert_int_equal(install_prefix(root, sizeof root), 0);
	rc = e2e_sh(out, sizeof out,
	            "grep -E '^(MemoryMax|TasksMax|LimitNOFILE|LimitCORE)=' %s/usr/lib/systemd/system/handfoot.service",
	            root);
	printf("%s", out);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "MemoryMax=256M\n"));
	assert_non_null(strstr(out, "TasksMax=64\n"));
	assert_non_null(strstr(out, "LimitNOFILE=256\n"));
	/* a core file would hold the secrets (issue 24) */
	assert_non_null(strstr(out, "LimitCORE=0\n"));
	rc = e2e_sh(out, sizeof out, "grep -E '^SystemCallFilter=.*exec' %s/usr/lib/systemd/system/handfoot.service", root);
	assert_int_not_equal(rc, 0);
	e2e_sh(out, sizeof out, "rm -rf %s", root);
}

static void
test_unit_security_rating(void **state)
{
	char root[64];
	const char *at;
	double figure;
	int rc;

	(void)state;
	need_tool("systemd-analyze");
	assert_int_equal(install_prefix(root, sizeof root), 0);
	rc = e2e_sh(out, sizeof out, "systemd-analyze security --offline=true %s/usr/lib/systemd/system/handfoot.service",
	            root);
	at = strstr(out, "Overall exposure level for handfoot.service:");
	if (rc != 0 || at == NULL)
		print_error("systemd-analyze security --offline=true (exit %d) gave no figure:\n%s\n", rc, out);
	assert_int_equal(rc, 0);
	assert_non_null(at);
	figure = strtod(strchr(at, ':') + 1, NULL);
	printf("systemd-analyze security --offline=true: exposure %.1f (at most %.1f)\n", figure, MAX_EXPOSURE);
	if (figure > MAX_EXPOSURE)
		print_error("%s\n", out);
	assert_true(figure > 0.0 && figure <= MAX_EXPOSURE);
	e2e_sh(out, sizeof out, "rm -rf %s", root);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_install_and_uninstall_honour_destdir),
		cmocka_unit_test(test_install_with_prefix_usr_configures_etc),
		cmocka_unit_test(test_unit_verifies),
		cmocka_unit_test(test_unit_bounds_resources),
		cmocka_unit_test(test_unit_security_rating),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
