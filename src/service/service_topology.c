/*
 * service_topology.c - the one topology the service holds (issue 24):
 * the --topology file loaded once, with OpenSM's LIDs numbered from the
 * SM's port (--sm-port, else the master SM as the policy finds it), and
 * loaded again when the file changes (another inode, size or mtime).  A
 * reader takes a reference to the snapshot and keeps it while a newer
 * one replaces it, so no request reads a fabric being freed.  UFM's
 * /resources/ports, Slurm's host lists, the guard's audit and its kept
 * answer (service_guard_state.c, which keeps its reference for its
 * life and is built again once the held one is another), the page at
 * /, the matrix and audit views and OpenSM's index memory
 * (service_memory.c, which parses its own copy from the text kept here
 * to set the PartitionCaps discovery read) all read it: nothing else
 * reads the file; the loads are counted (ibp_service_topology_loads).
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "ibpart/sys/service.h"
#include "util/file_read.h"

#include "ibpart/policy.h"
#include "policy/policy_lib.h"
#include "service/service_internal.h"
#include "topo/topo_lib.h"
#include "util/diag_lib.h"

struct svc_topology {
	unsigned refs; /* under the service's topo_lock */
	ibp_fabric *fabric;
	uint64_t sm_guid;  /* the port the LIDs are numbered from */
	unsigned long gen; /* the load it is (s->topo_loads) */
	char *text;	   /* the file as read */
	size_t len;
	struct stat st;
};

/* OpenSM's LIDs, numbered from the SM's port: --sm-port when the
 * service has one, else the master SM the policy finds. */
static int assign_lids(const ibp_service *s, ibp_fabric *f, uint64_t *sm,
		       ibp_error *err)
{
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	int rc = IBP_OK;
	if (s->sm_port) {
		size_t n;
		unsigned p;
		if ((rc = ibp_fabric_assign_lids(f, 0, err)) ||
		    (rc = ibp_fabric_resolve_port(f, s->sm_port, &n, &p, err)))
			return rc;
		po.sm_port_guid = ibp_fabric_port_guid(f, n, p);
	}
	if ((rc = ibp_policy_sm_port(f, &po, sm, err)))
		return rc;
	return ibp_fabric_assign_lids(f, *sm, err);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* The fabric of text as ibp_fabric_load reads a file; the failure is
 * its first error finding. */
int svc_topology_parse(const char *path, const char *text, size_t len,
		       ibp_fabric **f, ibp_error *err)
{
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = ibp_fabric_load_buffer(path, text, len, NULL, f, d);
	if (rc)
		ibp_diags_error_of(d, rc, err, path,
				   "the topology does not load");
	ibp_diags_free(d);
	return rc;
}

/* The file read (counted) and parsed into t, its LIDs numbered; under
 * topo_lock. */
static int load(ibp_service *s, struct svc_topology *t, ibp_error *err)
{
	t->gen = ++s->topo_loads;
	int rc = ibp_file_read_all(s->topology_path, 0, &t->text, &t->len, err);
	if (!rc)
		rc = svc_topology_parse(s->topology_path, t->text, t->len,
					&t->fabric, err);
	return rc ? rc : assign_lids(s, t->fabric, &t->sm_guid, err);
}

/* Drop one reference; under topo_lock. */
static void put_locked(struct svc_topology *t)
{
	if (t && !--t->refs) {
		ibp_fabric_free(t->fabric);
		free(t->text);
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
		rc = t ? load(s, t, err)
		       : ibp_error_set(err, IBP_ENOMEM, "out of memory");
		if (rc) {
			if (t) {
				ibp_fabric_free(t->fabric);
				free(t->text);
			}
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

uint64_t svc_topology_sm_guid(const struct svc_topology *t)
{
	return t->sm_guid;
}

const char *svc_topology_text(const struct svc_topology *t, size_t *len)
{
	*len = t->len;
	return t->text;
}

bool svc_topology_current(ibp_service *s, const struct svc_topology *t)
{
	struct stat st;
	if (stat(s->topology_path, &st))
		return false;
	pthread_mutex_lock(&s->topo_lock);
	bool now = s->topo == t && same_file(&t->st, &st);
	pthread_mutex_unlock(&s->topo_lock);
	return now;
}

void svc_topology_hold(ibp_service *s, struct svc_topology *t)
{
	pthread_mutex_lock(&s->topo_lock);
	t->refs++;
	pthread_mutex_unlock(&s->topo_lock);
}

unsigned long ibp_service_topology_loads(ibp_service *s)
{
	pthread_mutex_lock(&s->topo_lock);
	unsigned long n = s->topo_loads;
	pthread_mutex_unlock(&s->topo_lock);
	return n;
}

unsigned long svc_topology_gen(const struct svc_topology *t)
{
	return t->gen;
}

unsigned long svc_topology_gen_now(const ibp_service *s)
{
	ibp_service *w = (ibp_service *)s; /* the lock only */
	struct svc_topology *t = NULL;
	ibp_error ignore;
	if (svc_topology_get(w, &t, &ignore))
		return 0;
	unsigned long g = t->gen;
	svc_topology_put(w, t);
	return g;
}
