#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-tune.sh: measure rsag's algorithms on this machine and write an MCA
# parameter file with the coll_rsag_<coll>_<alg>_min_bytes thresholds that
# make rsag's `auto` pick the fastest one per message size.
#
#   contrib/rsag-tune.sh -n 4 -o tune-np4            # writes tune-np4/rsag-tune-np4.conf
#   mpirun -np 4 --tune tune-np4/rsag-tune-np4.conf ./app          # one job
#   OMPI_MCA_mca_param_files=$PWD/tune-np4/rsag-tune-np4.conf mpirun ...
#   cat tune-np4/rsag-tune-np4.conf >> ~/.openmpi/mca-params.conf  # all jobs
#
# For every collective it runs rsag-bench.sh --rsag-only (one job per
# repetition: every rsag algorithm forced, interleaved, through MPI_T) with
# the given process count and mpirun arguments (transport), then
# rsag-thresholds.awk picks the thresholds whose worst slowdown against the
# fastest algorithm of each measured size is smallest (see that file for the
# rules: 3 % noise margin, base algorithm 0, algorithms left off LONG_MAX).  The file's comments say where, when and how it was
# measured, and show every measured time and ratio.
#
# The thresholds are scalar MCA settings: they apply to every communicator
# size, whatever np they were measured at (tune at the np your jobs use).
#
# --model runs nothing: the thresholds come from rsag's cost model
# (rsag_model, contrib/model/coll_rsag_model.[ch]) for a communicator of
# -n ranks, --ppn per node, links of --net-rate, under a profile measured
# by rsag-calibrate.sh (default: rsag-model.profile next to this script,
# this project's calibration):
#   contrib/rsag-tune.sh --model -n 1024 --ppn 32 --net-rate 100gbit -o tune-1024
#
# --node tunes rsag for the node it runs on, once per node type: with as
# many ranks as the node has cores (-n, default all of them; more is
# refused: oversubscribed timings mean nothing), it
#   1. calibrates (rsag-calibrate.sh --ranks NP: the links, copies,
#      reductions, hand-offs and the node's memory bandwidth shared by NP
#      ranks)                                      -> OUTDIR/calibrate/shm.profile
#   2. asks the cost model where the algorithms' crossovers are for NP
#      ranks on one node (direct included)
#   3. measures every rsag algorithm (rsag-bench.sh --rsag-only: interleaved,
#      medians over --reps jobs) at a few sizes around those crossovers
#   4. writes the thresholds of the measured winners (rsag-thresholds.awk),
#      and coll_rsag_direct_cma_min_bytes: `direct` is measured both ways
#      (variant jobs, coll_rsag_single_copy cma and none); from the
#      smallest size where CMA wins at that size and every larger one, for
#      every collective tuned, direct pulls with CMA (none: not written,
#      the default learns the way per size as the job runs)
#                                                  -> OUTDIR/rsag-tune-node-np<NP>.conf
#   contrib/rsag-tune.sh --node -o tune-node       # minutes
#   contrib/rsag-tune.sh --node --quick -n 2 -o t  # a smoke run (< 1 minute)
set -u

here=$(cd "$(dirname "$0")" && pwd)
usage() {
    cat <<EOF
usage: $0 [options]
  -c, --colls LIST       comma-separated collectives (default
                         allreduce,reduce,reduce_scatter_block,reduce_scatter)
      --margin PCT       a faster algorithm must win by more than PCT % to move
                         a threshold (default 3)
      --output FILE      the parameter file (default OUTDIR/rsag-tune-np<NP>.conf)
      --from-csv         run nothing: use OUTDIR's <coll>-np<NP>.csv of an earlier run
      --model            run nothing: thresholds from the cost model for -n ranks
                         (writes OUTDIR/rsag-tune-model-np<NP>-ppn<PPN>.conf)
      --ppn N            --model: ranks per node (default: -n, one node)
      --net-rate R       --model: network link bandwidth per node, e.g. 1gbit,
                         100gbit, 12.5GB (default: the profile's)
      --profile FILE     --model: cost-model profile (default rsag-model.profile
                         next to this script; rsag-calibrate.sh writes them)
      --no-direct        --model: leave direct off (default: where the model has it
                         win on one node, as in the compiled-in defaults;
                         --with-direct, the former option, is the default)
      --node             tune this node: calibrate, model, measure around the
                         predicted crossovers with -n ranks (default: every core),
                         write OUTDIR/rsag-tune-node-np<NP>.conf
      --quick            --node: a smoke run (calibration up to 1 MB, one short run;
                         sizes up to 1 MB, one repetition, 20 calls per size)
      --oversubscribe    --node: go on with more ranks than cores (the timings
                         then decide nothing; refused without it)
EOF
    echo "and, as rsag-bench.sh (the measurement options are passed to it):"
    common_usage
    echo "  -h, --help"
}
PROG=rsag-tune.sh
OUTDIR=./rsag-tune-out
# shellcheck source=rsag-common.sh
. "$here/rsag-common.sh" || { echo "$PROG: $here/rsag-common.sh not found" >&2; exit 2; }
COLLS=allreduce,reduce,reduce_scatter_block,reduce_scatter
MARGIN=3
OUTPUT=
FROM_CSV=0
MODEL=0
PPN=
NET_RATE=
PROFILE=$here/rsag-model.profile
WITH_DIRECT=1
NODE=0
QUICK=0
OVERSUB=0
NP_GIVEN=0
while [ $# -gt 0 ]; do
    case "$1" in -n|--np) NP_GIVEN=1 ;; esac
    common_option "$@" && { shift "$SHIFT"; continue; }
    case "$1" in
    -c|--colls) need "$@"; COLLS=$2; shift 2 ;;
    --margin) need "$@"; MARGIN=$2; shift 2 ;;
    --output) need "$@"; OUTPUT=$2; shift 2 ;;
    --from-csv) FROM_CSV=1; shift ;;
    --model) MODEL=1; shift ;;
    --ppn) need "$@"; PPN=$2; shift 2 ;;
    --net-rate) need "$@"; NET_RATE=$2; shift 2 ;;
    --profile) need "$@"; PROFILE=$2; shift 2 ;;
    --with-direct) WITH_DIRECT=1; shift ;;
    --no-direct) WITH_DIRECT=0; shift ;;
    --node) NODE=1; shift ;;
    --quick) QUICK=1; shift ;;
    --oversubscribe) OVERSUB=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
    esac
done
check_common_options
case "$MARGIN" in ''|*[!0-9.]*) die "--margin must be a percentage" ;; esac

if [ "$MODEL" = 1 ]; then
    IFS=, read -r -a colls <<<"$COLLS"
    for c in "${colls[@]}"; do is_coll "$c" || die "unknown collective $c"; done
    PPN=${PPN:-$NP}
    case "$PPN" in ''|*[!0-9]*|0) die "--ppn must be a positive number" ;; esac
    [ "$PPN" -le "$NP" ] || die "--ppn $PPN is more than -n $NP"
    [ -x "$here/rsag_model" ] || die "$here/rsag_model not found (make builds it)"
    [ -r "$PROFILE" ] || die "profile $PROFILE not found (contrib/rsag-calibrate.sh writes one)"
    mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
    OUTPUT=${OUTPUT:-$OUTDIR/rsag-tune-model-np$NP-ppn$PPN.conf}
    margs=(-P "$PROFILE" --margin "$(awk -v m="$MARGIN" 'BEGIN { print m / 100 }')")
    [ -n "$NET_RATE" ] && margs+=(--net-rate "$NET_RATE")
    [ "$WITH_DIRECT" = 1 ] || margs+=(--no-direct)
    tmp="$OUTPUT.tmp.$$"
    trap 'rm -f "$tmp"' EXIT
    {
        echo "# written by rsag-tune.sh --model on $(date -u '+%Y-%m-%d %H:%M UTC'): nothing measured"
        echo "# profile: $PROFILE${NET_RATE:+, network links $NET_RATE}"
        "$here/rsag_model" "${margs[@]}" conf "$NP" "$PPN" || exit 1
    } >"$tmp" || die "rsag_model failed"
    # only the collectives asked for (each block opens with "# <coll>: worst ...")
    awk -v colls=",$COLLS," '
        /^# [a-z_]+: worst predicted/ { c = $2; sub(/:$/, "", c); keep = index(colls, "," c ",") > 0 }
        /^coll_rsag_/ && !keep { next }
        { print }' "$tmp" >"$tmp.2" && mv "$tmp.2" "$tmp" && mv "$tmp" "$OUTPUT" \
        || die "cannot write $OUTPUT"
    echo "rsag-tune.sh: wrote $OUTPUT" >&2
    grep -v '^#' "$OUTPUT"
    exit 0
fi
NODE_NOTE=
if [ "$NODE" = 1 ]; then
    [ "$MODEL" = 0 ] && [ "$FROM_CSV" = 0 ] || die "--node measures: not with --model or --from-csv"
    cores=$(nproc 2>/dev/null || echo 1)
    [ "$NP_GIVEN" = 1 ] || NP=$cores
    [ "$NP" -ge 2 ] || die "--node needs at least 2 ranks (-n)"
    if [ "$NP" -gt "$cores" ]; then
        [ "$OVERSUB" = 1 ] || die "-n $NP is more than this node's $cores cores: oversubscribed timings mean nothing (tune with -n $cores, or --oversubscribe to go on anyway)"
        echo "$PROG: warning: -n $NP on $cores cores is oversubscribed: the measured times decide nothing" >&2
    fi
    [ -x "$here/rsag-calibrate.sh" ] || die "$here/rsag-calibrate.sh not found"
    [ -x "$here/rsag_model" ] || die "$here/rsag_model not found (make builds it)"
    IFS=, read -r -a colls <<<"$COLLS"
    for c in "${colls[@]}"; do is_coll "$c" || die "unknown collective $c"; done
    mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
    start=$SECONDS
    # 1. calibrate (the links at np 2, the node's shared parts at NP)
    cargs=(-o "$OUTDIR/calibrate" --runs 1)
    [ "$QUICK" = 1 ] && cargs+=(--max-bytes 1048576 --quick)
    [ "$NP" -le "$cores" ] && [ "$NP" -gt 2 ] && cargs+=(--ranks "$NP")
    [ "$WAIT_QUIET" -gt 0 ] && cargs+=(--wait-quiet "$WAIT_QUIET")
    echo "$PROG: 1/3 calibrating this node" >&2
    "$here/rsag-calibrate.sh" "${cargs[@]}" ${MPIRUN_ARGS:+--mpirun-args "$MPIRUN_ARGS"} >&2 \
        || die "the calibration failed (see above)"
    prof=$OUTDIR/calibrate/shm.profile
    # 2. the model's crossovers for NP ranks on one node: the thresholds it
    # would set (direct included), and the sizes around them
    maxb=67108864; [ "$QUICK" = 1 ] && maxb=1048576
    if [ -z "$SIZES" ]; then
        anchors="8 4096 65536 1048576 16777216"
        [ "$QUICK" = 1 ] && anchors="8 65536 1048576"
        list=$(for c in "${colls[@]}"; do
                   "$here/rsag_model" -P "$prof" thresholds "$c" 0 "$NP" || exit 1
               done | awk -v max="$maxb" -v anchors="$anchors" '
                   BEGIN { n = split(anchors, a, " "); for (i = 1; i <= n; i++) s[a[i]] = 1 }
                   /^coll_rsag_/ && $3 > 8 && $3 < 9223372036854775807 {
                       for (f = 0.25; f <= 4; f *= 4) {
                           v = 8; while (v < $3 * f) v *= 2
                           s[v] = 1
                       }
                   }
                   END { for (v in s) if (v + 0 <= max) print v + 0 }' | sort -n | paste -sd, -) \
            || die "rsag_model failed on $prof"
        SIZES=$list
    fi
    NODE_NOTE="sizes from the cost model's crossovers for $NP ranks on one node (profile $prof): $SIZES"
    echo "$PROG: 2/3 the model's crossovers: measuring at $SIZES bytes" >&2
    BENCH_PASS_ARGS+=(--sizes "$SIZES" --rsag-variant "cma=--mca coll_rsag_single_copy cma"
                      --rsag-variant "seg=--mca coll_rsag_single_copy none")
    if [ "$QUICK" = 1 ]; then
        [ -n "$ITERS" ] || BENCH_PASS_ARGS+=(--iters 20)
        REPS=1
        BENCH_PASS_ARGS+=(--reps 1)
    fi
    OUTPUT=${OUTPUT:-$OUTDIR/rsag-tune-node-np$NP.conf}
    echo "$PROG: 3/3 measuring rsag's algorithms at np $NP" >&2
fi
[ -f "$here/rsag-thresholds.awk" ] || die "$here/rsag-thresholds.awk not found"
[ -x "$here/rsag-bench.sh" ] || [ "$FROM_CSV" = 1 ] || die "$here/rsag-bench.sh not found"
IFS=, read -r -a colls <<<"$COLLS"
for c in "${colls[@]}"; do
    is_coll "$c" || die "unknown collective $c"
done
mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
OUTPUT=${OUTPUT:-$OUTDIR/rsag-tune-np$NP.conf}

for c in "${colls[@]}"; do
    if [ "$FROM_CSV" = 0 ]; then
        echo "rsag-tune.sh: measuring $c at np $NP" >&2
        "$here/rsag-bench.sh" -n "$NP" -c "$c" --rsag-only -o "$OUTDIR" \
            ${MPIRUN_ARGS:+--mpirun-args "$MPIRUN_ARGS"} ${BENCH_PASS_ARGS[@]+"${BENCH_PASS_ARGS[@]}"} >&2 \
            || die "the benchmark of $c failed (see $OUTDIR/$c-np$NP.log)"
    fi
    [ -s "$OUTDIR/$c-np$NP.csv" ] || die "$OUTDIR/$c-np$NP.csv not found"
done

tmp="$OUTPUT.tmp.$$"
trap 'rm -f "$tmp"' EXIT
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
oversub=no
[ "$NP" -gt "$(nproc 2>/dev/null || echo 1)" ] && oversub="yes (timings are noisy)"
{
    if [ "$NODE" = 1 ]; then
        echo "# mca_coll_rsag thresholds written by rsag-tune.sh --node in $((SECONDS - start)) s"
        echo "# $NODE_NOTE"
    else
        echo "# mca_coll_rsag thresholds written by rsag-tune.sh"
    fi
    echo "# machine: $(hostname), ${cpu:-unknown CPU}, $(nproc 2>/dev/null) cores"
    echo "# np $NP (oversubscribed: $oversub), mpirun args: ${MPIRUN_ARGS:-none}"
    echo "# measured: $(date -u -r "$OUTDIR/${colls[0]}-np$NP.csv" '+%Y-%m-%d %H:%M UTC'), $(ompi_info --version 2>/dev/null | head -1)"
    echo "# benchmark data: $(cd "$OUTDIR" && pwd)/<coll>-np$NP.csv; margin $MARGIN %"
    echo "# Use for one job: mpirun --tune THIS_FILE ... or OMPI_MCA_mca_param_files=THIS_FILE;"
    echo "# for all jobs: append to ~/.openmpi/mca-params.conf.  Scalar values apply to"
    echo "# every communicator size."
    for c in "${colls[@]}"; do
        echo "#"
        awk -v coll="$c" -v margin="$(awk -v m="$MARGIN" 'BEGIN { print m / 100 }')" \
            -f "$here/rsag-thresholds.awk" "$OUTDIR/$c-np$NP.csv" >"$tmp.$c" || exit 1
        cat "$tmp.$c"
        # an algorithm of the component that was not measured (not in the
        # CSV, e.g. a newer row) is left off: the file alone decides
        first=1
        for a in $(ompi_info --param coll rsag --level 9 --parsable 2>/dev/null | awk -F: \
                       -v v="coll_rsag_${c}_algorithm" -v pre="coll_rsag_${c}_" '
                       $5 == v && $6 == "enumerator" && $9 != "auto" { alg[$9] = 1 }
                       $6 == "deprecated" && $7 == "no" { ok[$5] = 1 }
                       END { for (a in alg) if ((pre a "_min_bytes") in ok) print a }'); do
            grep -q "^coll_rsag_${c}_${a}_min_bytes = " "$tmp.$c" && continue
            [ "$first" = 1 ] && echo "# not measured, so left off:"
            first=0
            echo "coll_rsag_${c}_${a}_min_bytes = 9223372036854775807"
        done
        rm -f "$tmp.$c"
    done
    if [ "$NODE" = 1 ]; then
        # direct's two ways: per collective the smallest size from which
        # the CMA variant (cma_direct) beats the segment variant
        # (seg_direct) by the margin at every larger measured size; the
        # largest of them.  Written, it fixes the way; else the default
        # (auto learns the way per size while the job runs) stays.
        echo "#"
        echo "# direct: CMA pulls instead of the shared segment from the size where they win"
        for c in "${colls[@]}"; do
            awk -F, -v margin="$(awk -v m="$MARGIN" 'BEGIN { print m / 100 }')" -v coll="$c" '
                NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                !("seg_direct_us" in col) || !("cma_direct_us" in col) { next }
                { s = $1 + 0; seg = $col["seg_direct_us"]; cma = $col["cma_direct_us"]
                  if (seg == "" || cma == "") next
                  n++; size[n] = s; win[n] = (cma + 0 < (seg + 0) * (1 - margin)) }
                END {
                    from = -1
                    for (i = n; i >= 1 && win[i]; i--) from = size[i]
                    print coll, (n == 0 ? "unmeasured" : from < 0 ? "never" : from)
                }' "$OUTDIR/$c-np$NP.csv"
        done | awk '
            { if ($2 == "unmeasured") next; seen++; if ($2 == "never") never = 1; else if ($2 + 0 > m) m = $2 + 0
              printf "#   %s: %s\n", $1, ($2 == "never" ? "the segment, at the largest size measured" : "CMA from " $2 " bytes") }
            END {
                if (!seen) print "#   (not measured)"
                else if (never) print "# the segment wins at the largest size of a collective: not set (the default: learned per size as the job runs)"
                else print "coll_rsag_direct_cma_min_bytes = " m
            }'
    fi
} >"$tmp" || die "could not compute the thresholds"
mv "$tmp" "$OUTPUT" || die "cannot write $OUTPUT"
echo "rsag-tune.sh: wrote $OUTPUT" >&2
grep -v '^#' "$OUTPUT"
if [ "$NODE" = 1 ]; then
    f=$(cd "$(dirname "$OUTPUT")" && pwd)/$(basename "$OUTPUT")
    cat >&2 <<EOF2
rsag-tune.sh: use it on every node of this type:
  mpirun --tune $f ...                          (one job)
  OMPI_MCA_mca_param_files=$f mpirun ...        (one job)
  cat $f >> ~/.openmpi/mca-params.conf          (all your jobs)
  or an administrator: append it to Open MPI's etc/openmpi-mca-params.conf
  mpirun --mca coll_rsag_verbose 1 ... shows the choices it makes.
EOF2
fi
