# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
#
# helgrind-filter.awk -- read valgrind --tool=helgrind --xml=yes reports
# (one file per process) and fail (exit 1) on any report that is rsag's and
# not explained; list the others.
#
#   awk -v others=FILE -f test/helgrind-filter.awk hg.*.xml
#
# Open MPI 4.1's own synchronisation (opal atomics, lock-free free lists,
# the request completion's wait_sync objects) is invisible to helgrind, so a
# threaded MPI program yields hundreds of reports inside Open MPI.  Each
# report is attributed by its stacks: a stack is rsag's when a frame of a
# function mca_coll_rsag_* comes before any frame in Open MPI's libraries
# (libmpi, libopen-pal, libopen-rte, the PML and BTL components) -- code
# that rsag's function was running (its own, libc's, an op kernel, Open
# MPI's inline functions compiled into mca_coll_rsag.so).  A report none of
# whose stacks is rsag's is Open MPI's or the test program's: listed in
# `others`, not counted.  A report with an rsag stack is explained when
#   atomic   rsag's access is in a function that touches shared words only
#            through __atomic builtins (the request lock word:
#            mca_coll_rsag_nb_trylock/unlock; the last call's peak:
#            mca_coll_rsag_call_begin/end), and the other access is one of
#            these or Open MPI's;
#   handoff  the other access is Open MPI's (its PML, BTL or request code):
#            a request or buffer rsag handed to Open MPI and got back
#            through Open MPI's completion, which helgrind cannot see; or
#            both accesses are Open MPI's and only the block's allocation
#            is rsag's (a temporary of rsag's that two of Open MPI's
#            threads passed between them);
#   stack    the address is on a thread's stack and a stack of the report
#            runs Open MPI's wait_sync_update (the waiting thread's sync
#            object, signalled and then its stack frame reused);
#   completion  the program reads (or writes) a buffer that rsag accessed
#            earlier while advancing a request from the progress engine
#            (mca_coll_rsag_request_progress / _launch in that stack): the
#            result of a nonblocking or persistent call, handed back by
#            Open MPI's request completion (its atomics; for a persistent
#            request no lock of rsag's is taken on the waiting side).  The
#            other order -- rsag touching the program's buffer after the
#            program did -- stays unexplained, but for
#   start    the program's `prepare` (the test programs' function that
#            fills a call's buffers before it starts the call) wrote a
#            buffer, or its `verify` (the check of the previous call's
#            result, just before the next `prepare`) read it, and rsag then
#            accessed it while advancing the started request from another
#            thread's progress: handed over by the start, under rsag's
#            request lock.  helgrind names the most recent access of the
#            other thread that it still remembers, which is either;
#   reuse    rsag wrote a buffer while advancing a request from another
#            thread's progress, and later the program's own next call
#            (an rsag slot, mca_coll_rsag_*_intra, in the later stack) uses
#            the same buffer: the program got it back through the first
#            request's completion (Open MPI's atomics) before it could make
#            that call.  rsag writing a buffer after its request completed
#            would race with the program's own accesses in between (its
#            check of the result, its next inputs), which stay unexplained.
# Anything else with an rsag stack -- rsag against rsag outside the atomic
# words, rsag against the test program's buffers, a lock-order report in
# rsag -- is unexplained: printed, and the exit status is 1.  A file
# without its closing </valgrindoutput> (a process that did not finish)
# fails too.
#
# The output: one line per unexplained report, then
# "helgrind-filter: N reports: R rsag (E explained: a atomic, h handoff,
# s stack, c completion, t start, r reuse), U unexplained, O others".

function base(path,    n, parts) {
    n = split(path, parts, "/")
    return parts[n]
}

function ompi_obj(o) {
    return o ~ /^(libmpi|libopen-pal|libopen-rte|libpmix|mca_pml_|mca_btl_|mca_bml_|mca_mtl_)/
}

# Owner of stack s: "rsag:<fn>" when an mca_coll_rsag_* frame comes before
# any Open MPI library frame, "ompi" when an Open MPI library frame comes
# first, "prog" for the test program, "other" for the rest.
function owner(s,    f, o, fn) {
    for (f = 1; f <= nframes[s]; ++f) {
        o = fobj[s, f]
        fn = ffn[s, f]
        if (fn ~ /^mca_coll_rsag_/) {
            return "rsag:" fn
        }
        if (ompi_obj(o)) {
            return "ompi"
        }
        if (o != "" && o !~ /^(libc|ld-linux|vgpreload|libstdc|mca_op_|mca_coll_rsag)/) {
            return (o ~ /^rsag_/) ? "prog" : "other"
        }
    }
    return "other"
}

# Whether stack s has a frame of a function matching re.
function stack_has(s, re,    f) {
    for (f = 1; f <= nframes[s]; ++f) {
        if (ffn[s, f] ~ re) {
            return 1
        }
    }
    return 0
}

function atomic_fn(w) {
    sub(/\.part\.[0-9]+$/, "", w)
    sub(/\.constprop\.[0-9]+$/, "", w)
    return w ~ /^rsag:mca_coll_rsag_(nb_trylock|nb_unlock|call_begin|call_end)$/
}

function reset() {
    nstacks = 0
    kind = ""
    what = ""
    aux = ""
    waitsync = 0
    delete nframes
    delete fobj
    delete ffn
}

function judge(    s, o, r, other, nrsag, why, i, txt, n_ok) {
    ++total
    nrsag = 0
    for (s = 1; s <= nstacks; ++s) {
        o[s] = owner(s)
        if (o[s] ~ /^rsag:/) {
            ++nrsag
        }
    }
    txt = kind ": " what
    for (s = 1; s <= nstacks && s <= 2; ++s) {
        txt = txt " | " o[s] " <- " ffn[s, 1]
    }
    if (nrsag == 0) {
        ++others_n
        if (others != "") {
            print txt >> others
        }
        return
    }
    ++rsag_n
    why = ""
    if (kind == "Race" && nstacks >= 2 && o[1] !~ /^rsag:/ && o[2] !~ /^rsag:/) {
        # only the block's allocation is rsag's: both accesses are Open
        # MPI's, on memory rsag handed to it
        why = (o[1] == "ompi" && o[2] == "ompi") ? "handoff" : ""
    } else if (kind == "Race" && nstacks >= 2) {
        n_ok = 1
        for (s = 1; s <= 2; ++s) {
            if (o[s] !~ /^rsag:/) {
                continue
            }
            other = o[3 - s]
            if (atomic_fn(o[s]) && (atomic_fn(other) || other == "ompi")) {
                r = "atomic"
            } else if (other == "ompi") {
                r = "handoff"
            } else if (aux ~ /on thread #[0-9]+'s stack/ && waitsync) {
                r = "stack"
            } else if (s == 2 && other == "prog" &&
                       stack_has(2, "^mca_coll_rsag_request_(progress|launch)")) {
                r = "completion"
            } else if (s == 1 && other == "prog" && ffn[2, 1] ~ /^(prepare|verify)$/ &&
                       stack_has(1, "^mca_coll_rsag_request_(progress|launch)")) {
                r = "start"
            } else if (other ~ /^rsag:/ && stack_has(2, "^mca_coll_rsag_request_progress$") &&
                       stack_has(1, "^mca_coll_rsag_[a-z_]+_intra$")) {
                r = "reuse"
            } else {
                n_ok = 0
            }
        }
        if (n_ok) {
            why = r
        }
    } else if (kind == "Race" && aux ~ /on thread #[0-9]+'s stack/ && waitsync) {
        why = "stack"
    }
    if (why == "") {
        ++unexplained
        print "helgrind-filter: unexplained in " FILENAME ": " txt
        return
    }
    ++expl[why]
}

BEGIN {
    total = rsag_n = unexplained = others_n = 0
    if (others != "") {
        printf "" > others
    }
}

FNR == 1 {
    if (NR > 1 && !closed) {
        print "helgrind-filter: " prevfile " has no closing </valgrindoutput> (unfinished run)"
        ++unfinished
    }
    closed = 0
    prevfile = FILENAME
    inerr = 0
}

/<\/valgrindoutput>/ { closed = 1 }

/<error>/ { inerr = 1; reset(); next }

inerr && /<kind>/ {
    kind = $0
    gsub(/.*<kind>|<\/kind>.*/, "", kind)
}

inerr && /<text>/ && what == "" {
    what = $0
    gsub(/.*<text>|<\/text>.*/, "", what)
}

inerr && /<auxwhat>/ { aux = aux " " $0 }

inerr && /<stack>/ { ++nstacks; nframes[nstacks] = 0; instack = 1 }

inerr && /<\/stack>/ { instack = 0 }

inerr && instack && /<frame>/ {
    ++nframes[nstacks]
    fobj[nstacks, nframes[nstacks]] = ""
    ffn[nstacks, nframes[nstacks]] = ""
}

inerr && instack && /<obj>/ {
    v = $0
    gsub(/.*<obj>|<\/obj>.*/, "", v)
    fobj[nstacks, nframes[nstacks]] = base(v)
}

inerr && instack && /<fn>/ {
    v = $0
    gsub(/.*<fn>|<\/fn>.*/, "", v)
    ffn[nstacks, nframes[nstacks]] = v
    if (v == "wait_sync_update") {
        waitsync = 1
    }
}

/<\/error>/ && inerr { inerr = 0; judge() }

END {
    if (NR > 0 && !closed) {
        print "helgrind-filter: " prevfile " has no closing </valgrindoutput> (unfinished run)"
        ++unfinished
    }
    if (NR == 0) {
        print "helgrind-filter: no report to read"
        exit 1
    }
    printf "helgrind-filter: %d reports: %d rsag (%d explained: %d atomic, %d handoff, " \
           "%d stack, %d completion, %d start, %d reuse), %d unexplained, %d others\n",
           total, rsag_n, rsag_n - unexplained, expl["atomic"], expl["handoff"], expl["stack"],
           expl["completion"], expl["start"], expl["reuse"], unexplained, others_n
    exit (unexplained > 0 || unfinished > 0) ? 1 : 0
}
