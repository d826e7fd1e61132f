# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# valgrind-filter.awk: sorts valgrind memcheck XML reports (--xml=yes, one
# file per process) into errors of mca_coll_rsag and errors of everything else.
#
#   awk -v others=FILE -f test/valgrind-filter.awk vg.*.xml
#
# A record (an <error>: invalid access, uninitialised value, definite leak...)
# belongs to rsag when any frame of any of its stacks lies in an object whose
# name contains "mca_coll_rsag" (valgrind must run with --keep-debuginfo=yes:
# Open MPI unloads its components before exit and frames of unloaded objects
# would lose their object name).  A frame without an object cannot be
# attributed, so it counts against rsag too.  One exception: a leak whose
# memory was allocated by coll/libnbc itself (its frame is the first below the
# allocator) is libnbc's, also when rsag is on the stack below it because it
# delegated the call: Open MPI 4.1.4's libnbc loses the schedule of every
# persistent request freed by MPI_Request_free (MPIX_Allreduce_init + Start +
# Wait + Request_free leaks with rsag left out too).  Open MPI 5.0 (Debian's)
# links libnbc into libmpi.so, where its functions have no names: there a leak
# allocated by Open MPI's code (first frame below the allocator not rsag's)
# whose caller is one of rsag's slots (mca_coll_rsag_*_intra: the slot handed
# the call to the previous module) is the previous module's too.  Records of rsag are printed in
# full; the others are summarised (kind, first frames) in the file `others`.
# Prints one line
#   valgrind-filter: F files (F finished), R rsag records, O other records
# and exits 1 when R > 0, when no file was given, or when a file does not
# end with valgrind's FINISHED state (the process did not run to its end).
BEGIN {
    if (others == "") others = "/dev/null"
    nfiles = 0; nfinished = 0; nrsag = 0; nother = 0
    printf "" > others
}
FNR == 1 { ++nfiles; in_rec = 0 }
/<state>FINISHED<\/state>/ { ++nfinished }
/^<error>/ {
    in_rec = 1; rec = ""; kind = "?"; what = ""; ours = 0; nframes = 0; noobj = 0
    first_obj = ""; second_fn = ""; nreal = 0
    summary = ""
}
in_rec {
    rec = rec $0 "\n"
    if ($0 ~ /<kind>/) { kind = $0; gsub(/.*<kind>|<\/kind>.*/, "", kind) }
    if (what == "" && $0 ~ /<text>|<what>/) { what = $0; gsub(/^ *<[a-z]*>|<\/[a-z]*> *$/, "", what) }
    if ($0 ~ /<frame>/) { ++nframes; frame_obj = 0; fn = "???"; obj = "???" }
    if ($0 ~ /<obj>/) {
        frame_obj = 1; obj = $0; gsub(/.*<obj>|<\/obj>.*/, "", obj)
        if (obj ~ /mca_coll_rsag/) ours = 1
        if (obj !~ /vgpreload/) ++nreal
        if (first_obj == "" && obj !~ /vgpreload/) first_obj = obj
    }
    if ($0 ~ /<fn>/) { fn = $0; gsub(/.*<fn>|<\/fn>.*/, "", fn) }
    if ($0 ~ /<\/frame>/) {
        if (!frame_obj) noobj = 1
        if (nreal == 2 && second_fn == "") second_fn = fn
        if (nframes <= 6) summary = summary "\n        " fn " (" obj ")"
    }
}
/^<\/error>/ && in_rec {
    in_rec = 0
    if (kind ~ /^Leak_/ && first_obj ~ /mca_coll_libnbc/) ours = noobj = 0
    if (kind ~ /^Leak_/ && first_obj != "" && first_obj !~ /mca_coll_rsag/ \
        && second_fn ~ /^mca_coll_rsag_[a-z_]*_intra$/) ours = noobj = 0
    if (ours || noobj) {
        ++nrsag
        printf "=== %s record in %s%s:\n%s", kind, FILENAME,
               ours ? "" : " (a frame without object: cannot be attributed)", rec
    } else {
        ++nother
        printf "%s: %s: %s%s\n", FILENAME, kind, what, summary >> others
    }
}
END {
    printf "valgrind-filter: %d files (%d finished), %d rsag records, %d other records%s\n",
           nfiles, nfinished, nrsag, nother, nother ? " (listed in " others ")" : ""
    exit (nfiles == 0 || nfinished != nfiles || nrsag > 0) ? 1 : 0
}
