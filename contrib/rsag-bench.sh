#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-bench.sh: compare mca_coll_rsag's algorithms with Open MPI's coll/tuned
# for one collective at one process count, and print the ratios.
#
#   contrib/rsag-bench.sh -n 2 -c allreduce -o results/today
#   contrib/rsag-bench.sh -n 4 -c reduce_scatter_block \
#       --rsag-variant "runs4=--mca coll_rsag_priority_aware_run_blocks 4"
#
# Message size ("bytes") is the whole input vector of one rank (count * type
# size; reduce_scatter_block: recvcount * np; reduce_scatter: sum of the equal
# recvcounts), the quantity rsag's selector compares with
# coll_rsag_<coll>_<alg>_min_bytes.
#
# Jobs, all with the same process count, transport and message sizes:
#   rsag           one job: every algorithm of coll_rsag_<coll>_algorithm (read
#                  from ompi_info's "Valid values:" line), switched through
#                  MPI_T and interleaved inside the job;
#   rsag_auto      rsag with its defaults, nothing switched (auto remembers the
#                  decision of small calls while the settings stay); with the
#                  tuned jobs, also coll/tuned's default in this job (label
#                  tuned_samejob: rsag_bench --previous, a communicator whose
#                  info keeps rsag's reductions off), call by call interleaved
#                  with rsag's, so both see the same machine;
#   <name>         one more such job per --rsag-variant NAME=MCA-ARGS, with
#                  the extra mpirun arguments (labels <name>_auto,
#                  <name>_<algorithm>), e.g. to compare coll_rsag_priority_aware_run_blocks
#                  values;
#   tuned_default  --mca coll ^rsag: coll/tuned's own decision;
#   tuned_mmap0    the same with -x MALLOC_MMAP_MAX_=0 (label tdef0): tuned
#                  without the page faults of its per-call temporaries;
#   tuned_<N>_<name>
#                  --mca coll ^rsag --mca coll_tuned_use_dynamic_rules 1
#                  --mca coll_tuned_<coll>_algorithm N, for every N ompi_info
#                  lists (tuned reads these at communicator creation, hence
#                  one job each).
# The jobs are repeated --reps times, interleaved (repetition 1 of every job,
# then repetition 2, ..., the job order rotating), and the medians over the
# repetitions are merged into
#   OUTDIR/<coll>-np<N>.csv        one row per size: median time of every
#                                  variant, memcpy, ratios (see below)
#   OUTDIR/<coll>-np<N>-raw.csv    every line of every job (rep, job, ...)
#   OUTDIR/<coll>-np<N>-table.txt  the table printed on stdout
#   OUTDIR/<coll>-np<N>.png        latency vs size, log-log, one line per
#                                  variant (needs gnuplot, e.g. gnuplot-nox)
#   OUTDIR/<coll>-np<N>.log        commands, quiet-machine checks, timings
# Ratios are time(tuned)/time(rsag): > 1 means rsag is faster.  The column
# "tdef/auto same job" is the median over the repetitions of each
# rsag_auto job's own ratio tuned_samejob/rsag_auto: on a machine whose
# state moves between jobs (a virtual machine whose host moves its cores
# closer or farther: a cache line's round trip of 130 or 500 ns here, for
# seconds at a time) it is the ratio to trust; the others compare jobs.
#
# --nonblocking: the nonblocking and persistent forms instead of the
# algorithms (rsag_bench --forms all), two jobs: rsag (auto) and libnbc
# (--mca coll ^rsag: the blocking call is coll/tuned's, MPI_I<coll> and the
# persistent form libnbc's; unless --rsag-only, rsag's job also times them
# itself, labels samejob_<form>, and the table ends with their ratios to
# rsag's, job by job); per size: blocking, I*+Wait, Start+Wait of a
# persistent request, overlap with a compute loop (OSU's osu_i* method)
# without and with MPI_Test calls in it; merged by rsag-nbbench-merge.awk
# into OUTDIR/<coll>-np<N>-nb{.csv,-raw.csv,-table.txt,.log,.png} with the
# ratios of the targets of rsag's nonblocking calls (I*+Wait within 1.1x of
# the blocking call, persistent at least as fast, 1.5x libnbc and 80 %
# overlap from 1 MB).  Exit status 1 too when rsag's job did not
# run the nonblocking or persistent calls itself (its MPI_T counters
# coll_rsag_nonblocking_requests / coll_rsag_persistent_starts did not
# move), unless --allow-fallback.
#
# --osu DIR, --imb PATH: also the benchmarks users run, built from their
# public sources outside this tree (contrib/rsag-external.sh builds both):
# OSU's osu_<coll> from DIR (osu_allreduce, osu_reduce, osu_reduce_scatter;
# OSU has no MPI_Reduce_scatter_block), and IMB-MPI1 twice, as it comes
# (-sync 1: a barrier between calls, as OSU) and back to back (-sync 0: the
# next call starts when this rank's last one returned, as application loops
# call).  Each with rsag (its defaults) and coll/tuned's default, in every
# repetition after the rsag_bench jobs; their own reports (OSU's average,
# IMB's t_avg; MPI_FLOAT sums; powers of 2 from --min-bytes to --max-bytes,
# the whole vector as above: IMB's reduce-scatter sizes are per rank and are
# multiplied by np) go to OUTDIR/<coll>-np<N>-ext{-raw.csv,.csv,-table.txt}
# with the ratios tuned/rsag of each measure, and -ext.png (log-log).
#
# Needs bash, awk (mawk is fine), sort, mpicc/mpirun/ompi_info (Debian:
# libopenmpi-dev openmpi-bin).  No python.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)

usage() {
    cat <<EOF
usage: $0 [options]
  -c, --coll COLL        allreduce | reduce | reduce_scatter_block | reduce_scatter
                         (default allreduce; reduce_scatter: equal counts)
      --rsag-variant NAME=ARGS
                         one more rsag job (all rsag algorithms, labels NAME_auto,
                         NAME_<alg>) run with the extra mpirun ARGS, e.g.
                         "runs4=--mca coll_rsag_priority_aware_run_blocks 4"; repeatable;
                         NAME: letters, digits, '-'
      --merge-only       run nothing: merge OUTDIR's existing <coll>-np<N>-raw.csv
                         again (table, CSV)
      --rsag-only        only the rsag job (e.g. to place thresholds between rsag's
                         own algorithms); no tuned jobs, no tuned ratios
      --root R           MPI_Reduce root (default 0)
      --nonblocking      the nonblocking mode (see the header): blocking, I*+Wait,
                         persistent Start+Wait and overlap, rsag against libnbc and
                         coll/tuned; outputs <coll>-np<N>-nb*
      --test-interval-us N
                         --nonblocking: MPI_Test period in the overlap loop (default 10)
      --allow-fallback   --nonblocking: do not fail when rsag's job did not run the
                         nonblocking / persistent calls (a component without them)
      --osu DIR          also OSU's osu_<coll> from DIR, rsag and tuned (see the header)
      --imb PATH         also IMB-MPI1 (PATH), with and without its barrier
EOF
    common_usage
    echo "  -h, --help"
}

PROG=rsag-bench.sh
OUTDIR=./rsag-bench-out
# shellcheck source=rsag-common.sh
. "$HERE/rsag-common.sh" || { echo "$PROG: $HERE/rsag-common.sh not found" >&2; exit 2; }
COLL=allreduce
RSAG_ONLY=0
MERGE_ONLY=0
ROOT=0
VARIANTS=()      # "name=mpirun args" of --rsag-variant
NB=0             # --nonblocking
TEST_INTERVAL=10
ALLOW_FALLBACK=0
OSU_DIR=""       # --osu
IMB_BIN=""       # --imb

while [ $# -gt 0 ]; do
    common_option "$@" && { shift "$SHIFT"; continue; }
    case "$1" in
    -c|--coll) need "$@"; COLL=$2; shift 2 ;;
    --rsag-only) RSAG_ONLY=1; shift ;;
    --merge-only) MERGE_ONLY=1; shift ;;
    --root) need "$@"; ROOT=$2; shift 2 ;;
    --rsag-variant) need "$@"; VARIANTS+=("$2"); shift 2 ;;
    --nonblocking) NB=1; shift ;;
    --test-interval-us) need "$@"; TEST_INTERVAL=$2; shift 2 ;;
    --allow-fallback) ALLOW_FALLBACK=1; shift ;;
    --osu) need "$@"; OSU_DIR=$2; shift 2 ;;
    --imb) need "$@"; IMB_BIN=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
    esac
done

is_coll "$COLL" || die "-c must be allreduce, reduce, reduce_scatter_block or reduce_scatter"
VARIANT_NAMES=""
for v in ${VARIANTS[@]+"${VARIANTS[@]}"}; do
    name=${v%%=*}
    case "$v" in *=*) ;; *) die "--rsag-variant $v: expected NAME=MCA-ARGS" ;; esac
    case "$name" in ''|*[!A-Za-z0-9-]*) die "--rsag-variant $v: NAME must be letters, digits, '-'" ;; esac
    case " rsag tuned tdef $VARIANT_NAMES " in *" $name "*) die "--rsag-variant $v: NAME $name is taken" ;; esac
    VARIANT_NAMES="$VARIANT_NAMES $name"
done
check_common_options
case "$TEST_INTERVAL" in ''|*[!0-9]*) die "--test-interval-us must be a number of microseconds" ;; esac
[ "$NB" = 1 ] && [ ${#VARIANTS[@]} -gt 0 ] && die "--rsag-variant is not supported with --nonblocking"
# The external benchmarks' jobs: "measure|program and its arguments" (the
# sizes: powers of 2, OSU in bytes, IMB as log2).
EXT_JOBS=()
log2_floor() { local v=$1 k=0; while [ "$v" -gt 1 ]; do v=$((v >> 1)); k=$((k + 1)); done; echo $k; }
if [ -n "$OSU_DIR$IMB_BIN" ]; then
    [ "$NB" = 1 ] && die "--osu/--imb are not supported with --nonblocking"
    to_bytes() { awk -v v="$1" 'BEGIN { m = 1; if (v ~ /[kK]$/) m = 1024; else if (v ~ /[mM]$/) m = 1048576; else if (v ~ /[gG]$/) m = 1073741824; sub(/[kKmMgG]$/, "", v); printf "%d", v * m }'; }
    if [ -n "$SIZES" ]; then
        EXT_MIN=$(for z in ${SIZES//,/ }; do to_bytes "$z"; echo; done | sort -n | head -1)
        EXT_MAX=$(for z in ${SIZES//,/ }; do to_bytes "$z"; echo; done | sort -n | tail -1)
    else
        EXT_MIN=$(to_bytes "$MIN_BYTES"); EXT_MAX=$(to_bytes "$MAX_BYTES")
    fi
    [ "$EXT_MIN" -ge 4 ] || EXT_MIN=4
fi
if [ -n "$OSU_DIR" ]; then
    case "$COLL" in
    reduce_scatter_block) die "--osu: OSU has no MPI_Reduce_scatter_block benchmark (use -c reduce_scatter, or --imb)" ;;
    esac
    [ -x "$OSU_DIR/osu_$COLL" ] || die "--osu: $OSU_DIR/osu_$COLL not found (contrib/rsag-external.sh builds it)"
    osu_iters=${ITERS:-1000}
    EXT_JOBS+=("osu|$OSU_DIR/osu_$COLL -f -m $EXT_MIN:$EXT_MAX -i $osu_iters -x $(( osu_iters / 10 > 1 ? osu_iters / 10 : 1 ))")
fi
if [ -n "$IMB_BIN" ]; then
    [ -x "$IMB_BIN" ] || die "--imb: $IMB_BIN is not an executable (contrib/rsag-external.sh builds it)"
    case "$COLL" in
    allreduce) imb_name=Allreduce ;; reduce) imb_name=Reduce ;;
    reduce_scatter) imb_name=Reduce_scatter ;; reduce_scatter_block) imb_name=Reduce_scatter_block ;;
    esac
    imb_lo=$EXT_MIN; imb_hi=$EXT_MAX
    case "$COLL" in reduce_scatter*) imb_lo=$((EXT_MIN / NP)); imb_hi=$((EXT_MAX / NP)); [ "$imb_lo" -ge 4 ] || imb_lo=4 ;; esac
    imb_args="$imb_name -npmin $NP -msglog $(log2_floor "$imb_lo"):$(log2_floor "$imb_hi") -time 60 -mem 4${ITERS:+ -iter $ITERS}"
    EXT_JOBS+=("imb|$IMB_BIN $imb_args -sync 1" "imb_b2b|$IMB_BIN $imb_args -sync 0")
fi
[ "$NP" -ge 2 ] || die "-n must be at least 2 (rsag takes communicators of size >= 2)"
for tool in mpirun ompi_info awk sort; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found (Debian: apt-get install openmpi-bin libopenmpi-dev)"
done

mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
BASE="$OUTDIR/$COLL-np$NP"
[ "$NB" = 1 ] && BASE="$BASE-nb"
LOG="$BASE.log"
RAW="$BASE-raw.csv"
if [ "$MERGE_ONLY" = 1 ]; then
    [ -s "$RAW" ] || die "--merge-only: $RAW not found"
    grep -q ',tuned_' "$RAW" || RSAG_ONLY=1
else
    : >"$LOG"
fi
log() { echo "$*" >>"$LOG"; }
progress() { echo "rsag-bench.sh: $*" >&2; log "# $*"; }

# ---------------------------------------------------------------- component path
if [ -n "$COMPONENT_DIR" ]; then
    [ -d "$COMPONENT_DIR" ] || die "component dir $COMPONENT_DIR does not exist"
    COMPONENT_DIR=$(cd "$COMPONENT_DIR" && pwd)
    default_path=$(env -u OMPI_MCA_mca_base_component_path ompi_info --parsable --param mca base --level 9 \
        | awk -F'value:' '/:mca_base_component_path:value:/ { v = $2; gsub(/"/, "", v); print v }')
    # COMPONENT_DIR first (it wins over a copy installed in pkglibdir), then the
    # default entries that exist: Open MPI 4.1 stops scanning the path at the
    # first directory that does not exist (e.g. ~/.openmpi/components).
    new_path=$COMPONENT_DIR
    IFS=: read -r -a entries <<<"$default_path"
    for d in "${entries[@]}"; do
        [ -n "$d" ] && [ -d "$d" ] && [ "$d" != "$COMPONENT_DIR" ] && new_path="$new_path:$d"
    done
    export OMPI_MCA_mca_base_component_path="$new_path"
fi

# The "Valid values:" of an enum parameter, as "value:name" words (0 included).
valid_values() { # $1 = framework component (e.g. "coll rsag"), $2 = parameter
    ompi_info --param $1 --level 9 2>/dev/null | awk -v p="parameter \"$2\"" '
        index($0, p) { found = 1; next }
        found && /parameter "/ { exit }
        found && /Valid values:/ {
            sub(/.*Valid values:[ \t]*/, "")
            n = split($0, items, ",")
            for (i = 1; i <= n; ++i) {
                it = items[i]; gsub(/[ \t"]/, "", it)
                sub(/\|/, ":", it)    # Open MPI 5.0 prints 0|auto, 4.1 0:"auto"
                if (it != "") print it
            }
            exit
        }'
}

if [ "$MERGE_ONLY" = 1 ]; then
    # the variants are those of the raw data (the installed rsag may differ)
    # auto first, as ompi_info lists it (it has a job of its own, rsag_auto)
    RSAG_VALUES=$(awk -F, 'NR > 1 && $3 ~ /^rsag_/ && !seen[$3]++ { n = $3; sub(/^rsag_/, "", n); if (n == "auto") auto = 1; else l[++k] = n }
        END { if (auto) print i++ ":auto"; for (j = 1; j <= k; ++j) print i++ ":" l[j] }' "$RAW")
    TUNED_VALUES=$(awk -F, 'NR > 1 && $3 ~ /^tuned_[0-9]+_/ && !seen[$3]++ { n = $3; sub(/^tuned_/, "", n); sub(/_/, ":", n); print n }' "$RAW")
    TUNED_VALUES="0:ignore $TUNED_VALUES"
    VARIANT_NAMES=$(awk -F, 'NR > 1 && $2 != "rsag" && $2 != "rsag_auto" && $2 !~ /^tuned_/ && !seen[$2]++ { print $2 }' "$RAW")
else
    RSAG_VALUES=$(valid_values "coll rsag" "coll_rsag_${COLL}_algorithm")
    TUNED_VALUES=$(valid_values "coll tuned" "coll_tuned_${COLL}_algorithm")
fi
[ "$NB" = 1 ] && TUNED_VALUES="0:ignore"  # no tuned algorithm jobs
[ -n "$RSAG_VALUES" ] || die "ompi_info shows no coll_rsag_${COLL}_algorithm: rsag is not installed or not on the component path (set RSAG_COMPONENT_DIR or --component-dir; OMPI_MCA_mca_base_component_path=${OMPI_MCA_mca_base_component_path:-unset})"
[ -n "$TUNED_VALUES" ] || die "ompi_info shows no coll_tuned_${COLL}_algorithm"

RSAG_LABELS=""   # rsag_<name>, auto first
RSAG_ALGS=""     # the algorithm names (without auto)
seen_values=" "  # an algorithm's former (deprecated) name has its value: skipped
for v in $RSAG_VALUES; do
    name=${v#*:}
    case "$seen_values" in *" ${v%%:*} "*) continue ;; esac
    seen_values="$seen_values${v%%:*} "
    RSAG_LABELS="$RSAG_LABELS rsag_$name"
    [ "$name" = auto ] || RSAG_ALGS="$RSAG_ALGS $name"
done
case " $RSAG_LABELS " in *" rsag_auto "*) ;; *) die "rsag's enum has no auto value" ;; esac

# Jobs: "label|extra mpirun args|bench args"
if [ "$NB" = 1 ]; then
    # (and, beside libnbc's job, the module below rsag inside rsag's job:
    # labels samejob_<form>)
    samejob=""
    [ "$RSAG_ONLY" = 1 ] || samejob=" --previous samejob"
    JOBS=("rsag|--mca coll_rsag_${COLL}_algorithm auto|--forms all --test-interval-us $TEST_INTERVAL --label rsag$samejob")
    [ "$RSAG_ONLY" = 1 ] || JOBS+=("libnbc|--mca coll ^rsag|--forms all --test-interval-us $TEST_INTERVAL --label libnbc")
    RSAG_ONLY=1   # none of the tuned jobs below
    TUNED_VALUES=""
else
    # auto in a job of its own: the rsag job sets the algorithm through
    # MPI_T before every call, and auto's small calls keep their decision
    # only while the settings stay (coll_rsag_latency.c)
    # (and, beside the tuned jobs, tuned's default inside the auto job)
    samejob=""
    [ "$RSAG_ONLY" = 1 ] || samejob=" --previous tuned_samejob"
    JOBS=("rsag|--mca coll_rsag_${COLL}_algorithm auto|--rsag-algorithms forced --label rsag"
          "rsag_auto|--mca coll_rsag_${COLL}_algorithm auto|--rsag-algorithms current --label rsag_auto$samejob")
    # one more rsag job per --rsag-variant (labels <name>_<alg>, merged below)
    for v in ${VARIANTS[@]+"${VARIANTS[@]}"}; do
        JOBS+=("${v%%=*}|--mca coll_rsag_${COLL}_algorithm auto ${v#*=}|--rsag-algorithms all --label ${v%%=*}")
    done
    [ "$RSAG_ONLY" = 1 ] || JOBS+=("tuned_default|--mca coll ^rsag|--rsag-algorithms current --label tuned_default")
fi
TUNED_LABELS="tuned_default"
# coll/tuned's decision again with glibc's malloc never returning large
# blocks to the kernel: where a temporary of tuned's is allocated per call,
# its pages are faulted in anew each call (~10 us per 4 KB page on a VM)
# and this job shows what is left without that cost.
if [ "$RSAG_ONLY" != 1 ] && [ "$NB" != 1 ] && { [ "$MERGE_ONLY" != 1 ] || grep -q ',tuned_mmap0,' "$RAW"; }; then
    JOBS+=("tuned_mmap0|-x MALLOC_MMAP_MAX_=0 --mca coll ^rsag|--rsag-algorithms current --label tuned_mmap0")
    TUNED_LABELS="$TUNED_LABELS tuned_mmap0"
fi
[ "$RSAG_ONLY" = 1 ] && TUNED_VALUES="" && TUNED_LABELS=""
for v in $TUNED_VALUES; do
    num=${v%%:*}; name=${v#*:}
    [ "$num" = 0 ] && continue
    TUNED_LABELS="$TUNED_LABELS tuned_${num}_$name"
    JOBS+=("tuned_${num}_$name|--mca coll ^rsag --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_${COLL}_algorithm $num|--rsag-algorithms current --label tuned_${num}_$name")
done

# ---------------------------------------------------------------- benchmark binary
if [ "$MERGE_ONLY" = 1 ]; then
    BENCH=/bin/true
elif [ -z "$BENCH" ] && [ -x "$HERE/rsag_bench" ] && ! [ "$HERE/rsag_bench.c" -nt "$HERE/rsag_bench" ]; then
    BENCH="$HERE/rsag_bench"    # installed next to this script, or built by make
elif [ -z "$BENCH" ]; then
    src="$HERE/rsag_bench.c"
    [ -f "$src" ] || die "$src not found (or give --bench)"
    command -v mpicc >/dev/null 2>&1 || die "mpicc not found (Debian: apt-get install libopenmpi-dev)"
    BENCH="$OUTDIR/rsag_bench"
    if [ ! -x "$BENCH" ] || [ "$src" -nt "$BENCH" ]; then
        mpicc -O2 -std=gnu11 -Wall -Wextra -o "$BENCH" "$src" || die "cannot build $src"
    fi
fi
[ -x "$BENCH" ] || die "$BENCH is not executable"

NCORES=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)
MPIRUN=(mpirun -np "$NP")
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
OVERSUB=no
if [ "$NP" -gt "$NCORES" ]; then
    OVERSUB=yes
    MPIRUN+=(--oversubscribe)
fi
BENCH_ARGS=(--coll "$COLL" --min-bytes "$MIN_BYTES" --max-bytes "$MAX_BYTES" --dtype "$DTYPE" --root "$ROOT")
[ -n "$ITERS" ] && BENCH_ARGS+=(--iters "$ITERS")
[ -n "$SIZES" ] && BENCH_ARGS+=(--sizes "$SIZES")

# ---------------------------------------------------------------- quiet machine
# CPU time used on the whole machine over 2 s, in cores (from /proc/stat):
# catches other work (builds, tests without mpirun) that loadavg, averaged
# over a minute that includes our own last job, cannot tell apart.
cpu_busy() {
    local a b
    a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat 2>/dev/null)
    sleep 2
    b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat 2>/dev/null)
    awk -v a="$a" -v b="$b" -v n="$NCORES" 'BEGIN {
        split(a, x, " "); split(b, y, " ")
        t = y[2] - x[2]; printf "%.2f", (t > 0 ? (y[1] - x[1]) / t * n : 0) }'
}
# Prints what is busy ("" when quiet); $1 = 1 to check the loadavg too,
# $2 = 1 to check the CPU use of the last 2 s.
busy_with() {
    local procs load b="" busy
    procs=$( { pgrep -f rsag_check; pgrep -x mpirun; } 2>/dev/null | sort -u | tr '\n' ' ')
    [ -n "$procs" ] && b="other MPI processes (pids $procs)"
    if [ "${2:-0}" = 1 ]; then
        busy=$(cpu_busy)
        if awk -v l="$busy" -v t="$QUIET_CPU" 'BEGIN { exit !(l + 0 >= t + 0) }'; then
            b="${b:+$b, }other work using $busy cores"
        fi
    fi
    if [ "$1" = 1 ]; then
        load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
        if awk -v l="$load" -v t="$QUIET_LOAD" 'BEGIN { exit !(l + 0 >= t + 0) }'; then
            b="${b:+$b, }loadavg $load"
        fi
    fi
    echo "$b"
}
NOT_QUIET=0
# Every wait is at most --wait-quiet seconds, and all of one run's waits
# together at most 3 times that (then it measures anyway and says so).
WAIT_BUDGET=$((3 * WAIT_QUIET))
wait_quiet() { # $1 = check load, $2 = what for
    local waited=0 b limit
    [ "$WAIT_QUIET" -gt 0 ] || return 0
    limit=$WAIT_QUIET
    [ "$WAIT_BUDGET" -lt "$limit" ] && limit=$WAIT_BUDGET
    while :; do
        b=$(busy_with "$1" 1)
        if [ -z "$b" ]; then
            [ "$waited" -gt 0 ] && progress "machine quiet after ${waited}s ($2)"
            log "quiet: $2 (waited ${waited}s, loadavg $(cut -d' ' -f1-3 /proc/loadavg))"
            return 0
        fi
        if [ "$waited" -ge "$limit" ]; then
            progress "NOT QUIET after ${waited}s ($2): $b; measuring anyway${WAIT_BUDGET:+ (waiting budget left: ${WAIT_BUDGET}s)}"
            return 1
        fi
        [ "$waited" = 0 ] && progress "waiting for a quiet machine ($2): $b"
        sleep 20
        waited=$((waited + 20))
        WAIT_BUDGET=$((WAIT_BUDGET - 20))
    done
}

# ---------------------------------------------------------------- external benchmarks
# One repetition of OSU's and IMB's jobs, rsag and tuned alternating (which
# goes first alternates with the repetition), their reports as rows
# rep,measure,impl,bytes,time_us of EXT_RAW.
EXT_RAW="$BASE-ext-raw.csv"
run_external() { # $1 = rep
    local e measure prog impl order out rc k
    [ ${#EXT_JOBS[@]} -gt 0 ] || return 0
    [ "$1" = 1 ] && echo "rep,measure,impl,bytes,time_us" >"$EXT_RAW"
    order="rsag tuned"; [ $(( $1 % 2 )) = 0 ] && order="tuned rsag"
    for e in "${EXT_JOBS[@]}"; do
        measure=${e%%|*}; prog=${e#*|}
        for impl in $order; do
            wait_quiet 0 "rep $1 $measure $impl"
            out="$BASE.ext.$$.txt"
            # shellcheck disable=SC2206
            cmd=("${MPIRUN[@]}" $MPIRUN_ARGS $( [ "$impl" = tuned ] && echo "--mca coll ^rsag") $prog)
            log "${cmd[*]}"
            "${cmd[@]}" >"$out" 2>>"$LOG"
            rc=$?
            cat "$out" >>"$LOG"
            # OSU: "size avg [min max iterations]" under "# Size"; IMB: "#bytes
            # #repetitions t_min t_max t_avg" rows
            k=$(awk -v rep="$1" -v m="$measure" -v impl="$impl" -v np="$NP" -v coll="$COLL" '
                m == "osu" && /^[0-9]+[ \t]+[0-9.]+/ { print rep "," m "," impl "," $1 "," $2; ++n; next }
                m != "osu" && NF == 5 && $1 ~ /^[0-9]+$/ && $1 > 0 && $5 ~ /^[0-9.]+$/ {
                    b = $1; if (coll ~ /^reduce_scatter/) b *= np
                    print rep "," m "," impl "," b "," $5; ++n }
                /Invalid benchmark name/ { bad = 1 }
                END { exit n == 0 || bad }' "$out" >>"$EXT_RAW"; echo $?)
            rm -f "$out"
            if [ "$rc" -ne 0 ] || [ "$k" -ne 0 ]; then
                FAILED=$((FAILED + 1))
                echo "rsag-bench.sh: *** $measure ($impl) rep $1: exit $rc$( [ "$k" -ne 0 ] && echo ', no results'); see $LOG" >&2
            fi
            progress "[rep $1/$REPS] $measure $impl: exit $rc"
        done
    done
}

# ---------------------------------------------------------------- run
FAILED=0
if [ "$MERGE_ONLY" = 1 ]; then
    FAILED=$(grep -c ',FAIL,' "$RAW")
else
    log "# rsag-bench.sh $COLL np $NP, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(hostname)"
    log "# cores $NCORES, oversubscribed $OVERSUB, reps $REPS, sizes $MIN_BYTES..$MAX_BYTES, dtype $DTYPE"
    log "# $(ompi_info --version 2>/dev/null | head -1)"
    log "# OMPI_MCA_mca_base_component_path=${OMPI_MCA_mca_base_component_path:-<unset>}"
    log "# rsag values: "$RSAG_VALUES
    for v in ${VARIANTS[@]+"${VARIANTS[@]}"}; do log "# rsag variant ${v%%=*}: ${v#*=}"; done
    log "# tuned values: "$TUNED_VALUES
    [ "$OVERSUB" = yes ] && progress "np $NP > $NCORES cores: OVERSUBSCRIBED, timings are slow and noisy"

    wait_quiet 1 "start of $COLL np $NP"
    echo "rep,job,label,coll,np,bytes,time_us,memcpy_us,busbw_GBps,iters,ran,verified,oversubscribed,osu_us$( [ "$NB" = 1 ] && echo ",form,compute_us,overlap_pct,tests")" >"$RAW"
    DISTURBED=0
    trap 'rm -f "$BASE.job.$$.csv"' EXIT
    njobs=${#JOBS[@]}
    t_start=$(date +%s)
    for ((rep = 1; rep <= REPS; ++rep)); do
        for ((k = 0; k < njobs; ++k)); do
            j=$(( (k + rep - 1) % njobs ))
            IFS='|' read -r job mpiextra benchextra <<<"${JOBS[$j]}"
            # A job during which other MPI jobs started is run again (at most twice
            # more) once they are gone, when --wait-quiet is given.
            for attempt in 1 2 3; do
                wait_quiet 0 "rep $rep $job"
                out="$BASE.job.$$.csv"
                # shellcheck disable=SC2206
                cmd=("${MPIRUN[@]}" $MPIRUN_ARGS $mpiextra "$BENCH" "${BENCH_ARGS[@]}" $benchextra)
                log "${cmd[*]}"
                t0=$(date +%s)
                # stderr to the log; rsag_bench's per-size progress lines also to ours
                "${cmd[@]}" >"$out" 2> >(tee -a "$LOG" | grep --line-buffered '^rsag_bench: size' | sed -u "s/^rsag_bench: /rsag-bench.sh:   $job: /" >&2)
                rc=$?
                t1=$(date +%s)
                done_jobs=$(( (rep - 1) * njobs + k + 1 )); elapsed=$((t1 - t_start))
                progress "[rep $rep/$REPS, job $((k + 1))/$njobs] $job: $((t1 - t0)) s, exit $rc, load $(cut -d' ' -f1 /proc/loadavg); elapsed ${elapsed} s, ETA $(( elapsed * (REPS * njobs - done_jobs) / done_jobs )) s"
                b=$(busy_with 0)
                [ -z "$b" ] && break
                # never rerun a job that failed: its output must stay in the data
                { [ "$rc" -ne 0 ] || grep -q ',FAIL,' "$out"; } && break
                if [ "$WAIT_BUDGET" -gt 0 ] && [ "$attempt" -lt 3 ]; then
                    progress "disturbed: $b were running at the end of $job; running it again"
                else
                    progress "DISTURBED: $b were running at the end of $job; kept"
                    DISTURBED=$((DISTURBED + 1))
                    break
                fi
            done
            if [ "$rc" -ne 0 ] || grep -q ',FAIL,' "$out"; then
                FAILED=$((FAILED + 1))
                echo "rsag-bench.sh: *** $job rep $rep: exit $rc$(grep -q ',FAIL,' "$out" && echo ', WRONG RESULTS (verified=FAIL)'); see $LOG" >&2
            fi
            awk -v rep="$rep" -v job="$job" 'NR > 1 && NF { print rep "," job "," $0 }' "$out" >>"$RAW"
            rm -f "$out"
        done
        run_external "$rep"
    done
    progress "all jobs done in $(( $(date +%s) - t_start )) s"
fi
NOT_QUIET=$(grep -c '^# NOT QUIET' "$LOG" 2>/dev/null)
DISTURBED=$(grep -c '^# DISTURBED' "$LOG" 2>/dev/null)

# ---------------------------------------------------------------- merge
# twice: in rsag-bench's measure (max over ranks of the per-rank median,
# column time_us) and in OSU's (mean over ranks of the per-rank mean,
# column osu_us; raw files of older runs have none and get no OSU table)
TABLE="$BASE-table.txt"
if [ "$NB" = 1 ]; then
    awk -F, -v coll="$COLL" -v np="$NP" -v oversub="$OVERSUB" -v ncores="$NCORES" -v csv="$BASE.csv" \
        -v not_quiet="$NOT_QUIET" -v disturbed="$DISTURBED" \
        -f "$HERE/rsag-bench-lib.awk" -f "$HERE/rsag-nbbench-merge.awk" "$RAW" | tee "$TABLE"
    # Did rsag run the nonblocking and persistent calls of its job?  The
    # "ran" column holds the rsag counters that moved around each verified
    # call: nonblocking_requests for I*, persistent_starts for MPI_Start.
    FALLBACK=$(awk -F, 'NR > 1 && $2 == "rsag" && $3 !~ /^samejob_/ && $15 != "blocking" {
            want = ($15 == "persistent") ? "persistent_starts" : "nonblocking_requests"
            if (index("+" $11 "+", "+" want "+") == 0) print "  " $3 " " $6 " bytes: ran " $11 ", coll_rsag_" want " did not move"
        }' "$RAW")
    if [ -n "$FALLBACK" ]; then
        echo
        echo "rsag did NOT run these calls of its job (delegated, or a component without them):"
        echo "$FALLBACK"
    else
        echo
        echo "rsag ran every nonblocking and persistent call of its job (coll_rsag_nonblocking_requests / coll_rsag_persistent_starts moved)"
    fi | tee -a "$TABLE"
    # the counters' totals at the end of the last job of each label
    awk '/^mpirun / { job = $0; sub(/.*--label /, "", job); sub(/ .*/, "", job) }
         /^rsag_bench: rank 0: coll_rsag_/ { v[job " job: " $4] = $6 }
         END { for (k in v) print "  " k " = " v[k] " (rank 0, end of the last such job)" }' \
        "$LOG" 2>/dev/null | sort | tee -a "$TABLE"
    if [ -n "$FALLBACK" ] && [ "$ALLOW_FALLBACK" != 1 ]; then
        FAILED=$((FAILED + 1))
        echo "rsag-bench.sh: *** rsag's job did not run the nonblocking/persistent calls (see above; --allow-fallback to accept)" >&2
    fi
fi
merge() { # $1 = time column of the raw CSV, $2 = wide CSV
    awk -F, -v rsag_labels="$RSAG_LABELS" -v rsag_algs="$RSAG_ALGS" -v tuned_labels="$TUNED_LABELS" \
        -v variant_names="$VARIANT_NAMES" -v tcol="$1" \
        -v coll="$COLL" -v np="$NP" -v oversub="$OVERSUB" -v ncores="$NCORES" \
        -v csv="$2" -v not_quiet="$NOT_QUIET" -v disturbed="$DISTURBED" \
        -f "$HERE/rsag-bench-lib.awk" -f "$HERE/rsag-bench-merge.awk" "$RAW"
}
[ "$NB" = 1 ] || merge 7 "$BASE.csv" | tee "$TABLE"
if [ "$NB" != 1 ] && head -1 "$RAW" | grep -q ',osu_us$'; then
    echo
    merge 14 "$BASE-osu.csv" | tee "$BASE-osu-table.txt"
fi

# The external measures: per size and measure the median over the
# repetitions of rsag and of tuned, and tuned / rsag.
if [ ${#EXT_JOBS[@]} -gt 0 ] && [ -s "$EXT_RAW" ]; then
    echo
    awk -F, -v coll="$COLL" -v np="$NP" -v oversub="$OVERSUB" -v ncores="$NCORES" -v csv="$BASE-ext.csv" \
        -f "$HERE/rsag-bench-lib.awk" -f "$HERE/rsag-bench-ext-merge.awk" "$EXT_RAW" | tee "$BASE-ext-table.txt"
fi

# ---------------------------------------------------------------- plot
# Log-log latency vs size, one line per variant (the *_us columns of the
# wide CSV, memcpy dashed).
PNG="$BASE.png"
rm -f "$PNG"
if ! command -v gnuplot >/dev/null 2>&1; then
    progress "gnuplot not found: no plot (Debian: apt-get install --no-install-recommends gnuplot-nox, or contrib/install-deps.sh)"
else
    # $1 = PNG, $2 = y label, $3 = title; then the plot command on stdin
    plot_loglog() {
        {
            cat <<EOF
set terminal pngcairo size 1200,800 noenhanced
set output "$1"
set datafile separator ","
set key autotitle columnheader outside right
set logscale xy
set format x "%.0b%B"
set xlabel "message size, bytes (whole input vector)"
set ylabel "$2"
set grid
set title "$3"
EOF
            cat
        } | gnuplot 2>>"$LOG"
    }
    last=$(head -1 "$BASE.csv" | awk -F, '{ for (i = 1; i <= NF; ++i) if ($i == "memcpy_us") print i }')
    plot_loglog "$PNG" "time, microseconds" \
        "$COLL$( [ "$NB" = 1 ] && echo ' (blocking, nonblocking, persistent)'), np $NP$( [ "$OVERSUB" = yes ] && echo ' (oversubscribed)'), $(hostname)" <<EOF \
        || progress "gnuplot failed (see $LOG): no plot"
plot for [i=2:$((last - 1))] "$BASE.csv" using 1:i with linespoints lw (i == 2 ? 3 : 1), \\
     "$BASE.csv" using 1:$last with lines dashtype 2 lc rgb "black"
EOF
    # OSU's and IMB's reports: rsag solid, tuned dashed, one colour a measure
    if [ -s "$BASE-ext.csv" ]; then
        next=$(head -1 "$BASE-ext.csv" | awk -F, '{ print (NF - 1) / 3 }')
        plot_loglog "$BASE-ext.png" "time, microseconds (the benchmark's own report)" \
            "$COLL, np $NP$( [ "$OVERSUB" = yes ] && echo ' (oversubscribed)'): OSU and IMB, rsag (solid) and tuned's default (dashed), $(hostname)" <<EOF \
            || progress "gnuplot failed (see $LOG): no plot of OSU and IMB"
plot for [i=2:$((3 * next - 1)):3] "$BASE-ext.csv" using 1:i with linespoints lc ((i - 2) / 3 + 1) lw 2, \\
     for [i=3:$((3 * next)):3] "$BASE-ext.csv" using 1:i with linespoints lc ((i - 3) / 3 + 1) dashtype 2
EOF
    fi
fi

progress "wrote $BASE.csv, $RAW, $TABLE, $LOG$( [ -s "$BASE-ext-table.txt" ] && echo ", $BASE-ext-table.txt, $BASE-ext.csv, $EXT_RAW")$( [ -s "$BASE-ext.png" ] && echo ", $BASE-ext.png")$( [ -s "$BASE-osu-table.txt" ] && echo ", $BASE-osu-table.txt, $BASE-osu.csv")$( [ -s "$PNG" ] && echo ", $PNG")"
if [ "$FAILED" -gt 0 ]; then
    echo "rsag-bench.sh: *** $FAILED job(s) failed or gave WRONG RESULTS; see $LOG" >&2
    exit 1
fi
exit 0
