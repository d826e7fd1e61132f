#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# coll/tuned's fixed decision (Open MPI 4.1) against the cost model's choice,
# for every (collective, p, ranks per node, bytes) cell of a projection:
#   contrib/results/2026-11-23-model/make-tuned-compare.sh PROFILE NAME
# (RSAG_PROJECTION_OUT=DIR: read and write DIR instead of this directory, as
# contrib/results/2026-11-26-model-projection does; `leaders` counts as
# node-aware with `hierarchical`)
# reads projection-NAME.tsv (make-projection.sh) and PROFILE (for the lower
# bounds below), writes tuned-vs-model-NAME.tsv (every cell) and
# tuned-vs-model-NAME.md (summary and tables).  No MPI, nothing measured.
#
# tuned's rules are restated here as data, from reading Open MPI v4.1.4's
# ompi/mca/coll/tuned/coll_tuned_decision_fixed.c (tag v4.1.4, commit
# ffb0adcdd677a02ab396145c40352f8189132b86; the v4.1.x branch has the same
# file), the "commutative op" branches (the projection's op is MPI_SUM on
# MPI_DOUBLE), with the fall-backs of the base algorithms tuned calls
# (ompi/mca/coll/base/coll_base_{allreduce,reduce,reduce_scatter_block}.c):
#   allreduce ring: count < p -> recursive doubling; segmented ring with
#     tuned's segment size 0 -> plain ring; Rabenseifner: count < the largest
#     power of two <= p -> basic linear (reduce to 0 + bcast, both linear);
#   reduce Rabenseifner: count < that power of two -> linear;
#   chain with fan-out 0 -> fan-out 1 (the pipeline); segment size 0 -> unsegmented.
# tuned looks at the communicator size and the message size only (the whole
# vector; for Reduce_scatter_block the block of ONE rank), never at ranks per node.
#
# Each tuned algorithm is priced by its nearest rsag row under the model:
#   "=" the same scheme (recursive doubling, ring, Rabenseifner, binomial,
#       recursive halving; at p = 2 every reduce tree is one message);
#   "~" a near one: segmented ring -> ring; binary / in-order binary tree ->
#       binomial (a binary tree's parent receives two children per level:
#       up to about 2x binomial's latency terms); butterfly (vector halving,
#       distance DOUBLING: the big first halves stay on the node) -> the
#       reduce-scatter half of rsag's Rabenseifner allreduce, priced
#       (T_rab + R) / 2 with R its reductions (its allgather half is the same
#       messages without them; p = 2^k), "n/a" where the model has no
#       Rabenseifner (count < p: Reduce_scatter with empty blocks); note
#       that tuned's and rsag's recursive halving halve the DISTANCE (p/2
#       first: the big halves cross nodes);
#       Reduce_scatter_block by recursive doubling -> rsag's allreduce by
#       recursive doubling (log2 p steps of the whole vector; tuned's sends
#       slightly less: n (log2 p - (p - 1)/p));
#   ">" no rsag counterpart, a lower bound instead:
#       linear reduce / the linear allreduce: the root's link carries (p - ppn)
#       vectors across the network (one node: p - 1 through memory), twice for
#       the allreduce (reduce, then bcast);  unsegmented chain / pipeline:
#       (nodes - 1) crossings and (p - nodes) copies of the whole vector in
#       sequence;  allreduce "nonoverlapping" = tuned's reduce + a bcast: the
#       price of tuned's reduce choice;  Reduce_scatter(_block) "linear" /
#       "nonoverlapping" = tuned's reduce of the whole vector + a scatter: that
#       reduce's price + the root sending (p - ppn) blocks across the network.
#   Bandwidth in the bounds: the profile's smallest beta (net_* or shm_*).
# Reduce_scatter (equal counts) is priced with the model's Reduce_scatter_block
# times (rsag runs the same rows for both; the model gives the same time).
# A Reduce_scatter_block whose block would be under one element (n < 8 p) has
# no MPI call: "-".
set -u
here=$(cd "$(dirname "$0")" && pwd)
profile=$1 name=$2
dir=${RSAG_PROJECTION_OUT:-$here}
tsv=$dir/projection-$name.tsv
[ -r "$tsv" ] || { echo "no $tsv: run make-projection.sh first" >&2; exit 2; }
out=$dir/tuned-vs-model-$name.tsv
md=$dir/tuned-vs-model-$name.md

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -F'\t' -v OFS='\t' -v out="$out" -v sum="$tmp/sum" -v tab="$tmp/tab" -v name="$name" '
# ---- tuned 4.1 fixed rules, commutative op: "P_BOUND: BYTES_BOUND ALG, ...";
# a class applies when comm size < P_BOUND (the last class: any size),
# an entry when bytes < BYTES_BOUND ("inf": the rest).
function rules() {
    R["allreduce"] = "4: 8 ring, 4096 rd, 8192 ring, 16384 rd, 65536 ring, 262144 segring, inf rab;" \
        "8: 16 ring, 8192 rd, inf rab;" \
        "16: 8192 rd, inf rab;" \
        "32: 64 segring, 4096 rd, inf rab;" \
        "64: 128 segring, inf rab;" \
        "128: 262144 rd, inf rab;" \
        "256: 131072 nonoverlap, 262144 rd, inf rab;" \
        "512: 4096 nonoverlap, inf rab;" \
        "2048: 2048 nonoverlap, 16384 rd, inf rab;" \
        "4096: 2048 nonoverlap, 4096 segring, 16384 rd, inf rab;" \
        "inf: 2048 nonoverlap, 16384 segring, 32768 rd, inf rab"
    R["reduce"] = "4: 8 rab, 16 binary, 32 pipeline, 262144 linear, 524288 pipeline, 1048576 chain, inf pipeline;" \
        "8: 4096 binary, 65536 chain, 262144 binomial, 524288 linear, 1048576 binomial, inf linear;" \
        "16: 8192 binary, inf binomial;" \
        "32: 4096 binary, inf binomial;" \
        "256: inf binomial;" \
        "512: 8192 binomial, 16384 inorder, inf binomial;" \
        "2048: inf binomial;" \
        "4096: 512 binomial, 1024 inorder, 8192 binomial, 16384 inorder, inf binomial;" \
        "inf: 16 binomial, 32 inorder, 1024 binomial, 2048 inorder, 8192 binomial, 16384 inorder, inf binomial"
    R["reduce_scatter"] = "4: 65536 ring, 131072 butterfly, inf ring;" \
        "8: 8 nonoverlap, 262144 halving, inf ring;" \
        "32: 262144 halving, inf ring;" \
        "64: 64 nonoverlap, 2048 halving, 524288 butterfly, inf ring;" \
        "128: 256 nonoverlap, 512 halving, 2048 butterfly, 4096 halving, inf butterfly;" \
        "256: 256 nonoverlap, 512 halving, inf butterfly;" \
        "512: 256 nonoverlap, 1024 halving, inf butterfly;" \
        "1024: 512 nonoverlap, 2048 halving, 8192 butterfly, 16384 halving, inf butterfly;" \
        "2048: 512 nonoverlap, 4096 halving, 16384 butterfly, 32768 halving, inf butterfly;" \
        "4096: 512 nonoverlap, 4096 halving, inf butterfly;" \
        "inf: 1024 nonoverlap, 8192 halving, inf butterfly"
    # keyed by the block of one rank (rcount * type size)
    R["reduce_scatter_block"] = "4: 4 rd, 8 butterfly, 16 halving, 128 butterfly, 256 halving, 4096 butterfly, 8192 halving, 131072 butterfly, inf linear;" \
        "8: 8 halving, 32 rd, 256 butterfly, 8192 halving, 16384 butterfly, 1048576 halving, inf linear;" \
        "16: 4 linear, 32 halving, 128 butterfly, 524288 halving, 4194304 linear, inf butterfly;" \
        "32: 32 linear, 524288 halving, 2097152 linear, 4194304 halving, inf butterfly;" \
        "inf: 4 halving, 16 linear, 65536 butterfly, 262144 linear, inf butterfly"
}
function bound(s) { return s == "inf" ? 1e300 : s + 0 }
function rule(coll, p, b,    cls, nc, i, e, ne, j, kv, hdr) {
    nc = split(R[coll], cls, ";")
    for (i = 1; i <= nc; i++) {
        split(cls[i], hdr, ":")
        if (p < bound(hdr[1]) || i == nc) {
            ne = split(hdr[2], e, ",")
            for (j = 1; j <= ne; j++) {
                split(e[j], kv, " ")   # default splitting: blanks around dropped
                if (b < bound(kv[1])) return kv[2]
            }
        }
    }
    return "?"
}
function pof2(p,   q) { q = 1; while (q * 2 <= p) q *= 2; return q }
function short(a) {
    if (a == "recursive_doubling") return "rd"
    if (a == "rabenseifner") return "rab"
    if (a == "recursive_halving") return "halving"
    if (a == "hierarchical") return "hier"
    if (a == "priority") return "prio"
    return a
}
# model time (us) of rsag row ALG for the cell; -1 when the model has none
function mt(coll, p, q, n, alg,   k) {
    if (coll == "reduce_scatter") coll = "reduce_scatter_block"
    k = coll SUBSEP p SUBSEP q SUBSEP n SUBSEP alg
    return (k in T) ? T[k] : -1
}
function netb(p, q) { return p > q ? bnet : bshm }
# the model'"'"'s reductions of n (1 - 1/p) bytes (us), the rate between cached
# and memory-bound as coll_rsag_model.c mixes it (2 n against cache_bytes)
function redu(n, p,   c, u, g) {
    c = P["cache_bytes"]; u = 0
    if (2 * n >= 4 * c) u = 1; else if (2 * n > c) u = log(2 * n / c) / log(2) / 2
    g = P["gamma_cache.SUM.DOUBLE"] * (1 - u) + P["gamma.SUM.DOUBLE"] * u
    if (P["cpu_share"] > 1) g *= P["cpu_share"]
    return g * n * (1 - 1 / p) * 1e6
}
# tuned effective algorithm (after the fall-backs) for a cell: sets EFF, CP, KIND, PRICE
function tuned(coll, p, q, n,   a, cnt, blk, nodes, r) {
    cnt = int(n / 8); nodes = p / q
    if (coll == "reduce_scatter_block") {
        blk = n / p
        if (blk < 8) { EFF = "-"; CP = "-"; KIND = "-"; PRICE = -1; return }
        a = rule(coll, p, blk)
    } else a = rule(coll, p, n)
    RULE = a
    if (coll == "allreduce") {
        if (a == "segring") a = "ring"
        if (a == "ring" && cnt < p) a = "rd"
        if (a == "rab" && cnt < pof2(p)) a = "linear"
        EFF = a
        if (a == "rd") { CP = "recursive_doubling"; KIND = "=" }
        else if (a == "ring") { CP = "ring"; KIND = RULE == "segring" ? "~" : "=" }
        else if (a == "rab") { CP = "rabenseifner"; KIND = "=" }
        else if (a == "linear") {
            CP = "-"; KIND = ">"; PRICE = 2 * (p > q ? p - q : p - 1) * n * netb(p, q) * 1e6; return
        } else if (a == "nonoverlap") {
            tuned("reduce", p, q, n); r = PRICE
            EFF = "nonoverlap"; CP = "-"; KIND = ">"; PRICE = r; RULE = "nonoverlap"; return
        }
        PRICE = mt(coll, p, q, n, CP); return
    }
    if (coll == "reduce") {
        if (a == "rab" && cnt < pof2(p)) a = "linear"
        EFF = a
        if (a == "rab") { CP = "rabenseifner"; KIND = "=" }
        else if (a == "binomial" || p == 2) { CP = "binomial"; KIND = "=" }
        else if (a == "binary" || a == "inorder") { CP = "binomial"; KIND = "~" }
        else if (a == "linear") {
            CP = "-"; KIND = ">"; PRICE = (p > q ? p - q : p - 1) * n * netb(p, q) * 1e6; return
        } else { # chain / pipeline, unsegmented
            CP = "-"; KIND = ">"; PRICE = ((nodes - 1) * bnet + (p - nodes) * bshm) * n * 1e6; return
        }
        PRICE = mt(coll, p, q, n, CP); return
    }
    # reduce_scatter(_block)
    EFF = a
    if (a == "halving") { CP = "recursive_halving"; KIND = "=" }
    else if (a == "butterfly") {
        # distance doubling: the reduce-scatter half of rsag'"'"'s Rabenseifner
        # allreduce, whose allgather half costs the same messages without the
        # reductions (p = 2^k): (T_rab + R) / 2, R = the reductions of n (1 - 1/p)
        KIND = "~"; r = mt("allreduce", p, q, n, "rabenseifner")
        if (r > 0 && p == pof2(p)) { CP = "rabenseifner/2"; PRICE = (r + redu(n, p)) / 2; return }
        CP = "-"; PRICE = -1; return
    }
    else if (a == "ring") { CP = "ring"; KIND = "=" }
    else if (a == "rd") { CP = "recursive_doubling"; KIND = "~"
        PRICE = mt("allreduce", p, q, n, CP); return }
    else { # linear / nonoverlap: tuned reduce of the whole vector to 0, then a scatter
        tuned("reduce", p, q, n); r = PRICE
        EFF = a; RULE = a; CP = "-"; KIND = ">"
        PRICE = r + (p > q ? p - q : p - 1) * (n / p) * netb(p, q) * 1e6; return
    }
    PRICE = mt(coll, p, q, n, CP)
}
function fmt(r) { return r >= 100 ? sprintf("%.0f", r) : r >= 10 ? sprintf("%.1f", r) : sprintf("%.2f", r) }
function hsize(b) {
    if (b >= 1073741824) return (b / 1073741824) "G"
    if (b >= 1048576) return (b / 1048576) "M"
    if (b >= 1024) return (b / 1024) "K"
    return b
}
function median(arr, n,   i, j, t) {
    if (n == 0) return 0
    for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
    return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2
}
FNR == NR {   # the profile
    if ($0 ~ /^[ \t]*#/ || $0 !~ /=/) next
    split($0, kv, "="); k = kv[1]; v = kv[2]; gsub(/[ \t]/, "", k); gsub(/[ \t]/, "", v)
    P[k] = v + 0; next
}
FNR > 1 {
    k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
    T[k SUBSEP $5] = $6 + 0
    if ($7 == "best") { BEST[k] = $5; BT[k] = $6 + 0 }
    if (!(k in SEEN)) { SEEN[k] = 1; ORD[++NK] = k }
}
END {
    rules()
    bnet = P["net_beta"]; if (P["net_beta_cache"] < bnet) bnet = P["net_beta_cache"]
    if (P["net_beta_eager"] > 0 && P["net_beta_eager"] < bnet) bnet = P["net_beta_eager"]
    bshm = P["shm_beta"]; if (P["shm_beta_cache"] < bshm) bshm = P["shm_beta_cache"]
    if (P["shm_beta_eager"] > 0 && P["shm_beta_eager"] < bshm) bshm = P["shm_beta_eager"]
    print "coll", "p", "ppn", "bytes", "tuned_rule", "tuned_runs", "counterpart", "kind",
        "model_best", "best_us", "tuned_us", "ratio" > out
    nc = split("allreduce reduce reduce_scatter_block reduce_scatter", colls, " ")
    for (ci = 1; ci <= nc; ci++) {
        coll = colls[ci]; src = coll == "reduce_scatter" ? "reduce_scatter_block" : coll
        for (i = 1; i <= NK; i++) {
            split(ORD[i], f, SUBSEP)
            if (f[1] != src) continue
            p = f[2]; q = f[3]; n = f[4]; kk = ORD[i]
            RULE = ""; tuned(coll, p, q, n)
            best = BEST[kk]; bt = BT[kk]
            ratio = (PRICE > 0 && bt > 0) ? PRICE / bt : -1
            print coll, p, q, n, RULE, EFF, CP, KIND, best, bt,
                (PRICE > 0 ? sprintf("%.6g", PRICE) : "-"), (ratio > 0 ? sprintf("%.4g", ratio) : "-") > out
            c = coll SUBSEP p SUBSEP q SUBSEP n
            CELL_R[c] = ratio; CELL_T[c] = EFF (RULE != EFF ? "*" : ""); CELL_K[c] = KIND; CELL_B[c] = short(best)
            if (ratio < 0) continue
            # statistics: all cells, and by placement class
            plc = (p == q) ? "one node" : (q == 1 ? "1 rank per node" : ">1 rank per node")
            for (w = 1; w <= 2; w++) {
                g = (w == 1 ? coll SUBSEP "all" : coll SUBSEP plc)
                N[g]++; if (KIND == ">") NB[g]++; else if (ratio <= 1.03) AG[g]++
                if (ratio >= 1.25) R25[g]++; if (ratio >= 2) R2[g]++
                RR[g, N[g]] = ratio
                if (ratio > MX[g]) { MX[g] = ratio; MXC[g] = p " ranks, " q "/node, " hsize(n) ": " EFF " vs " short(best) }
            }
            if (best == "hierarchical" || best == "leaders") { H[coll]++; HR[coll, H[coll]] = ratio }
            g = coll SUBSEP EFF (KIND == ">" ? " (bound)" : "")
            if (!(g in NA)) AL[coll, ++NAL[coll]] = EFF (KIND == ">" ? " (bound)" : "")
            NA[g]++; if (ratio <= 1.03 && KIND != ">") AGA[g]++; RA[g, NA[g]] = ratio
            if (ratio > MXA[g]) MXA[g] = ratio
        }
    }
    close(out)

    print "## Summary (all cells of the projection)" > sum
    print "" > sum
    print "Cells priced by a lower bound count with their bound: they are never \"within 3 %\", and" > sum
    print "the counts of >= 1.25x and >= 2x and the medians are themselves lower bounds." > sum
    print "" > sum
    print "| collective | placement | cells | of them bounds | within 3 % | >= 1.25x | >= 2x | median | worst (where) |" > sum
    print "|---|---|---|---|---|---|---|---|---|" > sum
    ncl = split("all|one node|1 rank per node|>1 rank per node", clsl, "|")
    for (ci = 1; ci <= nc; ci++) for (j = 1; j <= ncl; j++) {
        g = colls[ci] SUBSEP clsl[j]
        if (!(g in N)) continue
        delete tmp; for (k = 1; k <= N[g]; k++) tmp[k] = RR[g, k]
        printf "| %s | %s | %d | %d | %d | %d | %d | %s | %s (%s) |\n", (j == 1 ? colls[ci] : ""), clsl[j], N[g],
            NB[g], AG[g], R25[g], R2[g], fmt(median(tmp, N[g])), fmt(MX[g]), MXC[g] > sum
    }
    print "" > sum
    print "Where the model\047s best is node-aware, `hierarchical` or `leaders` (multi-node, >1 rank per node):" > sum
    print "" > sum
    for (ci = 1; ci <= nc; ci++) if (H[colls[ci]] > 0) {
        delete tmp; for (k = 1; k <= H[colls[ci]]; k++) tmp[k] = HR[colls[ci], k]
        printf "- %s: %d cells, median ratio %s\n", colls[ci], H[colls[ci]], fmt(median(tmp, H[colls[ci]])) > sum
    }
    print "" > sum
    print "By tuned\047s algorithm (as run, after the fall-backs; \"(bound)\": priced by a lower bound):" > sum
    print "" > sum
    print "| collective | tuned runs | cells | within 3 % | median ratio | worst |" > sum
    print "|---|---|---|---|---|---|" > sum
    for (ci = 1; ci <= nc; ci++) for (j = 1; j <= NAL[colls[ci]]; j++) {
        g = colls[ci] SUBSEP AL[colls[ci], j]
        delete tmp; for (k = 1; k <= NA[g]; k++) tmp[k] = RA[g, k]
        printf "| %s | %s | %d | %d | %s | %s |\n", colls[ci], AL[colls[ci], j], NA[g], AGA[g],
            fmt(median(tmp, NA[g])), fmt(MXA[g]) > sum
    }
    print "" > sum
    nsz = 0
    for (i = 1; i <= NK; i++) { split(ORD[i], f, SUBSEP); if (!(f[4] in SZS)) { SZS[f[4]] = 1; SZ[++nsz] = f[4] } }
    for (ci = 1; ci <= nc; ci++) {
        coll = colls[ci]; src = coll == "reduce_scatter" ? "reduce_scatter_block" : coll
        print "" > tab
        print "### " coll (coll == "reduce_scatter_block" ? " (tuned keys on the block: bytes / p)" : "") \
            (coll == "reduce_scatter" ? " (equal counts; the model\047s Reduce_scatter_block times)" : "") > tab
        print "" > tab
        printf "| p | ppn |" > tab; for (j = 1; j <= nsz; j++) printf " %s |", hsize(SZ[j]) > tab; print "" > tab
        printf "|---|---|" > tab; for (j = 1; j <= nsz; j++) printf "---|" > tab; print "" > tab
        delete done
        for (i = 1; i <= NK; i++) {
            split(ORD[i], f, SUBSEP); p = f[2]; q = f[3]
            if (f[1] != src || ((p SUBSEP q) in done)) continue
            done[p, q] = 1
            if (q != 1 && q != 8 && q != 32 && q != 128) continue
            if (p != 2 && p != 4 && p != 16 && p != 64 && p != 256 && p != 1024 && p != 4096 && p != 65536) continue
            printf "| %s | %s |", p, q > tab
            for (j = 1; j <= nsz; j++) {
                c = coll SUBSEP p SUBSEP q SUBSEP SZ[j]
                if (!(c in CELL_R) || CELL_K[c] == "-") { printf " - |" > tab; continue }
                r = CELL_R[c]
                pre = CELL_K[c] == "~" ? "~" : CELL_K[c] == ">" ? ">=" : ""
                printf " %s / %s %s |", CELL_T[c], CELL_B[c], (r > 0 ? pre fmt(r) : "n/a") > tab
            }
            print "" > tab
        }
    }
}' "$profile" "$tsv" || exit 1
if [ ! -s "$tmp/sum" ] || [ ! -s "$tmp/tab" ]; then echo "no cells compared" >&2; exit 1; fi

{
cat <<EOF
# coll/tuned's fixed rules (Open MPI 4.1) against the cost model, profile \`$name\`

Generated by \`make-tuned-compare.sh\` from \`projection-$name.tsv\`; every cell is in
\`tuned-vs-model-$name.tsv\`. **Predictions only**: nothing here was measured, and the model
missed its own validation target ([2026-11-23-model/README.md](../2026-11-23-model/README.md), "Status": within ±25 % in only 2–7 of 10–20 cells per
collective on 4 emulated hosts x 1 rank, 7–11 on 2 hosts; too optimistic where hosts share the
fabric; the tcp rendezvous term is suspect at 64–256 KB). Read the ratios as the model's opinion
of tuned's *choice of scheme*, not of tuned's implementation: each tuned algorithm is priced by
rsag's row of the same scheme (no mark), of the nearest one (\`~\`), or by a lower bound (\`>=\`)
where rsag has no counterpart (the script's opening comment gives the mapping and the bounds).

tuned's rules: Open MPI v4.1.4, \`ompi/mca/coll/tuned/coll_tuned_decision_fixed.c\` (the
machine's version; v4.1.x has the same rules), commutative branch, with the fall-backs of the
base algorithms it calls (ring -> recursive doubling when count < p; Rabenseifner -> linear when
count < the largest power of two <= p; tuned's segment size 0 turns the segmented ring into the
plain ring and the pipeline/chain into unsegmented chains). tuned sees only the communicator size
and the bytes (for Reduce_scatter_block: the block of one rank), so its choice is the same for
every ranks-per-node value; the model's best may be \`hierarchical\` (node-aware) or, on one node,
\`direct\`, which tuned 4.1 has no counterpart for (coll/han, Open MPI's node-aware component, is
not selected by default in 4.1). Op MPI_SUM on MPI_DOUBLE (commutative).

Ratio = predicted time of tuned's choice / predicted time of the model's best rsag row (1.00:
the model would pick the same scheme, or one within 3 % of its best).

EOF
cat "$tmp/sum"
[ -r "$dir/tuned-vs-model-$name.findings" ] && { echo; cat "$dir/tuned-vs-model-$name.findings"; }
cat <<EOF

## Tables

Cell: tuned's algorithm as run / the model's best / ratio (\`~\` near counterpart, \`>=\` a
lower bound, \`-\` no such call). \`*\`: tuned's rule names another algorithm that falls back to
this one at this count (ring -> rd when count < p; Rabenseifner -> linear when count < the
power of two; segmented ring -> ring). Short names: rd recursive doubling, rab Rabenseifner,
hier hierarchical, prio priority, halving recursive halving, inorder in-order binary tree,
nonoverlap tuned's reduce then a bcast (allreduce) or a scatter (reduce_scatter), linear the
root receives every vector (reduce; allreduce: then sends it to each; reduce_scatter_block:
then scatters). Rows: the p and ranks per node of \`choices-$name.md\`.
EOF
cat "$tmp/tab"
} >"$md"
