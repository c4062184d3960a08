#!/usr/bin/env bash
# libibpart.so exports only ibp_ names: everything else in src/ is hidden
# (-fvisibility=hidden, export.h), so a program linking the library can
# use nothing but the public API, and no internal name can clash with a
# third party's.
source "$(dirname "$0")/lib.sh"

[[ -n "${IBP_LIBSO:-}" && -f "$IBP_LIBSO" ]] || fail "IBP_LIBSO not set or missing"
# every name in version node IBPART_0.4 (libibpart.map; nm prints it
# after @@), printed without it
versioned=$(nm -D --defined-only "$IBP_LIBSO" | awk '$2 ~ /^[TDBRVW]$/ {print $3}')
unversioned=$(grep -v '@@IBPART_0\.4$' <<<"$versioned" || true)
[[ -z "$unversioned" ]] || fail "exported outside IBPART_0.4: $(tr '\n' ' ' <<<"$unversioned")"
syms=$(sed 's/@.*//' <<<"$versioned")
n=$(grep -c . <<<"$syms")
(( n > 100 )) || fail "only $n exported symbols: is the public API hidden too?"
leaks=$(grep -v '^ibp_' <<<"$syms" | grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$' || true)
[[ -z "$leaks" ]] || fail "exported names without the ibp_ prefix: $(tr '\n' ' ' <<<"$leaks")"
for s in ibp_version ibp_plan_read ibp_fabric_load ibp_tables_compute ibp_sm_push; do
  grep -qx "$s" <<<"$syms" || fail "$s is not exported"
done
# and the library's own building blocks are not (their _lib.h headers)
for s in ibp_conf_parse_file ibp_tables_new ibp_pkey_table_new; do
  ! grep -qx "$s" <<<"$syms" || fail "$s is exported, but private"
done
# text only one command prints is that command's (tools/), read through
# stable accessors (IBPART_0.4)
for s in ibp_fabric_dump ibp_fabric_print_lids ibp_apply_opensm_result_print \
  ibp_audit_rules_print ibp_conf_print_opensm_summary; do
  ! grep -qx "$s" <<<"$syms" || fail "$s is exported, but only the CLI prints so"
done
for s in ibp_fabric_node_desc ibp_fabric_port_peer ibp_fabric_find_lid \
  ibp_audit_rule_get ibp_conf_group_at ibp_conf_partition_member; do
  grep -qx "$s" <<<"$syms" || fail "$s is not exported"
done
# The library never writes diagnostics itself (issue 13): findings and
# failures go to the caller (ibp_diags, ibp_error), progress through its
# callback; so it does not even refer to stderr.
undef=$(nm -D --undefined-only "$IBP_LIBSO")
! grep -qw 'stderr' <<<"$undef" ||
  fail "libibpart.so refers to stderr: the library prints diagnostics itself"
# The program links the shared library, not a private copy.
# (into a variable: with pipefail, grep -q closing a pipe early fails
# the pipeline on ldd's SIGPIPE - this test was flaky so)
deps=$(ldd "$IBPART")
grep -q "libibpart\.so\.0" <<<"$deps" || fail "ibpart does not link libibpart.so.0"
soname=$(objdump -p "$IBP_LIBSO" | awk '/SONAME/ {print $2}')
[[ "$soname" == libibpart.so.0 ]] || fail "SONAME is '$soname'"
v=$("$IBPART" --version)
[[ "$v" =~ ^ibpart\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "--version said '$v'"
echo "libibpart.so exports $n names, all ibp_, all IBPART_0.4; ibpart links it ($v)"
finish
