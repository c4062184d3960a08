/*
 * fabric_gen.c - generated fat trees (folded Clos networks of one, two
 * or three tiers) and partition plans (see
 * include/ibpart/sys/fabric_gen.h), the inputs of benchmarks and of tests
 * that need fabrics bigger than the seed's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/atomic_file.h"
#include "util/atomic_file_lib.h"
#include "ibpart/sys/fabric_gen.h"
#include "topo/fabric_gen_lib.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "topo/topo_priv.h"
#include "util/options_version.h"

IBP_OPTIONS_LAYOUT(fabric_gen_options_layout, "fabric generator options",
		   IBP_FABRIC_GEN_OPTIONS_VERSION,
		   sizeof(ibp_fabric_gen_options));

/* The library's defaults, a whole current struct. */
static void fabric_gen_options_defaults(ibp_fabric_gen_options *o)
{
	if (!o)
		return;
	memset(o, 0, sizeof(*o));
	o->radix = 36;
	o->mgmt = 1;
	o->version = IBP_FABRIC_GEN_OPTIONS_VERSION;
}

void ibp_fabric_gen_options_init(ibp_fabric_gen_options *o, unsigned version)
{
	ibp_fabric_gen_options d;
	fabric_gen_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &fabric_gen_options_layout);
}

/* The caller's options taken: the fields their version has over the
 * defaults, and the fabric options they point to likewise (NULL: the
 * defaults).  Past take(), o.fabric points to fabric, never NULL: the
 * functions below read the options only in this form. */
typedef struct gen_taken {
	ibp_fabric_gen_options o;
	ibp_fabric_options fabric;
} gen_taken;

/* own filled from o; NULL for a version of o or o->fabric this library
 * does not read (err says why, naming the struct). */
static const ibp_fabric_gen_options *
take(gen_taken *own, const ibp_fabric_gen_options *o, ibp_error *err)
{
	fabric_gen_options_defaults(&own->o);
	if (ibp_options_take(&own->o, o, &fabric_gen_options_layout, err) ||
	    topo_fabric_options_take(&own->fabric, own->o.fabric, err))
		return NULL;
	own->o.fabric = &own->fabric;
	return &own->o;
}

static unsigned uplinks_of(const ibp_fabric_gen_options *o)
{
	return o->uplinks ? o->uplinks : o->radix / 2;
}

/* The largest k dividing total with k * users <= radix: how many
 * parallel links each of `users` switches sends to each switch of a
 * group, so that the group has as few switches (total / k) as it can
 * while every one of them still reaches every user. */
static unsigned parallel_links(unsigned total, unsigned users, unsigned radix)
{
	unsigned best = 1;
	for (unsigned k = 1; k <= total; k++)
		if (total % k == 0 && (uint64_t)k * users <= radix)
			best = k;
	return best;
}

/* The shape the taken options give (counts only; check() has passed or
 * the result is all zeros). */
static void shape_of(const ibp_fabric_gen_options *o, ibp_fabric_gen_shape *sh)
{
	memset(sh, 0, sizeof(*sh));
	if (o->radix < 4 || !o->cas)
		return;
	unsigned r = o->radix;
	if (o->cas <= r) {
		sh->tiers = 1;
		sh->leaves = 1;
		sh->down = o->cas;
	} else {
		unsigned up = uplinks_of(o);
		if (up < 1 || up >= r)
			return;
		sh->down = r - up;
		sh->up = up;
		sh->leaves = (o->cas + sh->down - 1) / sh->down;
		if (sh->leaves <= r) {
			/* two tiers: every leaf up to every spine */
			sh->tiers = 2;
			sh->leaf_links = parallel_links(up, sh->leaves, r);
			sh->spines = up / sh->leaf_links;
		} else {
			/* three tiers: pods of pod_leaves leaves and `up`
			 * spines (each leaf one link to each spine of its
			 * pod); spine j of every pod up to every core of
			 * core group j.  A pod takes at least half a
			 * switch's ports of leaves, more when the pods
			 * would not fit the cores' ports. */
			unsigned pl = r / 2;
			unsigned need = (sh->leaves + r - 1) / r;
			if (need > pl)
				pl = need;
			if (pl >= r)
				return; /* too big for three tiers */
			sh->tiers = 3;
			sh->pod_leaves = pl;
			sh->pods = (sh->leaves + pl - 1) / pl;
			sh->leaf_links = 1;
			sh->spines = sh->pods * up;
			sh->spine_up = r - pl;
			sh->core_links =
			    parallel_links(sh->spine_up, sh->pods, r);
			sh->cores = up * (sh->spine_up / sh->core_links);
		}
	}
	unsigned span =
	    1u << (o->fabric->lmc > IBP_MAX_LMC ? IBP_MAX_LMC : o->fabric->lmc);
	sh->lids =
	    ((uint64_t)o->cas + sh->leaves + sh->spines + sh->cores) * span;
	unsigned cap = o->fabric->linear_fdb_cap ? o->fabric->linear_fdb_cap
						 : IBP_DEFAULT_LINEAR_FDB_CAP;
	sh->max_lid =
	    cap - 1 < IBP_MAX_UNICAST_LID ? cap - 1 : IBP_MAX_UNICAST_LID;
}

void ibp_fabric_gen_shape_of(const ibp_fabric_gen_options *o,
			     ibp_fabric_gen_shape *out)
{
	gen_taken own;
	if (!out)
		return;
	if ((o = take(&own, o, NULL)))
		shape_of(o, out);
	else
		memset(out, 0, sizeof(*out));
}

void ibp_fabric_gen_counts(const ibp_fabric_gen_options *o, unsigned *leaves,
			   unsigned *spines)
{
	ibp_fabric_gen_shape sh;
	ibp_fabric_gen_shape_of(o, &sh);
	if (leaves)
		*leaves = sh.leaves;
	if (spines)
		*spines = sh.spines + sh.cores;
}

/* Whether the taken options make a fabric; err says why not. */
static int check(const ibp_fabric_gen_options *o, ibp_error *err)
{
	if (o->cas < 1 || o->cas > IBP_GEN_MAX_CAS)
		return ibp_error_set(err, IBP_ERANGE,
				     "--cas must be 1..%u, not %u",
				     IBP_GEN_MAX_CAS, o->cas);
	if (o->radix < 4 || o->radix > IBP_MAX_PORTS)
		return ibp_error_set(err, IBP_ERANGE,
				     "--radix must be 4..%u, not %u",
				     IBP_MAX_PORTS, o->radix);
	unsigned up = uplinks_of(o);
	if (o->cas > o->radix && (up < 2 || up >= o->radix))
		return ibp_error_set(err, IBP_ERANGE,
				     "--uplinks must be 2..%u (radix - 1)",
				     o->radix - 1);
	ibp_fabric_gen_shape sh;
	shape_of(o, &sh);
	if (!sh.tiers) {
		uint64_t most =
		    (uint64_t)o->radix * (o->radix - 1) * (o->radix - up);
		return ibp_error_set(err, IBP_ERANGE,
				     "%u CAs do not fit a three-tier fat tree "
				     "of radix %u (at most %llu CAs with %u "
				     "uplinks per leaf): use a bigger --radix",
				     o->cas, o->radix, (unsigned long long)most,
				     up);
	}
	if (sh.lids > sh.max_lid && !o->force)
		return ibp_error_set(
		    err, IBP_ERANGE,
		    "%u CAs and %u switches need %llu LIDs (LMC %u) but the "
		    "subnet has LIDs 1..%u (%s): %llu end ports would get no "
		    "LID; fewer --cas, a bigger --radix (fewer switches), or "
		    "--force to write it anyway",
		    o->cas, sh.leaves + sh.spines + sh.cores,
		    (unsigned long long)sh.lids, o->fabric->lmc, sh.max_lid,
		    sh.max_lid < IBP_MAX_UNICAST_LID
			? "the switches' LinearFDBCap"
			: "the unicast LID space, 0x0001-0xBFFF",
		    (unsigned long long)((sh.lids - sh.max_lid +
					  (1u << o->fabric->lmc) - 1) >>
					 o->fabric->lmc));
	if ((uint64_t)o->mgmt + o->storage > o->cas)
		return ibp_error_set(err, IBP_EINVAL,
				     "%u management + %u storage hosts do not "
				     "fit in %u CAs",
				     o->mgmt, o->storage, o->cas);
	unsigned tenants = o->cas - o->mgmt - o->storage;
	if (o->partitions > 0x7ffe)
		return ibp_error_set(err, IBP_ERANGE,
				     "at most 32766 partitions (P_Keys "
				     "0x0001..0x7ffe)");
	if (o->partitions > tenants)
		return ibp_error_set(err, IBP_EINVAL,
				     "%u partitions need at least as many "
				     "tenant nodes (there are %u)",
				     o->partitions, tenants);
	return IBP_OK;
}

/* The tenant (1-based) of tenant node j (0-based), and its index in the
 * tenant (1-based): nodes are spread evenly, the first tenants taking one
 * more when the division leaves a remainder. */
static void tenant_of(unsigned j, unsigned tnodes, unsigned p, unsigned *t,
		      unsigned *k)
{
	unsigned base = tnodes / p, extra = tnodes % p;
	unsigned big = extra * (base + 1);
	if (j < big) {
		*t = j / (base + 1) + 1;
		*k = j % (base + 1) + 1;
	} else {
		*t = extra + (j - big) / base + 1;
		*k = (j - big) % base + 1;
	}
}

static void ca_desc(const ibp_fabric_gen_options *o, unsigned i, char *buf,
		    size_t len)
{
	if (i < o->mgmt) {
		snprintf(buf, len, "mgmt-%04u", i + 1);
		return;
	}
	i -= o->mgmt;
	if (i < o->storage) {
		snprintf(buf, len, "storage-%04u", i + 1);
		return;
	}
	i -= o->storage;
	if (!o->partitions) {
		snprintf(buf, len, "node-%05u", i + 1);
		return;
	}
	unsigned t, k;
	tenant_of(i, o->cas - o->mgmt - o->storage, o->partitions, &t, &k);
	snprintf(buf, len, "t%04u-node-%04u", t, k);
}

static int add_switches(ibp_fabric *f, const char *kind, unsigned count,
			uint64_t *guid, unsigned radix, ibp_error *err)
{
	char desc[64];
	for (unsigned i = 0; i < count; i++) {
		snprintf(desc, sizeof(desc), "%s-%04u", kind, i + 1);
		int rc = ibp_fabric_add_node(f, IBP_NODE_SWITCH, (*guid)++,
					     radix, desc, NULL, err);
		if (rc)
			return rc;
	}
	return IBP_OK;
}

/* The links between the tiers (nodes: CAs, then leaves, spines, cores). */
static int link_tiers(const ibp_fabric_gen_options *o,
		      const ibp_fabric_gen_shape *sh, ibp_fabric *f,
		      ibp_error *err)
{
	int rc = IBP_OK;
	size_t leaf0 = o->cas, spine0 = leaf0 + sh->leaves,
	       core0 = spine0 + sh->spines;
	for (unsigned i = 0; i < o->cas && !rc; i++)
		rc = ibp_fabric_link(f, i, 1, leaf0 + i / sh->down,
				     i % sh->down + 1, err);
	if (sh->tiers == 2) {
		/* leaf l's uplinks: k to each spine; spine port l*k + i */
		unsigned k = sh->leaf_links;
		for (unsigned l = 0; l < sh->leaves && !rc; l++)
			for (unsigned j = 0; j < sh->up && !rc; j++)
				rc = ibp_fabric_link(
				    f, leaf0 + l, sh->down + j + 1,
				    spine0 + j / k, l * k + j % k + 1, err);
	} else if (sh->tiers == 3) {
		/* leaf l of pod p: uplink j to spine j of the pod (its
		 * down port l + 1); spine j of pod p: k links to each core
		 * of group j (core port p*k + i + 1) */
		unsigned pl = sh->pod_leaves, k = sh->core_links;
		unsigned per_group = sh->spine_up / k;
		for (unsigned l = 0; l < sh->leaves && !rc; l++) {
			unsigned p = l / pl, lp = l % pl;
			for (unsigned j = 0; j < sh->up && !rc; j++)
				rc = ibp_fabric_link(
				    f, leaf0 + l, sh->down + j + 1,
				    spine0 + (size_t)p * sh->up + j, lp + 1,
				    err);
		}
		for (unsigned p = 0; p < sh->pods && !rc; p++)
			for (unsigned j = 0; j < sh->up && !rc; j++)
				for (unsigned u = 0; u < sh->spine_up && !rc;
				     u++)
					rc = ibp_fabric_link(
					    f, spine0 + (size_t)p * sh->up + j,
					    pl + u + 1,
					    core0 + (size_t)j * per_group +
						u / k,
					    p * k + u % k + 1, err);
	}
	return rc;
}

int ibp_fabric_generate(const ibp_fabric_gen_options *o, ibp_fabric **out,
			ibp_error *err)
{
	*out = NULL;
	gen_taken own;
	if (!(o = take(&own, o, err)))
		return IBP_EINVAL;
	int rc = check(o, err);
	if (rc)
		return rc;
	ibp_fabric_gen_shape sh;
	shape_of(o, &sh);
	ibp_fabric *f = ibp_fabric_new(o->fabric);
	if (!f)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	char desc[64];
	/* CAs: nodes 0 .. cas-1 */
	for (unsigned i = 0; i < o->cas; i++) {
		ca_desc(o, i, desc, sizeof(desc));
		rc = ibp_fabric_add_node(f, IBP_NODE_CA,
					 IBP_GEN_CA_GUID_BASE + 2ULL * i, 1,
					 desc, NULL, err);
		if (rc)
			goto fail;
	}
	uint64_t guid = IBP_GEN_SWITCH_GUID_BASE;
	if ((rc = add_switches(f, "leaf", sh.leaves, &guid, o->radix, err)) ||
	    (rc = add_switches(f, "spine", sh.spines, &guid, o->radix, err)) ||
	    (rc = add_switches(f, "core", sh.cores, &guid, o->radix, err)) ||
	    (rc = link_tiers(o, &sh, f, err)))
		goto fail;
	*out = f;
	return IBP_OK;
fail:
	ibp_fabric_free(f);
	return rc;
}

/* ibp_partition_plan_overfull() of the taken options. */
static unsigned plan_overfull(const ibp_fabric_gen_options *o, unsigned *most)
{
	if (most)
		*most = 0;
	if (check(o, NULL))
		return 0;
	unsigned cap = o->fabric->ca_partition_cap;
	unsigned tnodes = o->cas - o->mgmt - o->storage;
	/* P_Keys per kind of CA, and how many CAs of the kind */
	const unsigned need[3] = {1, 1 + o->partitions,
				  1 + (o->partitions ? 1 : 0)};
	const unsigned count[3] = {o->mgmt, o->storage, tnodes};
	unsigned over = 0;
	for (int k = 0; k < 3; k++) {
		if (!count[k])
			continue;
		if (most && need[k] > *most)
			*most = need[k];
		if (need[k] > cap)
			over += count[k];
	}
	return over;
}

unsigned ibp_partition_plan_overfull(const ibp_fabric_gen_options *o,
				     unsigned *most)
{
	gen_taken own;
	if (!(o = take(&own, o, NULL))) {
		if (most)
			*most = 0;
		return 0;
	}
	return plan_overfull(o, most);
}

/* ibp_partition_plan_write() of the taken options. */
static int plan_write(const ibp_fabric_gen_options *o, const ibp_fabric *f,
		      FILE *out, ibp_error *err)
{
	int rc = check(o, err);
	if (rc)
		return rc;
	if (!f || ibp_fabric_node_count(f) < o->cas)
		return ibp_error_set(err, IBP_EINVAL,
				     "the fabric was not generated with these "
				     "options");
	unsigned tnodes = o->cas - o->mgmt - o->storage;
	fprintf(out,
		"# Generated by ibpart gen: %u CA ports, %u tenants, %u "
		"storage, %u management hosts.\n"
		"# OpenSM partitions.conf syntax; GUIDs are port GUIDs.\n",
		o->cas, o->partitions, o->storage, o->mgmt);
	if (o->mgmt) {
		fprintf(out, "Default=0x7fff, ipoib :");
		for (unsigned i = 0; i < o->mgmt; i++)
			fprintf(out, "%s\n    0x%016" PRIx64 "=full",
				i ? "," : "", ibp_fabric_port_guid(f, i, 1));
		fprintf(out, " ;\n");
	} else {
		fprintf(out, "Default=0x7fff, ipoib : SELF=full ;\n");
	}
	unsigned j = 0;
	for (unsigned t = 1; t <= o->partitions; t++) {
		fprintf(out, "t%04u=0x%04x, ipoib :", t, t);
		unsigned n = tnodes / o->partitions +
			     (t <= tnodes % o->partitions ? 1 : 0);
		const char *sep = "";
		for (unsigned k = 0; k < n; k++, j++) {
			size_t node = (size_t)o->mgmt + o->storage + j;
			fprintf(out, "%s\n    0x%016" PRIx64 "=full", sep,
				ibp_fabric_port_guid(f, node, 1));
			sep = ",";
		}
		for (unsigned s = 0; s < o->storage; s++)
			fprintf(out, ",\n    0x%016" PRIx64 "=limited",
				ibp_fabric_port_guid(f, o->mgmt + s, 1));
		fprintf(out, " ;\n");
	}
	if (fflush(out) || ferror(out))
		return ibp_error_set(err, IBP_EIO, "write failed");
	return IBP_OK;
}

int ibp_partition_plan_write(const ibp_fabric_gen_options *o,
			     const ibp_fabric *f, FILE *out, ibp_error *err)
{
	gen_taken own;
	if (!(o = take(&own, o, err)))
		return IBP_EINVAL;
	return plan_write(o, f, out, err);
}

bool ibp_partition_plan_overfull_message(const ibp_fabric_gen_options *o,
					 char *buf, size_t len)
{
	gen_taken own;
	if (!(o = take(&own, o, NULL)))
		return false;
	unsigned most;
	unsigned over = plan_overfull(o, &most);
	if (!over)
		return false;
	unsigned cap = o->fabric->ca_partition_cap;
	int l = snprintf(buf, len,
			 "%u CA port(s) need more P_Keys than their "
			 "P_KeyTable holds: up to %u in %u entries (the CA "
			 "PartitionCap)",
			 over, most, cap);
	if (l >= 0 && (size_t)l < len && o->storage &&
	    most == o->partitions + 1)
		l += snprintf(buf + l, len - (size_t)l,
			      ", the storage nodes being in 0x7fff and all %u "
			      "tenant partitions",
			      o->partitions);
	if (l >= 0 && (size_t)l < len)
		snprintf(buf + l, len - (size_t)l,
			 "; OpenSM drops the last %u of each (ERR 0512), so "
			 "those ports lose partitions.  Use --partitions %u or "
			 "fewer (ibpart tables --ca-partition-cap N checks the "
			 "plan against HCAs with bigger tables)",
			 most - cap, cap > 1 ? cap - 1 : 0);
	return true;
}

void ibp_fabric_gen_summary(const ibp_fabric_gen_options *o,
			    const char *topo_path, const char *conf_path,
			    char *buf, size_t len)
{
	gen_taken own;
	if (!(o = take(&own, o, NULL))) {
		snprintf(buf, len, "%s: bad generator options", topo_path);
		return;
	}
	ibp_fabric_gen_shape sh;
	shape_of(o, &sh);
	snprintf(buf, len,
		 "%s: %u CAs, %u leaf + %u spine + %u core switches (radix "
		 "%u, %u tier%s, %llu LIDs of %u)%s%s",
		 topo_path, o->cas, sh.leaves, sh.spines, sh.cores, o->radix,
		 sh.tiers, sh.tiers > 1 ? "s" : "", (unsigned long long)sh.lids,
		 sh.max_lid, conf_path ? "; " : "", conf_path ? conf_path : "");
}

bool ibp_fabric_gen_lid_message(const ibp_fabric_gen_options *o, char *buf,
				size_t len)
{
	gen_taken own;
	if (!(o = take(&own, o, NULL)))
		return false;
	ibp_fabric_gen_shape sh;
	shape_of(o, &sh);
	if (sh.lids <= sh.max_lid)
		return false;
	snprintf(buf, len,
		 "--force: %llu LIDs needed, the subnet has %u: the last end "
		 "ports get none",
		 (unsigned long long)sh.lids, sh.max_lid);
	return true;
}

int ibp_fabric_gen_write_files(const ibp_fabric_gen_options *o,
			       const ibp_fabric *f, const char *topo_path,
			       const char *conf_path, ibp_error *err)
{
	gen_taken own;
	if (!(o = take(&own, o, err)))
		return IBP_EINVAL;
	ibp_atomic_file *ft = NULL, *fc = NULL;
	FILE *fpt, *fpc = NULL;
	int rc;
	if ((rc = ibp_atomic_file_open(topo_path, &ft, &fpt, err)) ||
	    (rc = ibp_fabric_write(f, fpt, err)) ||
	    (conf_path &&
	     ((rc = ibp_atomic_file_open(conf_path, &fc, &fpc, err)) ||
	      (rc = plan_write(o, f, fpc, err)))))
		goto out;
	rc = ibp_atomic_file_commit(ft, false, err);
	ft = NULL;
	if (!rc && fc) {
		rc = ibp_atomic_file_commit(fc, false, err);
		fc = NULL;
	}
out:
	ibp_atomic_file_discard(ft);
	ibp_atomic_file_discard(fc);
	return rc;
}
