/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_nocma.c -- run a program where the kernel refuses Cross Memory
 * Attach for real.
 *
 *   rsag_nocma [--errno ENOSYS] PROGRAM [ARGS...]
 *
 * Installs a seccomp filter (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER),
 * no libseccomp) under which process_vm_readv and process_vm_writev fail
 * with EPERM (or ENOSYS with --errno ENOSYS) and every other system call
 * is allowed, then execs PROGRAM: as `mpirun ... rsag_nocma ./prog`, every
 * rank runs where a container's seccomp profile would refuse CMA.  It
 * checks the filter works (a process_vm_readv of itself must fail with
 * that errno) before it execs; the filter stays across exec.  Exit status
 * 127 when it cannot install the filter or exec.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#if defined(__x86_64__)
#define RSAG_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define RSAG_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define RSAG_AUDIT_ARCH AUDIT_ARCH_I386
#else
#error "rsag_nocma: add this architecture's AUDIT_ARCH_ value"
#endif

static int install(int err_no)
{
    struct sock_filter code[] = {
        /* another architecture's calls: let them be (numbers differ) */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, RSAG_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_writev, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((uint32_t) err_no & SECCOMP_RET_DATA)),
    };
    struct sock_fprog prog = { (unsigned short) (sizeof(code) / sizeof(code[0])), code };

    /* required to install a filter without CAP_SYS_ADMIN; harmless with it */
    if (0 != prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
        perror("rsag_nocma: prctl(PR_SET_NO_NEW_PRIVS)");
        return -1;
    }
    if (0 != prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0)) {
        perror("rsag_nocma: prctl(PR_SET_SECCOMP)");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int err_no = EPERM, first = 1;
    uint64_t word = 42, copy = 0;
    struct iovec l = { &copy, sizeof(copy) }, r = { &word, sizeof(word) };

    if (argc > 2 && 0 == strcmp(argv[1], "--errno")) {
        if (0 == strcmp(argv[2], "ENOSYS")) {
            err_no = ENOSYS;
        } else if (0 != strcmp(argv[2], "EPERM")) {
            fprintf(stderr, "rsag_nocma: --errno EPERM or ENOSYS\n");
            return 127;
        }
        first = 3;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: rsag_nocma [--errno EPERM|ENOSYS] PROGRAM [ARGS...]\n");
        return 127;
    }
    if (0 != install(err_no)) {
        return 127;
    }
    /* the filter must refuse a read of myself, with that errno */
    errno = 0;
    if (-1 != process_vm_readv(getpid(), &l, 1, &r, 1, 0) || err_no != errno) {
        fprintf(stderr, "rsag_nocma: the filter does not refuse process_vm_readv (%s)\n",
                strerror(errno));
        return 127;
    }
    execvp(argv[first], argv + first);
    fprintf(stderr, "rsag_nocma: exec %s: %s\n", argv[first], strerror(errno));
    return 127;
}
