/*
 * sim_session.h - a simulated fabric brought up from a topology and a
 * partition plan, and the seed's commands replayed on it.
 *
 * A session loads the topology, assigns LIDs in OpenSM's order, computes
 * the P_KeyTables the plan asks for (policy.h, in the asked mode), brings
 * up the simulator (sim.h) with the SM's port, and lets the built-in SM
 * (sm.h) push the tables over SMPs through the simulated transport.  On
 * that fabric it then replays what the seed document runs by hand:
 * `smpquery pkeys` (output byte for byte as infiniband-diags prints it),
 * an ibv_rc_pingpong-like RC exchange, a probe between every ordered pair
 * of host ports, and the ports' violation counters.  Everything is learnt
 * the way the real tools learn it: SMPs to a LID, packets through the
 * data plane, traps through the transport.
 *
 * `ibpart sim` and `ibpart demo` are front ends of this API; any other
 * (a REST service) can run the same session.  The library never writes
 * to stderr: findings about the inputs go to the caller's ibp_diags,
 * failures to its ibp_error, progress to its callback, and the replayed
 * commands' output to the FILE * it passes (NULL: no text).
 *
 * Thread use: the module has no mutable global state.  Distinct sessions
 * may be used from different threads at once; one session is used by one
 * thread at a time (even the const getters, while another thread runs an
 * operation on the same session).
 */
#ifndef IBPART_SIM_SESSION_H
#define IBPART_SIM_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/export.h"
#include "ibpart/policy.h"
#include "ibpart/sys/sim.h"
#include "ibpart/sys/sm.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"

IBP_BEGIN_DECLS

/* ------------------------------------------------------------ options */

#define IBP_SIM_SESSION_OPTIONS_VERSION 2 /* 2: alias_guids_path */

/* How to bring a session up.  Initialise with
 * ibp_sim_session_options_init() and then set fields: the version field
 * lets a later library tell an older caller's struct apart. */
struct ibp_sim_session_options {
	unsigned version;      /* IBP_SIM_SESSION_OPTIONS_VERSION */
	const char *topo_path; /* ibnetdiscover / ibsim topology (required) */
	const char *conf_path; /* partitions.conf, either dialect (required) */
	const char *mode;      /* "opensm" (default) or "strict" */
	const char *sm_port;   /* port spec (LID, GUID, description) of the
				  SM; NULL: the fabric's first CA port */
	ibp_part_enforce enforce; /* for the SM's push; default both */
	double mad_loss;	  /* lose this fraction [0,1) of the SM's MADs,
				     reproducibly (the SM then retries); default 0 */
	bool push; /* run the first SM push in ibp_sim_session_open()
		      (default true); false: the caller runs it with
		      ibp_sim_session_push() */
	/* Called with a one-line message at each step of bringing the
	 * session up (NULL: none).  Runs on the caller's thread, inside the
	 * call; msg is valid only during the call. */
	void (*progress)(void *ctx, const char *msg);
	void *progress_ctx;
	/* Read at most this many bytes of each input file (0: the
	 * defaults of limits.h); a longer one is IBP_ERANGE. */
	size_t max_input_size;
	/* An alias map (alias_map.h; NULL: none): its aliases are the
	 * hosts' SR-IOV VFs, registered in their ports' GUIDInfo tables,
	 * each VF's P_KeyTable mapping its port's first 16 entries one to
	 * one until ibp_sim_session_vf_map() maps it otherwise; a VF's
	 * alias GUID names it in a pingpong. */
	const char *alias_guids_path;
};

/* Fill o with the defaults above (and the version).  o must not be NULL. */
void ibp_sim_session_options_init(struct ibp_sim_session_options *o,
				  unsigned version);

/* ------------------------------------------------------------ session */

typedef struct ibp_sim_session ibp_sim_session;

/* Bring a session up: load o->topo_path, pick the SM's port, assign LIDs,
 * parse o->conf_path against the fabric and compute its tables in
 * o->mode, create the simulator, its transport at the SM's port and the
 * SM, and (o->push) run the SM's push.
 *
 * Every finding about the topology (sorted by position) and then every
 * finding about the plan (in the order found) is appended to diags (may
 * be NULL), which the caller prints or renders; warnings do not fail the
 * call.  On success *out receives the session, which the caller frees
 * with ibp_sim_session_free(); the paths in o need not outlive the call.
 *
 * Errors (*out is then NULL; err, when not NULL, says why, with file,
 * line and column when the failure is about a place in an input):
 *   IBP_EINVAL  bad options (version, missing path, unknown mode), an
 *               SM port spec that names no port, a fabric without a CA
 *               port for the SM;
 *   IBP_EPARSE  the topology does not load (err repeats its first error
 *               finding, which is also in diags) or the plan cannot be
 *               used (strict mode refuses a file OpenSM rejects);
 *   IBP_ENOENT  an input file cannot be read (missing, unreadable);
 *   IBP_ENOMEM  out of memory;
 *   IBP_EIO, IBP_ETIMEDOUT, IBP_EMAD  the simulated fabric or the push
 *               failed (the SM's own status).
 * Other statuses of the lower modules pass through unchanged. */
int ibp_sim_session_open(const struct ibp_sim_session_options *o,
			 ibp_sim_session **out, ibp_diags *diags,
			 ibp_error *err);

/* Free the session and everything it holds (fabric, tables, simulator,
 * SM, report).  NULL is allowed.  Pointers from its getters die with
 * it. */
void ibp_sim_session_free(ibp_sim_session *s);

/* Run the SM's push (again) with enforcement e (the SM's other options,
 * its retries under o->mad_loss, stay as opened): the SM re-reads every
 * port's table and writes only the blocks that differ from the session's
 * desired tables.  The report of the previous push is replaced by this
 * one (ibp_sim_session_report()), also when the push fails.  Errors: the
 * SM's (IBP_EIO, IBP_ETIMEDOUT, IBP_EMAD, IBP_ENOMEM); the report then
 * says how far it got. */
int ibp_sim_session_push(ibp_sim_session *s, ibp_part_enforce e,
			 ibp_error *err);

/* ------------------------------------------------------------ getters
 * All owned by the session (do not free), valid until it is freed; none
 * of them changes the session. */

/* The fabric model, with LIDs assigned. */
const ibp_fabric *ibp_sim_session_fabric(const ibp_sim_session *s);
/* The desired tables: what the policy computed from the plan. */
const ibp_tables *ibp_sim_session_tables(const ibp_sim_session *s);
/* The tables the simulated ports hold now (what the SM wrote). */
const ibp_tables *ibp_sim_session_port_tables(const ibp_sim_session *s);
/* The simulator and the SM, for callers that drive them further
 * (packets, traps); they belong to the session. */
ibp_sim *ibp_sim_session_sim(ibp_sim_session *s);
ibp_sm *ibp_sim_session_sm(ibp_sim_session *s);
/* The last push's report; all zero before the first push. */
const struct ibp_sm_report *ibp_sim_session_report(const ibp_sim_session *s);
/* Where the SM runs (node index and port number; either may be NULL). */
void ibp_sim_session_sm_port(const ibp_sim_session *s, size_t *node,
			     unsigned *port);
/* The mode the tables were computed in ("opensm" or "strict"). */
const char *ibp_sim_session_mode(const ibp_sim_session *s);
/* The enforcement of the last push. */
ibp_part_enforce ibp_sim_session_enforce(const ibp_sim_session *s);

/* The host's pkey_idx mapping of a VF (its alias GUID, as the session's
 * alias map has it): its P_KeyTable entry i is its physical port's entry
 * phys_index[i], for i < n (at most IBP_SIM_VF_PKEYS), the rest empty.
 * IBP_EINVAL when vf_guid is no VF of the session. */
int ibp_sim_session_vf_map(ibp_sim_session *s, const char *vf_guid,
			   const uint16_t *phys_index, unsigned n,
			   ibp_error *err);

/* Resolve a port spec (LID, port GUID, node GUID, node description,
 * "name/N", a VF's alias GUID: its physical port) to an end port (a CA
 * or router port, or a switch's port 0).
 * Errors: those of ibp_fabric_resolve_port() (topo.h) for a spec that
 * names no port or several; IBP_EINVAL "'SPEC' is not an end port". */
int ibp_sim_session_port(const ibp_sim_session *s, const char *spec,
			 size_t *node, unsigned *port, ibp_error *err);

/* ------------------------------------------------------------ commands
 * Each writes its text to out (NULL: no text, the results only). */

/* `smpquery pkeys ADDR [PORT]`: the table of port `port` of the node
 * answering addr (a port spec as above), read over LID-routed SMPs from
 * the SM's port and written to out byte for byte as infiniband-diags
 * prints it (rows of eight, then "N pkeys capacity for this port").
 * Errors: those of ibp_sim_session_port(); IBP_ERANGE "invalid port
 * number" when the node has no such port; IBP_EIO "... query failed"
 * when an SMP gets no good answer. */
int ibp_sim_session_smpquery_pkeys(ibp_sim_session *s, const char *addr,
				   unsigned port, FILE *out, ibp_error *err);
/* How smpquery's ADDR is read, as its flags say. */
typedef enum ibp_smpquery_addr {
	IBP_SMPQUERY_ANY = 0, /* a port spec (LID, GUID, name), LID-routed */
	IBP_SMPQUERY_GUID,    /* -G: a port GUID, LID-routed */
	IBP_SMPQUERY_DR	      /* -D: a directed route from the SM's port,
				 "0,1,3" (ibp_dr_path_parse), DR SMPs */
} ibp_smpquery_addr;
/* The same with ADDR read as `how` says; for IBP_SMPQUERY_DR the SMPs go
 * by directed route, as `smpquery -D` sends them.  Errors as above, and
 * IBP_EINVAL for a GUID or a path that does not parse, IBP_EIO when a
 * path leads nowhere (no answer). */
int ibp_sim_session_smpquery_pkeys_ex(ibp_sim_session *s, const char *addr,
				      ibp_smpquery_addr how, unsigned port,
				      FILE *out, ibp_error *err);

#define IBP_SIM_PINGPONG_OPTIONS_VERSION 1
struct ibp_sim_pingpong_options {
	unsigned version;    /* IBP_SIM_PINGPONG_OPTIONS_VERSION */
	unsigned pkey_index; /* the requester QP's P_Key index; default 0 */
	unsigned iters;	     /* round trips; default 1000 (0 counts as 1) */
	unsigned size;	     /* bytes per message; default 4096 */
};
/* Fill o with the defaults above.  o must not be NULL. */
void ibp_sim_pingpong_options_init(struct ibp_sim_pingpong_options *o,
				   unsigned version);

typedef enum ibp_sim_pingpong_outcome {
	IBP_SIM_PINGPONG_COMPLETED = 0, /* every iteration completed */
	IBP_SIM_PINGPONG_REFUSED = 1,	/* the requester's P_Key index is
					   empty: its HCA refuses the QP */
	IBP_SIM_PINGPONG_FAILED = 2	/* the fabric dropped every try of
					   a message (retry count exceeded) */
} ibp_sim_pingpong_outcome;

struct ibp_sim_pingpong_result {
	ibp_sim_pingpong_outcome outcome;
	unsigned iters_done;	 /* iterations completed */
	uint16_t pkey;		 /* the requester's P_Key (0: empty index) */
	ibp_sim_verdict verdict; /* the last packet's fate (FAILED: why) */
	double usec_per_iter;	 /* the latency model's figure (COMPLETED) */
};

/* An ibv_rc_pingpong-like RC exchange from src (requester) to dst
 * (responder), both port specs, through the data plane: up to 1 +
 * retry_cnt (7) transmissions per message, the responder's QP on its
 * entry matching the requester's P_Key.  out gets both sides' output as
 * ibv_rc_pingpong prints it, the latency model used (a model, not a
 * measurement), and the P_KeyViolations / trap counts before and after.
 * A pingpong the fabric stops is not an error: the call returns IBP_OK
 * and res->outcome (res may be NULL) says how it ended.  o NULL: the
 * defaults.  Errors: bad src/dst (those of ibp_sim_session_port());
 * IBP_EINVAL for a wrong options version. */
int ibp_sim_session_pingpong(ibp_sim_session *s, const char *src,
			     const char *dst,
			     const struct ibp_sim_pingpong_options *o,
			     FILE *out, struct ibp_sim_pingpong_result *res,
			     ibp_error *err);

/* What ibp_sim_session_probe_matrix() found: the n host ports (every
 * linked port of a CA or router, in node order), and n*n cells, row i
 * column j = 1 when a packet from port i reached port j on some entry of
 * i's table (the diagonal is 0).  Arrays malloc'd; free them with
 * ibp_sim_probe_result_free(). */
struct ibp_sim_probe_result {
	size_t n;
	size_t *node;
	unsigned *port;
	unsigned char *cells;
};
/* Free the arrays of r and zero it.  NULL is allowed. */
void ibp_sim_probe_result_free(struct ibp_sim_probe_result *r);

/* Compare r with an expected matrix over n named ports: names[i] a node
 * description, expected[i * n + j] 'Y' when port i should reach port j
 * (the diagonal is ignored).  A name not among r's ports reaches and is
 * reached by nothing.  diff (n * n entries, may be NULL) gets 1 where the
 * probe differs, 0 elsewhere.  Returns the number of differing cells;
 * cannot fail.  Reads s's fabric only. */
size_t ibp_sim_probe_compare(const ibp_sim_session *s,
			     const struct ibp_sim_probe_result *r,
			     const char *const *names, size_t n,
			     const char *expected, unsigned char *diff);

/* A probe between every ordered pair of host ports through the data
 * plane, on each valid entry of the sender's table until one gets
 * through; the traps it causes are then collected by the SM.  out gets
 * the matrix as a markdown table (rows send, columns receive: ✓ ✗ —).
 * res (may be NULL) receives the matrix; the caller frees it.  Errors:
 * IBP_ENOMEM "out of memory". */
int ibp_sim_session_probe_matrix(ibp_sim_session *s, FILE *out,
				 struct ibp_sim_probe_result *res,
				 ibp_error *err);

/* Every linked port's P_KeyViolations, M_KeyViolations,
 * PortRcvConstraintErrors and PortXmitConstraintErrors (and each
 * switch's port 0), then the traps the SM received (after collecting the
 * pending ones) and the simulator raised and lost, as a table to out.
 * Errors: none today (IBP_OK); the status is there for later ones. */
int ibp_sim_session_counters(ibp_sim_session *s, FILE *out, ibp_error *err);

IBP_END_DECLS
#endif
