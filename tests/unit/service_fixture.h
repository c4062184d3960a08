/*
 * service_fixture.h - shared by the partition service's unit tests
 * (test_service.c, test_service_capacity.c): a fresh directory with the
 * database's and partitions.conf's paths, the file holding the
 * operator's text, tests/interop/data/live-2sw.topo as the topology
 * (through IBP_TESTDATA), and the service opened on them.
 */
#ifndef SERVICE_FIXTURE_H
#define SERVICE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "ibpart/sys/service.h"

static char dir[256], db[300], conf[300], topo[512];

/* mkdtemp a directory named after the test, write operator_text as
 * partitions.conf there. */
static inline void svc_fixture_setup(const char *name,
				     const char *operator_text)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/%s.XXXXXX", t ? t : "/tmp", name);
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/ibpartd.db", dir);
	snprintf(conf, sizeof(conf), "%s/partitions.conf", dir);
	const char *data = getenv("IBP_TESTDATA");
	snprintf(topo, sizeof(topo), "%s/../interop/data/live-2sw.topo",
		 data ? data : "tests/data");
	FILE *f = fopen(conf, "w");
	assert_non_null(f);
	fputs(operator_text, f);
	fclose(f);
}

static inline int svc_fixture_teardown(void)
{
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* The service on the fixture's files, with or without the topology. */
static inline ibp_service *open_svc(bool with_topo)
{
	struct ibp_service_options o;
	ibp_service_options_init(&o, IBP_SERVICE_OPTIONS_VERSION);
	o.db_path = db;
	o.partitions_path = conf;
	o.topology_path = with_topo ? topo : NULL;
	ibp_service *s = NULL;
	ibp_error err;
	assert_int_equal(ibp_service_open(&o, &s, &err), IBP_OK);
	return s;
}

#endif
