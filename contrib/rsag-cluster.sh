#!/usr/bin/env bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-cluster.sh: an emulated cluster on one Linux machine, for the
# multi-node tests and benchmarks of mca_coll_rsag (doc/cluster.md).
#
#   rsag-cluster.sh up N [--rate RATE] [--root DIR]
#                                        hosts rsag-h1..rsag-hN (N <= 64)
#   rsag-cluster.sh rate RATE|off        change the link cap of a running cluster
#   rsag-cluster.sh status               what is up (exit 1 when nothing is)
#   rsag-cluster.sh down                 remove everything (also after a failed up)
#   rsag-cluster.sh agent                print the plm_rsh_agent path for mpirun
#   rsag-cluster.sh mpirun-args          print the mpirun options that use the cluster
#   rsag-cluster.sh with N [--rate RATE] [--root DIR] -- CMD...
#                                        up, run CMD, always down; exit status of CMD
#   rsag-cluster.sh exec HOST CMD...     run CMD on HOST (what the agent does)
#
# Each host is a network namespace plus a UTS namespace (its own hostname),
# both kept as bind mounts under /run/rsag-cluster; no process stays behind.
# Its eth0 (one end of a veth pair) has 10.219.47.I/24; the other end is a
# port of the bridge rsag-br0, which has 10.219.47.254/24 in the caller's
# namespace, where mpirun runs.  That subnet exists only on this bridge; the
# namespaces have no other interface and no route, and IPv6 is off on every
# link, so nothing leaves it.  /etc/hosts gets one line per host, marked
# "# rsag-cluster".  --rate caps each host's link in both directions with an
# htb class (tc rate syntax: 1gbit, 100mbit, ...).
#
# The agent runs "sh -c 'CMD'" inside the host's namespaces, in $HOME, with
# the environment a login over ssh would give (HOME USER LOGNAME SHELL, and
# PATH and LD_LIBRARY_PATH as on the calling host): what Open MPI's rsh
# launcher expects of ssh.  The file system is shared by all hosts.
#
# Needs root, iproute2 (ip, tc with htb), util-linux (unshare, nsenter,
# flock, mountpoint) and a kernel with network and UTS namespaces, veth and
# bridge.  The subnet and names can be changed with RSAG_CLUSTER_NET
# (first three octets, default 10.219.47) before "up" and then for every
# command; "with" serializes concurrent users through flock.
#
# --root DIR (or RSAG_CLUSTER_ROOT=DIR): the hosts run another root file
# system, e.g. contrib/rsag-debian13.sh's Debian 13 with Open MPI 5.0.  "up"
# mounts /proc, /sys, /dev, a private /dev/shm and /run/rsag-cluster in DIR
# and adds the host lines to DIR/etc/hosts; the agent (a copy of this script
# in /run/rsag-cluster) runs inside DIR, so mpirun must too: "with" runs CMD
# there (chroot, cwd /root), where the script is /run/rsag-cluster/rsag-cluster.sh.
# "down" unmounts all of it.
set -u

net=${RSAG_CLUSTER_NET:-10.219.47}
prefix=rsag-h               # host names rsag-h1 ...
vport=rsag-v                # bridge ends of their veth links rsag-v1 ...
nport=rsag-n                # the other ends, renamed eth0 in the host
bridge=rsag-br0
state=/run/rsag-cluster     # net/ and uts/ namespace files, agent, settings
marker="# rsag-cluster"
maxhosts=64
root_dir=${RSAG_CLUSTER_ROOT:-}   # --root: the hosts' root file system (chroot)
self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")

die() { echo "rsag-cluster: $*" >&2; exit 1; }
say() { echo "rsag-cluster: $*"; }

need_tools() {
    local t missing=()
    for t in ip tc unshare nsenter mountpoint flock; do
        command -v "$t" >/dev/null 2>&1 || missing+=("$t")
    done
    [ ${#missing[@]} -eq 0 ] || die "missing tools: ${missing[*]} (packages iproute2, util-linux)"
    [ "$(id -u)" = 0 ] || die "needs root (network namespaces, bridge, /etc/hosts)"
}

valid_net() {
    [[ "$net" =~ ^[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$ ]] || die "RSAG_CLUSTER_NET=$net: want three octets, e.g. 10.219.47"
}

# in_host I CMD...: run CMD in host I's network namespace.
in_host() { local i="$1"; shift; nsenter --net="$state/net/$prefix$i" -- "$@"; }

# The hosts whose namespace files exist, by index.
host_indexes() {
    local f
    for f in "$state"/net/"$prefix"*; do
        [ -e "$f" ] && echo "${f##*/"$prefix"}"
    done | sort -n
}

# ---- link cap ---------------------------------------------------------------
# set_rate DEV RATE|off, in the current namespace: an htb root with one class
# that all traffic falls into; htb sizes its buckets from the rate itself (the
# quantum only matters between sibling classes: fixed, so tc does not warn).
# Under the class an explicit, deep leaf queue (pfifo of 1000 packets) that a
# job's TCP flows never overflow: a short leaf (pfifo 4 or 16) or tbf drops
# packets under two-way load, among them small ones (rendezvous handshakes,
# ACKs), and each such drop costs a TCP retransmission timeout of >= 200 ms
# (doc/cluster.md, contrib/results/2026-11-26-link-queue).  Explicit, so it
# does not depend on the veth's txqueuelen (htb's default leaf takes it).
set_rate() {
    local dev="$1" rate="$2"
    tc qdisc del dev "$dev" root >/dev/null 2>&1
    [ "$rate" = off ] && return 0
    tc qdisc add dev "$dev" root handle 1: htb default 1 &&
        tc class add dev "$dev" parent 1: classid 1:1 htb rate "$rate" ceil "$rate" quantum 60000 &&
        tc qdisc add dev "$dev" parent 1:1 handle 10: pfifo limit 1000
}

apply_rate() {   # apply_rate RATE|off: both ends of every host's link
    local rate="$1" i
    for i in $(host_indexes); do
        set_rate "$vport$i" "$rate" || return 1
        in_host "$i" bash -c "$(declare -f set_rate); set_rate eth0 $rate" || return 1
    done
    echo "$rate" >"$state/rate"
}

# ---- up ---------------------------------------------------------------------
make_host() {    # make_host I: namespace files, veth, address; idempotent
    local i="$1" name="$prefix$1" port="$vport$1"
    local nf="$state/net/$name" uf="$state/uts/$name"
    if ! mountpoint -q "$nf" || ! mountpoint -q "$uf"; then
        umount "$nf" "$uf" >/dev/null 2>&1
        touch "$nf" "$uf" || return 1
        unshare --net="$nf" --uts="$uf" -- hostname "$name" || return 1
    fi
    [ "$(nsenter --uts="$uf" -- hostname)" = "$name" ] || nsenter --uts="$uf" -- hostname "$name" || return 1
    if ! ip link show "$port" >/dev/null 2>&1 || ! in_host "$i" ip link show eth0 >/dev/null 2>&1; then
        ip link del "$port" >/dev/null 2>&1
        in_host "$i" ip link del eth0 >/dev/null 2>&1
        ip link add "$port" type veth peer name "$nport$i" || return 1
        ip link set "$nport$i" netns "$nf" || return 1
        in_host "$i" ip link set "$nport$i" name eth0 || return 1
    fi
    sysctl -qw "net.ipv6.conf.$port.disable_ipv6=1" >/dev/null
    ip link set "$port" master "$bridge" up || return 1
    in_host "$i" sh -c "sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1" >/dev/null
    in_host "$i" ip addr replace "$net.$i/24" dev eth0 || return 1
    in_host "$i" ip link set lo up || return 1
    in_host "$i" ip link set eth0 up
}

write_agent() {
    local script="$self"
    [ -z "$root_dir" ] || script="$state/rsag-cluster.sh"   # seen in and out of the root
    cat >"$state/agent" <<EOF || return 1
#!/bin/sh
# plm_rsh_agent for the emulated cluster: $self
exec "$script" exec "\$@"
EOF
    chmod 755 "$state/agent"
}

write_hosts() {  # marked /etc/hosts lines for hosts 1..N (edited in place)
    local n="$1" i tmp
    tmp=$(mktemp) || return 1
    grep -vF "$marker" /etc/hosts >"$tmp"
    for i in $(seq 1 "$n"); do
        printf '%s\t%s %s\n' "$net.$i" "$prefix$i" "$marker" >>"$tmp"
    done
    cat "$tmp" >/etc/hosts
    rm -f "$tmp"
    if [ -n "$root_dir" ]; then      # the same lines in the root's /etc/hosts
        grep -F "$marker" /etc/hosts | { grep -vF "$marker" "$root_dir/etc/hosts"; cat; } >"$state/hosts.root" &&
            cat "$state/hosts.root" >"$root_dir/etc/hosts" && rm -f "$state/hosts.root"
    fi
}

# ---- another root file system (--root) -------------------------------------
# The mounts in it, in mounting order; recorded in $state/root.mounts.
root_mount() {   # root_mount TARGET-IN-ROOT MOUNT-ARGS...
    local t="$root_dir$1"; shift
    mkdir -p "$t" && mount "$@" "$t" && echo "$t" >>"$state/root.mounts"
}
root_umount() {  # undo root_mount's mounts, last first
    local t
    [ -f "$state/root.mounts" ] || return 0
    tac "$state/root.mounts" | while read -r t; do
        umount -R "$t" 2>/dev/null || umount -R -l "$t" 2>/dev/null ||
            echo "rsag-cluster: cannot unmount $t" >&2
    done
    rm -f "$state/root.mounts"
}
# (Re)mount DIR's file systems: /run/rsag-cluster is bound recursively, a
# copy of its mounts at this time (it is private), hence again at every up.
setup_root() {
    local d
    [ -x "$root_dir/bin/sh" ] || { echo "rsag-cluster: --root $root_dir: no /bin/sh there" >&2; return 1; }
    command -v tac >/dev/null || return 1
    root_umount
    for d in /proc /sys /dev /dev/shm /run/rsag-cluster; do
        mountpoint -q "$root_dir$d" && { echo "rsag-cluster: $root_dir$d is mounted already (another user of $root_dir?)" >&2; return 1; }
    done
    root_mount /proc -t proc proc && root_mount /sys --bind /sys &&
        root_mount /dev --bind /dev &&
        root_mount /dev/shm -t tmpfs -o mode=1777,size=50% tmpfs &&
        root_mount "$state" --rbind "$state" || return 1
    echo "$root_dir" >"$state/root"
    cp "$self" "$state/rsag-cluster.sh" && chmod 755 "$state/rsag-cluster.sh"
}

cmd_up() {
    local n="" rate=off i
    while [ $# -gt 0 ]; do
        case "$1" in
            --rate) [ $# -ge 2 ] || die "--rate needs a value"; rate="$2"; shift 2 ;;
            --rate=*) rate="${1#--rate=}"; shift ;;
            --root) [ $# -ge 2 ] || die "--root needs a directory"; root_dir="$2"; shift 2 ;;
            --root=*) root_dir="${1#--root=}"; shift ;;
            *) [ -z "$n" ] || die "up: unexpected $1"; n="$1"; shift ;;
        esac
    done
    [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le $maxhosts ] || die "up N: N from 1 to $maxhosts"
    need_tools; valid_net
    if [ -n "$root_dir" ]; then
        [ -d "$root_dir" ] || die "--root $root_dir: no such directory"
        root_dir=$(cd "$root_dir" && pwd -P)
    fi
    if [ -e "$state/root" ] && [ "$(cat "$state/root")" != "$root_dir" ]; then
        die "up: the cluster is up with root $(cat "$state/root") (asked: ${root_dir:-none}); run down first"
    fi
    if [ -e "$state/net.conf" ] && [ "$(cat "$state/net.conf")" != "$net" ]; then
        die "up: the cluster is up on $(cat "$state/net.conf").0/24; run down first"
    fi
    local addr
    addr=$(ip -4 -o addr show | awk -v b="$bridge" '$2 != b {print $4}' | grep -E "^${net//./\\.}\." | head -n 1)
    [ -z "$addr" ] || die "up: $net.0/24 is already used here ($addr); set RSAG_CLUSTER_NET"

    mkdir -p "$state" || die "cannot create $state"
    if ! mountpoint -q "$state"; then
        # a private mount, so the namespace bind mounts below stay local to it
        mount --bind "$state" "$state" && mount --make-private "$state" || fail_up "cannot make $state a private mount"
    fi
    mkdir -p "$state/net" "$state/uts" && echo "$net" >"$state/net.conf" || fail_up "cannot write $state"

    if ! ip link show "$bridge" >/dev/null 2>&1; then
        ip link add "$bridge" type bridge || fail_up "cannot create bridge $bridge (no bridge support?)"
    fi
    sysctl -qw "net.ipv6.conf.$bridge.disable_ipv6=1" >/dev/null
    ip addr replace "$net.254/24" dev "$bridge" && ip link set "$bridge" up || fail_up "cannot configure $bridge"

    for i in $(seq 1 "$n"); do
        make_host "$i" || fail_up "cannot make host $prefix$i"
    done
    for i in $(host_indexes); do     # hosts left from a larger cluster
        [ "$i" -le "$n" ] || remove_host "$i"
    done
    echo "$n" >"$state/hosts"
    apply_rate "$rate" || fail_up "cannot set the rate $rate (tc htb)"
    if [ -n "$root_dir" ]; then setup_root || fail_up "cannot mount /proc, /sys, /dev, /dev/shm, $state in $root_dir"; fi
    write_hosts "$n" || fail_up "cannot edit /etc/hosts"
    write_agent || fail_up "cannot write the agent"
    for i in $(seq 1 "$n"); do       # every host reaches the bridge address
        in_host "$i" timeout 3 bash -c "exec 3<>/dev/tcp/$net.254/9" >/dev/null 2>&1
        in_host "$i" ip neigh show "$net.254" dev eth0 | grep -q lladdr ||
            fail_up "host $prefix$i does not reach $net.254"
    done
    say "up: $n hosts $prefix""1..$prefix$n on $net.0/24 (bridge $bridge, $net.254 here), rate $rate${root_dir:+, root $root_dir}"
}

fail_up() { echo "rsag-cluster: up failed: $*; removing what was made" >&2; cmd_down >&2; exit 1; }

# ---- down -------------------------------------------------------------------
# Processes whose network namespace is the one bound at FILE.
ns_pids() {
    local ino
    ino=$(stat -L -c %i "$1" 2>/dev/null) || return 0
    stat -L -c '%i %n' /proc/[0-9]*/ns/net 2>/dev/null |
        awk -v ino="$ino" '$1 == ino { split($2, p, "/"); print p[3] }'
}

remove_host() {  # remove_host I: its processes, link and namespace files
    local i="$1" nf="$state/net/$prefix$1" uf="$state/uts/$prefix$1" pids t
    mapfile -t pids < <(ns_pids "$nf")
    if [ ${#pids[@]} -gt 0 ]; then
        say "down: ending processes left on $prefix$i: ${pids[*]}"
        kill -TERM "${pids[@]}" 2>/dev/null
        for t in 1 2 3 4 5 6 7 8 9 10; do
            mapfile -t pids < <(ns_pids "$nf"); [ ${#pids[@]} -eq 0 ] && break; sleep 0.2
        done
        [ ${#pids[@]} -gt 0 ] && kill -KILL "${pids[@]}" 2>/dev/null
    fi
    ip link del "$vport$i" >/dev/null 2>&1
    umount "$nf" >/dev/null 2>&1; umount "$uf" >/dev/null 2>&1
    rm -f "$nf" "$uf"
}

cmd_down() {
    need_tools
    local i l
    if [ -d "$state" ]; then
        if [ -f "$state/root" ]; then
            root_dir=$(cat "$state/root")
            root_umount     # first: its copies of the namespace files keep them busy
            if grep -qF "$marker" "$root_dir/etc/hosts" 2>/dev/null; then
                grep -vF "$marker" "$root_dir/etc/hosts" >"$state/hosts.root"; cat "$state/hosts.root" >"$root_dir/etc/hosts"
            fi
            rm -f "$state/root" "$state/hosts.root" "$state/rsag-cluster.sh"
        fi
        for i in $(host_indexes); do remove_host "$i"; done
        for l in "$state"/uts/*; do [ -e "$l" ] && { umount "$l" >/dev/null 2>&1; rm -f "$l"; }; done
        rm -rf "$state/net" "$state/uts" "$state/agent" "$state/hosts" "$state/rate" "$state/net.conf"
        if mountpoint -q "$state"; then umount "$state" || echo "rsag-cluster: cannot unmount $state" >&2; fi
        rmdir "$state" 2>/dev/null || echo "rsag-cluster: $state is not empty: $(ls -A "$state")" >&2
    fi
    for l in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E "^${vport}[0-9]+\$"); do
        ip link del "$l" >/dev/null 2>&1
    done
    ip link del "$bridge" >/dev/null 2>&1
    if grep -qF "$marker" /etc/hosts; then
        # (grep exits 1 where /etc/hosts has no line but ours: still rewrite it)
        local tmp; tmp=$(mktemp) && { grep -vF "$marker" /etc/hosts >"$tmp"; [ $? -le 1 ] && cat "$tmp" >/etc/hosts; }; rm -f "$tmp"
    fi
    # What Open MPI leaves when a job on the hosts is killed: files named
    # after the host names (vader segments, session directories).
    rm -rf /dev/shm/*."$prefix"[0-9]* /tmp/ompi."$prefix"[0-9]*.* 2>/dev/null
    say "down: nothing left"
}

# ---- status, agent, exec ----------------------------------------------------
cmd_status() {
    if ! mountpoint -q "$state" 2>/dev/null || [ ! -e "$state/hosts" ]; then
        echo "rsag-cluster: down"
        ip link show "$bridge" >/dev/null 2>&1 && echo "  (bridge $bridge exists: run down)"
        grep -F "$marker" /etc/hosts | sed 's/^/  (stale \/etc\/hosts line: /; s/$/)/'
        return 1
    fi
    local i
    echo "rsag-cluster: up, $(cat "$state/hosts") hosts, subnet $(cat "$state/net.conf").0/24, rate $(cat "$state/rate" 2>/dev/null)"
    echo "  agent: $state/agent"
    [ -f "$state/root" ] && echo "  root: $(cat "$state/root") (mpirun runs there; this script: $state/rsag-cluster.sh)"
    for i in $(host_indexes); do
        printf '  %s  %s  hostname=%s  %s\n' "$prefix$i" \
            "$(in_host "$i" ip -4 -o addr show dev eth0 | awk '{print $4}')" \
            "$(nsenter --uts="$state/uts/$prefix$i" hostname)" \
            "$(in_host "$i" ip -o link show eth0 | grep -o 'state [A-Z]*')"
    done
}

cmd_agent() {
    [ -x "$state/agent" ] || die "the cluster is down (run: $0 up N)"
    echo "$state/agent"
}

cmd_mpirun_args() {
    cmd_agent >/dev/null
    local n
    n=$(cat "$state/net.conf")
    # The hosts share this machine's cores, which no orted can see: ranks
    # must not spin while they wait, nor be bound by each host from core 0.
    echo "--mca plm_rsh_agent $state/agent --mca btl self,vader,tcp" \
         "--mca btl_tcp_if_include $n.0/24 --mca oob_tcp_if_include $n.0/24" \
         "--mca mpi_yield_when_idle 1 --bind-to none"
}

# exec HOST CMD...: HOST is rsag-hI, user@rsag-hI or its address.  CMD is a
# shell command line made of the remaining words, as ssh would run it.
cmd_exec() {
    [ $# -ge 2 ] || die "exec HOST CMD..."
    local host="${1#*@}" i; shift
    local n; n=$(cat "$state/net.conf" 2>/dev/null) || die "the cluster is down"
    case "$host" in
        "$prefix"[0-9]*) i="${host#"$prefix"}" ;;
        "$n".[0-9]*) i="${host#"$n".}" ;;
        *) die "exec: $host is not a host of the cluster" ;;
    esac
    [[ "$i" =~ ^[0-9]+$ ]] && [ -e "$state/net/$prefix$i" ] || die "exec: no host $host"
    local home; home=$(getent passwd "$(id -un)" | cut -d: -f6); home=${home:-/}
    cd "$home" || cd /
    exec nsenter --net="$state/net/$prefix$i" --uts="$state/uts/$prefix$i" -- \
        env -i HOME="$home" USER="$(id -un)" LOGNAME="$(id -un)" SHELL=/bin/sh \
        PATH="${PATH:-/usr/local/bin:/usr/bin:/bin}" ${LD_LIBRARY_PATH:+LD_LIBRARY_PATH="$LD_LIBRARY_PATH"} \
        /bin/sh -c "$*"
}

cmd_with() {
    local upargs=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do upargs+=("$1"); shift; done
    [ $# -ge 2 ] || die "with N [--rate RATE] -- CMD..."
    shift
    need_tools
    # One cluster at a time on this machine: wait for another "with" to end.
    exec 9</run || die "cannot open /run for locking"
    flock -w "${RSAG_CLUSTER_LOCK_WAIT:-1800}" 9 || die "another rsag-cluster.sh with is still running"
    local rc
    trap 'cmd_down >/dev/null 2>&1; exit 130' INT TERM HUP
    ( cmd_up "${upargs[@]}" ) || { cmd_down >/dev/null 2>&1; return 1; }
    if [ -f "$state/root" ]; then     # CMD in the hosts' root, as mpirun must be
        chroot "$(cat "$state/root")" /usr/bin/env -u LD_LIBRARY_PATH \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
            /bin/sh -c 'cd /root 2>/dev/null || cd /; exec "$@"' sh "$@"
    else
        "$@"
    fi
    rc=$?
    cmd_down >/dev/null || rc=1
    trap - INT TERM HUP
    return $rc
}

case "${1:-}" in
    up) shift; cmd_up "$@" ;;
    down) cmd_down ;;
    status) cmd_status ;;
    rate) [ $# -eq 2 ] || die "rate RATE|off"; need_tools; [ -e "$state/hosts" ] || die "the cluster is down"; apply_rate "$2" && say "rate $2" ;;
    agent) cmd_agent ;;
    mpirun-args) cmd_mpirun_args ;;
    exec) shift; cmd_exec "$@" ;;
    with) shift; cmd_with "$@" ;;
    -h|--help|help) sed -n '5,18p' "$0" ;;
    *) sed -n '5,18p' "$0" >&2; exit 2 ;;
esac
