/*
 * service_topology.c - the one topology the service holds (issue 24):
 * the --topology file loaded once, with OpenSM's LIDs numbered from the
 * SM's port (--sm-port, else the master SM as the policy finds it), and
 * loaded again when the file changes (another inode, size or mtime).  A
 * reader takes a reference to the snapshot and keeps it while a newer
 * one replaces it, so no request reads a fabric being freed.  UFM's
 * /resources/ports and Slurm's host lists read it instead of parsing
 * the file at each request.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "ibpart/policy.h"
#include "policy/policy_lib.h"
#include "service/service_internal.h"
#include "topo/topo_lib.h"

struct svc_topology {
	unsigned refs; /* under the service's topo_lock */
	ibp_fabric *fabric;
	struct stat st;
};

/* OpenSM's LIDs, numbered from the SM's port: --sm-port when the
 * service has one, else the master SM the policy finds. */
static int assign_lids(const ibp_service *s, ibp_fabric *f, ibp_error *err)
{
	ibp_policy_options po;
	ibp_policy_options_init(&po, IBP_POLICY_OPTIONS_VERSION);
	int rc = IBP_OK;
	if (s->sm_port) {
		size_t n;
		unsigned p;
		if ((rc = ibp_fabric_assign_lids(f, 0, err)) ||
		    (rc = ibp_fabric_resolve_port(f, s->sm_port, &n, &p, err)))
			return rc;
		po.sm_port_guid = ibp_fabric_port_guid(f, n, p);
	}
	uint64_t sm = 0;
	if ((rc = ibp_policy_sm_port(f, &po, &sm, err)))
		return rc;
	return ibp_fabric_assign_lids(f, sm, err);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Drop one reference; under topo_lock. */
static void put_locked(struct svc_topology *t)
{
	if (t && !--t->refs) {
		ibp_fabric_free(t->fabric);
		free(t);
	}
}

int svc_topology_get(ibp_service *s, struct svc_topology **out, ibp_error *err)
{
	*out = NULL;
	if (!s->topology_path)
		return ibp_error_set(err, IBP_ENOENT,
				     "no topology: ibpartd was started "
				     "without --topology");
	struct stat st;
	if (stat(s->topology_path, &st))
		return ibp_error_set(err, IBP_EIO, "%s: cannot read it",
				     s->topology_path);
	pthread_mutex_lock(&s->topo_lock);
	int rc = IBP_OK;
	if (!s->topo || !same_file(&s->topo->st, &st)) {
		struct svc_topology *t = calloc(1, sizeof(*t));
		rc = t ? ibp_fabric_load(s->topology_path, NULL, &t->fabric,
					 NULL)
		       : ibp_error_set(err, IBP_ENOMEM, "out of memory");
		if (t && rc)
			ibp_error_set(err, rc, "%s: cannot load the topology",
				      s->topology_path);
		if (!rc)
			rc = assign_lids(s, t->fabric, err);
		if (rc) {
			if (t)
				ibp_fabric_free(t->fabric);
			free(t);
		} else {
			t->st = st;
			t->refs = 1; /* the service's */
			put_locked(s->topo);
			s->topo = t;
		}
	}
	if (!rc) {
		s->topo->refs++;
		*out = s->topo;
	}
	pthread_mutex_unlock(&s->topo_lock);
	return rc;
}

void svc_topology_put(ibp_service *s, struct svc_topology *t)
{
	pthread_mutex_lock(&s->topo_lock);
	put_locked(t);
	pthread_mutex_unlock(&s->topo_lock);
}

const ibp_fabric *svc_topology_fabric(const struct svc_topology *t)
{
	return t->fabric;
}
