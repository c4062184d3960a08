/*
 * test_atomic_file.c - whole-or-nothing output files: a new file appears
 * with 0644, an existing one keeps its mode, a symbolic link is followed
 * (the file it points to is replaced, the link stays a link), a FIFO is
 * written in place (never replaced by a regular file), a discarded write
 * leaves the target as it was and no temporary file behind, and the
 * backup keeps the old contents: the old file itself under a second
 * name, not a copy.
 */
#include <dirent.h>
#include <fcntl.h>
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

#include "ibpart/sys/atomic_file.h"
#include "util/atomic_file_lib.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/ibp-atomic-XXXXXX", t ? t : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[512];
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
	return rmdir(dir);
}

static const char *at(const char *name)
{
	static char b[4][512];
	static int i;
	char *p = b[i++ % 4];
	snprintf(p, 512, "%s/%s", dir, name);
	return p;
}

static const char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int entries(void)
{
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void test_new_and_existing_mode(void **state)
{
	(void)state;
	assert_int_equal(
	    ibp_write_file_atomic(at("a"), "one\n", 4, false, NULL), IBP_OK);
	struct stat st;
	assert_int_equal(stat(at("a"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_string_equal(slurp(at("a")), "one\n");
	chmod(at("a"), 0600);
	struct stat old;
	assert_int_equal(stat(at("a"), &old), 0);
	assert_int_equal(ibp_write_file_atomic(at("a"), "two\n", 4, true, NULL),
			 IBP_OK);
	/* the backup is the replaced file (same inode, one name left), not a
	 * copy: a multi-megabyte partitions.conf costs no read and write */
	struct stat bak;
	assert_int_equal(stat(at("a.bak"), &bak), 0);
	assert_int_equal(bak.st_ino, old.st_ino);
	assert_int_equal(bak.st_nlink, 1);
	assert_int_equal(stat(at("a"), &st), 0);
	assert_true(st.st_ino != old.st_ino);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_string_equal(slurp(at("a")), "two\n");
	assert_string_equal(slurp(at("a.bak")), "one\n");
	assert_int_equal(entries(), 2); /* a, a.bak: no temporary left */
}

static void test_symlink_followed(void **state)
{
	(void)state;
	assert_int_equal(
	    ibp_write_file_atomic(at("real"), "old\n", 4, false, NULL), IBP_OK);
	assert_int_equal(symlink("real", at("link")), 0);
	assert_int_equal(
	    ibp_write_file_atomic(at("link"), "new\n", 4, true, NULL), IBP_OK);
	struct stat st;
	assert_int_equal(lstat(at("link"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_string_equal(slurp(at("real")), "new\n");
	assert_string_equal(slurp(at("real.bak")), "old\n");
	/* a dangling link: the file appears where it points */
	assert_int_equal(symlink("later", at("dangling")), 0);
	assert_int_equal(
	    ibp_write_file_atomic(at("dangling"), "x\n", 2, false, NULL),
	    IBP_OK);
	assert_string_equal(slurp(at("later")), "x\n");
	assert_int_equal(lstat(at("dangling"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
}

/* A target that is not a regular file (here a FIFO, standing in for
 * /dev/stdout and the like, without touching /dev) is written in place:
 * the data goes through it and it stays a FIFO. */
static void test_special_file_in_place(void **state)
{
	(void)state;
	assert_int_equal(mkfifo(at("fifo"), 0600), 0);
	int rd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	assert_int_equal(
	    ibp_write_file_atomic(at("fifo"), "through\n", 8, true, NULL),
	    IBP_OK);
	char buf[16] = {0};
	assert_int_equal(read(rd, buf, sizeof(buf) - 1), 8);
	assert_string_equal(buf, "through\n");
	close(rd);
	struct stat st;
	assert_int_equal(lstat(at("fifo"), &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(entries(), 1); /* no .bak, no temporary */
}

static void test_discard_and_missing_dir(void **state)
{
	(void)state;
	assert_int_equal(
	    ibp_write_file_atomic(at("keep"), "same\n", 5, false, NULL),
	    IBP_OK);
	ibp_atomic_file *a;
	FILE *fp;
	assert_int_equal(ibp_atomic_file_open(at("keep"), &a, &fp, NULL),
			 IBP_OK);
	fputs("half", fp);
	ibp_atomic_file_discard(a);
	assert_string_equal(slurp(at("keep")), "same\n");
	assert_int_equal(entries(), 1);
	ibp_error e;
	assert_int_equal(
	    ibp_write_file_atomic(at("no/such/dir/f"), "x", 1, false, &e),
	    IBP_EIO);
	assert_non_null(strstr(e.message, "temporary"));
}

/* A FILE.bak that someone planted as a link is replaced, never written
 * through: the old one is removed and the backup made anew. */
static void test_planted_backup_link(void **state)
{
	(void)state;
	assert_int_equal(
	    ibp_write_file_atomic(at("victim"), "precious\n", 9, false, NULL),
	    IBP_OK);
	assert_int_equal(
	    ibp_write_file_atomic(at("conf"), "old\n", 4, false, NULL), IBP_OK);
	assert_int_equal(symlink(at("victim"), at("conf.bak")), 0);
	assert_int_equal(
	    ibp_write_file_atomic(at("conf"), "new\n", 4, true, NULL), IBP_OK);
	assert_string_equal(slurp(at("victim")), "precious\n");
	struct stat st;
	assert_int_equal(lstat(at("conf.bak"), &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_string_equal(slurp(at("conf.bak")), "old\n");
	assert_string_equal(slurp(at("conf")), "new\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_new_and_existing_mode, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_symlink_followed, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_special_file_in_place, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_discard_and_missing_dir, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_planted_backup_link, setup,
					    teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
