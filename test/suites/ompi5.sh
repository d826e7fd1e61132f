# Open MPI 5.0: the same tree builds against Open MPI 5.0.x (Debian trixie's
# packages, fetched once into /tmp/rsag-ompi5-cache by
# contrib/ompi5-compile-check.sh): configure, the component linked with
# -no-undefined / -z defs, the unit tests run, the MPI programs linked.
# The first run needs network access to a Debian mirror; without it this test
# FAILS (the script says why), it is not skipped.
run_test ompi5-compile-check "$top/contrib/ompi5-compile-check.sh"
expect_in_log '^ompi5-compile-check: OK: mca_coll_rsag built against Open MPI 5\.0\.'
expect_in_log 'unit/test_index: test_index: [0-9]+ checks passed, 0 failed'
expect_in_log 'unit/test_select: test_select: [0-9]+ checks passed, 0 failed'
