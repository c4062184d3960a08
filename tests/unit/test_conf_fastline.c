/*
 * test_conf_fastline.c - the fast reading of member lines
 * (src/conf/conf_fastline.c) against the general OpenSM 3.3.23 reader:
 * for hand-made corners (whitespace around '=', trailing commas, ';'
 * after an empty item, 16 and 17 hex digits, GUID 0, CR, words other
 * than full/limited, a later mgid that reads the stale bytes a fast line
 * left in the buffer), for every plan in tests/data/conf and for a
 * generated 20,000-member plan, both readings must say exactly the same
 * (conf_dump.h); and the fast path must really take the lines it is for
 * and leave the others alone.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conf/conf_internal.h"
#include "conf/conf_lexer.h"
#include "conf_dump.h"
#include "conf/conf_lib.h"

static char *read_with(const char *text, size_t len, bool fast)
{
	ibp_conf_options o;
	ibp_conf_options_init(&o, IBP_CONF_OPTIONS_VERSION);
	o.dialect = IBP_CONF_DIALECT_OPENSM;
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = NULL;
	int rc =
	    conf_parse_buffer_fast("t.conf", text, len, &o, &c, d, NULL, fast);
	char *s = conf_dump(rc, c, d);
	ibp_conf_free(c);
	ibp_diags_free(d);
	return s;
}

static void same(const char *text, size_t len)
{
	char *slow = read_with(text, len, false);
	char *fast = read_with(text, len, true);
	if (strcmp(slow, fast))
		fail_msg("fast and general readings differ on:\n%.*s\n"
			 "--- general\n%s\n--- fast\n%s",
			 (int)(len > 2000 ? 2000 : len), text, slow, fast);
	free(slow);
	free(fast);
}

static const char *const corners[] = {
    "p=0x2 :\n\t0x1=full,\n\t0x2=limited,\t# c\n\t0x3 ;\n",
    "p=0x2 :\n 0x1 = full , 0x2\t=\tlimited ,0x3,\n0x4;\n",
    "p=0x2 :\n0x1=full, ;\n0x2 ;\n",
    "p=0x2 :\n0x1=full,\n;\n",
    "p=0x2 :\n0x1=full,,0x2 ;\n",
    "p=0x2 :\n0X00000000000000aB=full ;\n",
    "p=0x2 :\n0x0000000000000001ab=full ;\n", /* 18 digits */
    "p=0x2 :\n0x11111111111111111=full ;\n",  /* wraps in strtoull */
    "p=0x2 :\n0x0=full, 0x00 ;\n",
    "p=0x2 :\n0x=full ;\n",
    "p=0x2 :\n0x1=full\r\n, 0x2 ;\r\n",
    "p=0x2 :\n0x1=fullx, 0x2=lim, 0x3=both, 0x4=Full ;\n",
    "p=0x2 :\n0x1=full ; q=0x3 : 0x2 ;\n",
    "p=0x2 :\n0x1=full ; ;\n",
    "p=0x2 :\n0x1 0x2 ;\n",
    "p=0x2 :\n0x1g=full ;\n",
    "p=0x2 :\n-0x1, +0x2, 12345 ;\n",
    "p=0x2 :\n0x1=full # a ; b\n0x2 ;\n",
    "p=0x2 :\n0x1=full, 0x1=limited ;\n",
    "p=0x2 :\n0x1, ALL=full, SELF, mgid=ff12:401b::1 ;\n",
    "p=0x2, defmember=full :\n0x1, 0x2=limited ;\n",
    "p=0x2, indx0 :\n0x1=full ;\n",
    "p=0x2 :\n0x1=full",
    "p=0x2 :\n0x1=full,",
    "p=0x2 :\n\t\t\n#only a comment\n0x1 ;\n",
    /* a fast line longer than the mgid line after it: the mgid that
     * ends its statement makes OpenSM read on into the stale bytes */
    "p=0x2 :\n\t0x1111=full, 0x2222=full, 0x3333=limited, rate=3, "
    "0x4444=full,\t# a long member line\nmgid=ff12:401b::1;\n",
    "p=0x2 :\n\t0x1=full , 0x2 = limited , mtu=4 , 0x3 ,\t# x=1\n"
    "mgid=ff12:401b::2;\n",
    "p=0x2 :\n0x1=full,\0 0x2 ;\n",
};

static void test_corners(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(corners) / sizeof(corners[0]); i++)
		same(corners[i], strlen(corners[i]));
	/* the one with a NUL byte, at its true length */
	static const char nul[] = "p=0x2 :\n0x1=full,\0 0x2 ;\n0x3 ;\n";
	same(nul, sizeof(nul) - 1);
}

static void test_data_files(void **state)
{
	(void)state;
	const char *base = getenv("IBP_TESTDATA");
	static const char *const dirs[] = {"conf", "conf/corners"};
	size_t n = 0;
	for (size_t k = 0; k < 2; k++) {
		char dir[1024];
		snprintf(dir, sizeof(dir), "%s/%s", base ? base : ".", dirs[k]);
		DIR *d = opendir(dir);
		assert_non_null(d);
		struct dirent *e;
		while ((e = readdir(d))) {
			size_t l = strlen(e->d_name);
			if (l < 5 || strcmp(e->d_name + l - 5, ".conf"))
				continue;
			char path[2048];
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			FILE *f = fopen(path, "rb");
			assert_non_null(f);
			static char buf[1 << 20];
			size_t len = fread(buf, 1, sizeof(buf), f);
			fclose(f);
			same(buf, len);
			n++;
		}
		closedir(d);
	}
	assert_true(n >= 10);
}

static void test_generated(void **state)
{
	(void)state;
	size_t cap = 2 << 20, n = 0;
	char *t = malloc(cap);
	assert_non_null(t);
	n += (size_t)snprintf(t + n, cap - n,
			      "Default=0x7fff, ipoib : ALL=limited, SELF ;\n");
	for (unsigned p = 0, m = 0; p < 20; p++) {
		n += (size_t)snprintf(t + n, cap - n, "t%u=0x%x, ipoib :\n", p,
				      p + 1);
		for (unsigned i = 0; i < 1000; i++, m++)
			n += (size_t)snprintf(t + n, cap - n,
					      "\t0x%016llx=%s%s\t# node %u\n",
					      0x506b4b0300000000ull + m % 15000,
					      i % 10 == 9 ? "limited" : "full",
					      i == 999 ? " ;" : ",", m);
	}
	same(t, n);
	free(t);
}

/* the fast path takes a member line, leaves a header alone */
static void test_takes_member_lines(void **state)
{
	(void)state;
	ibp_conf *c = conf_new("t.conf", NULL);
	assert_non_null(c);
	struct ibp_conf_partition *p = conf_add_partition(c);
	assert_non_null(p);
	ibp_conf_flags fl;
	conf_flags_default(&fl);
	static const char text[] = "\t0x1=full, 0x2 ;\nq=0x3 : 0x4 ;\n";
	struct conf_lexer lx;
	conf_lex_init(&lx, text, sizeof(text) - 1);
	bool ended, segment;
	assert_true(conf_lex_next(&lx));
	assert_int_equal(conf_fast_members(c, &lx, p, &fl, &ended, &segment),
			 1);
	assert_true(ended && segment);
	assert_int_equal(p->nmembers, 2);
	assert_string_equal(c->members[1].text, "0x2");
	assert_int_equal(c->members[1].pos.col, 12);
	/* the buffer as OpenSM leaves it: NUL for "=", ",", ";" and the
	 * blank that ends a GUID */
	assert_memory_equal(lx.buf, "\t0x1\0full\0 0x2\0\0", 16);
	assert_true(conf_lex_next(&lx));
	char before[64];
	memcpy(before, lx.buf, sizeof(before));
	assert_int_equal(conf_fast_members(c, &lx, p, &fl, &ended, &segment),
			 0);
	assert_memory_equal(lx.buf, before, sizeof(before));
	ibp_conf_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_corners),
	    cmocka_unit_test(test_data_files),
	    cmocka_unit_test(test_generated),
	    cmocka_unit_test(test_takes_member_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
