#!/usr/bin/env perl
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Generate configure and the Makefile.in files (autoreconf with libtool).
use strict;
use warnings;
use FindBin;

chdir $FindBin::Bin or die "cannot chdir to $FindBin::Bin: $!\n";
mkdir "config/m4" unless -d "config/m4";
for my $tool (qw(autoreconf libtoolize automake autoconf)) {
    system("sh", "-c", "command -v $tool >/dev/null 2>&1") == 0
        or die "autogen.pl: '$tool' not found; on Debian: apt-get install -y autoconf automake libtool\n";
}
system("autoreconf", "--force", "--install", "--warnings=all,no-portability") == 0
    or die "autogen.pl: autoreconf failed\n";
print "autogen.pl: done; now run ./configure\n";
