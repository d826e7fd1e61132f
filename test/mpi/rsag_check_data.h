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
#include <string.h>

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
void val_fmt(const edesc *el, const val_t *v, char *s, size_t n);
/* a = a op b, a from the lower rank */
void combine(const edesc *el, int op, val_t *a, const val_t *b);


/* The per-element functions the checks call p times per element are
 * inline: returned by value through a call, a val_t written field by field
 * and read back whole stalled on store forwarding (a third of the matrix's
 * time at np 1). */
static inline uint64_t int_mask(int size)
{
    return size >= 8 ? ~0ULL : ((1ULL << (8 * size)) - 1);
}

static inline uint64_t norm_int(int size, int sgn, uint64_t u)
{
    if (size >= 8)
        return u;
    u &= int_mask(size);
    if (sgn && ((u >> (8 * size - 1)) & 1))
        u |= ~int_mask(size);
    return u;
}

static inline uint64_t ld_int(const void *p, int size, int sgn)
{
    switch (size) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return norm_int(1, sgn, v); }
    case 2: { uint16_t v; memcpy(&v, p, 2); return norm_int(2, sgn, v); }
    case 4: { uint32_t v; memcpy(&v, p, 4); return norm_int(4, sgn, v); }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static inline double ld_flt(const void *p, int fk)
{
    if (fk == FK_FLOAT) { float f; memcpy(&f, p, sizeof f); return f; }
    if (fk == FK_DOUBLE) { double d; memcpy(&d, p, sizeof d); return d; }
    long double l;
    memcpy(&l, p, sizeof l);
    return (double)l;
}

static inline __attribute__((always_inline)) val_t load_elem(const edesc *el, const char *p)
{
    val_t v;
    memset(&v, 0, sizeof v);
    switch (el->cat) {
    case CAT_INT: case CAT_BYTE: v.u = ld_int(p, el->size, el->sgn); break;
    case CAT_FLT: v.re = ld_flt(p, el->fk); break;
    case CAT_CPLX:
        v.re = ld_flt(p, el->fk);
        v.im = ld_flt(p + el->size, el->fk);
        break;
    case CAT_BOOL: { unsigned char c; memcpy(&c, p, 1); v.u = c; break; }
    case CAT_PAIR:
        if (el->pval_int)
            v.re = (double)(int64_t)ld_int(p, el->size, 1);
        else
            v.re = ld_flt(p, el->fk);
        memcpy(&v.idx, p + el->idx_off, sizeof(int));
        break;
    case CAT_AFF:
        memcpy(&v.u, p, 8);
        memcpy(&v.u2, p + 8, 8);
        break;
    }
    return v;
}

static inline int val_eq(const edesc *el, const val_t *a, const val_t *b)
{
    switch (el->cat) {
    case CAT_INT: case CAT_BYTE: case CAT_BOOL: return a->u == b->u;
    case CAT_FLT: return a->re == b->re;
    case CAT_CPLX: return a->re == b->re && a->im == b->im;
    case CAT_PAIR: return a->re == b->re && a->idx == b->idx;
    case CAT_AFF: return a->u == b->u && a->u2 == b->u2;
    }
    return 0;
}

/* the input of comm rank r (hash base hb) at element e of the input vector */
static inline __attribute__((always_inline)) val_t gen_val(const edesc *el, int op, uint64_t hb, uint64_t e, int p)
{
    /* h2 and q only where they are used: this runs p times per element
     * checked, and q's division by a variable is its dearest part */
#define GEN_H2 mix64(h ^ 0x5bd1e995ULL)
#define GEN_Q (2 + e % (uint64_t)(2 * p + 1))     /* density of logical zeros */
    uint64_t h = mix64(hb + e), h2;
    val_t v;
    memset(&v, 0, sizeof v);
    switch (el->cat) {
    case CAT_INT: case CAT_BYTE: {
        uint64_t u;
        switch (op) {
        case OP_SUM:
            if (h % 13 == 0) {      /* near the top of the range: sums wrap */
                uint64_t top = el->sgn ? (int_mask(el->size) >> 1) : int_mask(el->size);
                u = top - (GEN_H2 % 4);
            } else {
                u = (uint64_t)((int64_t)((h >> 8) % 41) - 20);
            }
            break;
        case OP_PROD: {
            static const int64_t pv[4] = { 1, 1, 2, -1 };
            u = (uint64_t)pv[h % 4];
            break;
        }
        case OP_LAND: case OP_LOR: case OP_LXOR:
            u = (h % GEN_Q == 0) ? 0 : 1 + GEN_H2 % 5;
            break;
        case OP_BAND: h2 = GEN_H2; u = h | h2 | (h2 >> 17); break;
        case OP_BOR: h2 = GEN_H2; u = h & h2 & (h2 >> 13); break;
        case OP_USUM: u = (uint64_t)((int64_t)(h % 2001) - 1000); break;
        default: u = h; break;   /* MAX, MIN, BXOR: full range */
        }
        v.u = norm_int(el->size, el->sgn, u);
        break;
    }
    case CAT_FLT:
        switch (op) {
        case OP_PROD: {
            static const double pv[4] = { 1, 1, 2, -1 };
            v.re = pv[h % 4];
            break;
        }
        case OP_MAX: case OP_MIN: v.re = (double)((int64_t)(h % 2001) - 1000); break;
        default: v.re = (double)((int64_t)(h % 101) - 50); break;
        }
        break;
    case CAT_CPLX:
        if (op == OP_PROD) {
            static const double pr[8] = { 1, -1, 0, 0, 1, 1, 1, 1 };
            static const double pi[8] = { 0, 0, 1, -1, 1, 0, 0, 0 };
            v.re = pr[h % 8];
            v.im = pi[h % 8];
        } else {
            v.re = (double)((int64_t)(h % 41) - 20);
            v.im = (double)((int64_t)(GEN_H2 % 41) - 20);
        }
        break;
    case CAT_BOOL:
        v.u = (h % GEN_Q == 0) ? 0 : 1;
        break;
    case CAT_PAIR:
        v.re = (double)((int64_t)(h % 5) - 2);        /* few values: ties */
        v.idx = (int)(GEN_H2 % 9) - 2;                /* ties on the index too */
        break;
    case CAT_AFF:
        v.u = h;
        v.u2 = GEN_H2;
        break;
    }
    return v;
#undef GEN_H2
#undef GEN_Q
}


static inline void st_int(void *p, int size, uint64_t u)
{
    switch (size) {
    case 1: { uint8_t v = (uint8_t)u; memcpy(p, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)u; memcpy(p, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)u; memcpy(p, &v, 4); break; }
    default: memcpy(p, &u, 8); break;
    }
}

static inline void st_flt(void *p, int fk, double x)
{
    if (fk == FK_FLOAT) { float f = (float)x; memcpy(p, &f, sizeof f); }
    else if (fk == FK_DOUBLE) { memcpy(p, &x, sizeof x); }
    else { long double l = x; memcpy(p, &l, sizeof l); }
}

static inline __attribute__((always_inline)) void store_elem(const edesc *el, char *p, const val_t *v)
{
    switch (el->cat) {
    case CAT_INT: case CAT_BYTE: st_int(p, el->size, v->u); break;
    case CAT_FLT: st_flt(p, el->fk, v->re); break;
    case CAT_CPLX:
        st_flt(p, el->fk, v->re);
        st_flt(p + el->size, el->fk, v->im);
        break;
    case CAT_BOOL: { _Bool b = (v->u != 0); memcpy(p, &b, sizeof b); break; }
    case CAT_PAIR:
        if (el->pval_int)
            st_int(p, el->size, (uint64_t)(int64_t)v->re);
        else
            st_flt(p, el->fk, v->re);
        memcpy(p + el->idx_off, &v->idx, sizeof(int));
        break;
    case CAT_AFF:
        memcpy(p, &v->u, 8);
        memcpy(p + 8, &v->u2, 8);
        break;
    }
}


#endif
