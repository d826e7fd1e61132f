/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_mpit.h -- MPI_T helpers shared by the MPI test programs: switch
 * rsag's algorithm of a collective through its control variable
 * coll_rsag_<coll>_algorithm, find out from the counters
 * coll_rsag_<coll>_<alg>_calls / coll_rsag_<coll>_delegated_calls which
 * algorithm ran a call, and read or write any other variable of rsag.
 *
 * Call rt_mpit_init() after MPI_Init and rt_mpit_finalize() before
 * MPI_Finalize (Open MPI 4.1 wants MPI_T inside the MPI lifetime).
 */
#ifndef RSAG_MPIT_H
#define RSAG_MPIT_H

#include <stddef.h>

#include <mpi.h>

#define RT_MAXALG 16
#define RT_NAMELEN 64

enum { RT_ALLREDUCE, RT_REDUCE, RT_RSB, RT_RS, RT_NCOLL };
extern const char *rt_coll_names[RT_NCOLL];

/* What one collective offers: algs[0] is "auto"; ctr[k] counts alg k's calls
 * (ctr[0] counts delegated calls). */
typedef struct {
    int nalg;
    const char *algs[RT_MAXALG];    /* names, not copies: taken around every call */
    unsigned long long ctr[RT_MAXALG];
} rt_snap_t;

/* 0 when every control variable and counter of rsag was found (rsag is
 * loaded); otherwise prints why on stderr and returns -1. */
int rt_mpit_init(void);
/* coll_rsag_persistent_starts_ordered (off unless a test sets it: with it,
 * `direct` serves persistent requests on the communicator's segment, else
 * each on its own); 0: success. */
int rt_persistent_ordered(int on);
/* The tolerant form, for programs that must run and report without rsag
 * (rsag_check, rsag_lifecycle): MPI_T is initialised, and for each
 * collective the enum control variable <cvar_prefix>_<coll>_algorithm
 * (cvar_prefix NULL: "coll_rsag") and rsag's counters
 * coll_rsag_<coll>_<alg>_calls / coll_rsag_<coll>_delegated_calls are
 * looked up; what is missing or malformed is recorded (rt_have_cvar,
 * rt_counter_found) and, when report is not NULL, described there one line
 * at a time.  Returns 0 when MPI_T itself works, else -1 (then nothing is
 * found). */
int rt_mpit_open(const char *cvar_prefix, void (*report)(const char *line));
/* Restores every algorithm control variable to its value at start, frees
 * the handles, finalises MPI_T (nothing if MPI_T did not start). */
void rt_mpit_finalize(void);
/* MPI_Init, this process's rank and the size of MPI_COMM_WORLD, then
 * rt_mpit_init(); the job is aborted when rsag's variables are missing. */
void rt_start(int *argc, char ***argv, int *rank, int *size);

/* Number of algorithms of coll (auto included, index 0) and their names. */
int rt_nalg(int coll);
const char *rt_alg(int coll, int k);
/* index of the algorithm called name, -1 if there is none */
int rt_alg_index(int coll, const char *name);

/* Force algorithm k (0: auto) for coll; 0 on success. */
int rt_force(int coll, int k);

/* The enum control variable of coll: whether it exists, the enum value of
 * algorithm k, its value when MPI_T started, and writing a value (read back:
 * MPI_SUCCESS, an MPI_T error code, or MPI_T_ERR_INVALID when the value read
 * back differs; nothing is printed). */
int rt_have_cvar(int coll);
int rt_alg_value(int coll, int k);
int rt_orig_value(int coll);
int rt_write_value(int coll, int value);
/* Name of an MPI_T error code ("MPI_T_ERR_INVALID_NAME", ...). */
const char *rt_mpit_err(int rc);

/* rsag's counter of algorithm k of coll (k 0: the delegated calls): whether
 * it exists and its name; rt_loaded: any counter of rsag exists;
 * rt_counters_missing: some counter of coll does not. */
int rt_counter_found(int coll, int k);
const char *rt_counter_name(int coll, int k);
int rt_loaded(void);
int rt_counters_missing(int coll);
/* Calls rsag counted so far, every algorithm and the delegated ones, of
 * coll, or of every collective when coll < 0; -1 when no counter exists. */
long long rt_calls(int coll);

/* Read coll's counters (a counter that does not exist reads 0); 0, or -1
 * when a read failed. */
int rt_snapshot(int coll, rt_snap_t *s);
/* Which counter moved between a and b: the algorithm's name, "delegated",
 * "none" or "several" (a counter that moved by more than one counts as
 * several). */
const char *rt_ran(int coll, const rt_snap_t *a, const rt_snap_t *b);

/* The form of the calls the counters are read around (rt_applies):
 * blocking, nonblocking (MPI_Iallreduce ...) or persistent
 * (MPI_Allreduce_init ...); rsag_forms.h makes the calls.  Default
 * blocking. */
enum { RT_FORM_BLOCKING, RT_FORM_NONBLOCKING, RT_FORM_PERSISTENT, RT_NFORM };
void rt_set_form(int form);
int rt_form(void);

/* Where a communicator's ranks are, for rt_check_ran: all on one node
 * (rt_single_node), or on several with the same number >= 2 on each
 * (rt_multi_node).  rt_placement is collective over comm. */
typedef struct {
    int single_node;
    int multi_node;
} rt_placement_t;
rt_placement_t rt_placement(MPI_Comm comm);

/* Whether rsag's algorithm `alg`, forced, runs a call of `count`
 * elements (whole vector) on a communicator whose p' is pof2 and whose
 * ranks are placed as `where`: rabenseifner needs count >= p';
 * rabenseifner, ring, priority, recursive_halving, hierarchical and leaders a
 * commutative op; direct a contiguous datatype (rt_contiguous), one
 * node and the blocking form (rt_form: in the nonblocking and persistent
 * forms forced direct runs only once a blocking call has made the node's
 * segment, which the caller does not know: either is accepted); hierarchical
 * and leaders where.multi_node.  Else it falls back. */
int rt_applies(const char *alg, long count, int pof2, int commutative, int contiguous,
               rt_placement_t where);

/* Check which algorithm ran a call of `count` elements (whole vector) on a
 * communicator whose p' is pof2 and whose ranks are placed as `where`,
 * forced to algorithm k: when k applies (rt_applies) it must be k; a commutative
 * op must never be delegated; exactly one counter moves.  0 when right,
 * else 1 with the reason in why. */
int rt_check_ran(int coll, int k, long count, int pof2, int commutative, int contiguous,
                 rt_placement_t where, const rt_snap_t *a, const rt_snap_t *b, char *why,
                 size_t len);
/* 1 when dt's bytes leave no gap: size == extent == true extent (what the
 * node path, `direct`, needs; any lower bound). */
int rt_contiguous(MPI_Datatype dt);

/* Any counter of rsag by name (an unsigned long long counter bound to no
 * object, e.g. coll_rsag_nonblocking_requests): its value, or -1 when it
 * does not exist (or MPI_T is not started).  The handle is made on the
 * first call and kept until rt_mpit_finalize. */
long long rt_counter(const char *name);

/* Any other variable of rsag, by name.  These abort the job with a message
 * naming the variable when it is missing or a call fails: a test cannot go
 * on without them. */
MPI_T_pvar_handle rt_pvar(const char *name, int var_class);
unsigned long long rt_pvar_read(MPI_T_pvar_handle h);
void rt_pvar_free(MPI_T_pvar_handle *h);

/* Whether every rank of `comm` is on one node (MPI_COMM_TYPE_SHARED);
 * collective over comm. */
int rt_single_node(MPI_Comm comm);
/* Whether rsag's node-aware algorithms (hierarchical, leaders) apply to
 * comm: its ranks on >= 2 nodes, any number on each, one node with >= 2
 * (the same answer on every rank). */
int rt_multi_node(MPI_Comm comm);

/* Resident set size of this process in KiB (/proc/self/statm; 0 if unreadable). */
long rt_rss_kb(void);
/* A control variable; its datatype in *dt and its enumeration (or
 * MPI_T_ENUM_NULL) in *et, each if not NULL. */
MPI_T_cvar_handle rt_cvar(const char *name, MPI_Datatype *dt, MPI_T_enum *et);
void rt_cvar_write(MPI_T_cvar_handle h, const void *value);

#endif
