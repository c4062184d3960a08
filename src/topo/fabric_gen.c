/*
 * fabric_gen.c - generated two-level fat trees and partition plans (see
 * include/ibpart/fabric_gen.h), the inputs of benchmarks and of tests
 * that need fabrics bigger than the seed's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/atomic_file.h"
#include "ibpart/fabric_gen.h"
#include "ibpart/topo.h"

void ibp_fabric_gen_options_init(ibp_fabric_gen_options *o)
{
	if (!o)
		return;
	memset(o, 0, sizeof(*o));
	o->radix = 36;
	o->mgmt = 1;
	ibp_fabric_options_init(&o->fabric);
}

static unsigned uplinks_of(const ibp_fabric_gen_options *o)
{
	return o->uplinks ? o->uplinks : o->radix / 2;
}

void ibp_fabric_gen_counts(const ibp_fabric_gen_options *o, unsigned *leaves,
			   unsigned *spines)
{
	unsigned l = 0, s = 0;
	if (o && o->radix >= 2 && o->cas) {
		if (o->cas <= o->radix) {
			l = 1;
		} else {
			unsigned up = uplinks_of(o);
			unsigned down = o->radix > up ? o->radix - up : 0;
			if (down) {
				l = (o->cas + down - 1) / down;
				s = (unsigned)(((uint64_t)l * up + o->radix -
						1) /
					       o->radix);
			}
		}
	}
	if (leaves)
		*leaves = l;
	if (spines)
		*spines = s;
}

static int check(const ibp_fabric_gen_options *o, ibp_error *err)
{
	if (!o)
		return ibp_error_set(err, IBP_EINVAL, "no options");
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

int ibp_fabric_generate(const ibp_fabric_gen_options *o, ibp_fabric **out,
			ibp_error *err)
{
	*out = NULL;
	int rc = check(o, err);
	if (rc)
		return rc;
	unsigned leaves, spines;
	ibp_fabric_gen_counts(o, &leaves, &spines);
	unsigned up = leaves > 1 ? uplinks_of(o) : 0;
	unsigned down = o->radix - up;
	ibp_fabric *f = ibp_fabric_new(&o->fabric);
	unsigned *spine_used = calloc(spines + 1, sizeof(*spine_used));
	if (!f || !spine_used) {
		ibp_fabric_free(f);
		free(spine_used);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
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
	/* leaves: nodes cas .. cas+leaves-1; spines after them */
	for (unsigned l = 0; l < leaves; l++) {
		snprintf(desc, sizeof(desc), "leaf-%04u", l + 1);
		rc = ibp_fabric_add_node(f, IBP_NODE_SWITCH,
					 IBP_GEN_SWITCH_GUID_BASE + l, o->radix,
					 desc, NULL, err);
		if (rc)
			goto fail;
	}
	for (unsigned s = 0; s < spines; s++) {
		snprintf(desc, sizeof(desc), "spine-%04u", s + 1);
		rc = ibp_fabric_add_node(f, IBP_NODE_SWITCH,
					 IBP_GEN_SWITCH_GUID_BASE + leaves + s,
					 o->radix, desc, NULL, err);
		if (rc)
			goto fail;
	}
	for (unsigned i = 0; i < o->cas; i++) {
		size_t leaf = o->cas + i / down;
		rc = ibp_fabric_link(f, i, 1, leaf, i % down + 1, err);
		if (rc)
			goto fail;
	}
	size_t first_spine = (size_t)o->cas + leaves;
	for (unsigned l = 0; l < leaves && spines; l++) {
		for (unsigned j = 0; j < up; j++) {
			/* consecutive spines, overlapping the next leaf's by
			 * one; a full spine passes the link on */
			unsigned s =
			    (unsigned)(((uint64_t)l * (up - 1) + j) % spines);
			unsigned tries = 0;
			while (spine_used[s] >= o->radix && tries++ < spines)
				s = (s + 1) % spines;
			if (spine_used[s] >= o->radix) {
				rc = ibp_error_set(err, IBP_ERANGE,
						   "spines are full");
				goto fail;
			}
			rc = ibp_fabric_link(f, o->cas + l, down + j + 1,
					     first_spine + s, ++spine_used[s],
					     err);
			if (rc)
				goto fail;
		}
	}
	free(spine_used);
	*out = f;
	return IBP_OK;
fail:
	free(spine_used);
	ibp_fabric_free(f);
	return rc;
}

unsigned ibp_partition_plan_overfull(const ibp_fabric_gen_options *o,
				     unsigned *most)
{
	if (most)
		*most = 0;
	if (!o || check(o, NULL))
		return 0;
	unsigned cap = o->fabric.ca_partition_cap;
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

int ibp_partition_plan_write(const ibp_fabric_gen_options *o,
			     const ibp_fabric *f, FILE *out, ibp_error *err)
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

bool ibp_partition_plan_overfull_message(const ibp_fabric_gen_options *o,
					 char *buf, size_t len)
{
	unsigned most;
	unsigned over = ibp_partition_plan_overfull(o, &most);
	if (!over)
		return false;
	unsigned cap = o->fabric.ca_partition_cap;
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

int ibp_fabric_gen_write_files(const ibp_fabric_gen_options *o,
			       const ibp_fabric *f, const char *topo_path,
			       const char *conf_path, ibp_error *err)
{
	ibp_atomic_file *ft = NULL, *fc = NULL;
	FILE *fpt, *fpc = NULL;
	int rc;
	if ((rc = ibp_atomic_file_open(topo_path, &ft, &fpt, err)) ||
	    (rc = ibp_fabric_write(f, fpt, err)) ||
	    (conf_path &&
	     ((rc = ibp_atomic_file_open(conf_path, &fc, &fpc, err)) ||
	      (rc = ibp_partition_plan_write(o, f, fpc, err)))))
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
