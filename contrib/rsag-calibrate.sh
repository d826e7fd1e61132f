#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-calibrate.sh: measure what this machine can measure honestly and
# write cost-model profiles (contrib/model/coll_rsag_model.h) for
# rsag_model and rsag-tune.sh --model.
#
#   contrib/rsag-calibrate.sh -o DIR                       # shared memory only
#   contrib/rsag-calibrate.sh -o DIR --net 1gbit --net off # + emulated links
#   contrib/rsag-calibrate.sh -o DIR --fit-only            # refit DIR/*-raw.txt
#   contrib/rsag-calibrate.sh -o DIR --ranks 32            # + 32 ranks of this node
#
# Measurements (rsag_calibrate, two ranks, never oversubscribed):
#   shm        np 2 on this machine's cores, --mca btl self,vader, bound to
#              cores; also, on rank 0 alone, memcpy, CMA and the reduction
#              rate of rsag's own kernels per (op, type), the streaming copy;
#              and the node's shared parts at np 2: a flag handed between two
#              ranks through shared memory, k = 1, 2 ranks copying and
#              reducing at once                            -> DIR/shm-raw.txt
#   node       with --ranks K (K > 2): the node's shared parts again with K
#              ranks, bound to cores (k = 1, 2, 4, ..., K copiers at once;
#              more ranks than cores is refused)           -> DIR/node-raw.txt
#   net RATE   2 hosts x 1 rank of the emulated cluster
#              (contrib/rsag-cluster.sh with 2 --rate RATE; off: uncapped),
#              tcp between them                             -> DIR/net-RATE-raw.txt
# Profiles: DIR/shm.profile (shared memory, and the network part of the
# built-in default), DIR/RATE.profile for each --net (shm part from shm-raw).
# Fit, per link, from the exchange times (MPI_Sendrecv of both ranks):
#   alpha, beta_eager  least squares of t = alpha + m beta_eager over the
#              sizes below the eager limit, relative errors (back-to-back
#              exchanges: the steady rate)
#   beta_cache, rndv  least squares of t = a + m beta_cache over the sizes
#              above the eager limit while 2 m fits cache_bytes (one core's
#              level-2 cache), relative errors;
#              rndv = a - alpha (>= 0); from the isolated exchanges
#              (exchange1: one call after a barrier, as a collective's step
#              meets the link) when the raw file has them, else back to back
#   beta       mean (t - a) / m over the sizes where 2 m >= 4 cache_bytes
#              (memory-bound);
#              isolated exchanges: the smallest
#   rndv_pipe  with isolated exchanges: the back-to-back fit's intercept
#              over the same sizes - alpha (a pipelined segment's rendezvous,
#              both ranks sending; without them rndv is that already)
#   burst      the largest isolated exchange of 2 KB .. the eager limit
#              that takes under half its steady time: a shaper passed it
#              at once (the emulated cluster's htb; exchange1 only)
#   beta_burst mean (t - alpha) / m of the isolated exchanges in (8 KB, burst]
#   net_exchange  isolated exchange / ping-pong (one way) at the largest
#              size both measured; when above 1.1 (4 emulated hosts on 2
#              cores: about 2) beta_cache and beta come from the ping-pongs
#              (the one-way rates; same fits), else 1
#   o          per message of 32 back-to-back 8-byte messages
# The node path's terms (`direct`), from shm-raw.txt and node-raw.txt (the
# latter's where both have one):
#   stream_beta, stream_cache  the streaming copy's s/B at 16 MB and 64 KB
#   handoff    one flag written by one rank until another sees it (half a
#              round trip); handoff_line: each further flag of a wait on
#              many ((64 flags - 1 flag) / 63)
#   sync       one flag each way right after a barrier, the slower rank
#   xcopy, xcopy_nt, xreduce, xreduce_nt  rank 1 reading 256 KB rank 0 has
#              just written into shared memory (memcpy; _nt streamed), by
#              memcpy or by the SUM DOUBLE kernel: s/B; xcopy.2048 ... the
#              same in pieces of 2 and 32 KB
#   llc_bytes, dram_factor  the last-level cache (sysfs) and a memcpy's s/B
#              between two buffers as large over memcpy_beta (16 MB)
#   call_alpha an 8-byte MPI_Allreduce on a one-rank communicator after a
#              barrier (entering a call and leaving it: rsag's dispatch; the
#              runs lower coll/self's priority so that rsag takes it)
#   node_bw    the node's aggregate memcpy rate: k ranks copying 16 MB each
#              at once, the largest k / (s/B of one of them) over the k
#              measured (bytes copied per second, the node)
#   node_mem_bw  the node's memory traffic: the same with the streaming
#              copy, 2 bytes (a read, a write) per byte copied
# Fixed, not measured: shm overlap 0 (the CPU copies), net overlap 1 (the
# NIC moves the bytes), nic_share 1; fabric_bw 0 unless --fabric N
# measured a slower rendezvous slope per pair.
#
# Options:
#   -o DIR          output directory (default ./rsag-calibrate-out)
#   --net RATE      also measure emulated links at RATE (tc rate, or off);
#                   repeatable; needs root and contrib/rsag-cluster.sh
#   --no-shm        skip the shared-memory measurement (fit an existing one)
#   --lock FILE     run each measurement under flock -x FILE
#   --fit-only      measure nothing: fit DIR's raw files again
#   --calibrate P   the rsag_calibrate binary (default: next to this script,
#                   else built from rsag_calibrate.c into DIR)
#   --mpirun-args A extra mpirun arguments for the shm run
#   --runs N        shm: run rsag_calibrate N times (default 3) and keep, per
#                   figure, the median (a launch's state moves the node path's
#                   small terms by up to 2x; the runs wait for a quiet machine)
#   --fabric N      with each --net RATE, also N hosts x 1 rank (N even) in
#                   pairs exchanging at once: the aggregate every link gets
#                   when all move data (fabric_bw; on the emulated cluster
#                   the bridge and the shared cores)  -> DIR/net-RATE-Nx1-raw.txt
#   --ranks K       also measure the node's shared parts with K ranks (the
#                   node's cores: the bandwidth K copiers share); K <= cores
#   --quick         shorter repetitions (4 ms instead of 20: a smoke run)
#   --max-bytes N   shm: the largest message of the exchanges (default 64 MB;
#                   a quick calibration: 1M)
#   --wait-quiet S  before each run (inside the lock) wait up to S seconds
#                   until no other mpirun runs and the other processes use
#                   less than 0.3 cores over 2 s; say in the raw file if not
set -u
PROG=rsag-calibrate.sh
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$PROG: $*" >&2; exit 2; }
OUTDIR=./rsag-calibrate-out
NETS=()
SHM=1
LOCK=
FIT_ONLY=0
CAL=
MPIRUN_ARGS=
RUNS=3
WAIT_QUIET=0
FABRIC=0
RANKS=0
MAXB=
QUICK=
while [ $# -gt 0 ]; do
    case "$1" in
    -o|--outdir) OUTDIR=$2; shift 2 ;;
    --net) NETS+=("$2"); shift 2 ;;
    --no-shm) SHM=0; shift ;;
    --lock) LOCK=$2; shift 2 ;;
    --fit-only) FIT_ONLY=1; shift ;;
    --calibrate) CAL=$2; shift 2 ;;
    --mpirun-args) MPIRUN_ARGS=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --fabric) FABRIC=$2; shift 2 ;;
    --ranks) RANKS=$2; shift 2 ;;
    --max-bytes) MAXB=$2; shift 2 ;;
    --quick) QUICK=--quick; shift ;;
    --wait-quiet) WAIT_QUIET=$2; shift 2 ;;
    -h|--help) sed -n '5,/^set -u/p' "$0" | sed '$d'; exit 0 ;;
    *) die "unknown option $1 (-h lists them)" ;;
    esac
done
case "$RUNS" in ''|*[!0-9]*|0) die "--runs must be a positive number" ;; esac
case "$RANKS" in ''|*[!0-9]*) die "--ranks must be a number of ranks" ;; esac
case "$MAXB" in ''|[0-9]*) ;; *) die "--max-bytes must be a number of bytes" ;; esac
case "$MAXB" in *[!0-9]*) die "--max-bytes must be a number of bytes" ;; esac
[ "$RANKS" -le "$(nproc)" ] || die "--ranks $RANKS is more than this node's $(nproc) cores (oversubscribed timings mean nothing)"
mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
locked() { if [ -n "$LOCK" ]; then flock -x "$LOCK" "$@"; else "$@"; fi; }
root_args=
[ "$(id -u)" = 0 ] && root_args=--allow-run-as-root

eager_of() { # $1 = btl
    ompi_info --param btl "$1" --level 9 --parsable 2>/dev/null \
        | awk -F: -v b="btl_$1_eager_limit" '$5 == b && $6 == "value" { print $7; exit }'
}

if [ "$FIT_ONLY" = 0 ]; then
    if [ -z "$CAL" ]; then
        if [ -x "$here/rsag_calibrate" ]; then CAL=$here/rsag_calibrate
        else
            src=$here/../ompi/mca/coll/rsag
            [ -f "$here/rsag_calibrate.c" ] && [ -f "$src/coll_rsag_op_kernels.c" ] \
                || die "rsag_calibrate not found (make builds it; or --calibrate PATH)"
            mpicc -O2 -std=gnu11 -I"$src" -o "$OUTDIR/rsag_calibrate" "$here/rsag_calibrate.c" \
                "$src/coll_rsag_op_kernels.c" "$src/coll_rsag_stream.c" || die "cannot build rsag_calibrate"
            CAL=$OUTDIR/rsag_calibrate
        fi
    fi
    if [ "$SHM" = 1 ]; then
        [ "$(nproc)" -ge 2 ] || die "shared memory needs 2 cores (np 2 not oversubscribed)"
        echo "$PROG: shared memory, np 2, $RUNS runs" >&2
        eager=$(eager_of vader)
        for r in $(seq 1 "$RUNS"); do
            locked bash -c '
                quiet() { # busy cores of the other processes over 2 s, and other mpiruns
                    local a b
                    a=$(awk "/^cpu /{print \$2+\$3+\$4+\$7+\$8, \$5+\$6}" /proc/stat)
                    sleep 2
                    b=$(awk "/^cpu /{print \$2+\$3+\$4+\$7+\$8, \$5+\$6}" /proc/stat)
                    ! pgrep -x mpirun >/dev/null && awk -v a="$a" -v b="$b" "BEGIN {
                        split(a, x, \" \"); split(b, y, \" \")
                        busy = y[1] - x[1]; all = busy + y[2] - x[2]
                        exit !(all > 0 && busy / all * $(nproc) < 0.3) }"
                }
                end=$((SECONDS + $1)); q=no
                while :; do quiet && { q=yes; break; }; [ $SECONDS -lt $end ] || break; done
                echo "# run $2: $(date -u "+%H:%M:%S UTC"), quiet: $q, load $(cut -d" " -f1-3 /proc/loadavg)"
                shift 2
                exec "$@"' quiet "$WAIT_QUIET" "$r" \
                mpirun $root_args -np 2 --bind-to core --mca btl self,vader --mca coll_self_priority 1 $MPIRUN_ARGS \
                "$CAL" --local $QUICK ${MAXB:+--max-bytes "$MAXB"} || die "the shm measurement failed"
        done >"$OUTDIR/shm-runs.txt.tmp" || exit 2
        # the median of each figure over the runs (the benchmarks the model
        # is held against report medians too)
        { echo "# rsag_calibrate np 2 btl self,vader $(date -u '+%Y-%m-%d %H:%M UTC') $(hostname), median of $RUNS runs"
          grep '^# run' "$OUTDIR/shm-runs.txt.tmp"
          echo "eager $eager"
          awk '!/^#/ { k = $1; for (i = 2; i < NF; i++) k = k " " $i
                       v[k, ++c[k]] = $NF; if (!(k in o)) o[k] = ++n }
               function median(k,   i, j, t, m) {
                   m = c[k]
                   for (i = 1; i <= m; i++) a[i] = v[k, i]
                   for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j] < a[j - 1]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
                   return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
               }
               END { for (k in o) r[o[k]] = k; for (i = 1; i <= n; i++) print r[i], median(r[i]) }' \
              "$OUTDIR/shm-runs.txt.tmp"
        } >"$OUTDIR/shm-raw.txt" && mv "$OUTDIR/shm-runs.txt.tmp" "$OUTDIR/shm-runs.txt"
    fi
    if [ "$RANKS" -gt 2 ]; then
        echo "$PROG: the node's shared parts, $RANKS ranks" >&2
        { echo "# rsag_calibrate --node np $RANKS $(date -u '+%Y-%m-%d %H:%M UTC') $(hostname), load $(cut -d' ' -f1-3 /proc/loadavg)"
          locked mpirun $root_args -np "$RANKS" --bind-to core --mca coll_self_priority 1 $MPIRUN_ARGS "$CAL" --node $QUICK \
              || die "the node measurement failed"
        } >"$OUTDIR/node-raw.txt.tmp" && mv "$OUTDIR/node-raw.txt.tmp" "$OUTDIR/node-raw.txt"
    fi
    for rate in ${NETS[@]+"${NETS[@]}"}; do
        cl=$here/rsag-cluster.sh
        [ -x "$cl" ] || die "$cl not found"
        ra=; [ "$rate" != off ] && ra="--rate $rate"
        for n in 2 $FABRIC; do
            [ "$n" -ge 2 ] || continue
            echo "$PROG: emulated link $rate, $n hosts x 1 rank" >&2
            out=$OUTDIR/net-$rate-raw.txt
            [ "$n" = 2 ] || out=$OUTDIR/net-$rate-${n}x1-raw.txt
            hosts=$(seq -s, -f 'rsag-h%g:1' 1 "$n")
            { echo "# rsag_calibrate $n hosts x 1 rank, rate $rate, $(date -u '+%Y-%m-%d %H:%M UTC')"
              echo "eager $(eager_of tcp)"
              # shellcheck disable=SC2086
              locked "$cl" with "$n" $ra -- sh -c "mpirun $root_args \$('$cl' mpirun-args) \
                  --host $hosts -np $n '$CAL' --max-bytes 16777216" \
                  || die "the measurement on emulated links failed"
            } >"$out.tmp" && mv "$out.tmp" "$out"
        done
    done
fi

# ---- fit -----------------------------------------------------------------
# Working sets up to one core's level-2 cache run at the cached rates (2 MB
# on the project's VM; 4 MB where sysfs does not say)
l2_bytes() {
    local d l v
    for d in /sys/devices/system/cpu/cpu0/cache/index*; do
        l=$(cat "$d/level" 2>/dev/null) || continue
        [ "$l" = 2 ] || continue
        v=$(cat "$d/size" 2>/dev/null) || continue
        case $v in
        *K) echo $(( ${v%K} * 1024 )); return ;;
        *M) echo $(( ${v%M} * 1048576 )); return ;;
        [0-9]*) echo "$v"; return ;;
        esac
    done
    echo 4194304
}
CACHE=${CACHE_BYTES:-$(l2_bytes)}
fit_link() { # $1 = raw file, $2 = prefix (shm|net), $3 = default eager
    awk -v pre="$2" -v E="$3" -v C="$CACHE" '
        $1 == "eager" && $2 ~ /^[0-9]+$/ { E = $2 }
        $1 == "exchange" { t[$2 + 0] = $3; sz[++n] = $2 + 0 }
        $1 == "exchange1" { ti[$2 + 0] = $3; szi[++ni] = $2 + 0 }
        $1 == "pingpong" { tp[$2 + 0] = $3; szp[++np] = $2 + 0 }
        $1 == "stream" { o = $3 }
        # weighted least squares of t = a + b m over the sizes in (lo, hi]
        # of the back-to-back exchanges (iso 0) or the isolated ones (iso 1)
        # (iso 2: the ping-pongs)
        function fit(lo, hi, iso,   i, m, v, w, S, Sx, Sy, Sxx, Sxy, d, k) {
            k = iso == 2 ? np : iso ? ni : n
            for (i = 1; i <= k; i++) {
                m = iso == 2 ? szp[i] : iso ? szi[i] : sz[i]
                v = iso == 2 ? tp[m] : iso ? ti[m] : t[m]
                if (m <= lo || m > hi) continue
                w = 1 / (v * v); S += w; Sx += w * m; Sy += w * v
                Sxx += w * m * m; Sxy += w * m * v
            }
            d = S * Sxx - Sx * Sx
            if (d <= 0) return 0
            B = (S * Sxy - Sx * Sy) / d; A = (Sy - B * Sx) / S
            return 1
        }
        END {
            if (!(8 in t)) exit 1
            # eager: least squares over the sizes below the limit, back to
            # back (the steady rate a shaper allows)
            alpha = t[8]; be = 0
            if (fit(0, E - 1, 0) && A > 0 && B >= 0) { alpha = A; be = B }
            # rendezvous, in cache: (E, C/2]; memory-bound: from 2m >= 4C,
            # the smallest (t - a) / m (other jobs only slow it down).  From
            # the isolated exchanges when measured: one exchange from an idle
            # link is the step of a collective; back to back both ranks
            # rendezvous at once and the control messages of one queue behind
            # the data of the other on a shaped link (tcp: 1.3 ms more at
            # 64-512 KB), which no collective step meets
            iso = ni > 0
            # pipelined rendezvous (a message right behind another, both
            # ranks sending): the back-to-back intercept over (E, C/2]
            rp = -1
            if (iso && fit(E, C / 2, 0)) { rp = A - alpha; if (rp < 0) rp = 0 }
            if (!fit(E, C / 2, iso)) { B = be; A = alpha }
            a = A; bc = B
            # (back to back: the mean over those sizes, as before; isolated:
            # the smallest, a long exchange in both directions on a shaped
            # link sometimes runs at half the rate, see the results README)
            b = -1; nb = 0; sb = 0
            for (i = 1; i <= (iso ? ni : n); i++) {
                m = iso ? szi[i] : sz[i]; v = iso ? ti[m] : t[m]
                if (2 * m < 4 * C) continue
                sb += (v - a) / m; nb++
                if (b < 0 || (v - a) / m < b) b = (v - a) / m
            }
            if (!iso && nb) b = sb / nb
            if (b < 0) b = bc
            rndv = a - alpha; if (rndv < 0) rndv = 0
            # burst: the largest isolated exchange up to the eager limit that
            # takes less than half the steady time (alpha + m beta_eager):
            # a shaper passed it at once
            burst = 0
            for (i = 1; i <= ni; i++) {
                m = szi[i]
                if (m > 1024 && m <= E && ti[m] < alpha + 0.5 * m * be && m > burst) burst = m
            }
            # and per byte of such a message: the mean (t - alpha) / m of the
            # isolated exchanges in (8 KB, burst]
            bb = 0; nbb = 0
            for (i = 1; i <= ni; i++) {
                m = szi[i]
                if (m > 8192 && m <= burst) { bb += (ti[m] - alpha) / m; nbb++ }
            }
            bb = nbb ? bb / nbb : 0; if (bb < 0) bb = 0
            # exchange over one way: isolated exchange over ping-pong at the
            # largest size both measured (memory-bound, where the latency
            # terms vanish and the runs agree); above 1.1 the betas become
            # the ping-pong ones (one way) and exchanges pay x times them
            x = 1; mx = 0
            for (i = 1; i <= np; i++) if (szp[i] > E && (szp[i] in ti) && szp[i] > mx) mx = szp[i]
            if (iso && mx && tp[mx] > 0 && ti[mx] / tp[mx] > 1.1 && fit(E, C / 2, 2) && B > 0) {
                x = ti[mx] / tp[mx]; bc = B; ap = A
                b = -1
                for (i = 1; i <= np; i++) {
                    m = szp[i]
                    if (2 * m >= 4 * C && (b < 0 || (tp[m] - ap) / m < b)) b = (tp[m] - ap) / m
                }
                if (b < 0) b = bc
            }
            if (o == "" || o > alpha) o = alpha
            printf "%s_alpha = %.4g\n%s_beta = %.4g\n%s_beta_cache = %.4g\n", pre, alpha, pre, b, pre, bc
            printf "%s_beta_eager = %.4g\n%s_eager = %d\n", pre, be, pre, E
            printf "%s_rndv = %.4g\n%s_o = %.4g\n", pre, rndv, pre, o
            if (iso) printf "%s_burst = %d\n%s_beta_burst = %.4g\n", pre, burst, pre, bb
            if (rp >= 0) printf "%s_rndv_pipe = %.4g\n", pre, rp
            if (iso && pre == "net") printf "net_exchange = %.4g\n", x
        }' "$1"
}

fit_local() { # $1 = shm raw file
    awk -v cache="$CACHE" '
        $1 == "memcpy" { mc[$2 > 1048576] = $3 }
        $1 == "cma" { cm[$2 > 1048576] = $3; cmt[$2 > 1048576] = $3 * $2 }
        $1 == "kernel" { g[$2 "." $3, $4 > 1048576] = $5; k[$2 "." $3] = 1 }
        $1 == "llc" { llc = $2 }
        $1 == "memcpy_llc" { ml = $3 }
        END {
            printf "cache_bytes = %d\nmemcpy_beta = %.4g\nmemcpy_cache = %.4g\n", cache, mc[1], mc[0]
            if (llc > 0 && ml > 0 && mc[1] > 0)
                printf "llc_bytes = %d\ndram_factor = %.4g\n", llc, (ml > mc[1] ? ml / mc[1] : 1)
            ca = cmt[0] - 65536 * cm[1]; if (ca < 0) ca = 0
            printf "cma_beta = %.4g\ncma_alpha = %.4g\n", cm[1], ca
            printf "gamma = %.4g\ngamma_cache = %.4g\n", g["SUM.DOUBLE", 1], g["SUM.DOUBLE", 0]
            for (key in k) printf "gamma.%s = %.4g\ngamma_cache.%s = %.4g\n", key, g[key, 1], key, g[key, 0]
        }' "$1" | sort
}

# The node path's terms: shm-raw.txt, then node-raw.txt (K ranks) over it.
fit_node() { # $1 = shm raw file, $2 = node raw file or ""
    awk '
        $1 == "ntcopy" { nt[$2 > 1048576] = $3 }
        $1 == "handoff" { h[$2] = $3 }
        $1 == "sync1" { sy = $3 }
        $1 == "call1" { c0 = $3 }
        $1 ~ /^x(copy|reduce)(_nt)?$/ { if ($2 == 262144) xr[$1] = $3; else xs[$1 "." $2] = $3 }
        # a later file (more ranks) replaces the figures of an earlier one
        FNR == 1 { f++ }
        $1 == "copyk" || $1 == "ntcopyk" || $1 == "reducek" {
            if (f > last[$1]) { delete_k($1); last[$1] = f }
            if ($3 > 0) { bw = $2 / $3; if (bw > best[$1]) best[$1] = bw }
        }
        function delete_k(w) { best[w] = 0 }
        END {
            if (1 in nt) printf "stream_beta = %.4g\nstream_cache = %.4g\n", nt[1], nt[0]
            if (1 in h) {
                hl = (64 in h) ? (h[64] - h[1]) / 63 : 0; if (hl < 0) hl = 0
                printf "handoff = %.4g\nhandoff_line = %.4g\n", h[1], hl
            }
            if (sy != "") printf "sync = %.4g\n", sy
            if (c0 != "") printf "call_alpha = %.4g\n", c0
            for (k in xr) printf "%s = %.4g\n", k, xr[k]
            for (k in xs) printf "%s = %.4g\n", k, xs[k]
            printf "node_bw = %.4g\n", best["copyk"]
            if (best["ntcopyk"] > 0) printf "node_mem_bw = %.4g\n", 2 * best["ntcopyk"]
        }' "$1" ${2:+"$2"}
}

# fabric_bw from N hosts x 1 rank in pairs: every rank moves at once; if a
# link then carries less than alone (the rendezvous slope, a fit over
# several sizes: steadier than one memory-bound size), fabric_bw = N / its
# per-byte time
fabric_of() { # $1 = the 2-host raw file
    local f n
    for f in "${1%-raw.txt}"-*x1-raw.txt; do
        [ -s "$f" ] || continue
        n=${f%x1-raw.txt}; n=${n##*-}
        paste <(fit_link "$1" net 65536) <(fit_link "$f" net 65536) | awk -v n="$n" '
            $1 == "net_beta_cache" { b1 = $3; bn = $6 }
            END { if (bn > 1.1 * b1) printf "fabric_bw = %.4g   # %d hosts x 1 rank in pairs\n", n / bn, n }'
        return
    done
}

[ -s "$OUTDIR/shm-raw.txt" ] || die "$OUTDIR/shm-raw.txt not found (measure without --no-shm)"
write_profile() { # $1 = name, $2 = net raw file or ""
    f=$OUTDIR/$1.profile
    {
        echo "# rsag cost-model profile written by rsag-calibrate.sh on $(date -u '+%Y-%m-%d %H:%M UTC')"
        echo "# from $(basename "$OUTDIR")/shm-raw.txt${2:+ and $(basename "$OUTDIR")/$(basename "$2")}"
        grep -h '^# rsag_calibrate\|^# load' "$OUTDIR/shm-raw.txt" ${2:+"$2"} | sed 's/^# /#   /'
        echo "name = $1"
        fit_link "$OUTDIR/shm-raw.txt" shm 4096 || die "cannot fit $OUTDIR/shm-raw.txt"
        echo "shm_overlap = 0"
        if [ -n "$2" ]; then
            fit_link "$2" net 65536 || die "cannot fit $2"
            echo "net_overlap = 1"
            fabric_of "$2"
        else
            echo "# no network measured: the net_* keys are rsag_model's built-in default"
        fi
        echo "nic_share = 1"
        [ -n "$2" ] && [ -n "$(fabric_of "$2")" ] || echo "fabric_bw = 0"
        node=; [ -s "$OUTDIR/node-raw.txt" ] && node=$OUTDIR/node-raw.txt
        [ -n "$node" ] && grep -h '^# rsag_calibrate --node' "$node" | sed 's/^# /#   /'
        fit_node "$OUTDIR/shm-raw.txt" "$node"
        fit_local "$OUTDIR/shm-raw.txt"
    } >"$f.tmp" && mv "$f.tmp" "$f" || die "cannot write $f"
    echo "$PROG: wrote $f" >&2
}
write_profile shm ""
for f in "$OUTDIR"/net-*-raw.txt; do
    [ -s "$f" ] || continue
    rate=${f##*/net-}; rate=${rate%-raw.txt}
    write_profile "$rate" "$f"
done
