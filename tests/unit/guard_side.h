/*
 * guard_side.h - one side of a guard comparison, shared by
 * test_service_guard_trial.c and test_service_guard_vf.c: a service in a
 * fresh directory of its own (its database, partitions.conf and, when a
 * test copies one there, topology), opened by the test with its own
 * options and closed, the directory removed, by guard_side_close().
 */
#ifndef GUARD_SIDE_H
#define GUARD_SIDE_H

#include <stdio.h>
#include <stdlib.h>

#include "ibpart/sys/service.h"

struct side {
	char dir[256], db[300], conf[300], topo[300];
	ibp_service *s;
};

/* mkdtemp a directory named after the test under $TMPDIR, its files'
 * paths in x, partitions.conf written with text. */
static inline void guard_side_dir(struct side *x, const char *name,
				  const char *text)
{
	const char *t = getenv("TMPDIR");
	snprintf(x->dir, sizeof(x->dir), "%s/%s.XXXXXX", t ? t : "/tmp", name);
	assert_non_null(mkdtemp(x->dir));
	snprintf(x->db, sizeof(x->db), "%s/ibpartd.db", x->dir);
	snprintf(x->conf, sizeof(x->conf), "%s/partitions.conf", x->dir);
	snprintf(x->topo, sizeof(x->topo), "%s/fabric.topo", x->dir);
	FILE *f = fopen(x->conf, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static inline void guard_side_close(struct side *x)
{
	ibp_service_close(x->s);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", x->dir);
	assert_int_equal(system(cmd), 0);
}

#endif
