# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# tcpprobe.py: bulk TCP and small-message round trips, for the link-queue
# experiment (run-link-queue.sh).  Not a benchmark of rsag.
#   tcpprobe.py serve PORT           sink on PORT, 1-byte echo on PORT+1
#   tcpprobe.py send HOST PORT SECS  send 1 MiB writes for SECS: "send MBIT"
#   tcpprobe.py rtt HOST PORT SECS   1-byte round trips every 5 ms to PORT+1:
#                                    "rtt n N median_ms P90_ms max_ms"
import socket, sys, threading, time

def serve(port):
    def sink(c):
        while c.recv(1 << 20):
            pass
    def echo(c):
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while True:
            b = c.recv(1)
            if not b:
                return
            c.sendall(b)
    def listen(p, fn):
        s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("", p)); s.listen(8)
        while True:
            c, _ = s.accept()
            threading.Thread(target=fn, args=(c,), daemon=True).start()
    threading.Thread(target=listen, args=(port + 1, echo), daemon=True).start()
    listen(port, sink)

def send(host, port, secs):
    s = socket.create_connection((host, port)); buf = b"x" * (1 << 20); n = 0
    t0 = time.time()
    while time.time() - t0 < secs:
        s.sendall(buf); n += len(buf)
    dt = time.time() - t0; s.close()
    print("send %.0f" % (n * 8 / dt / 1e6))

def rtt(host, port, secs):
    s = socket.create_connection((host, port + 1))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    r = []; t0 = time.time()
    while time.time() - t0 < secs:
        a = time.time(); s.sendall(b"x"); s.recv(1); r.append((time.time() - a) * 1e3)
        time.sleep(0.005)
    r.sort()
    print("rtt n %d median_ms %.2f p90_ms %.2f max_ms %.2f" % (len(r), r[len(r) // 2], r[int(len(r) * 0.9)], r[-1]))

m = sys.argv[1]
if m == "serve": serve(int(sys.argv[2]))
elif m == "send": send(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
else: rtt(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
