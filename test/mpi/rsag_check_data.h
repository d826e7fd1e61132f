/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_check_data.h -- what rsag_check tests with: the element kinds, the
 * datatypes under test (predefined and derived layouts), the ops, and the
 * values: every rank's input generated from (seed, case, rank, element), the
 * exact expected result, stores and loads through a type map, comparison.
 * No MPI communication here (rsag_check.c runs the cases).
 */
#ifndef RSAG_CHECK_DATA_H
#define RSAG_CHECK_DATA_H

#include <mpi.h>

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------ */
/* element descriptions                                                     */

enum { CAT_INT, CAT_FLT, CAT_CPLX, CAT_BOOL, CAT_BYTE, CAT_PAIR, CAT_AFF };
enum { FK_FLOAT, FK_DOUBLE, FK_LDOUBLE };

typedef struct {
    const char *name;
    MPI_Datatype dt;
    int cat;
    int size;        /* ints: width in bytes; floats: size; pairs: value size */
    int sgn;         /* ints / integer pair values: signed */
    int fk;          /* float kind for FLT, CPLX components and float pair values */
    int pval_int;    /* pair: the value is an integer */
    size_t idx_off;  /* pair: offset of the int index */
    size_t esz;      /* bytes one element occupies (what a derived type maps) */
} edesc;

/* one element value, wide enough for every kind */
typedef struct {
    uint64_t u, u2;   /* ints (normalized to the type width), bool, affine a/b */
    double re, im;    /* floats, complex, pair values */
    int idx;          /* pair index */
} val_t;

/* the datatype under test: a predefined type or a derived layout of a base */
typedef struct {
    char name[96];
    MPI_Datatype dt;
    const edesc *el;
    int nel;                 /* elements per item */
    MPI_Aint off[4];         /* element offsets inside an item (type-map order) */
    MPI_Aint lb, ext, tlb, text;
    int derived;             /* created by us: check that holes stay untouched */
    int plain;               /* a predefined datatype (or the affine contiguous) */
} ttype;

enum {
    OP_SUM, OP_PROD, OP_MAX, OP_MIN, OP_LAND, OP_LOR, OP_LXOR, OP_BAND, OP_BOR,
    OP_BXOR, OP_MINLOC, OP_MAXLOC, OP_USUM, OP_UAFF, NOPS
};

typedef struct {
    const char *name;
    MPI_Op op;
    int commute;
} opdesc;

extern opdesc ops[NOPS];

enum { E_SCHAR, E_UCHAR, E_SHORT, E_USHORT, E_INT, E_UNSIGNED, E_LONG, E_ULONG,
       E_LLONG, E_ULLONG, E_I8, E_I16, E_I32, E_I64, E_U8, E_U16, E_U32, E_U64,
       E_FLOAT, E_DOUBLE, E_LDOUBLE, E_CFLOAT, E_CDOUBLE, E_BOOL, E_BYTE,
       E_FLOAT_INT, E_DOUBLE_INT, E_LONG_INT, E_2INT, E_SHORT_INT, E_LDOUBLE_INT,
       E_AFF, NELEM };

extern edesc elems[NELEM];

#define MAXTYPES 64
extern ttype types[MAXTYPES];
extern int ntypes;

/* Cases known to be broken in Open MPI 4.1.4 itself get their own groups,
 * off by default:
 *   smallint: SUM on 8/16-bit integers (op/avx, Open MPI bug #8045: wrong from
 *             count 16 for 8-bit, from count 8 for 16-bit, also in
 *             MPI_Reduce_local; correct with --mca op ^avx).  PROD, MAX, ... on
 *             the same types are correct and stay in "main".
 *   ulong:    MIN/MAX on MPI_UNSIGNED_LONG compared as signed (Open MPI
 *             #10525/#10648, fixed after 4.1.4; not op/avx) */
enum { G_MAIN, G_SMALLINT, G_ULONG };

/* Set up elems[], types[] / ntypes and ops[] (after MPI_Init). */
void init_elems(void);
void init_types(void);
void init_ops(void);
/* is op allowed for the type, and the group of the (type, op) case */
int op_valid(const ttype *t, int op);
int case_group(const ttype *t, int op);

static inline uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* one element at p, as the element kind stores it */
void store_elem(const edesc *el, char *p, const val_t *v);
val_t load_elem(const edesc *el, const char *p);
int val_eq(const edesc *el, const val_t *a, const val_t *b);
void val_fmt(const edesc *el, const val_t *v, char *s, size_t n);
/* the input of comm rank r (hash base hb) at element e of the input vector */
val_t gen_val(const edesc *el, int op, uint64_t hb, uint64_t e, int p);
/* a = a op b, a from the lower rank */
void combine(const edesc *el, int op, val_t *a, const val_t *b);

#endif
