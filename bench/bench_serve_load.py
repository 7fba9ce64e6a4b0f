#!/usr/bin/env python3
"""`damero serve` under a mixed hostile load (the figures bench/RESULTS.md records, issue
40), against a server already running at URL on loopback:
  1. cheap requests alone: CHEAP_CLIENTS threads, each on a kept-alive connection,
     probing positions one after the other for SECONDS;
  2. the same cheap requests while, beside them, COSTLY_CLIENTS threads ask for a
     search under the rules again and again (half of them dropping each request as soon
     as it is sent), and SLOW_CLIENTS connections from another address trickle a header
     line every second.
For each: the cheap requests per second and their latency percentiles; in 2, what the
searches got. The clients are Python threads on the same machine: the requests per
second are theirs as much as the server's (compare 1 with 2, not with wrk's figures).

usage: bench_serve_load.py URL VARIANT COSTLY_FEN CHEAP_FEN..."""
import collections
import http.client
import socket
import sys
import threading
import time
import urllib.parse

SECONDS = 10
CHEAP_CLIENTS = 4
COSTLY_CLIENTS = 6
SLOW_CLIENTS = 32


def percentile(sorted_values, fraction):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * fraction))]


def cheap_client(host, port, paths, stop, latencies, failures):
    conn = http.client.HTTPConnection(host, port, timeout=30)
    k = 0
    while not stop.is_set():
        start = time.perf_counter()
        try:
            conn.request("GET", paths[k % len(paths)])
            r = conn.getresponse()
            r.read()
            ok = r.status == 200
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=30)
            ok = False
        if ok:
            latencies.append(time.perf_counter() - start)
        else:
            failures.append(1)
        k += 1
    conn.close()


def costly_client(host, port, path, drop, stop, statuses):
    source = ("127.0.0.3", 0)
    while not stop.is_set():
        try:
            if drop:
                with socket.create_connection((host, port), source_address=source) as s:
                    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                statuses["dropped"] += 1
                time.sleep(0.05)
                continue
            conn = http.client.HTTPConnection(host, port, timeout=30, source_address=source)
            conn.request("GET", path)
            r = conn.getresponse()
            r.read()
            statuses[r.status] += 1
            conn.close()
        except (OSError, http.client.HTTPException):
            statuses["failed"] += 1


def slow_client(host, port, stop, counts):
    while not stop.is_set():
        try:
            s = socket.create_connection((host, port), source_address=("127.0.0.2", 0))
            s.sendall(b"GET /api/variants HTTP/1.1\r\n")
            s.settimeout(1.0)
            k = 0
            while not stop.is_set():
                try:
                    if s.recv(1024) == b"":
                        counts["closed by the server"] += 1
                        break
                except socket.timeout:
                    pass
                s.sendall(f"X-Slow-{k}: {k}\r\n".encode())
                k += 1
            s.close()
        except OSError:
            counts["not connected"] += 1
            time.sleep(0.2)


def run(host, port, paths, hostile=None):
    stop = threading.Event()
    latencies, failures = [], []
    threads = [threading.Thread(target=cheap_client,
                                args=(host, port, paths, stop, latencies, failures))
               for _ in range(CHEAP_CLIENTS)]
    threads += hostile(stop) if hostile else []
    start = time.perf_counter()
    for t in threads:
        t.start()
    time.sleep(SECONDS)
    stop.set()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    latencies.sort()
    ms = [percentile(latencies, f) * 1000 for f in (0.5, 0.95, 0.99)] + [latencies[-1] * 1000]
    print(f"  cheap: {len(latencies) / elapsed:.0f} requests/s, latency median {ms[0]:.1f} ms, "
          f"95% {ms[1]:.1f} ms, 99% {ms[2]:.1f} ms, max {ms[3]:.1f} ms; "
          f"{len(failures)} failed")


def main():
    url, variant, costly_fen, cheap_fens = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    host, port = urllib.parse.urlsplit(url).hostname, urllib.parse.urlsplit(url).port
    paths = [f"/api/{variant}?fen={urllib.parse.quote(f)}" for f in cheap_fens]
    costly = f"/api/{variant}/rules?fen={urllib.parse.quote(costly_fen)}"
    print(f"{CHEAP_CLIENTS} cheap clients over {len(paths)} positions, {SECONDS} s each:")
    print("alone:")
    run(host, port, paths)
    statuses, slow = collections.Counter(), collections.Counter()

    def hostile(stop):
        return ([threading.Thread(target=costly_client,
                                  args=(host, port, costly, k % 2 == 1, stop, statuses))
                 for k in range(COSTLY_CLIENTS)] +
                [threading.Thread(target=slow_client, args=(host, port, stop, slow))
                 for _ in range(SLOW_CLIENTS)])

    print(f"beside {COSTLY_CLIENTS} clients searching {costly} (half dropping each "
          f"request) and {SLOW_CLIENTS} slow clients:")
    run(host, port, paths, hostile)
    print(f"  searches: {dict(statuses)}; slow connections: {dict(slow)}")


if __name__ == "__main__":
    main()
