# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
"""rsag_mpi4py.py: every collective mpi4py offers, checked against results
computed locally, as a Python application sees them through Debian's
python3-mpi4py (3.1 on Debian 12, 4.0 on Debian 13).

    mpirun -np 4 --mca coll rsag,basic python3 test/mpi/rsag_mpi4py.py

Blocking, nonblocking (I*) and, where this mpi4py has them, persistent
(*_init, started twice with new data) forms, in the buffer (uppercase, numpy
arrays of several types, the common ops) and the pickle (lowercase) APIs, on
MPI.COMM_WORLD, a split communicator (ranks reversed), MPI.COMM_SELF, an
intercommunicator (Create_intercomm, each group the root in turn; needs 2
ranks, left out at np 1), and the neighborhood collectives on periodic
Cartesian topologies (dimensions of size 1 and 2 among them), a graph and a
distributed graph.  Every rank regenerates every rank's input, so each result
is checked exactly.  Prints one line per group, then "rsag_mpi4py: N checks
passed"; a mismatch prints what differed and the exit status is 1.

--libnbc: the nonblocking and persistent collectives are Open MPI's libnbc's
(the default selection, or a coll list with libnbc and inter), which gets two
things wrong in Open MPI 4.1.4: on an intercommunicator, a rank that took part
in a rooted collective as MPI_PROC_NULL hangs in the next one (so the rooted
nonblocking and persistent intercommunicator calls are left out), and on a
Cartesian topology where a neighbour appears twice (a periodic dimension of
size 1 or 2) the blocks of Neighbor_alltoall* arrive in MPI 3.1's order rather
than MPI 4.0's (accepted, and counted).  Without --libnbc both are checked.
"""
import os
import sys

try:
    import numpy as np
    from mpi4py import MPI
except ImportError as e:  # the suite checks this before running us
    print("rsag_mpi4py: cannot import mpi4py or numpy (%s); Debian: "
          "apt-get install python3-mpi4py python3-numpy" % e)
    sys.exit(2)

WORLD = MPI.COMM_WORLD


def out(line):
    """One line in one write (print writes the newline apart, and the
    launcher may put another process's output between the two)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


# RSAG_MPI4PY_TRACE=1: each rank prints every call before making it (to find a hang)
TRACE = os.environ.get("RSAG_MPI4PY_TRACE")
LIBNBC = "--libnbc" in sys.argv[1:]
accepted = 0   # calls that gave libnbc's order under --libnbc
checks = 0
errors = 0

# (numpy type, ops) of the reductions: the common ops on the types they apply to.
REDUCTIONS = [
    (np.int32, ["SUM", "PROD", "MIN", "MAX", "BAND", "BOR", "BXOR", "LAND", "LOR", "LXOR"]),
    (np.int64, ["SUM", "MAX"]),
    (np.uint8, ["BAND", "BOR", "BXOR", "MIN"]),
    (np.float64, ["SUM", "PROD", "MIN", "MAX"]),
    (np.float32, ["SUM"]),
    (np.complex128, ["SUM", "PROD"]),
]
# Fewer pairs for the collectives other than Allreduce.
SOME_REDUCTIONS = [(np.int32, ["SUM"]), (np.float64, ["MAX"]), (np.uint8, ["BXOR"]),
                   (np.complex128, ["PROD"])]
MOVE_TYPES = [np.int32, np.float64, np.int8]
# op name -> (MPI op, numpy reference)
OPS = {"SUM": (MPI.SUM, np.add), "PROD": (MPI.PROD, np.multiply),
       "MIN": (MPI.MIN, np.minimum), "MAX": (MPI.MAX, np.maximum),
       "BAND": (MPI.BAND, np.bitwise_and), "BOR": (MPI.BOR, np.bitwise_or),
       "BXOR": (MPI.BXOR, np.bitwise_xor), "LAND": (MPI.LAND, np.logical_and),
       "LOR": (MPI.LOR, np.logical_or), "LXOR": (MPI.LXOR, np.logical_xor)}


def data(who, seed, n, dt, op=None):
    """The input of rank `who` (any hashable tag): small values, so every
    order of reduction gives the same bits."""
    i = np.arange(n)
    base = (who * 5 + i * 3 + seed * 7 + 1) % 4
    if op == "PROD":
        base = base + 1
    if op in ("LAND", "LOR", "LXOR"):
        base = (base + who) % 2
    if dt is np.complex128:
        return (base + 1j * ((base + who) % 3)).astype(dt)
    return base.astype(dt)


def reduce_ref(op, inputs, dt):
    acc = inputs[0].copy()
    for x in inputs[1:]:
        acc = OPS[op][1](acc, x)
    return np.asarray(acc).astype(dt)


def check(what, got, expected):
    global checks, errors
    checks += 1
    ok = (np.array_equal(np.asarray(got), np.asarray(expected))
          if isinstance(expected, np.ndarray) else got == expected)
    if not ok:
        errors += 1
        if errors <= 20:
            out("rsag_mpi4py: MISMATCH on world rank %d: %s: got %r, expected %r"
                % (WORLD.rank, what, got, expected))


def forms(comm):
    """The forms of the collectives this mpi4py has."""
    out = ["blocking", "nonblocking"]
    if hasattr(comm, "Allreduce_init"):
        out.append("persistent")
    return out


def run(comm, form, name, args, kw, fill, verify):
    """Call collective NAME in FORM: fill(seed) sets the buffers, verify(seed)
    checks them; a persistent request is started twice with new data."""
    if TRACE:
        out("rsag_mpi4py: rank %d: %s %s" % (WORLD.rank, form, name))
    if form == "blocking":
        fill(0)
        getattr(comm, name)(*args, **kw)
        verify(0)
    elif form == "nonblocking":
        fill(0)
        getattr(comm, "I" + name[0].lower() + name[1:])(*args, **kw).Wait()
        verify(0)
    else:
        req = getattr(comm, name + "_init")(*args, **kw)
        for seed in (1, 2):
            fill(seed)
            req.Start()
            req.Wait()
            verify(seed)
        req.Free()


def T(dt):
    """The MPI datatype of a numpy type."""
    from mpi4py.util.dtlib import from_numpy_dtype
    return from_numpy_dtype(np.dtype(dt))


# ---- Intracommunicators ---------------------------------------------------------

def intra_buffer(comm, label, form):
    p, r = comm.size, comm.rank
    tag = "%s %s" % (label, form)
    n = 5
    sentinel = 99

    # Barrier
    run(comm, form, "Barrier", (), {}, lambda s: None, lambda s: check(tag + " Barrier", 1, 1))

    # Bcast, Gather, Scatter, Allgather, Alltoall, and their v forms
    for dt in MOVE_TYPES:
        root = p - 1
        b = np.empty(n, dt)
        run(comm, form, "Bcast", ([b, T(dt)],), {"root": root},
            lambda s: b.__setitem__(slice(None), data(r, s, n, dt) if r == root else sentinel),
            lambda s: check(tag + " Bcast", b, data(root, s, n, dt)))

        sb = np.empty(n, dt)
        rb = np.empty(n * p, dt)

        def fill_g(s):
            sb[:] = data(r, s, n, dt)
            rb[:] = sentinel
        run(comm, form, "Gather", (sb, rb if r == 0 else None), {"root": 0}, fill_g,
            lambda s: r != 0 or check(tag + " Gather", rb,
                                      np.concatenate([data(q, s, n, dt) for q in range(p)])))
        run(comm, form, "Allgather", (sb, rb), {}, fill_g,
            lambda s: check(tag + " Allgather", rb,
                            np.concatenate([data(q, s, n, dt) for q in range(p)])))

        def fill_s(s):
            rb[:] = np.concatenate([data(q + 10, s, n, dt) for q in range(p)]) if r == root else sentinel
            sb[:] = sentinel
        run(comm, form, "Scatter", (rb if r == root else None, sb), {"root": root}, fill_s,
            lambda s: check(tag + " Scatter", sb, data(r + 10, s, n, dt)))

        # Alltoall: block j of rank q is data((q, j)).
        ab = np.empty(n * p, dt)
        ar = np.empty(n * p, dt)

        def fill_a(s):
            ab[:] = np.concatenate([data(r * 31 + j, s, n, dt) for j in range(p)])
            ar[:] = sentinel
        run(comm, form, "Alltoall", (ab, ar), {}, fill_a,
            lambda s: check(tag + " Alltoall", ar,
                            np.concatenate([data(q * 31 + r, s, n, dt) for q in range(p)])))

        # v forms: rank q contributes q % 3 + 1 elements; displacements in reverse order.
        counts = [q % 3 + 1 for q in range(p)]
        displs = list(np.cumsum([0] + counts[::-1][:-1])[::-1]) if p > 1 else [0]
        total = sum(counts)
        vs = np.empty(counts[r], dt)
        vr = np.empty(total, dt)

        def vexpect(s, who=lambda q: q):
            e = np.full(total, sentinel, dt)
            for q in range(p):
                e[displs[q]:displs[q] + counts[q]] = data(who(q), s, counts[q], dt)
            return e

        def fill_v(s):
            vs[:] = data(r, s, counts[r], dt)
            vr[:] = sentinel
        run(comm, form, "Gatherv", (vs, [vr, counts, displs, T(dt)] if r == root else None),
            {"root": root}, fill_v, lambda s: r != root or check(tag + " Gatherv", vr, vexpect(s)))
        run(comm, form, "Allgatherv", (vs, [vr, counts, displs, T(dt)]), {}, fill_v,
            lambda s: check(tag + " Allgatherv", vr, vexpect(s)))

        def fill_sv(s):
            vr[:] = vexpect(s, lambda q: q + 20) if r == 0 else sentinel
            vs[:] = sentinel
        run(comm, form, "Scatterv", ([vr, counts, displs, T(dt)] if r == 0 else None, vs),
            {"root": 0}, fill_sv, lambda s: check(tag + " Scatterv", vs, data(r + 20, s, counts[r], dt)))

        # Alltoallv: rank q sends (q + j) % 2 + 1 elements to rank j.
        sc = [(r + j) % 2 + 1 for j in range(p)]
        rc = [(q + r) % 2 + 1 for q in range(p)]
        sd = list(np.cumsum([0] + sc[:-1]))
        rd = list(np.cumsum([0] + rc[:-1]))
        avs = np.empty(sum(sc), dt)
        avr = np.empty(sum(rc), dt)

        def fill_av(s):
            avs[:] = np.concatenate([data(r * 31 + j, s, sc[j], dt) for j in range(p)])
            avr[:] = sentinel
        expect_av = lambda s: np.concatenate([data(q * 31 + r, s, rc[q], dt) for q in range(p)])
        run(comm, form, "Alltoallv", ([avs, sc, sd, T(dt)], [avr, rc, rd, T(dt)]), {}, fill_av,
            lambda s: check(tag + " Alltoallv", avr, expect_av(s)))
        # Alltoallw: the same exchange, displacements in bytes, one type per peer.
        isz = np.dtype(dt).itemsize
        run(comm, form, "Alltoallw",
            ([avs, sc, [d * isz for d in sd], [T(dt)] * p], [avr, rc, [d * isz for d in rd], [T(dt)] * p]),
            {}, fill_av, lambda s: check(tag + " Alltoallw", avr, expect_av(s)))

    # Reductions
    for dt, ops in REDUCTIONS:
        for op in ops:
            sb = np.empty(n, dt)
            rb = np.empty(n, dt)
            what = "%s %s/%s" % (tag, op, np.dtype(dt).name)

            def fill(s, sb=sb, rb=rb, dt=dt, op=op):
                sb[:] = data(r, s, n, dt, op)
                rb[:] = 0
            ref = lambda s, dt=dt, op=op, upto=p: reduce_ref(op, [data(q, s, n, dt, op) for q in range(upto)], dt)
            run(comm, form, "Allreduce", (sb, rb), {"op": OPS[op][0]}, fill,
                lambda s, rb=rb, ref=ref, what=what: check(what + " Allreduce", rb, ref(s)))
    for dt, ops in SOME_REDUCTIONS:
        for op in ops:
            what = "%s %s/%s" % (tag, op, np.dtype(dt).name)
            ref = lambda s, upto, dt=dt, op=op, m=n: reduce_ref(op, [data(q, s, m, dt, op) for q in range(upto)], dt)
            sb = np.empty(n, dt)
            rb = np.empty(n, dt)

            def fill(s, sb=sb, rb=rb, dt=dt, op=op):
                sb[:] = data(r, s, n, dt, op)
                rb[:] = 0
            root = p // 2
            run(comm, form, "Reduce", (sb, rb), {"op": OPS[op][0], "root": root}, fill,
                lambda s, rb=rb, ref=ref, what=what: r != root or check(what + " Reduce", rb, ref(s, p)))
            run(comm, form, "Scan", (sb, rb), {"op": OPS[op][0]}, fill,
                lambda s, rb=rb, ref=ref, what=what: check(what + " Scan", rb, ref(s, r + 1)))
            run(comm, form, "Exscan", (sb, rb), {"op": OPS[op][0]}, fill,
                lambda s, rb=rb, ref=ref, what=what: r == 0 or check(what + " Exscan", rb, ref(s, r)))
            # in place
            ib = np.empty(n, dt)
            run(comm, form, "Allreduce", (MPI.IN_PLACE, ib), {"op": OPS[op][0]},
                lambda s, ib=ib, dt=dt, op=op: ib.__setitem__(slice(None), data(r, s, n, dt, op)),
                lambda s, ib=ib, ref=ref, what=what: check(what + " Allreduce in place", ib, ref(s, p)))
            # Reduce_scatter_block: 2 elements a rank; Reduce_scatter: r % 3 + 1.
            m = 2 * p
            big = lambda s, q, dt=dt, op=op, m=m: data(q, s, m, dt, op)
            full = lambda s, big=big, dt=dt, op=op: reduce_ref(op, [big(s, q) for q in range(p)], dt)
            bs = np.empty(m, dt)
            br = np.empty(2, dt)
            run(comm, form, "Reduce_scatter_block", (bs, br), {"op": OPS[op][0]},
                lambda s, bs=bs, br=br, big=big: (bs.__setitem__(slice(None), big(s, r)), br.fill(0)),
                lambda s, br=br, full=full, what=what:
                    check(what + " Reduce_scatter_block", br, full(s)[2 * r:2 * r + 2]))
            rcounts = [q % 3 + 1 for q in range(p)]
            off = sum(rcounts[:r])
            m2 = sum(rcounts)
            big2 = lambda s, q, dt=dt, op=op, m2=m2: data(q, s, m2, dt, op)
            full2 = lambda s, big2=big2, dt=dt, op=op: reduce_ref(op, [big2(s, q) for q in range(p)], dt)
            cs = np.empty(m2, dt)
            cr = np.empty(rcounts[r], dt)
            run(comm, form, "Reduce_scatter", (cs, cr, rcounts), {"op": OPS[op][0]},
                lambda s, cs=cs, cr=cr, big2=big2: (cs.__setitem__(slice(None), big2(s, r)), cr.fill(0)),
                lambda s, cr=cr, full2=full2, what=what, off=off:
                    check(what + " Reduce_scatter", cr, full2(s)[off:off + rcounts[r]]))


def intra_pickle(comm, label):
    p, r = comm.size, comm.rank
    tag = label + " pickle"
    comm.barrier()
    check(tag + " bcast", comm.bcast({"from": r, "l": [r] * 3} if r == p - 1 else None, root=p - 1),
          {"from": p - 1, "l": [p - 1] * 3})
    g = comm.gather(("g", r), root=0)
    check(tag + " gather", g, [("g", q) for q in range(p)] if r == 0 else None)
    check(tag + " scatter", comm.scatter([q * q for q in range(p)] if r == 0 else None, root=0), r * r)
    check(tag + " allgather", comm.allgather(r + 0.5), [q + 0.5 for q in range(p)])
    check(tag + " alltoall", comm.alltoall([(r, j) for j in range(p)]), [(q, r) for q in range(p)])
    check(tag + " reduce", comm.reduce(r + 1, op=MPI.SUM, root=p - 1),
          p * (p + 1) // 2 if r == p - 1 else None)
    check(tag + " allreduce", comm.allreduce(r, op=MPI.MAX), p - 1)
    check(tag + " allreduce list (any order)", sorted(comm.allreduce([r], op=MPI.SUM)), list(range(p)))
    check(tag + " allreduce MAXLOC", comm.allreduce((r % 2, r), op=MPI.MAXLOC),
          (1 if p > 1 else 0, 1 if p > 1 else 0))
    check(tag + " allreduce MINLOC", comm.allreduce((-r, r), op=MPI.MINLOC), (-(p - 1), p - 1))
    check(tag + " scan", comm.scan(r + 1), (r + 1) * (r + 2) // 2)
    ex = comm.exscan(r + 1)
    check(tag + " exscan", ex if r > 0 else None, r * (r + 1) // 2 if r > 0 else None)


# ---- Intercommunicator ------------------------------------------------------------

def inter_buffer(ic, group, form):
    """group 0 or 1; the remote group is the other one.  Data are tagged with
    (group, local rank) so that each side knows what the other sent."""
    lr, ls, rs = ic.rank, ic.size, ic.remote_size
    other = 1 - group
    tag = "intercomm(%d|%d) %s" % (ls, rs, form)
    n = 4
    sentinel = 77
    who = lambda g, q: 100 * (g + 1) + q

    run(ic, form, "Barrier", (), {}, lambda s: None, lambda s: check(tag + " Barrier", 1, 1))
    for rootgroup in ((0, 1) if form == "blocking" or not LIBNBC else ()):
        dt = np.int32 if rootgroup == 0 else np.float64
        # root: local rank 0 of rootgroup
        if group == rootgroup:
            root = MPI.ROOT if lr == 0 else MPI.PROC_NULL
        else:
            root = 0
        t = "%s root in group %d" % (tag, rootgroup)
        b = np.empty(n, dt)
        run(ic, form, "Bcast", ([b, T(dt)],), {"root": root},
            lambda s: b.__setitem__(slice(None), data(who(group, 0), s, n, dt) if root == MPI.ROOT else sentinel),
            lambda s: group == rootgroup or check(t + " Bcast", b, data(who(rootgroup, 0), s, n, dt)))
        # Gather: the root receives n from each remote rank.
        sb = np.empty(n, dt)
        gb = np.empty(n * rs, dt)

        def fill_g(s):
            sb[:] = data(who(group, lr), s, n, dt)
            gb[:] = sentinel
        run(ic, form, "Gather", (sb, gb), {"root": root}, fill_g,
            lambda s: root != MPI.ROOT or check(t + " Gather", gb, np.concatenate(
                [data(who(other, q), s, n, dt) for q in range(rs)])))

        def fill_s(s):
            gb[:] = np.concatenate([data(who(group, 50 + q), s, n, dt) for q in range(rs)]) \
                if root == MPI.ROOT else sentinel
            sb[:] = sentinel
        run(ic, form, "Scatter", (gb, sb), {"root": root}, fill_s,
            lambda s: group == rootgroup or check(t + " Scatter", sb, data(who(rootgroup, 50 + lr), s, n, dt)))
        # v forms: remote rank q has q + 1 elements.
        counts = [q + 1 for q in range(rs)]
        displs = list(np.cumsum([0] + counts[:-1]))
        vb = np.empty(sum(counts), dt)
        vs = np.empty(lr + 1, dt)

        def fill_gv(s):
            vs[:] = data(who(group, lr), s, lr + 1, dt)
            vb[:] = sentinel
        run(ic, form, "Gatherv", (vs, [vb, counts, displs, T(dt)]), {"root": root}, fill_gv,
            lambda s: root != MPI.ROOT or check(t + " Gatherv", vb, np.concatenate(
                [data(who(other, q), s, q + 1, dt) for q in range(rs)])))

        def fill_sv(s):
            vb[:] = np.concatenate([data(who(group, 60 + q), s, q + 1, dt) for q in range(rs)]) \
                if root == MPI.ROOT else sentinel
            vs[:] = sentinel
        run(ic, form, "Scatterv", ([vb, counts, displs, T(dt)], vs), {"root": root}, fill_sv,
            lambda s: group == rootgroup or check(t + " Scatterv", vs, data(who(rootgroup, 60 + lr), s, lr + 1, dt)))
        # Reduce: the root gets the reduction of the remote group's inputs.
        for op in ("SUM", "MAX"):
            rb = np.empty(n, dt)
            run(ic, form, "Reduce", (sb, rb), {"op": OPS[op][0], "root": root},
                lambda s, rb=rb, op=op: (sb.__setitem__(slice(None), data(who(group, lr), s, n, dt, op)), rb.fill(0)),
                lambda s, rb=rb, op=op: root != MPI.ROOT or check(
                    t + " Reduce " + op, rb,
                    reduce_ref(op, [data(who(other, q), s, n, dt, op) for q in range(rs)], dt)))

    dt = np.int64
    sb = np.empty(n, dt)
    ab = np.empty(n * rs, dt)

    def fill_ag(s):
        sb[:] = data(who(group, lr), s, n, dt)
        ab[:] = sentinel
    run(ic, form, "Allgather", (sb, ab), {}, fill_ag,
        lambda s: check(tag + " Allgather", ab, np.concatenate([data(who(other, q), s, n, dt) for q in range(rs)])))
    counts = [q + 1 for q in range(rs)]
    displs = list(np.cumsum([0] + counts[:-1]))
    vs = np.empty(lr + 1, dt)
    vb = np.empty(sum(counts), dt)
    run(ic, form, "Allgatherv", (vs, [vb, counts, displs, T(dt)]), {},
        lambda s: (vs.__setitem__(slice(None), data(who(group, lr), s, lr + 1, dt)), vb.fill(sentinel)),
        lambda s: check(tag + " Allgatherv", vb, np.concatenate([data(who(other, q), s, q + 1, dt) for q in range(rs)])))
    # Alltoall: block j goes to remote rank j.
    ts = np.empty(n * rs, dt)
    tr = np.empty(n * rs, dt)

    def fill_t(s):
        ts[:] = np.concatenate([data(who(group, lr) * 7 + j, s, n, dt) for j in range(rs)])
        tr[:] = sentinel
    expect_t = lambda s: np.concatenate([data(who(other, q) * 7 + lr, s, n, dt) for q in range(rs)])
    run(ic, form, "Alltoall", (ts, tr), {}, fill_t, lambda s: check(tag + " Alltoall", tr, expect_t(s)))
    c = [n] * rs
    d = [n * j for j in range(rs)]
    run(ic, form, "Alltoallv", ([ts, c, d, T(dt)], [tr, c, d, T(dt)]), {}, fill_t,
        lambda s: check(tag + " Alltoallv", tr, expect_t(s)))
    run(ic, form, "Alltoallw", ([ts, c, [x * 8 for x in d], [T(dt)] * rs], [tr, c, [x * 8 for x in d], [T(dt)] * rs]),
        {}, fill_t, lambda s: check(tag + " Alltoallw", tr, expect_t(s)))
    # Allreduce: each side gets the reduction of the other side's inputs.
    for op in ("SUM", "BXOR"):
        rb = np.empty(n, dt)
        run(ic, form, "Allreduce", (sb, rb), {"op": OPS[op][0]},
            lambda s, rb=rb, op=op: (sb.__setitem__(slice(None), data(who(group, lr), s, n, dt, op)), rb.fill(0)),
            lambda s, rb=rb, op=op: check(tag + " Allreduce " + op, rb, reduce_ref(
                op, [data(who(other, q), s, n, dt, op) for q in range(rs)], dt)))
    # Reduce_scatter(_block): the other side's reduction, scattered over this
    # side; the vectors have the same length L on both sides (a multiple of
    # both sizes).
    L = 2 * ls * rs
    big = np.empty(L, dt)
    blk = np.empty(L // ls, dt)
    full = lambda s: reduce_ref("SUM", [data(who(other, q), s, L, dt) for q in range(rs)], dt)
    k = L // ls
    run(ic, form, "Reduce_scatter_block", (big, blk), {"op": MPI.SUM},
        lambda s: (big.__setitem__(slice(None), data(who(group, lr), s, L, dt)), blk.fill(0)),
        lambda s: check(tag + " Reduce_scatter_block", blk, full(s)[k * lr:k * lr + k]))
    rcounts = [k] * ls
    run(ic, form, "Reduce_scatter", (big, blk, rcounts), {"op": MPI.SUM},
        lambda s: (big.__setitem__(slice(None), data(who(group, lr), s, L, dt)), blk.fill(0)),
        lambda s: check(tag + " Reduce_scatter", blk, full(s)[k * lr:k * lr + k]))


def inter_pickle(ic, group):
    lr, rs = ic.rank, ic.remote_size
    other = 1 - group
    tag = "intercomm pickle"
    ic.barrier()
    for rootgroup in (0, 1):
        if group == rootgroup:
            root = MPI.ROOT if lr == 0 else MPI.PROC_NULL
        else:
            root = 0
        got = ic.bcast(("b", rootgroup) if root == MPI.ROOT else None, root=root)
        if group != rootgroup:
            check(tag + " bcast", got, ("b", rootgroup))
        got = ic.gather((group, lr), root=root)
        check(tag + " gather", got, [(other, q) for q in range(rs)] if root == MPI.ROOT else None)
        got = ic.scatter([(rootgroup, q) for q in range(rs)] if root == MPI.ROOT else None, root=root)
        if group != rootgroup:
            check(tag + " scatter", got, (rootgroup, lr))
        got = ic.reduce(lr + 1, op=MPI.SUM, root=root)
        check(tag + " reduce", got, rs * (rs + 1) // 2 if root == MPI.ROOT else None)
    check(tag + " allgather", ic.allgather((group, lr)), [(other, q) for q in range(rs)])
    check(tag + " alltoall", ic.alltoall([(group, lr, j) for j in range(rs)]), [(other, q, lr) for q in range(rs)])
    check(tag + " allreduce", ic.allreduce(lr + 1, op=MPI.SUM), rs * (rs + 1) // 2)


# ---- Neighborhood collectives -----------------------------------------------------

def neighbors(topo):
    """(sources, destinations, slot): slot[(q, k)] is the position, in q's
    destinations, of the k-th edge from q to this rank, so that the block this
    rank receives from its j-th source is q's block slot[...]."""
    kind = topo.Get_topology()
    if kind == MPI.CART:
        srcs, dsts = [], []
        for d in range(topo.Get_dim()):
            s, t = topo.Shift(d, 1)
            srcs += [s, t]
            dsts += [s, t]
        # Cartesian: what q sends to its +1 neighbour arrives in the -1
        # source slot of that neighbour, and the reverse (MPI 4.0, 7.6):
        # the slot that received from source 2d takes q's block 2d + 1.
        frm = [2 * (j // 2) + 1 - (j % 2) for j in range(len(srcs))]
        return srcs, dsts, frm
    if kind == MPI.GRAPH:
        nb = topo.Get_neighbors(topo.rank)
        srcs, dsts = nb, nb
    else:
        srcs, dsts, _ = topo.Get_dist_neighbors()
    # graphs here have no repeated edges: q's block for this rank
    frm = []
    for q in srcs:
        qd = outgoing[q]
        frm.append(qd.index(topo.rank))
    return list(srcs), list(dsts), frm


outgoing = {}


def neighborhood(topo, label, form):
    global outgoing
    p, r = topo.size, topo.rank
    kind = topo.Get_topology()
    # Every rank's destinations, to know which of its blocks reaches whom.
    if kind == MPI.GRAPH:
        outgoing = {q: list(topo.Get_neighbors(q)) for q in range(p)}
    elif kind == MPI.DIST_GRAPH:
        outgoing = dict(enumerate(topo.allgather(list(topo.Get_dist_neighbors()[1]))))
    srcs, dsts, frm = neighbors(topo)
    tag = "%s %s" % (label, form)
    n = 3
    sentinel = -5
    indeg, outdeg = len(srcs), len(dsts)
    for dt in (np.int32, np.float64):
        sb = np.empty(n, dt)
        rb = np.empty(n * max(indeg, 1), dt)[:n * indeg]

        def fill_ag(s):
            sb[:] = data(r, s, n, dt)
            rb[:] = sentinel
        exp_ag = lambda s: np.concatenate([data(q, s, n, dt) if q != MPI.PROC_NULL
                                           else np.full(n, sentinel, dt) for q in srcs] or [np.empty(0, dt)])
        run(topo, form, "Neighbor_allgather", (sb, rb), {}, fill_ag,
            lambda s: check(tag + " Neighbor_allgather", rb, exp_ag(s)))
        counts = [n] * indeg
        displs = [n * (indeg - 1 - j) for j in range(indeg)]  # reversed
        vb = np.empty(n * indeg, dt)

        def exp_agv(s):
            e = np.full(n * indeg, sentinel, dt)
            for j, q in enumerate(srcs):
                if q != MPI.PROC_NULL:
                    e[displs[j]:displs[j] + n] = data(q, s, n, dt)
            return e
        run(topo, form, "Neighbor_allgatherv", (sb, [vb, counts, displs, T(dt)]), {},
            lambda s: (sb.__setitem__(slice(None), data(r, s, n, dt)), vb.fill(sentinel)),
            lambda s: check(tag + " Neighbor_allgatherv", vb, exp_agv(s)))
        # alltoall: block k of rank q is data(q * 50 + k)
        ts = np.empty(n * outdeg, dt)
        tr = np.empty(n * indeg, dt)

        def fill_t(s):
            ts[:] = np.concatenate([data(r * 50 + k, s, n, dt) for k in range(outdeg)] or [np.empty(0, dt)])
            tr[:] = sentinel

        def exp_t(s):
            e = np.full(n * indeg, sentinel, dt)
            for j, q in enumerate(srcs):
                if q != MPI.PROC_NULL:
                    e[n * j:n * j + n] = data(q * 50 + frm[j], s, n, dt)
            return e
        def exp_t31(s):
            # MPI 3.1's example code: in a dimension whose two neighbours are
            # one rank, block j arrives in block j
            e = exp_t(s)
            for j, q in enumerate(srcs):
                if q != MPI.PROC_NULL and srcs[j ^ 1] == q:
                    e[n * j:n * j + n] = data(q * 50 + j, s, n, dt)
            return e

        def check_t(what, s):
            global accepted
            if LIBNBC and form != "blocking" and kind == MPI.CART and \
                    not np.array_equal(tr, exp_t(s)) and np.array_equal(tr, exp_t31(s)):
                accepted += 1
                check(what + " (MPI 3.1 order)", tr, exp_t31(s))
            else:
                check(what, tr, exp_t(s))
        run(topo, form, "Neighbor_alltoall", (ts, tr), {}, fill_t,
            lambda s: check_t(tag + " Neighbor_alltoall", s))
        sc, rc = [n] * outdeg, [n] * indeg
        sd, rd = [n * k for k in range(outdeg)], [n * j for j in range(indeg)]
        run(topo, form, "Neighbor_alltoallv", ([ts, sc, sd, T(dt)], [tr, rc, rd, T(dt)]), {}, fill_t,
            lambda s: check_t(tag + " Neighbor_alltoallv", s))
        isz = np.dtype(dt).itemsize
        run(topo, form, "Neighbor_alltoallw",
            ([ts, sc, [x * isz for x in sd], [T(dt)] * outdeg], [tr, rc, [x * isz for x in rd], [T(dt)] * indeg]),
            {}, fill_t, lambda s: check_t(tag + " Neighbor_alltoallw", s))
    if form == "blocking":
        got = topo.neighbor_allgather(("n", r))
        check(tag + " neighbor_allgather pickle", got,
              [("n", q) if q != MPI.PROC_NULL else None for q in srcs])
        got = topo.neighbor_alltoall([("t", r, k) for k in range(outdeg)])
        check(tag + " neighbor_alltoall pickle", got,
              [("t", q, frm[j]) if q != MPI.PROC_NULL else None for j, q in enumerate(srcs)])


def topologies():
    p, r = WORLD.size, WORLD.rank
    out = [("cart[%d] periodic" % p, WORLD.Create_cart([p], periods=[True])),
           ("cart[%d,1] periodic" % p, WORLD.Create_cart([p, 1], periods=[True, True]))]
    if p % 2 == 0:
        out.append(("cart[2,%d] periodic" % (p // 2), WORLD.Create_cart([2, p // 2], periods=[True, True])))
    if p >= 2:
        out.append(("cart[1,%d] periodic x open" % p, WORLD.Create_cart([1, p], periods=[True, False])))
    # graph: a ring (each rank's two neighbours, once each), self loop at np 1
    if p == 1:
        index, edges = [1], [0]
    elif p == 2:
        index, edges = [1, 2], [1, 0]
    else:
        index, edges = [], []
        for q in range(p):
            edges += [(q - 1) % p, (q + 1) % p]
            index.append(len(edges))
    out.append(("graph ring", WORLD.Create_graph(index, edges)))
    # distributed graph: to r + 1 and r + 2 (distinct, not r), weighted
    dsts = sorted({(r + k) % p for k in (1, 2)} - {r})
    srcs = sorted({(r - k) % p for k in (1, 2)} - {r})
    out.append(("dist graph", WORLD.Create_dist_graph_adjacent(
        srcs, dsts, sourceweights=[1] * len(srcs), destweights=[1] * len(dsts))))
    return out


def say(line):
    total = WORLD.allreduce(checks, op=MPI.SUM)
    if WORLD.rank == 0:
        out("rsag_mpi4py: %s (%d checks so far)" % (line, total))


def main():
    import mpi4py
    p, r = WORLD.size, WORLD.rank
    if r == 0:
        out("rsag_mpi4py: mpi4py %s, numpy %s, %s; np %d; forms %s" % (
            mpi4py.__version__, np.__version__, MPI.Get_library_version().splitlines()[0][:40],
            p, ", ".join(forms(WORLD))))
    split = WORLD.Split(color=r % 2, key=-r)
    comms = [("MPI.COMM_WORLD", WORLD), ("split(rank %% 2, reversed) of %d" % split.size, split),
             ("MPI.COMM_SELF", MPI.COMM_SELF)]
    for label, comm in comms:
        for form in forms(comm):
            intra_buffer(comm, label, form)
        intra_pickle(comm, label)
        say("%s: buffer (%s) and pickle collectives" % (label, ", ".join(forms(comm))))
    split.Free()
    if p >= 2:
        group = 0 if r < (p + 1) // 2 else 1
        local = WORLD.Split(color=group, key=r)
        ic = local.Create_intercomm(0, WORLD, (p + 1) // 2 if group == 0 else 0, tag=7)
        for form in forms(ic):
            inter_buffer(ic, group, form)
        inter_pickle(ic, group)
        say("intercommunicator %d|%d, each side the root: buffer (%s) and pickle collectives%s"
            % ((p + 1) // 2, p // 2, ", ".join(forms(ic)),
               " (--libnbc: rooted ones blocking only)" if LIBNBC else ""))
        ic.Free()
        local.Free()
    elif r == 0:
        out("rsag_mpi4py: intercommunicator left out: it needs 2 ranks")
    for label, topo in topologies():
        for form in forms(topo):
            neighborhood(topo, label, form)
        say("neighborhood on %s: buffer (%s) and pickle" % (label, ", ".join(forms(topo))))
        topo.Free()
    acc = WORLD.allreduce(accepted, op=MPI.SUM)
    if r == 0 and LIBNBC:
        out("rsag_mpi4py: --libnbc: %d neighborhood calls gave MPI 3.1's order" % acc)
    bad = WORLD.allreduce(errors, op=MPI.SUM)
    total = WORLD.allreduce(checks, op=MPI.SUM)
    if r == 0:
        if bad:
            out("rsag_mpi4py: %d of %d checks FAILED" % (bad, total))
        else:
            out("rsag_mpi4py: %d checks passed" % total)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
