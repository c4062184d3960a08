/*
 * test_live_local.c - the live module's local files that are not about
 * the fabric: the M_Key file (ibp_mkey_file_read: owner-only, the first
 * number, never echoed) and where an unnamed state file goes
 * (ibp_state_default_path: a private directory, a name no file has);
 * the one-call session's options versions (ibp_live_connect), refused
 * before anything is read or opened.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ibpart/apply.h"
#include "ibpart/live.h"
#include "live/live_lib.h"
#include "ibpart/sys/live.h"
#include "ibpart/sys/apply.h"
#include "ibpart/sys/live_connect.h"

static char dir[] = "/tmp/ibp-live-local-XXXXXX";

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	assert_int_equal(chmod(path, mode), 0);
}

static void test_mkey_file(void **state)
{
	(void)state;
	char p[256];
	snprintf(p, sizeof(p), "%s/mkey", dir);
	uint64_t k = 7;
	ibp_error e;
	write_file(p, "# the fabric's M_Key\n\n  0x00000000deadbeef  # ours\n",
		   0600);
	assert_int_equal(ibp_mkey_file_read(p, &k, &e), IBP_OK);
	assert_true(k == 0xdeadbeefULL);
	write_file(p, "18446744073709551615\n", 0600);
	assert_int_equal(ibp_mkey_file_read(p, &k, &e), IBP_OK);
	assert_true(k == UINT64_MAX);
	/* readable by the group: refused, and the key is not in the message */
	write_file(p, "0x1234abcd\n", 0640);
	k = 7;
	assert_int_equal(ibp_mkey_file_read(p, &k, &e), IBP_EINVAL);
	assert_true(k == 7);
	assert_non_null(strstr(e.message, "readable by others"));
	assert_null(strstr(e.message, "1234abcd"));
	/* no number, a negative one, one past 2^64 */
	const char *bad[] = {"# nothing\n", "-1\n", "18446744073709551616\n",
			     "0x12zz\n", "+5\n"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		write_file(p, bad[i], 0600);
		assert_int_equal(ibp_mkey_file_read(p, &k, &e), IBP_EINVAL);
		assert_non_null(strstr(e.message, "holds no number"));
	}
	/* more than the one key: a second key, text after it, on the same
	 * line or the next, was silently skipped (the first word won) */
	const char *two[] = {"0x12\n0x34\n", "0x12 0x34\n", "0x12 oops\n",
			     "# k\n0x12\n\n# then\nsecond\n"};
	for (size_t i = 0; i < sizeof(two) / sizeof(*two); i++) {
		write_file(p, two[i], 0600);
		k = 7;
		assert_int_equal(ibp_mkey_file_read(p, &k, &e), IBP_EINVAL);
		assert_true(k == 7);
		assert_non_null(strstr(e.message, "words; one M_Key expected"));
	}
	/* a NUL byte hid what follows it; a file far too long to be a key */
	FILE *fp = fopen(p, "w");
	assert_non_null(fp);
	fwrite("0x12\0 0x34\n", 1, 11, fp);
	fclose(fp);
	assert_int_equal(ibp_mkey_file_read(p, &k, &e), IBP_EINVAL);
	assert_non_null(strstr(e.message, "a NUL byte"));
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs("0x12\n", fp);
	for (int i = 0; i < 1000; i++)
		fputs("# pad\n", fp);
	fclose(fp);
	assert_int_equal(ibp_mkey_file_read(p, &k, &e), IBP_EINVAL);
	assert_non_null(strstr(e.message, "over 4096 bytes"));
	assert_null(strstr(e.message, "0x12"));
	unlink(p);
	assert_int_equal(ibp_mkey_file_read(p, &k, &e), IBP_EINVAL);
	assert_non_null(strstr(e.message, "cannot read"));
}

static void test_mkey_parse(void **state)
{
	(void)state;
	uint64_t k = 9;
	assert_int_equal(ibp_mkey_parse("0x10", &k), IBP_OK);
	assert_true(k == 16);
	const char *bad[] = {"", " 1", "\t1", "+1", "-1", "1 ", "0x"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		k = 9;
		assert_int_equal(ibp_mkey_parse(bad[i], &k), IBP_EINVAL);
		assert_true(k == 9);
	}
}

static void test_state_default_path(void **state)
{
	(void)state;
	char sd[256], a[4096], b[4096];
	ibp_error e;
	snprintf(sd, sizeof(sd), "%s/state/sub", dir);
	assert_int_equal(ibp_state_default_path(sd, a, sizeof(a), &e), IBP_OK);
	struct stat st;
	assert_int_equal(stat(sd, &st), 0); /* made, private */
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(strncmp(a, sd, strlen(sd)), 0);
	assert_non_null(strstr(a, "/ibpart-state-"));
	assert_int_equal(strcmp(a + strlen(a) - 5, ".json"), 0);
	/* a file of that name exists: another name, never the same one */
	write_file(a, "{}", 0600);
	assert_int_equal(ibp_state_default_path(sd, b, sizeof(b), &e), IBP_OK);
	assert_string_not_equal(a, b);
	/* the same second: the same name with -2; the clock may have moved
	 * on to the next second between the calls (a loaded machine): then
	 * a new stamp is enough */
	size_t stem = strlen(a) - 5;
	if (!strncmp(a, b, stem))
		assert_string_equal(b + stem, "-2.json");
	unlink(a);
	/* a path that does not fit, a directory that cannot be made */
	char small[16];
	assert_int_equal(ibp_state_default_path(sd, small, sizeof(small), &e),
			 IBP_ERANGE);
	char f[300];
	snprintf(f, sizeof(f), "%s/plainfile", dir);
	write_file(f, "x", 0600);
	snprintf(sd, sizeof(sd), "%s/plainfile/sub", dir);
	assert_int_equal(ibp_state_default_path(sd, a, sizeof(a), &e), IBP_EIO);
	unlink(f);
}

/* apply --via-opensm's partition file: the one given, else opensm.conf's
 * partition_config_file, else the default; an opensm.conf that names
 * none is refused rather than guessed. */
static void test_partition_file(void **state)
{
	(void)state;
	struct ibp_apply_opensm_options o;
	ibp_osm_conf osm = {.version = IBP_OSM_CONF_VERSION};
	ibp_error err;
	ibp_apply_opensm_options_init(&o, IBP_APPLY_OPENSM_OPTIONS_VERSION);
	assert_int_equal(
	    ibp_apply_opensm_partition_file(&o, NULL, NULL, NULL, &err),
	    IBP_OK);
	assert_string_equal(o.opensm_conf, "/etc/opensm/partitions.conf");
	assert_int_equal(ibp_apply_opensm_partition_file(
			     &o, NULL, &osm, "/e/opensm.conf", &err),
			 IBP_EINVAL);
	assert_non_null(strstr(err.message, "names no partition_config_file): "
					    "/e/opensm.conf"));
	assert_int_equal(ibp_apply_opensm_partition_file(
			     &o, "/p.conf", &osm, "/e/opensm.conf", &err),
			 IBP_OK);
	assert_string_equal(o.opensm_conf, "/p.conf");
	strcpy(osm.partition_config_file, "/etc/opensm/site.conf");
	assert_int_equal(ibp_apply_opensm_partition_file(
			     &o, NULL, &osm, "/e/opensm.conf", &err),
			 IBP_OK);
	assert_string_equal(o.opensm_conf, "/etc/opensm/site.conf");
}

static void count_loaded(void *ctx, const ibp_diags *d)
{
	(void)d;
	++*(int *)ctx;
}

/* ibp_live_connect reads its options and the live options they point to
 * each as far as its own version goes: 0 or a version newer than the
 * library's is refused, naming the struct, before the topology is read
 * or a port opened; a NULL live is the defaults (ibp_live_options_init's:
 * the connection goes on to the topology, which here does not exist). */
static void test_connect_options_version(void **state)
{
	(void)state;
	char topo[256];
	snprintf(topo, sizeof(topo), "%s/no-such.topo", dir);
	struct ibp_live_connect_options o;
	struct ibp_live_options lo;
	ibp_live_connection c;
	ibp_live_connect_step step;
	ibp_error err;
	int loaded = 0;
	const unsigned bad[] = {0, IBP_LIVE_CONNECT_OPTIONS_VERSION + 1};
	const unsigned lbad[] = {0, IBP_LIVE_OPTIONS_VERSION + 1};
	for (size_t i = 0; i < 2; i++) {
		ibp_live_connect_options_init(&o, bad[i]);
		o.topology_path = topo;
		o.topology_loaded = count_loaded;
		o.topology_ctx = &loaded;
		assert_int_equal(ibp_live_connect(&o, &c, NULL, &step, &err),
				 IBP_EINVAL);
		assert_non_null(
		    strstr(err.message, "live connect options: version"));
		assert_null(c.live);
		ibp_live_connect_options_init(&o,
					      IBP_LIVE_CONNECT_OPTIONS_VERSION);
		assert_null(o.live);
		ibp_live_options_init(&lo, lbad[i]);
		o.live = &lo;
		o.topology_path = topo;
		o.topology_loaded = count_loaded;
		o.topology_ctx = &loaded;
		assert_int_equal(ibp_live_connect(&o, &c, NULL, &step, &err),
				 IBP_EINVAL);
		assert_non_null(strstr(err.message, "live options: version"));
		assert_null(strstr(err.message, "connect"));
		assert_int_equal(step, IBP_LIVE_CONNECT_TOPOLOGY);
	}
	assert_int_equal(loaded, 0);
	/* NULL: the defaults, and on to the topology */
	o.live = NULL;
	int rc = ibp_live_connect(&o, &c, NULL, &step, &err);
	assert_int_not_equal(rc, IBP_OK);
	assert_int_not_equal(rc, IBP_EINVAL);
	assert_int_equal(step, IBP_LIVE_CONNECT_TOPOLOGY);
	assert_int_equal(loaded, 1);
	assert_null(strstr(err.message, "version"));
	/* what the library reads for NULL: the header's defaults */
	struct ibp_live_options taken;
	memset(&taken, 0xa5, sizeof(taken));
	assert_int_equal(ibp_live_options_take(&taken, NULL, &err), IBP_OK);
	assert_int_equal(taken.version, IBP_LIVE_OPTIONS_VERSION);
	assert_null(taken.ca);
	assert_int_equal(taken.port, 0);
	assert_true(taken.mkey == 0);
	assert_int_equal(taken.retries, -1);
	assert_int_equal(taken.enforce, IBP_ENFORCE_BOTH);
	assert_false(taken.dry_run);
	assert_null(taken.progress);
	assert_null(taken.cancel);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mkey_file),
	    cmocka_unit_test(test_mkey_parse),
	    cmocka_unit_test(test_state_default_path),
	    cmocka_unit_test(test_partition_file),
	    cmocka_unit_test(test_connect_options_version),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return rc;
}
