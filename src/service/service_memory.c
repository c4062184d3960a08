/*
 * service_memory.c - OpenSM's index memory, kept by the service so the
 * guard can judge a table overflow as OpenSM will place the tables.
 *
 * OpenSM 3.3.23 remembers, per port and for its whole life, the index it
 * placed each P_Key at, also after the P_Key left the port
 * (docs/opensm-behaviour.md rules 19-23; pkey/index_memory_lib.h):
 * a P_Key that comes back returns to that index, over whatever holds it
 * now.  The fabric does not show that memory, so it is computed: after
 * each verified revision the file OpenSM loaded is replayed by the
 * library's model (ibp_policy_compute_memory) on the memory recorded
 * after the revision before, and the tables the model gives are checked
 * against the tables verify read.  Where there is nothing to replay from
 * (the first record, or an OpenSM with another pid: a restarted one
 * remembers nothing) or the model and the fabric disagree, OpenSM is
 * taken to remember what the ports hold (rule 23: an OpenSM that does
 * not know a port finds its table as it is).  The result - the tables
 * read, the memory, the SM port - is stored as a state file (state_file.h)
 * in the database (service_db.c), with the PartitionCap of every node
 * discovery read, so it survives a restart of ibpartd.  The guard reads
 * them through a cache (svc_record_get), dropped at each record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pkey/pkey_table_lib.h"
#include "ibpart/policy.h"
#include "policy/policy_lib.h"
#include "service/service_internal.h"
#include "util/file_read.h"
#include "pkey/state_file_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "conf/conf_lib.h"
#include "pkey/index_memory_lib.h"

/* A copy of the topology the service holds (service_topology.c),
 * parsed from the text it read - not the file read again - so the
 * PartitionCaps discovery read can be set on it: LIDs numbered from the
 * same port; *gen the load it is of. */
static int fabric_of_held(const ibp_service *s, ibp_fabric **f,
			  uint64_t *sm_guid, unsigned long *gen, ibp_error *err)
{
	*f = NULL;
	ibp_service *w = (ibp_service *)s; /* the topology's lock only */
	struct svc_topology *t = NULL;
	int rc = svc_topology_get(w, &t, err);
	if (rc)
		return rc;
	size_t len = 0;
	const char *text = svc_topology_text(t, &len);
	*sm_guid = svc_topology_sm_guid(t);
	if (gen)
		*gen = svc_topology_gen(t);
	rc = svc_topology_parse(s->topology_path, text, len, f, err);
	svc_topology_put(w, t);
	if (rc)
		return rc;
	/* LIDs as a spec is read, then from the SM's port, as the held
	 * topology's */
	if ((rc = ibp_fabric_assign_lids(*f, 0, err)) ||
	    (rc = ibp_fabric_assign_lids(*f, *sm_guid, err))) {
		ibp_fabric_free(*f);
		*f = NULL;
		return rc;
	}
	for (size_t i = 0; i < ibp_fabric_node_count(*f); i++) {
		unsigned cap;
		/* a cap past a PartitionCap's 16 bits (IBP_ERANGE) is no
		 * discovery's: the topology's stays */
		if (svc_db_partition_cap(s, ibp_fabric_node_guid(*f, i), &cap))
			(void)ibp_fabric_set_partition_cap(*f, i, cap);
	}
	return IBP_OK;
}

int svc_fabric_load(const ibp_service *s, ibp_fabric **f, uint64_t *sm_guid,
		    ibp_error *err)
{
	return fabric_of_held(s, f, sm_guid, NULL, err);
}

int svc_memory_state(const ibp_service *s, const ibp_fabric *f,
		     ibp_state_file **st, long *opensm_pid, ibp_error *err)
{
	*st = NULL;
	char *text = NULL;
	int rc = svc_db_memory_load(s, &text, NULL, opensm_pid, err);
	if (!rc && text) {
		ibp_state_read_options ro;
		ibp_state_read_options_init(&ro);
		ro.max_input_size = strlen(text) + 1;
		rc = ibp_state_file_parse(f, "opensm_memory", text,
					  strlen(text), &ro, st, err);
	}
	free(text);
	return rc;
}

struct svc_record {
	bool loaded;
	unsigned long gen; /* the held topology's load it copies */
	ibp_fabric *fabric;
	uint64_t sm;
	ibp_state_file *state;
};

struct svc_record *svc_record_new(void)
{
	return calloc(1, sizeof(struct svc_record));
}

static void record_drop(struct svc_record *r)
{
	ibp_state_file_free(r->state); /* borrows the fabric: first */
	ibp_fabric_free(r->fabric);
	*r = (struct svc_record){0};
}

void svc_record_free(struct svc_record *r)
{
	if (r)
		record_drop(r);
	free(r);
}

int svc_record_get(const ibp_service *s, const ibp_fabric **f,
		   uint64_t *sm_guid, const ibp_state_file **st, ibp_error *err)
{
	struct svc_record *r = s->record;
	if (r->loaded && svc_topology_gen_now(s) != r->gen)
		record_drop(r); /* the topology file changed */
	if (!r->loaded) {
		int rc = fabric_of_held(s, &r->fabric, &r->sm, &r->gen, err);
		if (rc)
			return rc;
		ibp_error ignore; /* unreadable: OpenSM remembers nothing */
		if (svc_memory_state(s, r->fabric, &r->state, NULL, &ignore))
			r->state = NULL;
		r->loaded = true;
	}
	*f = r->fabric;
	*sm_guid = r->sm;
	*st = r->state;
	return IBP_OK;
}

/* Do the model's tables hold, on every end port the fabric read, what
 * the fabric holds, index for index? */
static bool same_tables(const ibp_fabric *f, const ibp_tables *model,
			const ibp_tables *have)
{
	for (size_t i = 0; i < ibp_tables_count(have); i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *h = ibp_tables_at(have, i, &n, &p);
		if (!ibp_fabric_is_end_port(f, n, p))
			continue;
		const ibp_pkey_table *m = ibp_tables_get(model, n, p);
		unsigned used = ibp_pkey_table_used(h);
		if (!m || ibp_pkey_table_used(m) != used)
			return false;
		for (unsigned j = 0; j < used; j++)
			if (ibp_pkey_table_get(m, j) !=
			    ibp_pkey_table_get(h, j))
				return false;
	}
	return true;
}

int svc_replay(const ibp_conf *c, const ibp_fabric *f, uint64_t sm_guid,
	       const ibp_tables *previous, const ibp_index_memory *memory,
	       ibp_tables **tables, ibp_index_memory **out, ibp_error *err)
{
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	po.sm_port_guid = sm_guid;
	po.previous = previous;
	po.memory = memory;
	return ibp_policy_compute_memory(c, f, &po, tables, out, NULL, err);
}

/* The state after OpenSM loaded the file: tables (have, or the model's
 * without a fabric) and memory; *replayed tells whether the recorded
 * memory was carried on (false: OpenSM taken to remember what the ports
 * hold). */
static int next_state(ibp_service *s, const ibp_conf *c, const ibp_fabric *f,
		      uint64_t sm_guid, const ibp_tables *have, long pid,
		      ibp_state_file **out, bool *replayed, ibp_error *err)
{
	ibp_state_file *old = NULL;
	long old_pid = 0;
	*replayed = false;
	int rc = svc_memory_state(s, f, &old, &old_pid, err);
	if (rc) /* an unreadable record is replaced, not fatal */
		old = NULL;
	ibp_tables *t = NULL;
	ibp_index_memory *m = NULL;
	if (old && old_pid == pid && ibp_state_file_memory(old)) {
		rc = svc_replay(c, f, sm_guid, ibp_state_file_tables(old),
				ibp_state_file_memory(old), &t, &m, err);
		*replayed = !rc && (!have || same_tables(f, t, have));
	}
	if (!*replayed) {
		ibp_tables_free(t);
		ibp_index_memory_free(m);
		t = NULL;
		m = NULL;
		rc = svc_replay(c, f, sm_guid, have, NULL, &t, &m, err);
	}
	ibp_state_file_free(old);
	ibp_state_file *st = rc ? NULL : ibp_state_file_new(f);
	ibp_tables *keep = have ? ibp_tables_copy(have) : t;
	if (!rc && (!st || !keep || ibp_state_file_set_tables(st, keep)))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (have || rc)
		ibp_tables_free(t);
	if (rc) {
		if (have)
			ibp_tables_free(keep);
		ibp_index_memory_free(m);
		ibp_state_file_free(st);
		return rc;
	}
	ibp_state_file_set_memory(st, m);
	ibp_state_file_set_sm_port(st, sm_guid);
	*out = st;
	return IBP_OK;
}

static int note_locked(ibp_service *s, uint64_t rev, const ibp_fabric *live,
		       uint64_t sm_guid, const ibp_tables *have, long pid,
		       bool *replayed, ibp_error *err)
{
	ibp_fabric *owned = NULL;
	const ibp_fabric *f = live;
	int rc = IBP_OK;
	if (!f) {
		rc = svc_fabric_load(s, &owned, &sm_guid, err);
		f = owned;
	}
	char *text = NULL;
	size_t len = 0;
	ibp_conf *c = NULL;
	if (!rc)
		rc = ibp_file_read_all(s->partitions_path, 0, &text, &len, err);
	if (!rc)
		rc = svc_parse_conf(s, s->partitions_path, text, len, &c, err);
	ibp_state_file *st = NULL;
	if (!rc)
		rc =
		    next_state(s, c, f, sm_guid, have, pid, &st, replayed, err);
	char *json = rc ? NULL : ibp_state_file_to_json(st);
	if (!rc && !json)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	size_t nn = live ? ibp_fabric_node_count(live) : 0;
	uint64_t *g = nn ? calloc(nn, sizeof(*g)) : NULL;
	unsigned *cap = nn ? calloc(nn, sizeof(*cap)) : NULL;
	if (!rc && nn && (!g || !cap))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < nn; i++) {
		g[i] = ibp_fabric_node_guid(live, i);
		cap[i] = ibp_fabric_node_partition_cap(live, i);
	}
	if (!rc)
		rc = svc_db_memory_save(s, rev, pid, json, g, cap, nn, err);
	if (!rc) /* the caps and the state changed: read them again */
		record_drop(s->record);
	free(g);
	free(cap);
	free(json);
	ibp_state_file_free(st);
	ibp_conf_free(c);
	free(text);
	ibp_fabric_free(owned);
	return rc;
}

int ibp_service_note_opensm(ibp_service *s, uint64_t rev,
			    const ibp_fabric *live, uint64_t sm_port_guid,
			    const ibp_tables *have, long opensm_pid,
			    bool *from_ports, ibp_error *err)
{
	if (!s || (!live != !have))
		return ibp_error_set(err, IBP_EINVAL,
				     "give both the fabric and its tables, or "
				     "neither");
	bool replayed = false;
	pthread_mutex_lock(&s->write_lock); /* the guard reads the record */
	pthread_mutex_lock(&s->lock);
	int rc = note_locked(s, rev, live, sm_port_guid, have, opensm_pid,
			     &replayed, err);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->write_lock);
	if (from_ports)
		*from_ports = !rc && !replayed;
	return rc;
}
