/*
 * monitor_traps.c - Bad P_Key traps (IBA 14.2.5.1: 257 from an HCA,
 * 259 from a switch external port) for the monitor (see
 * include/ibpart/monitor.h): OpenSM's log lines parsed (its file is
 * written with text tenants influence - NodeDescriptions - so every
 * line is read bounded, numbers checked, nothing of it kept), the log
 * read incrementally from the offset the state keeps, and each trap
 * counted on the port that raised it and for the tenants of the CA
 * ports it names.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "monitor/monitor_priv.h"
#include "monitor/monitor_lib.h"
#include "util/error_lib.h"

/* The first occurrence of the NUL-terminated needle in s[0, len). */
static const char *find(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle));
}

/* Expect the literal lit at *p (before end), then a number in base 10
 * or 16 (after "0x" in the literal) up to max; *p moves past it. */
static bool field(const char **p, const char *end, const char *lit,
		  unsigned base, uint64_t max, uint64_t *v)
{
	size_t n = strlen(lit);
	if ((size_t)(end - *p) < n || memcmp(*p, lit, n))
		return false;
	const char *q = *p + n;
	uint64_t x = 0;
	size_t digits = 0;
	for (; q < end; q++, digits++) {
		unsigned d;
		if (*q >= '0' && *q <= '9')
			d = (unsigned)(*q - '0');
		else if (base == 16 && *q >= 'a' && *q <= 'f')
			d = (unsigned)(*q - 'a' + 10);
		else if (base == 16 && *q >= 'A' && *q <= 'F')
			d = (unsigned)(*q - 'A' + 10);
		else
			break;
		if (x > (max - d) / base)
			return false; /* out of range */
		x = x * base + d;
	}
	if (!digits)
		return false;
	*v = x;
	*p = q;
	return true;
}

/* The length of OpenSM's line prefix at s (osm_log.c: "%s %02d
 * %02d:%02d:%02d %06d [%04X] 0x%02x -> ", then OSM_LOG's "%s: " with
 * the function's name fn), 0 when s does not start with one.  Requiring it
 * keeps text a tenant wrote (a NodeDescription, 64 bytes, even with a line feed
 * in it) from passing for a trap line: the prefix and a trap message do not fit
 * in 64 bytes. */
static size_t prefix_len(const char *s, size_t len, const char *fn)
{
	static const char shape[] = "Aaa 00 00:00:00 000000 [";
	size_t i = 0;
	for (; shape[i]; i++) {
		if (i >= len)
			return 0;
		char c = s[i], k = shape[i];
		bool ok = k == '0'   ? c >= '0' && c <= '9'
			  : k == 'A' ? c >= 'A' && c <= 'Z'
			  : k == 'a' ? c >= 'a' && c <= 'z'
				     : c == k;
		if (!ok && !(i == 4 && c == ' ')) /* day padded: " 4" */
			return 0;
	}
	size_t hex = 0;
	for (; i < len && hex < 16 && strchr("0123456789ABCDEFabcdef", s[i]) &&
	       s[i];
	     i++, hex++)
		;
	static const char tail[] = "] 0x";
	if (!hex || len - i < sizeof(tail) - 1 + 2 ||
	    memcmp(s + i, tail, sizeof(tail) - 1))
		return 0;
	i += sizeof(tail) - 1;
	for (int k = 0; k < 2; k++, i++)
		if (!s[i] || !strchr("0123456789abcdefABCDEF", s[i]))
			return 0;
	/* OSM_LOG (osm_log.h) puts the function's name first */
	size_t n = strlen(fn);
	if (len - i < 4 + n + 2 || memcmp(s + i, " -> ", 4) ||
	    memcmp(s + i + 4, fn, n) || memcmp(s + i + 4 + n, ": ", 2))
		return 0;
	return i + 4 + n + 2;
}

/* An IPv6 address as inet_ntop writes a GID ("::", "fe80::..."): at
 * most INET6_ADDRSTRLEN - 1 characters of [0-9a-fA-F:.]; *p moves past
 * it. */
static bool gid_text(const char **p, const char *end)
{
	const char *q = *p;
	while (q < end && q - *p < 46 &&
	       ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f') ||
		(*q >= 'A' && *q <= 'F') || *q == ':' || *q == '.'))
		q++;
	if (q - *p < 2 || q - *p > 45)
		return false;
	*p = q;
	return true;
}

/* osm_inform.c log_notice's line for a trap 259 the SA reports
 * (OSM_LOG_INFO), after its prefix: "Reporting Security Notice \"%s\"
 * from switch LID %u, GUID 0x%016llx port %d : data_valid 0x%04x, LID1
 * %u, LID2 %u, PKey 0x%04x, SL %d, QP1 0x%x, QP2 0x%x, GID1 %s, GID2
 * %s" - the trap's whole DataDetails.  2 with *out filled, 0 when p is
 * another message, -1 when it is this one but does not parse. */
static int parse_report_259(const char *p, const char *end,
			    struct ibp_sm_trap *out)
{
	static const char head[] = "Reporting Security Notice \"Bad P_Key "
				   "(switch external port)\" from switch LID ";
	if ((size_t)(end - p) < sizeof(head) - 1 ||
	    memcmp(p, head, sizeof(head) - 1))
		return 0;
	p += sizeof(head) - 1;
	uint64_t lid, guid, port, valid, lid1, lid2, pkey, sl, qp1, qp2;
	if (!field(&p, end, "", 10, UINT16_MAX, &lid) ||
	    !field(&p, end, ", GUID 0x", 16, UINT64_MAX, &guid) ||
	    !field(&p, end, " port ", 10, UINT8_MAX, &port) ||
	    !field(&p, end, " : data_valid 0x", 16, UINT16_MAX, &valid) ||
	    !field(&p, end, ", LID1 ", 10, UINT16_MAX, &lid1) ||
	    !field(&p, end, ", LID2 ", 10, UINT16_MAX, &lid2) ||
	    !field(&p, end, ", PKey 0x", 16, UINT16_MAX, &pkey) ||
	    !field(&p, end, ", SL ", 10, 15, &sl) ||
	    !field(&p, end, ", QP1 0x", 16, 0xffffff, &qp1) ||
	    !field(&p, end, ", QP2 0x", 16, UINT32_MAX, &qp2))
		return -1;
	static const char g1[] = ", GID1 ", g2[] = ", GID2 ";
	if ((size_t)(end - p) < sizeof(g1) - 1 || memcmp(p, g1, sizeof(g1) - 1))
		return -1;
	p += sizeof(g1) - 1;
	if (!gid_text(&p, end) || (size_t)(end - p) < sizeof(g2) - 1 ||
	    memcmp(p, g2, sizeof(g2) - 1))
		return -1;
	p += sizeof(g2) - 1;
	if (!gid_text(&p, end) || p != end)
		return -1;
	/* the trap as the notice carried it, read as a received one is */
	struct ibp_notice n;
	ibp_notice_init_trap(&n, IBP_NOTICE_TYPE_SECURITY, IBP_NODE_SWITCH,
			     IBP_TRAP_SWITCH_BAD_PKEY, (uint16_t)lid);
	struct ibp_trap_259 d = {.data_valid = (uint16_t)valid,
				 .lid1 = (uint16_t)lid1,
				 .lid2 = (uint16_t)lid2,
				 .pkey = (uint16_t)pkey,
				 .sl = (uint8_t)sl,
				 .qp1 = (uint32_t)qp1,
				 .qp2 = (uint32_t)qp2 & 0xffffff,
				 .sw_lid = (uint16_t)lid,
				 .port = (uint8_t)port};
	ibp_trap_259_to_details(&d, n.data_details);
	ibp_sm_trap_from_notice(&n, out);
	(void)guid;
	return 2;
}

int ibp_opensm_log_trap_parse(const char *line, size_t len,
			      struct ibp_sm_trap *out)
{
	const char *end = line + len;
	memset(out, 0, sizeof(*out));
	size_t pre = prefix_len(line, len, "log_notice");
	if (pre)
		return parse_report_259(line + pre, end, out);
	pre = prefix_len(line, len, "log_trap_info");
	const char *p = line + pre;
	static const char bad[] = "Bad P_Key:0x";
	static const char gen[] = "Received Generic Notice type:";
	if (pre && (size_t)(end - p) >= sizeof(bad) - 1 &&
	    !memcmp(p, bad, sizeof(bad) - 1)) {
		/* "Bad P_Key:0x%x on SL:%d from LID1:%u QP1:0x%x to
		 * LID2:%u QP2:0x%x" (the 32-bit Key field, the P_Key in
		 * its low 16 bits) */
		uint64_t key, sl, lid1, qp1, lid2, qp2;
		if (!field(&p, end, bad, 16, UINT32_MAX, &key) ||
		    !field(&p, end, " on SL:", 10, 15, &sl) ||
		    !field(&p, end, " from LID1:", 10, UINT16_MAX, &lid1) ||
		    !field(&p, end, " QP1:0x", 16, UINT32_MAX, &qp1) ||
		    !field(&p, end, " to LID2:", 10, UINT16_MAX, &lid2) ||
		    !field(&p, end, " QP2:0x", 16, UINT32_MAX, &qp2) ||
		    p != end)
			return -1;
		out->number = 257;
		out->issuer_lid = (uint16_t)lid2; /* the port that refused */
		out->lids_valid = out->pkey_valid = true;
		out->lid1 = (uint16_t)lid1;
		out->lid2 = (uint16_t)lid2;
		out->pkey = (uint16_t)key;
		return 1;
	}
	if (!pre || (size_t)(end - p) < sizeof(gen) - 1 ||
	    memcmp(p, gen, sizeof(gen) - 1))
		return 0;
	const char *num = find(p, (size_t)(end - p), " num:259 (Bad P_Key");
	if (!num)
		return 0; /* another trap (the num:257 line among them) */
	/* the issuer: " from LID:%u" after OpenSM's producer string */
	const char *from = find(num, (size_t)(end - num), " from LID:");
	uint64_t lid, tid;
	if (!from || !field(&from, end, " from LID:", 10, UINT16_MAX, &lid) ||
	    !field(&from, end, " TID:0x", 16, UINT64_MAX, &tid) || from != end)
		return -1;
	out->number = 259;
	out->issuer_lid = (uint16_t)lid;
	return 1;
}

/* A 259 as log_trap_info logs it: its switch's LID and nothing else. */
static bool bare_259(const struct ibp_sm_trap *t)
{
	return t->number == 259 && !t->lids_valid && !t->pkey_valid &&
	       !t->sw_port;
}

/* The SA's report line of a 259 (t, all its details) after OpenSM's
 * "num:259" line counted it: the latest trap of this read from the same
 * switch still without details gets them; else one of the previous
 * read (the line counted then: only the details are new); else the
 * trap counts from this line alone (its num:259 line was not read). */
static int details_259(struct monitor_traps *v, struct monitor_log_pos *pos,
		       size_t from, const struct ibp_sm_trap *t)
{
	for (size_t i = v->n; i > from; i--)
		if (bare_259(&v->a[i - 1]) &&
		    v->a[i - 1].issuer_lid == t->issuer_lid) {
			v->a[i - 1] = *t;
			return IBP_OK;
		}
	for (unsigned k = 0; k < pos->npending259; k++)
		if (pos->pending259[k] == t->issuer_lid) {
			pos->pending259[k] =
			    pos->pending259[--pos->npending259];
			int rc = monitor_traps_push(v, t);
			if (rc == IBP_OK)
				v->seen[v->n - 1] = true;
			return rc;
		}
	return monitor_traps_push(v, t);
}

/* Bytes of the log read per read(2). */
#define LOG_CHUNK 65536

int monitor_log_read(ibp_monitor_state *st, const char *path,
		     struct monitor_traps *v, ibp_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		int e = fd < 0 ? errno : EINVAL;
		if (fd >= 0)
			close(fd);
		return ibp_error_set_at(err, IBP_EIO, path, 0, 0,
					"cannot read: %s", strerror(e));
	}
	struct monitor_log_pos *pos = monitor_state_log_pos(st);
	if (pos->dev != (uint64_t)sb.st_dev ||
	    pos->ino != (uint64_t)sb.st_ino ||
	    (uint64_t)sb.st_size < pos->offset) {
		/* a new file (rotated) or truncated: from its start */
		pos->dev = (uint64_t)sb.st_dev;
		pos->ino = (uint64_t)sb.st_ino;
		pos->offset = 0;
		pos->skipping = false;
	}
	char *buf = malloc(LOG_CHUNK + IBP_MONITOR_LOG_LINE_MAX);
	if (!buf) {
		close(fd);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	int rc = IBP_OK;
	size_t from = v->n; /* this read's traps start here */
	size_t have = 0;    /* bytes of an unfinished line at buf's start */
	uint64_t at = pos->offset; /* file offset of buf[0] */
	for (;;) {
		ssize_t n =
		    pread(fd, buf + have, LOG_CHUNK, (off_t)(at + have));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = ibp_error_set_at(err, IBP_EIO, path, 0, 0,
					      "cannot read: %s",
					      strerror(errno));
			break;
		}
		if (n == 0)
			break;
		size_t len = have + (size_t)n, start = 0;
		for (size_t i = have; i < len; i++) {
			if (buf[i] != '\n')
				continue;
			if (!pos->skipping &&
			    i - start <= IBP_MONITOR_LOG_LINE_MAX) {
				struct ibp_sm_trap t;
				int k = ibp_opensm_log_trap_parse(
				    buf + start, i - start, &t);
				if (k == 2)
					rc = details_259(v, pos, from, &t);
				else if (k > 0)
					rc = monitor_traps_push(v, &t);
				else if (k < 0)
					v->malformed++;
				if (rc) {
					rc = ibp_error_set(err, rc,
							   "out of memory");
					goto out;
				}
			}
			pos->skipping = false;
			start = i + 1;
		}
		/* what is left is a line not finished yet */
		have = len - start;
		if (have > IBP_MONITOR_LOG_LINE_MAX) {
			pos->skipping = true; /* too long: to its end, unread */
			start = len;
			have = 0;
		}
		memmove(buf, buf + start, have);
		at += start;
		pos->offset = at;
	}
out:
	/* the 259s still waiting for their details: perhaps in the next
	 * read (the two lines are written one after the other) */
	pos->npending259 = 0;
	for (size_t i = from; i < v->n; i++)
		if (bare_259(&v->a[i]) && !v->seen[i] &&
		    pos->npending259 < MONITOR_PENDING_259)
			pos->pending259[pos->npending259++] =
			    v->a[i].issuer_lid;
	free(buf);
	close(fd);
	return rc;
}

int monitor_traps_push(struct monitor_traps *v, const struct ibp_sm_trap *t)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		struct ibp_sm_trap *a = realloc(v->a, cap * sizeof(*a));
		if (!a)
			return IBP_ENOMEM;
		v->a = a;
		bool *seen = realloc(v->seen, cap * sizeof(*seen));
		if (!seen)
			return IBP_ENOMEM;
		v->seen = seen;
		v->cap = cap;
	}
	v->seen[v->n] = false;
	v->a[v->n++] = *t;
	return IBP_OK;
}

void monitor_traps_free(struct monitor_traps *v)
{
	free(v->a);
	free(v->seen);
	memset(v, 0, sizeof(*v));
}

static int by_lid(const void *a, const void *b)
{
	const struct ibp_monitor_port *x =
	    *(const struct ibp_monitor_port *const *)a;
	const struct ibp_monitor_port *y =
	    *(const struct ibp_monitor_port *const *)b;
	return (x->lid > y->lid) - (x->lid < y->lid);
}

/* The CA port (is_switch false) or, with sw, a port of the switch of
 * LID lid. */
static const struct ibp_monitor_port *
lookup(struct ibp_monitor_port *const *idx, size_t n, uint16_t lid, bool sw)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (idx[mid]->lid < lid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && idx[lo]->lid == lid; lo++)
		if (idx[lo]->is_switch == sw)
			return idx[lo];
	return NULL;
}

int monitor_traps_count(ibp_monitor_sweep *r, ibp_monitor_state *st,
			const struct monitor_traps *v, ibp_error *err)
{
	struct ibp_monitor_port **idx =
	    malloc((r->nports ? r->nports : 1) * sizeof(*idx));
	if (!idx)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < r->nports; i++)
		if (r->ports[i].lid)
			idx[n++] = &r->ports[i];
	qsort(idx, n, sizeof(*idx), by_lid);
	int rc = IBP_OK;
	for (size_t i = 0; rc == IBP_OK && i < v->n; i++) {
		const struct ibp_sm_trap *t = &v->a[i];
		bool sw = t->number == 259;
		/* a 259 on the switch port that filtered it (0: the log
		 * named only the switch) */
		const struct ibp_monitor_port *is =
		    v->seen[i] ? NULL : lookup(idx, n, t->issuer_lid, sw);
		const struct ibp_monitor_port *p1 =
		    t->lids_valid ? lookup(idx, n, t->lid1, false) : NULL;
		const struct ibp_monitor_port *p2 =
		    t->lids_valid ? lookup(idx, n, t->lid2, false) : NULL;
		if (!v->seen[i])
			r->traps++;
		if (!v->seen[i] && !is && !p1 && !p2)
			r->traps_unplaced++;
		if (is)
			rc = monitor_state_trap(st, is->node_guid,
						sw ? t->sw_port : is->port,
						MONITOR_TRAP_ISSUED);
		if (rc == IBP_OK && p1)
			rc = monitor_state_trap(st, p1->node_guid, p1->port,
						MONITOR_TRAP_FROM);
		if (rc == IBP_OK && p2)
			rc = monitor_state_trap(st, p2->node_guid, p2->port,
						MONITOR_TRAP_TOWARD);
	}
	free(idx);
	return rc ? ibp_error_set(err, rc, "out of memory") : IBP_OK;
}
