#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The link's slow state: compare leaf queues of the emulated link on 2 hosts
# at one rate, the settings alternating (round r runs every setting once, in
# a rotated order), so that the shared machine's load hits them alike.
# Per setting and round:
#   - 4 s of bulk TCP in both directions at once (tcpprobe.py send) with
#     1-byte round trips on a third connection (tcpprobe.py rtt): how long a
#     small message (a rendezvous handshake, an ACK) waits behind the data;
#     tc -s statistics of h1's eth0 (backlog sampled every 0.2 s, drops,
#     overlimits, requeues) and the receiving bridge port rsag-v2;
#   - rsag_nodes --pingpong 1 MiB, 20 round trips (MB/s, both directions).
# Settings: "htb" (rsag-cluster.sh before this change: htb class, default
# leaf = pfifo of txqueuelen 1000 packets), "htb-pfifo4" (a 4-packet pfifo
# leaf), "htb-pfifo16", "tbf" (tbf, 2 ms of queue).
# "-gso16k": also gso_max_size 16384 on every link (TCP's super-packets
# 16 KB instead of 64 KB).
#   run-link-queue.sh RATE ROUNDS ["KIND..."] >raw.txt   (from the top of a built tree, root)
set -u
rate=${1:-500mbit} rounds=${2:-3}
kinds=${3:-htb htb-pfifo4 htb-pfifo16 tbf}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
py=$(python3 -c 'import sys; print(sys.executable)')
export here top py rate rounds kinds
echo "# run-link-queue.sh $rate x $rounds rounds ($kinds), $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
"$top/contrib/rsag-cluster.sh" with 2 --rate "$rate" -- bash -c '
ns() { nsenter --net=/run/rsag-cluster/net/rsag-h$1 -- "${@:2}"; }
setq() { # setq KIND: both ends of both links
    local i d
    for i in 1 2; do
        for d in "rsag-v$i" "ns $i eth0"; do
            local dev=${d##* } pre=""; [ "$d" = "rsag-v$i" ] || pre="ns $i"
            $pre tc qdisc del dev $dev root 2>/dev/null
            case $1 in *-gso16k) $pre ip link set dev $dev gso_max_size 16384 ;; *) $pre ip link set dev $dev gso_max_size 65536 ;; esac
            case $1 in
            htb*) $pre tc qdisc add dev $dev root handle 1: htb default 1
                  $pre tc class add dev $dev parent 1: classid 1:1 htb rate $rate ceil $rate quantum 60000
                  case $1 in htb-pfifo*) n=${1#htb-pfifo}; $pre tc qdisc add dev $dev parent 1:1 handle 10: pfifo limit ${n%-gso16k} ;; esac ;;
            tbf) $pre tc qdisc add dev $dev root tbf rate $rate burst 64kb latency 2ms ;;
            esac
        done
    done
}
servers=()
for i in 1 2; do ns $i "$py" "$here/tcpprobe.py" serve 5001 & servers+=($!); done
trap "pkill -P ${servers[0]}; pkill -P ${servers[1]}; kill ${servers[*]}" EXIT
sleep 1
read -r -a kinds <<<"$kinds"; nk=${#kinds[@]}
for r in $(seq 1 $rounds); do
  for k in $(seq 0 $((nk - 1))); do
    kind=${kinds[$(( (k + r - 1) % nk ))]}
    setq $kind
    ( for s in $(seq 1 18); do ns 1 tc -s qdisc show dev eth0 | awk "/backlog/ {print \$2}" | head -1; sleep 0.2; done ) >/tmp/lq.backlog &
    sampler=$!
    a=$(ns 1 "$py" "$here/tcpprobe.py" send 10.219.47.2 5001 4 & p1=$!
        ns 2 "$py" "$here/tcpprobe.py" send 10.219.47.1 5001 4 & p2=$!
        ns 1 "$py" "$here/tcpprobe.py" rtt 10.219.47.2 5001 4; wait $p1 $p2)
    wait $sampler
    bl=$(sort -n /tmp/lq.backlog | awk "{v[NR]=\$1} END {printf \"backlog_max %s backlog_median %s\", v[NR], v[int((NR+1)/2)]}")
    st=$(ns 1 tc -s qdisc show dev eth0 | awk "/dropped/ {gsub(/[,)]/,\"\"); d+=\$7; o+=\$9; q+=\$11} END {print \"h1.eth0 dropped\", d, \"overlimits\", o, \"requeues\", q}")
    st2=$(tc -s qdisc show dev rsag-v2 | awk "/dropped/ {gsub(/[,)]/,\"\"); d+=\$7; o+=\$9} END {print \"rsag-v2 dropped\", d, \"overlimits\", o}")
    pp=$(mpirun --allow-run-as-root $("$top/contrib/rsag-cluster.sh" mpirun-args) --host rsag-h1:1,rsag-h2:1 -np 2 \
          "$top/test/mpi/rsag_nodes" --pingpong 1048576 --iters 20 2>&1 | grep -o "[0-9.]* MB/s" | head -1)
    echo "round $r $kind | $(echo $a | tr "\n" " ") | $bl | $st | $st2 | pingpong1MiB $pp | load $(cut -d" " -f1 /proc/loadavg)"
  done
done
rm -f /tmp/lq.backlog
'
